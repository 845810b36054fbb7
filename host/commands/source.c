/* source.c - a kernel's source as `explain` shows it: the __kernel function of that name in
 * an OpenCL C file, with the comment above it, found by a small scanner that skips comments
 * and string literals. */
#include "clcoalesce/explain.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

/* ------------------------------------------------------------------ kernel source */

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* True when the identifier ending just before `end` is `word`; *start gets its start. */
static bool word_before(const char *src, const char *end, const char *word, const char **start)
{
    const char *p = end;
    while (p > src && isspace((unsigned char)p[-1]))
        p--;
    size_t n = strlen(word);
    if ((size_t)(p - src) < n || strncmp(p - n, word, n) != 0)
        return false;
    if (p - n > src && ident_char(p[-n - 1]))
        return false;
    *start = p - n;
    return true;
}

/* Skips a comment or string literal starting at p; returns p unchanged if none starts there. */
static const char *skip_literal(const char *p)
{
    if (p[0] == '/' && p[1] == '*') {
        const char *e = strstr(p + 2, "*/");
        return e ? e + 2 : p + strlen(p);
    }
    if (p[0] == '/' && p[1] == '/') {
        const char *e = strchr(p, '\n');
        return e ? e : p + strlen(p);
    }
    if (p[0] == '"' || p[0] == '\'') {
        char q = p[0];
        for (p++; *p && *p != q; p++)
            if (*p == '\\' && p[1])
                p++;
        return *p ? p + 1 : p;
    }
    return p;
}

static const char *line_start(const char *src, const char *p)
{
    while (p > src && p[-1] != '\n')
        p--;
    return p;
}

/* Extends `start` (a line start) upwards over the comment block right above it. */
static const char *comment_above(const char *src, const char *start)
{
    for (;;) {
        if (start == src)
            return start;
        const char *prev = line_start(src, start - 1);
        const char *s = prev, *e = start - 1;
        while (s < e && isspace((unsigned char)*s))
            s++;
        while (e > s && isspace((unsigned char)e[-1]))
            e--;
        if (e - s >= 2 && s[0] == '/' && s[1] == '/') {
            start = prev;
            continue;
        }
        if (e - s >= 2 && e[-2] == '*' && e[-1] == '/') {
            /* walk up to the line that opens this comment */
            const char *open = prev;
            while (open > src) {
                const char *q = open;
                while (*q == ' ' || *q == '\t')
                    q++;
                if (strncmp(q, "/*", 2) == 0)
                    break;
                open = line_start(src, open - 1);
            }
            return open;
        }
        return start;
    }
}

bool clc_print_kernel_source(FILE *f, const char *src, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(src, name); p != NULL; p = strstr(p + 1, name)) {
        if ((p > src && ident_char(p[-1])) || ident_char(p[n]))
            continue;
        const char *q = p + n;
        while (isspace((unsigned char)*q))
            q++;
        if (*q != '(')
            continue;
        const char *v, *k;
        if (!word_before(src, p, "void", &v) ||
            !(word_before(src, v, "__kernel", &k) || word_before(src, v, "kernel", &k)))
            continue;
        /* the body: the first '{' after the parameters, to its matching '}' */
        const char *b = q;
        int depth = 0;
        bool opened = false;
        while (*b) {
            const char *s = skip_literal(b);
            if (s != b) {
                b = s;
                continue;
            }
            if (*b == '{') {
                depth++;
                opened = true;
            } else if (*b == '}' && --depth == 0 && opened) {
                b++;
                break;
            }
            b++;
        }
        const char *start = comment_above(src, line_start(src, k));
        const char *end = strchr(b, '\n');
        end = end ? end : b + strlen(b);
        for (const char *l = start; l < end;) {
            const char *nl = memchr(l, '\n', (size_t)(end - l));
            const char *le = nl ? nl : end;
            fprintf(f, "  %.*s\n", (int)(le - l), l);
            l = nl ? nl + 1 : end;
        }
        return true;
    }
    return false;
}
