/* doccmds.c - reads the ```sh commands of Markdown pages and runs them through the real binary
 * (the rules are in doccmds.h). */
#define _GNU_SOURCE
#include "doccmds.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#define OUT 65536

static char out[OUT], err[OUT];

/* ------------------------------------------------------------------ reading a page */

/* True when args holds option or word w on its own (followed by a space, '=' or the end). */
static bool has_word(const char *args, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = args; (p = strstr(p, w)) != NULL; p += n)
        if ((p == args || p[-1] == ' ') && (p[n] == ' ' || p[n] == '=' || p[n] == '\0'))
            return true;
    return false;
}

/* True when `args` (after the binary) starts with command `cmd`. */
static bool is_command(const char *args, const char *cmd)
{
    size_t n = strlen(cmd);
    return strncmp(args, cmd, n) == 0 && (args[n] == ' ' || args[n] == '\0');
}

/* True when `args` (after the binary) needs NVIDIA's driver or a GPU to succeed: `ptx`, or a
 * command that runs kernels asked for CUDA or every GPU (`compare --api cuda` only filters). */
static bool needs_nvidia(const char *args)
{
    if (is_command(args, "ptx"))
        return true;
    if (!is_command(args, "run") && !is_command(args, "custom") &&
        !is_command(args, "profile") && !is_command(args, "explain"))
        return false;
    const char *words[] = {"--api cuda", "--api both", "--api=cuda", "--api=both",
                           "--device gpu", "--device=gpu", "-d gpu"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strstr(args, words[i]) != NULL)
            return true;
    return false;
}

/* Asserts that every call of the binary in shell text `code` names it as `bin`: a bare
 * `clcoalesce` where the page's commands say `build/clcoalesce` is not on the PATH. */
static void assert_binary_named(const char *code, const char *bin, const char *page, int line)
{
    for (const char *p = code; (p = strstr(p, "clcoalesce")) != NULL; p += 10) {
        char after = p[10];
        if (after != ' ' && after != '\0' && after != '\'' && after != '"')
            continue; /* part of a path or a longer name */
        const char *start = p;
        while (start > code && strchr(" '\"(", start[-1]) == NULL)
            start--;
        size_t len = (size_t)(p + 10 - start);
        ck_assert_msg(len == strlen(bin) && strncmp(start, bin, len) == 0,
                      "%s:%d: calls the binary as '%.*s'; this page calls it '%s'", page, line,
                      (int)len, start, bin);
    }
}

/* True when a line's trailing comment marks its command as needing NVIDIA: it ends in
 * "(NVIDIA)". */
static bool marked_nvidia(const char *comment)
{
    if (comment == NULL)
        return false;
    size_t cl = strlen(comment);
    while (cl > 0 && comment[cl - 1] == ' ')
        cl--;
    return cl >= 8 && strncmp(comment + cl - 8, "(NVIDIA)", 8) == 0;
}

/* Adds command `args` (after the binary) of line `lineno` to doc, asserting its form and
 * that it is marked (NVIDIA) exactly when it needs NVIDIA. */
static void add_command(struct clc_doc *doc, const char *args, const char *comment, int lineno,
                        bool continued, bool ptx_unmarked)
{
    const char *name = doc->name;
    ck_assert_msg(!continued, "%s:%d: one command per line, no continuation", name, lineno);
    /* single quotes only round a value of words (a --describe), which the shell that runs
     * the command takes whole */
    ck_assert_msg(strpbrk(args, "$|&<>`\"\\") == NULL && strstr(args, "..") == NULL &&
                      (strchr(args, ';') == NULL || strchr(args, '\'') != NULL),
                  "%s:%d: no variables, pipes, redirections, double quotes or parent folders "
                  "in a command",
                  name, lineno);
    ck_assert_msg(doc->ncmds < CLC_DOC_MAX_CMDS, "%s: too many commands", name);
    bool marked = marked_nvidia(comment), needs = needs_nvidia(args);
    ck_assert_msg(!marked || needs, "%s:%d: marked (NVIDIA), but '%s' needs nothing of NVIDIA's",
                  name, lineno, args);
    ck_assert_msg(!needs || marked || (is_command(args, "ptx") && ptx_unmarked),
                  "%s:%d: '%s' needs NVIDIA: end its comment with (NVIDIA)", name, lineno, args);
    struct clc_doc_cmd *cmd = &doc->cmds[doc->ncmds++];
    cmd->args = strdup(args);
    ck_assert(cmd->args != NULL);
    cmd->line = lineno;
    cmd->nvidia = needs;
}

/* Asserts that the script line `line` calls (its first word, a path in the tree) is there and
 * executable. */
static void check_script(const struct clc_doc *doc, const char *line, int lineno)
{
    char script[1024];
    int wl = (int)strcspn(line, " ");
    snprintf(script, sizeof script, "%s/%.*s", CLC_TEST_SOURCE_DIR, wl, line);
    ck_assert_msg(access(script, X_OK) == 0, "%s:%d: no executable %.*s in the tree", doc->name,
                  lineno, wl, line);
}

void clc_doc_load(struct clc_doc *doc, const char *name, const char *bin, bool ptx_unmarked)
{
    memset(doc, 0, sizeof *doc);
    ck_assert(strlen(name) < sizeof doc->name);
    strcpy(doc->name, name);
    char path[1024], line[4096];
    snprintf(path, sizeof path, "%s/%s", CLC_TEST_SOURCE_DIR, name);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    size_t binlen = strlen(bin);
    bool in_sh = false, in_other = false, continued = false;
    int lineno = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (strncmp(line, "```", 3) == 0) {
            if (in_sh || in_other)
                in_sh = in_other = false;
            else if (strcmp(line + 3, "sh") == 0)
                in_sh = true;
            else
                in_other = true;
            continued = false;
            continue;
        }
        if (!in_sh)
            continue;
        /* the line's code, without its indent, trailing comment and spaces */
        char *c = line + strspn(line, " ");
        char *comment = c[0] == '#' ? c : strstr(c, " #");
        if (comment != NULL)
            *comment++ = '\0';
        size_t l = strlen(c);
        while (l > 0 && c[l - 1] == ' ')
            c[--l] = '\0';
        bool was_continued = continued;
        continued = l > 0 && c[l - 1] == '\\';
        if (l == 0)
            continue;
        assert_binary_named(c, bin, name, lineno);
        if (was_continued) {
            continue; /* the rest of a script's or another command's line */
        } else if (strncmp(c, bin, binlen) == 0 && (c[binlen] == ' ' || c[binlen] == '\0')) {
            add_command(doc, c + binlen + (c[binlen] == ' '), comment, lineno, continued,
                        ptx_unmarked);
        } else if (c[0] != '/' && memchr(c, '/', strcspn(c, " ")) != NULL) {
            check_script(doc, c, lineno);
            doc->nscripts++;
        } else {
            doc->nother++;
        }
    }
    fclose(f);
    ck_assert_msg(!in_sh && !in_other, "%s: unterminated code block", name);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct clc_doc *)a)->name, ((const struct clc_doc *)b)->name);
}

int clc_doc_load_dir(struct clc_doc *docs, int max, const char *dir, const char *bin,
                     bool ptx_unmarked)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", CLC_TEST_SOURCE_DIR, dir);
    DIR *d = opendir(path);
    ck_assert_msg(d != NULL, "cannot open %s", path);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".md") != 0)
            continue;
        ck_assert_msg(n < max, "more than %d pages in %s", max, dir);
        char name[512];
        snprintf(name, sizeof name, "%s/%s", dir, e->d_name);
        clc_doc_load(&docs[n++], name, bin, ptx_unmarked);
    }
    closedir(d);
    qsort(docs, (size_t)n, sizeof docs[0], by_name);
    return n;
}

void clc_doc_free(struct clc_doc *doc)
{
    for (int j = 0; j < doc->ncmds; j++)
        free(doc->cmds[j].args);
    doc->ncmds = 0;
}

/* ------------------------------------------------------------------ running a page */

/* True when the environment asks for the commands exactly as written. */
static bool full_size(void)
{
    const char *names[] = {"CLC_DOCS_FULL", "CLC_LABS_FULL"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *v = getenv(names[i]);
        if (v != NULL && *v != '\0' && strcmp(v, "0") != 0)
            return true;
    }
    return false;
}

char *clc_doc_test_form(const char *args)
{
    if (strncmp(args, "run ", 4) != 0 && strcmp(args, "run") != 0 &&
        strncmp(args, "custom ", 7) != 0 && strncmp(args, "profile ", 8) != 0 &&
        strcmp(args, "profile") != 0 && strncmp(args, "validate ", 9) != 0 &&
        strcmp(args, "validate") != 0)
        return strdup(args);
    if (full_size())
        return strdup(args);
    char *copy = strdup(args), *res = calloc(1, strlen(args) + 32);
    ck_assert(copy != NULL && res != NULL);
    bool drop_next = false, sweep_next = false;
    for (char *save, *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        if (drop_next) {
            drop_next = false;
            continue;
        }
        if (sweep_next) { /* the sweep's options stay, at two quick sizes */
            sweep_next = false;
            tok = "1MiB:2MiB";
        }
        if (!strcmp(tok, "--size") || !strcmp(tok, "-s") || !strcmp(tok, "--reps") ||
            !strcmp(tok, "-r")) {
            drop_next = true;
            continue;
        }
        if (!strncmp(tok, "--size=", 7) || !strncmp(tok, "--reps=", 7))
            continue;
        if (!strncmp(tok, "--sweep-size=", 13))
            tok = "--sweep-size=1MiB:2MiB";
        sweep_next = !strcmp(tok, "--sweep-size");
        if (*res)
            strcat(res, " ");
        strcat(res, tok);
    }
    free(copy);
    if (!has_word(res, "--quick") && !has_word(res, "-q"))
        strcat(res, " --quick");
    return res;
}

char *clc_doc_in_dir(const char *args, struct clc_doc_outputs *o)
{
    char *copy = strdup(args), *res = calloc(1, strlen(args) + 64 * CLC_DOC_MAX_OUTPUTS + 1);
    ck_assert(copy != NULL && res != NULL);
    bool output_next = false;
    for (char *save, *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        bool moved = output_next;
        for (int i = 0; i < o->n && !moved; i++)
            moved = strcmp(tok, o->name[i]) == 0;
        if (output_next && o->n < CLC_DOC_MAX_OUTPUTS && strlen(tok) < sizeof o->name[0])
            strcpy(o->name[o->n++], tok);
        ck_assert_msg(!moved || strchr(tok, '/') == NULL, "an output in a folder: %s", tok);
        output_next = !strcmp(tok, "-o") || !strcmp(tok, "--output");
        if (*res)
            strcat(res, " ");
        if (moved) {
            strcat(res, o->dir);
            strcat(res, "/");
        }
        strcat(res, tok);
    }
    free(copy);
    return res;
}

/* Why a command that needs NVIDIA may fail here: the binary's own words for what is missing. */
static bool says_nvidia_missing(const char *text)
{
    return strstr(text, "no CUDA driver") != NULL || strstr(text, "no NVRTC") != NULL ||
           strstr(text, "no CUDA device") != NULL || strstr(text, "no GPU device") != NULL ||
           strstr(text, "returned no PTX") != NULL;
}

/* The commands run so far in this process (their final form): a page that shows a command
 * another page showed, a `profile` for instance, proves nothing new by running it again. */
#define MAX_RAN 512
static char *ran[MAX_RAN];
static int nran;

/* True when `args` ran before; else records it. */
static bool ran_before(const char *args)
{
    for (int i = 0; i < nran; i++)
        if (strcmp(ran[i], args) == 0)
            return true;
    if (nran < MAX_RAN)
        ran[nran++] = strdup(args);
    return false;
}

int clc_doc_run(const struct clc_doc *doc, const char *dir)
{
    ck_assert_int_eq(chdir(CLC_TEST_SOURCE_DIR), 0);
    /* a profile a page's `profile` keeps goes to the test's folder, not the user's cache, and
     * no profile the user kept changes what the pages' commands do */
    ck_assert_int_eq(setenv("CLCOALESCE_CACHE_DIR", dir, 1), 0);
    struct clc_doc_outputs written = {dir, 0, {{0}}};
    for (int j = 0; j < doc->ncmds; j++) {
        const struct clc_doc_cmd *c = &doc->cmds[j];
        char *form = clc_doc_test_form(c->args), *args = clc_doc_in_dir(form, &written);
        free(form);
        if (ran_before(args)) {
            free(args);
            continue;
        }
        int rc = clc_test_cli(args, out, sizeof out, err, sizeof err);
        if (c->nvidia && rc != 0) {
            ck_assert_msg(rc == 1 && says_nvidia_missing(err),
                          "%s:%d: clcoalesce %s (NVIDIA): exit %d without saying what is "
                          "missing\n%s",
                          doc->name, c->line, args, rc, err);
        } else if (is_command(args, "plot") && rc != 0) {
            /* gnuplot draws the charts: a machine without it is told what to install */
            ck_assert_msg(rc == 1 && strstr(err, "gnuplot not found") != NULL,
                          "%s:%d: clcoalesce %s: exit %d\n%s", doc->name, c->line, args, rc,
                          err);
        } else if (is_command(args, "compare") && has_word(args, "--model") && rc != 0) {
            /* rows in the cache (every row at --quick, and on a CPU) get no prediction on a
             * GPU's profile: a file with none is refused, as the page says */
            ck_assert_msg(rc == 1 && strstr(err, "no row has a prediction") != NULL,
                          "%s:%d: clcoalesce %s: exit %d\n%s", doc->name, c->line, args, rc,
                          err);
        } else {
            ck_assert_msg(rc == 0, "%s:%d: clcoalesce %s: exit %d\nstdout:\n%.2000s\nstderr:\n%s",
                          doc->name, c->line, args, rc, out, err);
            ck_assert_msg(out[0] != '\0', "%s:%d: clcoalesce %s printed nothing", doc->name,
                          c->line, args);
            /* a misspelt --variant runs nothing and still exits 0: demand a row, in the
             * table's, CSV's or JSON's words */
            if (is_command(args, "run") && !has_word(args, "--help") && !has_word(args, "-h"))
                ck_assert_msg(strstr(out, " verified") != NULL ||
                                  strstr(out, ",true,ok,") != NULL ||
                                  strstr(out, "\"verified\": true") != NULL,
                              "%s:%d: clcoalesce %s: no verified row\n%.2000s", doc->name,
                              c->line, args, out);
        }
        free(args);
    }
    return doc->ncmds;
}

int clc_doc_run_pages(struct clc_doc *docs, int n, const char *tag)
{
    char dir[64];
    clc_test_make_dir(dir, tag);
    int ran = 0;
    for (int i = 0; i < n; i++) {
        ran += clc_doc_run(&docs[i], dir);
        clc_doc_free(&docs[i]);
    }
    clc_test_remove_dir(dir);
    return ran;
}
