/* test_docs.c - the README and the manual in docs/ cannot rot: every `build/clcoalesce ...`
 * line in a ```sh block of README.md and of every docs/*.md is run through the real binary
 * from the source tree's root, made quick as the lab handouts' are (CLC_DOCS_FULL=1 runs them
 * as written), and must exit 0 (a `run` with a verified row); a command marked "(NVIDIA)"
 * may instead fail with exit 1 saying what is missing.  The scripts the pages call must exist.
 * The rules and the machinery are doccmds.h's.  Also: the README stays short, the manual's
 * index links every page of docs/, and every relative link of these pages finds its file. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "doccmds.h"
#include "testutil.h"

#define BIN "build/clcoalesce"
#define MAX_PAGES 48
#define README_MAX_LINES 250

/* README.md then docs/*.md, loaded into pages; returns how many. */
static int load_pages(struct clc_doc *pages)
{
    clc_doc_load(&pages[0], "README.md", BIN, false);
    return 1 + clc_doc_load_dir(pages + 1, MAX_PAGES - 1, "docs", BIN, false);
}

/* The text of source-tree file `name` (malloc'd). */
static char *slurp_page(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", CLC_TEST_SOURCE_DIR, name);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    ck_assert(m != NULL);
    int ch;
    while ((ch = fgetc(f)) != EOF)
        fputc(ch, m);
    fclose(f);
    fclose(m);
    return text;
}

/* The README is short and its quick start is the two scripts; the manual has pages and
 * commands; each page of docs/ is linked from the index, docs/README.md. */
START_TEST(test_pages_found)
{
    static struct clc_doc pages[MAX_PAGES];
    int n = load_pages(pages), cmds = 0;
    ck_assert_int_ge(n, 4);
    char *readme = slurp_page("README.md"), *index = slurp_page("docs/README.md");
    int lines = 0;
    for (const char *p = readme; *p; p++)
        lines += *p == '\n';
    ck_assert_msg(lines <= README_MAX_LINES, "README.md has %d lines, more than %d", lines,
                  README_MAX_LINES);
    ck_assert_msg(pages[0].nscripts >= 2, "README.md: %d scripts in ```sh blocks (bench/run.sh, "
                  "tests/run.sh)", pages[0].nscripts);
    for (int i = 0; i < n; i++) {
        cmds += pages[i].ncmds;
        const char *base = strrchr(pages[i].name, '/');
        if (i > 0 && strcmp(base + 1, "README.md") != 0) {
            char link[300];
            snprintf(link, sizeof link, "](%s)", base + 1);
            ck_assert_msg(strstr(index, link) != NULL, "docs/README.md does not link %s",
                          pages[i].name);
        }
        clc_doc_free(&pages[i]);
    }
    ck_assert_int_ge(cmds, 20);
    free(readme);
    free(index);
}
END_TEST

/* Every relative link `](path)` or `](path#anchor)` of every page names a file or folder
 * that exists, from the page's own folder. */
START_TEST(test_links_found)
{
    static struct clc_doc pages[MAX_PAGES];
    int n = load_pages(pages), links = 0;
    for (int i = 0; i < n; i++) {
        char *text = slurp_page(pages[i].name);
        char folder[512];
        snprintf(folder, sizeof folder, "%s", pages[i].name);
        char *slash = strrchr(folder, '/');
        if (slash != NULL)
            slash[1] = '\0';
        else
            folder[0] = '\0';
        for (const char *p = text; (p = strstr(p, "](")) != NULL; p += 2) {
            const char *t = p + 2;
            size_t len = strcspn(t, ")#");
            if (len == 0 || strncmp(t, "http", 4) == 0 || strncmp(t, "mailto:", 7) == 0)
                continue;
            char path[PATH_MAX];
            snprintf(path, sizeof path, "%s/%s%.*s", CLC_TEST_SOURCE_DIR, folder, (int)len, t);
            ck_assert_msg(access(path, F_OK) == 0, "%s: the link to %.*s finds no file",
                          pages[i].name, (int)len, t);
            links++;
        }
        free(text);
        clc_doc_free(&pages[i]);
    }
    ck_assert_int_ge(links, 10);
}
END_TEST

/* Runs every command of every page, from the source tree's root, the files they write in a
 * folder of the test's. */
START_TEST(test_commands_run)
{
    static struct clc_doc pages[MAX_PAGES];
    int n = load_pages(pages);
    ck_assert_int_ge(clc_doc_run_pages(pages, n, "docs"), 20);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {test_pages_found, test_links_found, test_commands_run};
    return clc_test_main(clc_test_suite("docs", tests, sizeof tests / sizeof tests[0]));
}
