/* test_labs.c - the lab handouts in bench/labs/ cannot rot: every `clcoalesce ...` line in a
 * ```sh block of every Markdown file there is run through the real binary from the source
 * tree's root (so `--kernel-file bench/labs/solutions/x.cl` resolves) and must exit 0; a `run`
 * must also print a verified row.
 *
 * To keep the suite fast on PoCL, `run`, `custom` and `profile` commands are made small: a
 * `--size`/`-s` and a `--reps`/`-r` they give are dropped and `--quick` is added (a handout's
 * full-size command then still proves its case, variants, options and kernel file are right).
 * Set CLC_LABS_FULL=1 to run them exactly as written.  `explain` always runs at the quick size.
 * `ptx` needs NVIDIA's driver: elsewhere it must fail with exit 1 and say there is no PTX.
 * The files a page's commands write (`-o`) go to a folder of the test's, which it removes. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#define LABS_DIR CLC_TEST_SOURCE_DIR "/bench/labs"
#define MAX_FILES 32
#define MAX_CMDS 64
#define OUT 65536

static char out[OUT], err[OUT];

struct doc {
    char name[128];
    bool handout; /* NN-*.md, as opposed to the index */
    int ncmds;
    char *cmds[MAX_CMDS]; /* the arguments after "clcoalesce " */
};

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct doc *)a)->name, ((const struct doc *)b)->name);
}

/* Reads the .md files of bench/labs/, sorted by name; returns how many. */
static int load_docs(struct doc *docs)
{
    DIR *d = opendir(LABS_DIR);
    ck_assert_msg(d != NULL, "cannot open %s", LABS_DIR);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".md") != 0)
            continue;
        ck_assert(n < MAX_FILES && len < sizeof docs[n].name);
        memset(&docs[n], 0, sizeof docs[n]);
        strcpy(docs[n].name, e->d_name);
        docs[n].handout = len > 3 && e->d_name[0] >= '0' && e->d_name[0] <= '9' &&
                          e->d_name[1] >= '0' && e->d_name[1] <= '9' && e->d_name[2] == '-';
        n++;
    }
    closedir(d);
    qsort(docs, (size_t)n, sizeof docs[0], by_name);

    for (int i = 0; i < n; i++) {
        char path[512], line[2048];
        snprintf(path, sizeof path, "%s/%s", LABS_DIR, docs[i].name);
        FILE *f = fopen(path, "r");
        ck_assert_msg(f != NULL, "cannot open %s", path);
        bool in_sh = false, in_other = false;
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
                continue;
            }
            if (!in_sh || strncmp(line, "clcoalesce ", 11) != 0)
                continue;
            char *c = line + 11;
            char *hash = strstr(c, " #"); /* a trailing comment */
            if (hash != NULL)
                *hash = '\0';
            size_t l = strlen(c);
            while (l > 0 && c[l - 1] == ' ')
                c[--l] = '\0';
            ck_assert_msg(l > 0 && c[l - 1] != '\\',
                          "%s:%d: one command per line, no continuation", docs[i].name, lineno);
            ck_assert_msg(strstr(c, "$") == NULL && strstr(c, "..") == NULL,
                          "%s:%d: no variables or parent folders in a command", docs[i].name,
                          lineno);
            ck_assert_msg(docs[i].ncmds < MAX_CMDS, "%s: too many commands", docs[i].name);
            docs[i].cmds[docs[i].ncmds++] = strdup(c);
        }
        fclose(f);
        ck_assert_msg(!in_sh && !in_other, "%s: unterminated code block", docs[i].name);
    }
    return n;
}

static bool has_word(const char *args, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = args; (p = strstr(p, w)) != NULL; p += n)
        if ((p == args || p[-1] == ' ') && (p[n] == ' ' || p[n] == '=' || p[n] == '\0'))
            return true;
    return false;
}

/* The command the test runs for `args`: `run`, `custom` and `profile` made quick unless
 * CLC_LABS_FULL is set. */
static char *test_form(const char *args)
{
    const char *full = getenv("CLC_LABS_FULL");
    if (strncmp(args, "run ", 4) != 0 && strcmp(args, "run") != 0 &&
        strncmp(args, "custom ", 7) != 0 && strncmp(args, "profile ", 8) != 0 &&
        strcmp(args, "profile") != 0)
        return strdup(args);
    if (full != NULL && *full != '\0' && strcmp(full, "0") != 0)
        return strdup(args);
    char *copy = strdup(args), *res = calloc(1, strlen(args) + 16);
    ck_assert(copy != NULL && res != NULL);
    bool drop_next = false;
    for (char *save, *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        if (drop_next) {
            drop_next = false;
            continue;
        }
        if (!strcmp(tok, "--size") || !strcmp(tok, "-s") || !strcmp(tok, "--reps") ||
            !strcmp(tok, "-r")) {
            drop_next = true;
            continue;
        }
        if (!strncmp(tok, "--size=", 7) || !strncmp(tok, "--reps=", 7))
            continue;
        if (*res)
            strcat(res, " ");
        strcat(res, tok);
    }
    free(copy);
    if (!has_word(res, "--quick") && !has_word(res, "-q"))
        strcat(res, " --quick");
    return res;
}

#define MAX_OUTPUTS 16

/* The files a page's commands write (`-o FILE`), so that later commands of the page find
 * them: each moved into the test's folder. */
struct outputs {
    const char *dir;
    int n;
    char name[MAX_OUTPUTS][128];
};

/* args with every file the page writes or reads back (a word named by an earlier `-o`) in
 * out->dir instead of the source tree. */
static char *in_test_dir(const char *args, struct outputs *o)
{
    char *copy = strdup(args), *res = calloc(1, strlen(args) + 64 * MAX_OUTPUTS + 1);
    ck_assert(copy != NULL && res != NULL);
    bool output_next = false;
    for (char *save, *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        bool moved = output_next;
        for (int i = 0; i < o->n && !moved; i++)
            moved = strcmp(tok, o->name[i]) == 0;
        if (output_next && o->n < MAX_OUTPUTS && strlen(tok) < sizeof o->name[0])
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

static void free_docs(struct doc *docs, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < docs[i].ncmds; j++)
            free(docs[i].cmds[j]);
}

/* At least six handouts, each with at least three runnable commands, and every command is
 * found (they are run below). */
START_TEST(test_handouts_found)
{
    static struct doc docs[MAX_FILES];
    int n = load_docs(docs), handouts = 0;
    for (int i = 0; i < n; i++) {
        if (!docs[i].handout)
            continue;
        handouts++;
        ck_assert_msg(docs[i].ncmds >= 3, "%s has %d clcoalesce commands in ```sh blocks",
                      docs[i].name, docs[i].ncmds);
    }
    ck_assert_msg(handouts >= 6, "found %d handouts in %s", handouts, LABS_DIR);
    free_docs(docs, n);
}
END_TEST

/* The test form of a command: --quick added, sizes and reps dropped. */
START_TEST(test_quick_form)
{
    if (getenv("CLC_LABS_FULL") != NULL)
        unsetenv("CLC_LABS_FULL");
    char *a = test_form("run stride --type float --size 16MiB --reps 5");
    ck_assert_str_eq(a, "run stride --type float --quick");
    free(a);
    a = test_form("custom --kernel-file x.cl --kernel k --pattern copy");
    ck_assert_str_eq(a, "custom --kernel-file x.cl --kernel k --pattern copy --quick");
    free(a);
    a = test_form("run copy -q");
    ck_assert_str_eq(a, "run copy -q");
    free(a);
    a = test_form("profile --reps 3");
    ck_assert_str_eq(a, "profile --quick");
    free(a);
    a = test_form("profile");
    ck_assert_str_eq(a, "profile --quick");
    free(a);
    a = test_form("explain stride --param 2");
    ck_assert_str_eq(a, "explain stride --param 2");
    free(a);
    /* the files a page writes, and reads back, go to the test's folder */
    struct outputs o = {"/t", 0, {{0}}};
    a = in_test_dir("run copy -f json -o lab.json", &o);
    ck_assert_str_eq(a, "run copy -f json -o /t/lab.json");
    free(a);
    a = in_test_dir("compare --model lab.json --profile p.json", &o);
    ck_assert_str_eq(a, "compare --model /t/lab.json --profile p.json");
    free(a);
}
END_TEST

/* Runs every command of every page (index included), from the source tree's root, the files
 * they write in a folder of the test's. */
START_TEST(test_commands_run)
{
    static struct doc docs[MAX_FILES];
    int n = load_docs(docs);
    char dir[64];
    clc_test_make_dir(dir, "labs");
    ck_assert_int_eq(chdir(CLC_TEST_SOURCE_DIR), 0);
    int ran = 0;
    for (int i = 0; i < n; i++) {
        struct outputs written = {dir, 0, {{0}}};
        for (int j = 0; j < docs[i].ncmds; j++) {
            char *form = test_form(docs[i].cmds[j]), *args = in_test_dir(form, &written);
            free(form);
            int rc = clc_test_cli(args, out, sizeof out, err, sizeof err);
            if (strncmp(args, "ptx", 3) == 0 && rc != 0) {
                ck_assert_msg(rc == 1 && strstr(err, "returned no PTX") != NULL,
                              "%s: clcoalesce %s: exit %d\n%s", docs[i].name, args, rc, err);
            } else if (strncmp(args, "compare --model", 15) == 0 && rc != 0) {
                /* rows in the cache (every row at --quick, and on a CPU) get no prediction
                 * on a GPU's profile: a file with none is refused, as the page says */
                ck_assert_msg(rc == 1 && strstr(err, "no row has a prediction") != NULL,
                              "%s: clcoalesce %s: exit %d\n%s", docs[i].name, args, rc, err);
            } else {
                ck_assert_msg(rc == 0, "%s: clcoalesce %s: exit %d\nstdout:\n%.2000s\nstderr:\n%s",
                              docs[i].name, args, rc, out, err);
                ck_assert_msg(out[0] != '\0', "%s: clcoalesce %s printed nothing", docs[i].name,
                              args);
                /* a misspelt --variant runs nothing and still exits 0: demand a row */
                if (strncmp(args, "run", 3) == 0 && !has_word(args, "--help") &&
                    !has_word(args, "-h"))
                    ck_assert_msg(strstr(out, " verified") != NULL,
                                  "%s: clcoalesce %s: no verified row\n%.2000s", docs[i].name,
                                  args, out);
            }
            free(args);
            ran++;
        }
    }
    ck_assert_int_ge(ran, 15);
    free_docs(docs, n);
    clc_test_remove_dir(dir);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {test_handouts_found, test_quick_form, test_commands_run};
    return clc_test_main(clc_test_suite("labs", tests, sizeof tests / sizeof tests[0]));
}
