/* test_labs.c - the lab handouts in bench/labs/ cannot rot: every `clcoalesce ...` line in a
 * ```sh block of every Markdown file there is run through the real binary from the source
 * tree's root (so `--kernel-file bench/labs/solutions/x.cl` resolves) and must exit 0; a `run`
 * must also print a verified row (the rules and the machinery: doccmds.h).
 *
 * To keep the suite fast on PoCL, `run`, `custom` and `profile` commands are made small: a
 * `--size`/`-s` and a `--reps`/`-r` they give are dropped and `--quick` is added (a handout's
 * full-size command then still proves its case, variants, options and kernel file are right).
 * Set CLC_LABS_FULL=1 to run them exactly as written.  `explain` always runs at the quick size.
 * `ptx` needs NVIDIA's driver: elsewhere it must fail with exit 1 and say there is no PTX.
 * The files a page's commands write (`-o`) go to a folder of the test's, which it removes. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doccmds.h"
#include "testutil.h"

#define LABS_DIR "bench/labs"
#define MAX_FILES 32

/* True for a handout (NN-*.md under bench/labs/), as opposed to the index. */
static bool is_handout(const char *name)
{
    const char *base = name + strlen(LABS_DIR) + 1;
    return base[0] >= '0' && base[0] <= '9' && base[1] >= '0' && base[1] <= '9' &&
           base[2] == '-';
}

/* At least six handouts, each with at least three runnable commands, and every command is
 * found (they are run below). */
START_TEST(test_handouts_found)
{
    static struct clc_doc docs[MAX_FILES];
    int n = clc_doc_load_dir(docs, MAX_FILES, LABS_DIR, "clcoalesce", true), handouts = 0;
    for (int i = 0; i < n; i++) {
        if (is_handout(docs[i].name)) {
            handouts++;
            ck_assert_msg(docs[i].ncmds >= 3, "%s has %d clcoalesce commands in ```sh blocks",
                          docs[i].name, docs[i].ncmds);
        }
        clc_doc_free(&docs[i]);
    }
    ck_assert_msg(handouts >= 6, "found %d handouts in %s", handouts, LABS_DIR);
}
END_TEST

/* The test form of a command: --quick added, sizes and reps dropped, sweeps cut short. */
START_TEST(test_quick_form)
{
    unsetenv("CLC_LABS_FULL");
    unsetenv("CLC_DOCS_FULL");
    char *a = clc_doc_test_form("run stride --type float --size 16MiB --reps 5");
    ck_assert_str_eq(a, "run stride --type float --quick");
    free(a);
    a = clc_doc_test_form("custom --kernel-file x.cl --kernel k --pattern copy");
    ck_assert_str_eq(a, "custom --kernel-file x.cl --kernel k --pattern copy --quick");
    free(a);
    a = clc_doc_test_form("run copy -q");
    ck_assert_str_eq(a, "run copy -q");
    free(a);
    a = clc_doc_test_form("profile --reps 3");
    ck_assert_str_eq(a, "profile --quick");
    free(a);
    a = clc_doc_test_form("profile");
    ck_assert_str_eq(a, "profile --quick");
    free(a);
    a = clc_doc_test_form("run copy --sweep-size 1MiB:1GiB -f csv");
    ck_assert_str_eq(a, "run copy --sweep-size 1MiB:2MiB -f csv --quick");
    free(a);
    a = clc_doc_test_form("explain stride --param 2");
    ck_assert_str_eq(a, "explain stride --param 2");
    free(a);
    /* the files a page writes, and reads back, go to the test's folder */
    struct clc_doc_outputs o = {"/t", 0, {{0}}};
    a = clc_doc_in_dir("run copy -f json -o lab.json", &o);
    ck_assert_str_eq(a, "run copy -f json -o /t/lab.json");
    free(a);
    a = clc_doc_in_dir("compare --model lab.json --profile p.json", &o);
    ck_assert_str_eq(a, "compare --model /t/lab.json --profile p.json");
    free(a);
}
END_TEST

/* Runs every command of every page (index included), from the source tree's root, the files
 * they write in a folder of the test's. */
START_TEST(test_commands_run)
{
    static struct clc_doc docs[MAX_FILES];
    int n = clc_doc_load_dir(docs, MAX_FILES, LABS_DIR, "clcoalesce", true);
    ck_assert_int_ge(clc_doc_run_pages(docs, n, "labs"), 15);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {test_handouts_found, test_quick_form, test_commands_run};
    return clc_test_main(clc_test_suite("labs", tests, sizeof tests / sizeof tests[0]));
}
