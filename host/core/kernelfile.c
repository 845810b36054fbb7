/* kernelfile.c - kernel files: the kernel directory, reading a file, and failed builds
 * reported against the file the user edits (see kernelfile.h). */
#define _GNU_SOURCE
#include "clcoalesce/kernelfile.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clcoalesce/core.h"

/* ------------------------------------------------------------------ the kernel directory */

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Accepts `dir` named by `how` when it is a directory, or says why not. */
static int given_dir(const char *dir, const char *how, char *out, size_t len)
{
    struct stat st;
    if (*dir == '\0') {
        clc_error("%s is empty: name the folder holding the .cl files", how);
        return CLC_ERR;
    }
    if (stat(dir, &st) != 0) {
        clc_error("kernel directory '%s' (%s): %s", dir, how, strerror(errno));
        return CLC_ERR;
    }
    if (!S_ISDIR(st.st_mode)) {
        clc_error("kernel directory '%s' (%s) is not a directory", dir, how);
        return CLC_ERR;
    }
    snprintf(out, len, "%s", dir);
    return CLC_OK;
}

int clc_find_kernel_dir(const char *explicit_dir, char *out, size_t len)
{
    if (explicit_dir != NULL)
        return given_dir(explicit_dir, "--kernel-dir", out, len);
    const char *env = getenv("CLCOALESCE_KERNEL_DIR");
    if (env != NULL && *env)
        return given_dir(env, "CLCOALESCE_KERNEL_DIR", out, len);
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
#ifdef CLC_BUILD_DIR
    /* Running from the build tree: read the sources in place, so an edited .cl file
     * takes effect on the next run without rebuilding. */
    size_t bl = strlen(CLC_BUILD_DIR);
    if (strncmp(exe, CLC_BUILD_DIR, bl) == 0 && exe[bl] == '/' && is_dir(CLC_SOURCE_KERNEL_DIR)) {
        snprintf(out, len, "%s", CLC_SOURCE_KERNEL_DIR);
        return CLC_OK;
    }
#endif
    char *slash = strrchr(exe, '/');
    if (slash != NULL) {
        *slash = '\0';
        snprintf(out, len, "%s/../share/clcoalesce/cl", exe);
        if (is_dir(out))
            return CLC_OK;
    }
#ifdef CLC_INSTALL_KERNEL_DIR
    if (is_dir(CLC_INSTALL_KERNEL_DIR)) {
        snprintf(out, len, "%s", CLC_INSTALL_KERNEL_DIR);
        return CLC_OK;
    }
#endif
    clc_error("no kernel directory found: pass --kernel-dir DIR or set CLCOALESCE_KERNEL_DIR "
              "to the folder holding the .cl files");
    return CLC_ERR;
}

void clc_kernel_path(const char *dir, const char *file, char *out, size_t len)
{
    if (file[0] == '/')
        snprintf(out, len, "%s", file);
    else
        snprintf(out, len, "%s/%s", dir, file);
}

char *clc_read_kernel_file(const char *path, size_t *len)
{
    size_t n = 0;
    errno = 0;
    char *src = clc_read_text(path, &n);
    if (src == NULL) {
        int e = errno ? errno : EIO;
        clc_error("cannot read kernel file '%s': %s", path, strerror(e));
        return NULL;
    }
    if (strlen(src) != n) {
        clc_error("cannot read kernel file '%s': it holds a NUL byte (not a text file)", path);
        free(src);
        return NULL;
    }
    if (len != NULL)
        *len = n;
    return src;
}

/* ------------------------------------------------------------------ build failures */

/* True when the file at `name` holds exactly `src`. */
static bool same_text(const char *name, const char *src)
{
    char *text = clc_read_text(name, NULL);
    bool same = text != NULL && strcmp(text, src) == 0;
    free(text);
    return same;
}

/* The log with every stand-in "NAME:LINE" written as `shown` (see kernelfile.h); an included
 * header (clc.h) keeps its own path. */
static char *name_user_file(const char *log, const char *src, const char *shown)
{
    char *out = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&out, &len);
    if (m == NULL)
        return NULL;
    const char *done = log;
    for (const char *c = log; *c; c++) {
        if (*c != ':' || !isdigit((unsigned char)c[1]))
            continue;
        const char *d = c + 1;
        while (isdigit((unsigned char)*d))
            d++;
        if (*d != ':')
            continue;
        const char *s = c;
        while (s > done && !isspace((unsigned char)s[-1]) && s[-1] != '\'' && s[-1] != '"')
            s--;
        /* clang names where a macro's text was written as "<Spelling=FILE:LINE:COL>", after
         * the user's FILE:LINE:COL: that FILE is the header's (clc.h for LOAD and STORE),
         * never the user's */
        static const char spelling[] = "<Spelling=";
        if ((size_t)(c - s) > sizeof spelling - 1 &&
            strncmp(s, spelling, sizeof spelling - 1) == 0)
            s += sizeof spelling - 1;
        if (s == c || c - s >= PATH_MAX)
            continue;
        char name[PATH_MAX];
        snprintf(name, sizeof name, "%.*s", (int)(c - s), s);
        if (strcmp(name, shown) != 0 && (access(name, F_OK) != 0 || same_text(name, src))) {
            fwrite(done, 1, (size_t)(s - done), m);
            fputs(shown, m);
            fwrite(c, 1, (size_t)(d - c), m);
        } else {
            fwrite(done, 1, (size_t)(d - done), m);
        }
        /* past "NAME:LINE": the column that may follow is no name */
        done = d;
        c = d - 1;
    }
    fputs(done, m);
    fclose(m);
    return out;
}

void clc_report_build_failure(const char *path, const char *src, const char *options,
                              const char *device, const char *log)
{
    char *mapped = log != NULL ? name_user_file(log, src, path) : NULL;
    const char *text = mapped ? mapped : log ? log : "";
    /* the first message about the file: "PATH:LINE:" (clang, PoCL) or "PATH(LINE):" (NVRTC),
     * shown as "PATH:LINE: message" either way */
    const char *first = NULL, *line = NULL, *rest = NULL;
    size_t sl = strlen(path);
    for (const char *p = strstr(text, path); p != NULL && first == NULL; p = strstr(p + 1, path)) {
        const char *q = p + sl + 1;
        if ((p[sl] != ':' && p[sl] != '(') || !isdigit((unsigned char)*q))
            continue;
        while (isdigit((unsigned char)*q))
            q++;
        if (p[sl] == ':' || (q[0] == ')' && q[1] == ':')) {
            first = p;
            line = p + sl + 1;
            rest = p[sl] == ':' ? q : q + 1;
        }
    }
    if (first != NULL)
        clc_error("%s:%.*s%.*s", path, (int)strspn(line, "0123456789"), line,
                  (int)strcspn(rest, "\n"), rest);
    else
        clc_error("building '%s' failed", path);
    fprintf(clc_message_stream(),
            "  building '%s' failed\n  options: %s\n  device:  %s\n  build log:\n%s\n", path,
            options, device, *text ? text : "  (empty)");
    free(mapped);
}
