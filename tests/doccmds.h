/* doccmds.h - the commands a Markdown page shows, read and run as a test so the page cannot
 * rot: the lab handouts (test_labs.c) and the README with the manual in docs/ (test_docs.c).
 *
 * Every line of a ```sh block is one of:
 *   - the binary as the page calls it (`clcoalesce ...` in the handouts, `build/clcoalesce
 *     ...` in the README and docs/): run from the source tree's root, made quick (see
 *     clc_doc_test_form), and it must exit 0 and print something; a `run` must print a
 *     verified row.  One command per line, no shell variables, pipes or redirections.
 *     A command that needs NVIDIA's driver or a GPU (`ptx`, `--api cuda|both`, `--device
 *     gpu`) ends in a comment ending "(NVIDIA)"; without them it must fail with exit 1
 *     and say what is missing.  `ptx` counts as marked in the handouts, which predate it.
 *   - one of the source tree's scripts (`bench/run.sh`, `tests/run.sh`, ...): the file must
 *     exist and be executable; it is not run (they build, install and run whole suites);
 *   - any other command (`sudo apt-get ...`): shown for the reader, not run; it must not
 *     call the binary by another name than the page's (a bare `clcoalesce` is not on the
 *     PATH after the quick start). */
#ifndef CLC_TEST_DOCCMDS_H
#define CLC_TEST_DOCCMDS_H

#include <stdbool.h>

#define CLC_DOC_MAX_CMDS 160

/* One command of a page that calls the binary. */
struct clc_doc_cmd {
    char *args;  /* the arguments after the binary, trailing comment removed (owned) */
    int line;    /* its line in the page */
    bool nvidia; /* marked "(NVIDIA)", or a `ptx` of a page that allows it unmarked */
};

/* A page and the commands of its ```sh blocks. */
struct clc_doc {
    char name[256]; /* its path under the source tree, e.g. "docs/run.md" */
    int ncmds;      /* commands calling the binary */
    struct clc_doc_cmd cmds[CLC_DOC_MAX_CMDS];
    int nscripts; /* lines calling one of the tree's scripts (checked to exist, not run) */
    int nother;   /* other shell lines (shown, not run) */
};

/* Reads page `name` (a path under the source tree) into doc; `bin` is how its commands call
 * the binary ("clcoalesce" or "build/clcoalesce"), `ptx_unmarked` lets `ptx` stand without
 * the "(NVIDIA)" mark.  Asserts the rules above that need no run: one command per line, no
 * shell syntax, no other name for the binary, scripts that exist, honest NVIDIA marks. */
void clc_doc_load(struct clc_doc *doc, const char *name, const char *bin, bool ptx_unmarked);

/* Loads every .md file of folder `dir` (under the source tree) into docs, sorted by name;
 * returns how many (at most max). */
int clc_doc_load_dir(struct clc_doc *docs, int max, const char *dir, const char *bin,
                     bool ptx_unmarked);

/* Frees the commands doc holds. */
void clc_doc_free(struct clc_doc *doc);

/* The command the test runs for `args` (malloc'd): `run`, `custom` and `profile` made quick
 * (a `--size`/`-s` and `--reps`/`-r` dropped, `--quick` added, a `--sweep-size` cut to
 * 1MiB:2MiB) unless CLC_DOCS_FULL (or CLC_LABS_FULL) is set; others as they are. */
char *clc_doc_test_form(const char *args);

/* The files a page's commands write (`-o FILE`), so that later commands of the page find
 * them: each moved into the test's folder. */
#define CLC_DOC_MAX_OUTPUTS 16
struct clc_doc_outputs {
    const char *dir; /* the test's folder */
    int n;
    char name[CLC_DOC_MAX_OUTPUTS][128];
};

/* args (malloc'd) with every file the page writes, or reads back after writing it, in
 * o->dir instead of the source tree. */
char *clc_doc_in_dir(const char *args, struct clc_doc_outputs *o);

/* Runs every command of doc from the source tree's root, its outputs in folder `dir`, and
 * asserts each as described above; returns how many it holds.  A command that ran before in
 * this process, shown on another page, is not run again. */
int clc_doc_run(const struct clc_doc *doc, const char *dir);

/* Runs every command of the n pages (clc_doc_run) in a fresh folder of the test's named after
 * `tag`, frees the pages' commands and removes the folder; returns how many commands the
 * pages hold. */
int clc_doc_run_pages(struct clc_doc *docs, int n, const char *tag);

#endif
