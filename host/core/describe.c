/* describe.c - the argument description of a user's kernel (describe.h): its parser, the
 * size expressions, the generators that fill inputs, the reading of a kernel's parameter
 * list from its source, and the element-wise comparison with a reference's output. */
#define _GNU_SOURCE
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clcoalesce/describe.h"

static bool fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return false;
}

/* ------------------------------------------------------------------ element types */

static const struct {
    const char *name;
    unsigned bytes;
    bool is_float, is_signed;
} scalars[] = {
    {"char", 1, false, true},   {"uchar", 1, false, false}, {"short", 2, false, true},
    {"ushort", 2, false, false}, {"int", 4, false, true},   {"uint", 4, false, false},
    {"long", 8, false, true},   {"ulong", 8, false, false}, {"float", 4, true, true},
    {"double", 8, true, true},  {"T", 4, true, true}, /* the build defines T = float */
};

bool clc_elem_parse(const char *name, struct clc_elem *e)
{
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++) {
        size_t n = strlen(scalars[i].name);
        if (strncmp(name, scalars[i].name, n) != 0)
            continue;
        const char *w = name + n;
        unsigned width = 1;
        if (*w != '\0') {
            if (i == 10) /* T has no vector forms */
                continue;
            char *end;
            long v = strtol(w, &end, 10);
            if (*end != '\0' || !(v == 2 || v == 3 || v == 4 || v == 8 || v == 16))
                continue;
            width = (unsigned)v;
        }
        *e = (struct clc_elem){scalars[i].bytes, scalars[i].is_float, scalars[i].is_signed,
                               width, width == 3 ? 4 : width};
        return true;
    }
    return false;
}

/* ------------------------------------------------------------------ expressions */

struct parser {
    const char *s;
    const struct clc_dvals *v;
    char *err;
    size_t errlen;
    bool ok;
};

static bool perr(struct parser *p, const char *fmt, const char *what)
{
    if (p->ok)
        fail(p->err, p->errlen, fmt, what);
    p->ok = false;
    return false;
}

static void blank(struct parser *p)
{
    while (isspace((unsigned char)*p->s))
        p->s++;
}

static bool sum(struct parser *p, uint64_t *out);

static bool isqrt_of(uint64_t x, uint64_t *out)
{
    uint64_t r = (uint64_t)sqrt((double)x);
    while (r > 0 && (r > UINT32_MAX || r * r > x))
        r--;
    while (r < UINT32_MAX && (r + 1) * (r + 1) <= x)
        r++;
    *out = r;
    return true;
}

/* A number, a name, a call or a parenthesised sum. */
static bool primary(struct parser *p, uint64_t *out)
{
    blank(p);
    if (*p->s == '(') {
        p->s++;
        if (!sum(p, out))
            return false;
        blank(p);
        if (*p->s != ')')
            return perr(p, "missing ')' %s", "in the expression");
        p->s++;
        return true;
    }
    if (isdigit((unsigned char)*p->s)) {
        uint64_t v = 0;
        while (isdigit((unsigned char)*p->s)) {
            unsigned d = (unsigned)(*p->s++ - '0');
            if (v > (UINT64_MAX - d) / 10)
                return perr(p, "%s: a number overflows 64 bits", "expression");
            v = v * 10 + d;
        }
        int shift = *p->s == 'K' ? 10 : *p->s == 'M' ? 20 : *p->s == 'G' ? 30 : 0;
        if (shift) {
            p->s++;
            if (v > UINT64_MAX >> shift)
                return perr(p, "%s: a number overflows 64 bits", "expression");
            v <<= shift;
        }
        *out = v;
        return true;
    }
    if (isalpha((unsigned char)*p->s) || *p->s == '_') {
        char name[CLC_DESC_NAME];
        size_t n = 0;
        while ((isalnum((unsigned char)*p->s) || *p->s == '_') && n + 1 < sizeof name)
            name[n++] = *p->s++;
        name[n] = '\0';
        blank(p);
        bool call = !strcmp(name, "sqrt") || !strcmp(name, "min") || !strcmp(name, "max");
        if (*p->s == '(' && call) {
            uint64_t a, b = 0;
            p->s++;
            if (!sum(p, &a))
                return false;
            blank(p);
            if (strcmp(name, "sqrt") != 0) {
                if (*p->s != ',')
                    return perr(p, "%s takes two values", name);
                p->s++;
                if (!sum(p, &b))
                    return false;
                blank(p);
            }
            if (*p->s != ')')
                return perr(p, "missing ')' after the values of %s", name);
            p->s++;
            if (!strcmp(name, "sqrt"))
                return isqrt_of(a, out);
            *out = !strcmp(name, "min") ? (a < b ? a : b) : (a > b ? a : b);
            return true;
        }
        for (unsigned i = 0; p->v != NULL && i < p->v->nsizes; i++)
            if (strcmp(p->v->names[i], name) == 0) {
                *out = p->v->values[i];
                return true;
            }
        return perr(p, "unknown size '%s'", name);
    }
    if (*p->s == '\0')
        return perr(p, "an expression ends %s", "too early");
    char c[2] = {*p->s, '\0'};
    return perr(p, "unexpected '%s' in an expression", c);
}

static bool product(struct parser *p, uint64_t *out)
{
    if (!primary(p, out))
        return false;
    for (;;) {
        blank(p);
        char op = *p->s;
        if (op != '*' && op != '/' && op != '%')
            return true;
        p->s++;
        uint64_t b;
        if (!primary(p, &b))
            return false;
        if (op == '*') {
            if (b != 0 && *out > UINT64_MAX / b)
                return perr(p, "%s overflows 64 bits", "a product");
            *out *= b;
        } else if (b == 0) {
            return perr(p, "division by zero %s", "in an expression");
        } else {
            *out = op == '/' ? *out / b : *out % b;
        }
    }
}

static bool sum(struct parser *p, uint64_t *out)
{
    if (!product(p, out))
        return false;
    for (;;) {
        blank(p);
        char op = *p->s;
        if (op != '+' && op != '-')
            return true;
        p->s++;
        uint64_t b;
        if (!product(p, &b))
            return false;
        if (op == '+' && *out > UINT64_MAX - b)
            return perr(p, "%s overflows 64 bits", "a sum");
        if (op == '-' && b > *out)
            return perr(p, "%s is negative", "a difference");
        *out = op == '+' ? *out + b : *out - b;
    }
}

bool clc_desc_expr(const char *expr, const struct clc_dvals *v, uint64_t *out, char *err,
                   size_t errlen)
{
    struct parser p = {expr, v, err, errlen, true};
    if (!sum(&p, out))
        return false;
    blank(&p);
    if (*p.s != '\0')
        return fail(err, errlen, "unexpected '%s' in '%s'", p.s, expr);
    return true;
}

/* ------------------------------------------------------------------ the description */

/* The next word of *s (up to a blank, or one of the characters in `stop`) into w. */
static bool word(const char **s, char *w, size_t len, const char *stop)
{
    while (isspace((unsigned char)**s))
        (*s)++;
    size_t n = 0;
    while (**s && !isspace((unsigned char)**s) && !strchr(stop, **s)) {
        if (n + 1 >= len)
            return false;
        w[n++] = *(*s)++;
    }
    w[n] = '\0';
    return n > 0;
}

static bool is_ident(const char *s)
{
    if (!(isalpha((unsigned char)*s) || *s == '_'))
        return false;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_'))
            return false;
    return true;
}

/* Copies the rest of a line (trimmed) into out. */
static bool rest(const char *s, char *out, size_t len)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        n--;
    if (n == 0 || n >= len)
        return false;
    memcpy(out, s, n);
    out[n] = '\0';
    return true;
}

static const char *const roles[] = {"in", "out", "inout", "local", "scalar"};
static const char *const gens[] = {"random", "iota",  "const", "perm",
                                   "index",  "sorted", "rowptr", "colidx"};

/* "arg NAME ROLE TYPE LEN [GENERATOR ...]" after "arg". */
static bool parse_arg(const char *s, struct clc_desc *d, char *err, size_t len)
{
    if (d->nargs >= CLC_DESC_ARGS)
        return fail(err, len, "more than %d arguments", CLC_DESC_ARGS);
    struct clc_darg *a = &d->args[d->nargs];
    char w[CLC_DESC_EXPR];
    memset(a, 0, sizeof *a);
    if (!word(&s, a->name, sizeof a->name, "") || !is_ident(a->name))
        return fail(err, len, "arg: give NAME ROLE TYPE LENGTH [GENERATOR]");
    if (!word(&s, w, sizeof w, ""))
        return fail(err, len, "arg %s: no role (in, out, inout, local or scalar)", a->name);
    size_t r = 0;
    while (r < 5 && strcmp(w, roles[r]) != 0)
        r++;
    if (r == 5)
        return fail(err, len, "arg %s: role '%s' is not in, out, inout, local or scalar",
                    a->name, w);
    a->role = (enum clc_role)r;
    if (!word(&s, a->type, sizeof a->type, "") || !clc_elem_parse(a->type, &a->elem))
        return fail(err, len, "arg %s: '%s' is not an element type (char .. ulong, float, "
                    "double, or a vector of 2, 3, 4, 8, 16 of them)", a->name, a->type);
    if (a->role == CLC_ROLE_SCALAR && a->elem.width != 1)
        return fail(err, len, "arg %s: a scalar argument is not a vector", a->name);
    /* the length (or value): up to the generator's name, which is a known word */
    const char *start = s;
    const char *gen_at = NULL;
    size_t g = 0;
    for (const char *t = s; *t; t++) {
        if (t != start && isalpha((unsigned char)*t) && isspace((unsigned char)t[-1])) {
            for (g = 0; g < 8; g++) {
                size_t n = strlen(gens[g]);
                if (strncmp(t, gens[g], n) == 0 && (t[n] == '\0' || isspace((unsigned char)t[n])))
                    break;
            }
            if (g < 8) {
                gen_at = t;
                break;
            }
        }
    }
    size_t n = gen_at ? (size_t)(gen_at - start) : strlen(start);
    char lenbuf[CLC_DESC_EXPR * 2];
    if (n >= sizeof lenbuf)
        return fail(err, len, "arg %s: the length is too long", a->name);
    memcpy(lenbuf, start, n);
    lenbuf[n] = '\0';
    if (!rest(lenbuf, a->len, sizeof a->len))
        return fail(err, len, "arg %s: no %s", a->name,
                    a->role == CLC_ROLE_SCALAR ? "value" : "length (an expression of the sizes)");
    a->gen = CLC_GEN_RANDOM;
    if (gen_at == NULL)
        return d->nargs++, true;
    if (a->role != CLC_ROLE_IN && a->role != CLC_ROLE_INOUT)
        return fail(err, len, "arg %s: only in and inout arguments take a generator", a->name);
    a->gen = (enum clc_gen)g;
    a->gen_given = true;
    s = gen_at + strlen(gens[g]);
    unsigned want = g == CLC_GEN_RANDOM ? 2 : g == CLC_GEN_IOTA || g == CLC_GEN_PERM ? 0 : 1;
    unsigned got = 0;
    if (want == 1 && g < CLC_GEN_ROWPTR) /* one expression: the rest of the line */
        got = rest(s, a->gen_arg[0], sizeof a->gen_arg[0]) ? 1 : 0;
    else
        while (got < 2 && word(&s, a->gen_arg[got], sizeof a->gen_arg[got], ""))
            got++;
    if ((got > 0 && want == 1 && g < CLC_GEN_ROWPTR ? false : word(&s, w, sizeof w, "")) ||
        (got != want && !(g == CLC_GEN_RANDOM && got == 0)))
        return fail(err, len, "arg %s: %s takes %s", a->name, gens[g],
                    g == CLC_GEN_RANDOM ? "nothing or LOW HIGH"
                    : want == 0         ? "nothing"
                    : g >= CLC_GEN_ROWPTR ? "the name of a csr matrix"
                    : g == CLC_GEN_CONST  ? "one value"
                                          : "a bound");
    if (g >= CLC_GEN_ROWPTR) {
        unsigned c = 0;
        while (c < d->ncsr && strcmp(d->csr[c].name, a->gen_arg[0]) != 0)
            c++;
        if (c == d->ncsr)
            return fail(err, len, "arg %s: no csr matrix '%s' (declare it first: csr NAME "
                        "ROWS COLS DENSITY)", a->name, a->gen_arg[0]);
        if (a->elem.is_float || a->elem.width != 1)
            return fail(err, len, "arg %s: %s indices are an integer type", a->name, gens[g]);
    }
    d->nargs++;
    return true;
}

/* "grid E[, E[, E]]" or "group ..." into exprs; returns the dimensions or 0. */
static unsigned parse_dims(const char *s, char exprs[3][CLC_DESC_EXPR])
{
    unsigned dims = 0;
    char buf[3 * CLC_DESC_EXPR];
    if (!rest(s, buf, sizeof buf))
        return 0;
    for (char *tok = buf, *comma; dims < 3; tok = comma + 1) {
        comma = strchr(tok, ',');
        if (comma != NULL)
            *comma = '\0';
        if (!rest(tok, exprs[dims], CLC_DESC_EXPR))
            return 0;
        dims++;
        if (comma == NULL)
            return dims;
    }
    return 0;
}

static bool parse_line(char *line, struct clc_desc *d, char *err, size_t len)
{
    char *hash = strchr(line, '#');
    if (hash != NULL)
        *hash = '\0';
    /* the comment's own marks: "/" "*", "clcoalesce:", a leading '*', the closing mark */
    char *close = strstr(line, "*/");
    if (close != NULL)
        *close = '\0';
    const char *s = line;
    while (isspace((unsigned char)*s) || *s == '*' || *s == '/')
        s++;
    if (strncmp(s, "clcoalesce:", 11) == 0)
        s += 11;
    while (isspace((unsigned char)*s))
        s++;
    char kw[16];
    if (*s == '\0')
        return true;
    if (!word(&s, kw, sizeof kw, ""))
        return fail(err, len, "'%.40s' is not a line of a description", s);
    if (!strcmp(kw, "arg"))
        return parse_arg(s, d, err, len);
    if (!strcmp(kw, "size")) {
        if (d->nsizes >= CLC_DESC_SIZES)
            return fail(err, len, "more than %d sizes", CLC_DESC_SIZES);
        char name[CLC_DESC_NAME];
        if (!word(&s, name, sizeof name, "=") || !is_ident(name))
            return fail(err, len, "size: give NAME = EXPRESSION");
        while (isspace((unsigned char)*s))
            s++;
        if (*s++ != '=' || !rest(s, d->sizes[d->nsizes].expr, CLC_DESC_EXPR))
            return fail(err, len, "size %s: give NAME = EXPRESSION", name);
        snprintf(d->sizes[d->nsizes++].name, CLC_DESC_NAME, "%s", name);
        return true;
    }
    if (!strcmp(kw, "csr")) {
        struct clc_dcsr *c = &d->csr[d->ncsr];
        char dens[32], extra[8];
        if (d->ncsr >= 2)
            return fail(err, len, "more than 2 csr matrices");
        if (!word(&s, c->name, sizeof c->name, "") || !is_ident(c->name) ||
            !word(&s, c->rows, sizeof c->rows, "") || !word(&s, c->cols, sizeof c->cols, "") ||
            !word(&s, dens, sizeof dens, "") || word(&s, extra, sizeof extra, ""))
            return fail(err, len, "csr: give NAME ROWS COLS DENSITY (expressions without "
                        "blanks, density a fraction such as 0.01)");
        char *end;
        c->density = strtod(dens, &end);
        if (*end != '\0' || !(c->density > 0 && c->density <= 1))
            return fail(err, len, "csr %s: density '%s' is not a fraction in (0, 1]", c->name,
                        dens);
        d->ncsr++;
        return true;
    }
    bool ref = !strncmp(kw, "ref_", 4);
    const char *k = ref ? kw + 4 : kw;
    if (!strcmp(k, "grid") || !strcmp(k, "group")) {
        bool grid = k[2] == 'i';
        char(*exprs)[CLC_DESC_EXPR] = grid ? (ref ? d->ref_global : d->global)
                                           : (ref ? d->ref_local : d->local);
        unsigned n = parse_dims(s, exprs);
        if (n == 0)
            return fail(err, len, "%s: give 1 to 3 expressions separated by commas", kw);
        if (grid)
            *(ref ? &d->ref_dims : &d->dims) = n;
        for (unsigned i = n; !grid && i < 3; i++)
            exprs[i][0] = '\0';
        return true;
    }
    if (!strcmp(kw, "tolerance")) {
        char *end;
        d->tolerance = strtod(s, &end);
        while (isspace((unsigned char)*end))
            end++;
        if (end == s || *end != '\0' || !(d->tolerance >= 0 && d->tolerance < 1))
            return fail(err, len, "tolerance: give a relative tolerance in [0, 1), e.g. 1e-5");
        return true;
    }
    if (!strcmp(kw, "flops")) {
        if (!rest(s, d->flops, sizeof d->flops))
            return fail(err, len, "flops: give an expression of the sizes, e.g. 2 * 16 * n (a "
                        "fused multiply-add counts two)");
        return true;
    }
    return fail(err, len, "'%s' begins no line of a description (arg, size, csr, grid, group, "
                "ref_grid, ref_group, tolerance, flops)", kw);
}

bool clc_desc_parse(const char *text, struct clc_desc *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    d->tolerance = -1;
    char *copy = strdup(text);
    if (copy == NULL)
        return fail(err, errlen, "out of memory");
    bool ok = true;
    unsigned lineno = 1;
    for (char *line = copy, *next; ok && line != NULL; line = next, lineno++) {
        next = strpbrk(line, "\n;");
        if (next != NULL)
            *next++ = '\0';
        char why[CLC_DESC_ERR];
        if (!parse_line(line, d, why, sizeof why)) {
            snprintf(err, errlen, "description line %u: %s", lineno, why);
            ok = false;
        }
    }
    free(copy);
    for (unsigned i = 0; ok && i < CLC_DESC_ARGS; i++)
        for (unsigned j = 0; ok && j < i && i < d->nargs; j++)
            if (strcmp(d->args[i].name, d->args[j].name) == 0)
                ok = fail(err, errlen, "description: argument '%s' described twice",
                          d->args[i].name);
    if (ok && ((d->dims == 0 && d->local[0][0] != '\0') ||
               (d->ref_dims == 0 && d->ref_local[0][0] != '\0')))
        ok = fail(err, errlen, "description: a group without a grid");
    for (unsigned i = 1; ok && d->dims && i < 3; i++)
        if (d->local[i][0] != '\0' && i >= d->dims)
            ok = fail(err, errlen, "description: the group has more dimensions than the grid");
    return ok;
}

/* ------------------------------------------------------------------ in the source */

/* Whether src[i] starts identifier `id` as a whole word. */
static bool word_at(const char *src, size_t i, const char *id)
{
    size_t n = strlen(id);
    return strncmp(src + i, id, n) == 0 && (i == 0 || !(isalnum((unsigned char)src[i - 1]) ||
                                                       src[i - 1] == '_')) &&
           !(isalnum((unsigned char)src[i + n]) || src[i + n] == '_');
}

/* A copy of src (free it) with its comments blanked, newlines kept: the same offsets, and
 * no word of a comment taken for code.  NULL when out of memory. */
static char *blank_comments(const char *src)
{
    char *s = strdup(src);
    for (char *p = s; p != NULL && *p; p++) {
        if (p[0] == '/' && p[1] == '*') {
            char *end = strstr(p + 2, "*/");
            char *stop = end != NULL ? end + 2 : p + strlen(p);
            for (; p < stop; p++)
                if (*p != '\n')
                    *p = ' ';
            p--;
        } else if (p[0] == '/' && p[1] == '/') {
            for (; *p && *p != '\n'; p++)
                *p = ' ';
            p--;
        }
    }
    return s;
}

/* Where the parameter list of __kernel `name` begins ('(') in src, or NULL; *kernel_at is the
 * offset of its __kernel keyword. */
static const char *kernel_at(const char *src, const char *name, size_t *kernel_kw)
{
    size_t last_kw = (size_t)-1;
    for (size_t i = 0; src[i]; i++) {
        if (word_at(src, i, "__kernel") || word_at(src, i, "kernel"))
            last_kw = i;
        if (last_kw != (size_t)-1 && word_at(src, i, name)) {
            const char *p = src + i + strlen(name);
            while (isspace((unsigned char)*p))
                p++;
            if (*p == '(') {
                *kernel_kw = last_kw;
                return p;
            }
        }
        if (src[i] == ';' || src[i] == '}')
            last_kw = (size_t)-1;
    }
    return NULL;
}

char *clc_desc_find(const char *src, const char *name)
{
    size_t kw;
    char *code = blank_comments(src);
    if (code == NULL || kernel_at(code, name, &kw) == NULL) {
        free(code);
        return NULL;
    }
    const char *found = NULL;
    for (const char *p = strstr(src, "clcoalesce:"); p != NULL && (size_t)(p - src) < kw;
         p = strstr(p + 1, "clcoalesce:"))
        found = p;
    const char *end = found != NULL ? strstr(found, "*/") : NULL;
    bool mine = end != NULL && (size_t)(end - src) <= kw;
    /* another kernel between the block and this one: the block is that kernel's */
    for (size_t i = mine ? (size_t)(end - src) : kw; i < kw; i++)
        if (word_at(code, i, "__kernel") || word_at(code, i, "kernel"))
            mine = false;
    free(code);
    if (!mine)
        return NULL;
    const char *start = found + strlen("clcoalesce:");
    return strndup(start, (size_t)(end - start));
}

int clc_kernel_params(const char *src, const char *name, struct clc_param *out, int max,
                      char *err, size_t errlen)
{
    size_t kw;
    char *code = blank_comments(src);
    const char *p = code != NULL ? kernel_at(code, name, &kw) : NULL;
    if (p == NULL) {
        fail(err, errlen, code ? "no __kernel '%s' in the file" : "out of memory", name);
        free(code);
        return -1;
    }
    p++;
    int n = 0;
    while (*p && *p != ')') {
        const char *end = p;
        int depth = 0;
        while (*end && !(depth == 0 && (*end == ',' || *end == ')'))) {
            depth += *end == '(';
            depth -= *end == ')';
            end++;
        }
        char buf[256];
        size_t len = (size_t)(end - p) < sizeof buf - 1 ? (size_t)(end - p) : sizeof buf - 1;
        memcpy(buf, p, len);
        buf[len] = '\0';
        /* the words of the parameter: qualifiers, the type, '*', its name */
        char words[12][CLC_DESC_NAME];
        int nw = 0;
        struct clc_param q = {0};
        for (char *t = buf; *t && nw < 12;) {
            if (*t == '*') {
                q.pointer = true;
                t++;
                continue;
            }
            if (!(isalnum((unsigned char)*t) || *t == '_')) {
                t++;
                continue;
            }
            size_t k = 0;
            while ((isalnum((unsigned char)*t) || *t == '_') && k + 1 < CLC_DESC_NAME)
                words[nw][k++] = *t++;
            words[nw++][k] = '\0';
        }
        /* CLC_TRACE_ARGS follows the last parameter without a comma */
        if (nw > 0 && strcmp(words[nw - 1], "CLC_TRACE_ARGS") == 0)
            nw--;
        bool trace = nw == 0;
        for (int w = 0; w + 1 < nw; w++) {
            const char *s = words[w];
            q.is_global |= !strcmp(s, "__global") || !strcmp(s, "global");
            q.is_local |= !strcmp(s, "__local") || !strcmp(s, "local");
            q.is_global |= !strcmp(s, "__constant") || !strcmp(s, "constant");
            q.is_const |= !strcmp(s, "const") || !strcmp(s, "__constant") || !strcmp(s, "constant");
        }
        if (nw >= 2 && !trace) {
            if (n >= max) {
                fail(err, errlen, "kernel '%s' takes more than %d parameters", name, max);
                free(code);
                return -1;
            }
            snprintf(q.name, sizeof q.name, "%s", words[nw - 1]);
            /* the type: the last word before the name that is not a qualifier */
            for (int w = nw - 2; w >= 0; w--) {
                const char *s = words[w];
                if (strcmp(s, "const") && strcmp(s, "restrict") && strcmp(s, "__restrict") &&
                    strcmp(s, "volatile") && strncmp(s, "__", 2) && strcmp(s, "global") &&
                    strcmp(s, "local") && strcmp(s, "constant")) {
                    snprintf(q.type, sizeof q.type, "%s", s);
                    break;
                }
            }
            if (!strcmp(q.type, "unsigned"))
                snprintf(q.type, sizeof q.type, "uint");
            out[n++] = q;
        }
        p = *end == ',' ? end + 1 : end;
    }
    free(code);
    return n;
}

bool clc_desc_default(const struct clc_param *p, int np, struct clc_desc *d, char *err,
                      size_t errlen)
{
    memset(d, 0, sizeof *d);
    d->tolerance = -1;
    if (np > CLC_DESC_ARGS)
        return fail(err, errlen, "more than %d parameters", CLC_DESC_ARGS);
    for (int i = 0; i < np; i++) {
        struct clc_darg *a = &d->args[i];
        snprintf(a->name, sizeof a->name, "%s", p[i].name);
        snprintf(a->type, sizeof a->type, "%s", p[i].type);
        if (!clc_elem_parse(a->type, &a->elem))
            return fail(err, errlen, "parameter '%s': type '%s' is not one clcoalesce can fill; "
                        "describe the arguments", a->name, a->type);
        snprintf(a->len, sizeof a->len, "n");
        if (p[i].pointer && p[i].is_global)
            a->role = p[i].is_const ? CLC_ROLE_IN : CLC_ROLE_OUT;
        else if (!p[i].pointer && !a->elem.is_float)
            a->role = CLC_ROLE_SCALAR;
        else
            return fail(err, errlen, "parameter '%s' (%s%s) needs a description: its %s", a->name,
                        p[i].is_local ? "__local " : "", a->type,
                        p[i].is_local ? "size" : "value");
    }
    d->nargs = (unsigned)np;
    return true;
}

bool clc_desc_match(const struct clc_desc *d, const struct clc_param *p, int np,
                    const char *kernel, char *err, size_t errlen)
{
    if ((int)d->nargs != np)
        return fail(err, errlen, "kernel '%s' takes %d parameters; the description has %u%s%s",
                    kernel, np, d->nargs, np > (int)d->nargs ? ": not described: " : "",
                    np > (int)d->nargs ? p[d->nargs].name : "");
    for (int i = 0; i < np; i++) {
        const struct clc_darg *a = &d->args[i];
        const struct clc_param *q = &p[i];
        struct clc_elem e;
        bool ptr = a->role != CLC_ROLE_SCALAR;
        const char *want = a->role == CLC_ROLE_LOCAL ? "a __local pointer"
                           : ptr                    ? "a __global pointer"
                                                    : "a value";
        bool space_ok = !ptr ? !q->pointer : q->pointer && (a->role == CLC_ROLE_LOCAL ? q->is_local
                                                                                  : q->is_global);
        if (!space_ok)
            return fail(err, errlen, "kernel '%s' parameter %d '%s': described as %s '%s', "
                        "declared %s%s%s", kernel, i + 1, q->name, want, a->name,
                        q->is_local ? "__local " : q->is_global ? "__global " : "", q->type,
                        q->pointer ? " *" : "");
        if (!clc_elem_parse(q->type, &e))
            return fail(err, errlen, "kernel '%s' parameter %d '%s': type '%s' is not one "
                        "clcoalesce can fill", kernel, i + 1, q->name, q->type);
        if (e.bytes != a->elem.bytes || e.is_float != a->elem.is_float ||
            e.width != a->elem.width ||
            (!e.is_float && e.is_signed != a->elem.is_signed))
            return fail(err, errlen, "kernel '%s' parameter %d '%s': described as %s, declared %s",
                        kernel, i + 1, q->name, a->type, q->type);
    }
    return true;
}

/* ------------------------------------------------------------------ evaluation */

static bool add_name(struct clc_dvals *v, const char *name, uint64_t value, char *err, size_t len)
{
    if (v->nsizes >= sizeof v->values / sizeof v->values[0])
        return fail(err, len, "too many sizes");
    for (unsigned i = 0; i < v->nsizes; i++)
        if (!strcmp(v->names[i], name))
            return fail(err, len, "size '%s' defined twice", name);
    snprintf(v->names[v->nsizes], CLC_DESC_NAME, "%s", name);
    v->values[v->nsizes++] = value;
    return true;
}

static uint64_t csr_nnz_per_row(uint64_t cols, double density)
{
    double k = floor((double)cols * density + 0.5);
    return k < 1 ? 1 : (uint64_t)k > cols ? cols : (uint64_t)k;
}

bool clc_desc_eval(const struct clc_desc *d, uint64_t size, uint64_t max_alloc,
                   struct clc_dvals *v, char *err, size_t errlen)
{
    char why[CLC_DESC_ERR];
    memset(v, 0, sizeof *v);
    v->n = size / 4;
    add_name(v, "n", v->n, err, errlen);
    for (unsigned i = 0; i < d->nsizes; i++) {
        uint64_t x;
        if (!clc_desc_expr(d->sizes[i].expr, v, &x, why, sizeof why))
            return fail(err, errlen, "size %s: %s", d->sizes[i].name, why);
        if (!add_name(v, d->sizes[i].name, x, err, errlen))
            return false;
    }
    for (unsigned c = 0; c < d->ncsr; c++) {
        const struct clc_dcsr *m = &d->csr[c];
        char nnz[CLC_DESC_NAME + 8];
        if (!clc_desc_expr(m->rows, v, &v->csr_rows[c], why, sizeof why) ||
            !clc_desc_expr(m->cols, v, &v->csr_cols[c], why, sizeof why))
            return fail(err, errlen, "csr %s: %s", m->name, why);
        if (v->csr_rows[c] == 0 || v->csr_cols[c] == 0 || v->csr_cols[c] > UINT32_MAX)
            return fail(err, errlen, "csr %s: %llu x %llu is no matrix of uint columns", m->name,
                        (unsigned long long)v->csr_rows[c], (unsigned long long)v->csr_cols[c]);
        v->csr_per_row[c] = csr_nnz_per_row(v->csr_cols[c], m->density);
        if (v->csr_rows[c] > UINT64_MAX / v->csr_per_row[c])
            return fail(err, errlen, "csr %s: its nonzeros overflow 64 bits", m->name);
        snprintf(nnz, sizeof nnz, "%s_nnz", m->name);
        if (!add_name(v, nnz, v->csr_rows[c] * v->csr_per_row[c], err, errlen))
            return false;
    }
    for (unsigned i = 0; i < d->nargs; i++) {
        const struct clc_darg *a = &d->args[i];
        uint64_t x;
        if (a->role == CLC_ROLE_SCALAR && a->elem.is_float) {
            char *end;
            double f = strtod(a->len, &end);
            if (*end != '\0') {
                if (!clc_desc_expr(a->len, v, &x, why, sizeof why))
                    return fail(err, errlen, "arg %s: %s", a->name, why);
                f = (double)x;
            }
            float f32 = (float)f;
            uint32_t b32;
            memcpy(&b32, &f32, 4);
            if (a->elem.bytes == 4)
                v->bits[i] = b32;
            else
                memcpy(&v->bits[i], &f, 8);
            continue;
        }
        if (!clc_desc_expr(a->len, v, &x, why, sizeof why))
            return fail(err, errlen, "arg %s: %s", a->name, why);
        if (a->role == CLC_ROLE_SCALAR) {
            if (a->elem.bytes < 8 && x >> (8 * a->elem.bytes - (a->elem.is_signed ? 1 : 0)))
                return fail(err, errlen, "arg %s: %llu does not fit its type %s", a->name,
                            (unsigned long long)x, a->type);
            v->bits[i] = x;
            continue;
        }
        if (x == 0)
            return fail(err, errlen, "arg %s: a length of 0 elements ('%s')", a->name, a->len);
        uint64_t es = (uint64_t)a->elem.bytes * a->elem.storage;
        if (x > UINT64_MAX / es)
            return fail(err, errlen, "arg %s: %llu elements of %s overflow 64 bits", a->name,
                        (unsigned long long)x, a->type);
        if (max_alloc > 0 && a->role != CLC_ROLE_LOCAL && x * es > max_alloc)
            return fail(err, errlen, "arg %s: %llu bytes exceed the device's largest "
                        "allocation (%llu bytes)", a->name, (unsigned long long)(x * es),
                        (unsigned long long)max_alloc);
        v->len[i] = x;
    }
    unsigned dims = d->dims ? d->dims : 1;
    static const size_t dflt[3][3] = {{256, 1, 1}, {16, 16, 1}, {8, 8, 4}};
    v->dims = dims;
    for (unsigned k = 0; k < 3; k++) {
        uint64_t g = 1, l = k < dims ? dflt[dims - 1][k] : 1;
        if (k < dims && d->dims && !clc_desc_expr(d->global[k], v, &g, why, sizeof why))
            return fail(err, errlen, "grid: %s", why);
        if (k < dims && !d->dims)
            g = v->n;
        if (k < dims && d->local[k][0] && !clc_desc_expr(d->local[k], v, &l, why, sizeof why))
            return fail(err, errlen, "group: %s", why);
        if (l == 0 || l > 65536)
            return fail(err, errlen, "group: %llu work-items in dimension %u (1 to 65536)",
                        (unsigned long long)l, k);
        if (g == 0)
            g = 1;
        if (g > (UINT32_MAX / 2) * 2 - l)
            return fail(err, errlen, "grid: %llu work-items in dimension %u are too many",
                        (unsigned long long)g, k);
        v->local[k] = (size_t)l;
        v->global[k] = (size_t)((g + l - 1) / l * l);
    }
    return true;
}

uint64_t clc_darg_bytes(const struct clc_desc *d, const struct clc_dvals *v, unsigned i)
{
    return v->len[i] * d->args[i].elem.bytes * d->args[i].elem.storage;
}

/* ------------------------------------------------------------------ generators */

/* splitmix64: a reproducible stream of 64-bit values from a seed. */
static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Stores x (an integer, or a float when is_float) as component j of dst. */
static void put(const struct clc_elem *e, void *dst, uint64_t j, double f, uint64_t x)
{
    unsigned char *p = (unsigned char *)dst + j * e->bytes;
    if (e->is_float && e->bytes == 4) {
        float v = (float)f;
        memcpy(p, &v, 4);
    } else if (e->is_float) {
        memcpy(p, &f, 8);
    } else {
        memcpy(p, &x, e->bytes); /* little-endian, as every device clcoalesce runs on */
    }
}

/* A value of a generator's argument: an expression of the sizes, or for floats a number. */
static double gen_value(const char *s, const struct clc_dvals *v, double dflt)
{
    if (s[0] == '\0')
        return dflt;
    char *end;
    double f = strtod(s, &end);
    if (*end == '\0')
        return f;
    uint64_t x;
    char why[CLC_DESC_ERR];
    return clc_desc_expr(s, v, &x, why, sizeof why) ? (double)x : dflt;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

void clc_desc_fill(const struct clc_desc *d, const struct clc_dvals *v, unsigned i, void *dst)
{
    const struct clc_darg *a = &d->args[i];
    const struct clc_elem *e = &a->elem;
    uint64_t n = v->len[i] * e->storage, seed = 0x5eed0000ull + i;
    switch (a->gen) {
    case CLC_GEN_RANDOM: {
        double lo = gen_value(a->gen_arg[0], v, 0);
        double hi = gen_value(a->gen_arg[1], v, e->is_float ? 1 : 100);
        for (uint64_t j = 0; j < n; j++) {
            double u = (double)(mix(&seed) >> 11) / 9007199254740992.0;
            double f = lo + (hi - lo) * u;
            put(e, dst, j, f, (uint64_t)(int64_t)floor(f));
        }
        break;
    }
    case CLC_GEN_IOTA:
        for (uint64_t j = 0; j < n; j++)
            put(e, dst, j, (double)(j / e->storage), j / e->storage);
        break;
    case CLC_GEN_CONST: {
        double f = gen_value(a->gen_arg[0], v, 0);
        for (uint64_t j = 0; j < n; j++)
            put(e, dst, j, f, (uint64_t)(int64_t)f);
        break;
    }
    case CLC_GEN_PERM:
        for (uint64_t j = 0; j < n; j++)
            put(e, dst, j, (double)j, j);
        for (uint64_t j = n; j > 1; j--) { /* Fisher-Yates */
            uint64_t k = mix(&seed) % j;
            unsigned char t[8], *p = dst;
            memcpy(t, p + (j - 1) * e->bytes, e->bytes);
            memcpy(p + (j - 1) * e->bytes, p + k * e->bytes, e->bytes);
            memcpy(p + k * e->bytes, t, e->bytes);
        }
        break;
    case CLC_GEN_INDEX:
    case CLC_GEN_SORTED: {
        double b = gen_value(a->gen_arg[0], v, 1);
        uint64_t bound = b < 1 ? 1 : (uint64_t)b;
        uint64_t *tmp = a->gen == CLC_GEN_SORTED ? malloc(n * sizeof *tmp) : NULL;
        for (uint64_t j = 0; j < n; j++) {
            uint64_t x = mix(&seed) % bound;
            if (tmp != NULL)
                tmp[j] = x;
            else
                put(e, dst, j, (double)x, x);
        }
        if (tmp != NULL) {
            qsort(tmp, n, sizeof *tmp, cmp_u64);
            for (uint64_t j = 0; j < n; j++)
                put(e, dst, j, (double)tmp[j], tmp[j]);
            free(tmp);
        }
        break;
    }
    case CLC_GEN_ROWPTR:
    case CLC_GEN_COLIDX: {
        unsigned c = 0;
        while (c < d->ncsr && strcmp(d->csr[c].name, a->gen_arg[0]) != 0)
            c++;
        uint64_t k = v->csr_per_row[c], cols = v->csr_cols[c];
        if (a->gen == CLC_GEN_ROWPTR) {
            for (uint64_t j = 0; j < n; j++)
                put(e, dst, j, 0, j <= v->csr_rows[c] ? j * k : v->csr_rows[c] * k);
            break;
        }
        /* each row's k columns: distinct and sorted, spread over the row at random */
        uint64_t s2 = 0xc5c0000ull + c;
        uint64_t step = cols / k;
        for (uint64_t j = 0; j < n; j++) /* column t of a row lies in [t step, (t + 1) step) */
            put(e, dst, j, 0, (j % k) * step + (step > 1 ? mix(&s2) % step : 0));
        break;
    }
    }
}

/* ------------------------------------------------------------------ comparison */

static double get_float(const struct clc_elem *e, const void *p, uint64_t j)
{
    if (e->bytes == 4) {
        float f;
        memcpy(&f, (const char *)p + 4 * j, 4);
        return f;
    }
    double f;
    memcpy(&f, (const char *)p + 8 * j, 8);
    return f;
}

static uint64_t get_int(const struct clc_elem *e, const void *p, uint64_t j)
{
    uint64_t x = 0;
    memcpy(&x, (const char *)p + e->bytes * j, e->bytes);
    if (e->is_signed && e->bytes < 8 && (x >> (8 * e->bytes - 1)))
        x |= ~(uint64_t)0 << (8 * e->bytes);
    return x;
}

bool clc_desc_compare(const struct clc_desc *d, const struct clc_dvals *v, unsigned i,
                      const void *got, const void *want, double tol, char *msg, size_t len)
{
    const struct clc_darg *a = &d->args[i];
    const struct clc_elem *e = &a->elem;
    uint64_t n = v->len[i] * e->storage;
    for (uint64_t j = 0; j < n; j++) {
        if (j % e->storage >= e->width) /* a 3-vector's padding */
            continue;
        const char *g = (const char *)got + j * e->bytes, *w = (const char *)want + j * e->bytes;
        if (memcmp(g, w, e->bytes) == 0)
            continue;
        char at[48] = "";
        if (e->width > 1)
            snprintf(at, sizeof at, ".s%x", (unsigned)(j % e->storage));
        if (e->is_float) {
            double x = get_float(e, got, j), y = get_float(e, want, j);
            if (fabs(x - y) <= tol * fmax(fabs(x), fabs(y)))
                continue;
            snprintf(msg, len, "%s[%llu]%s = %.9g, reference: %.9g", a->name,
                     (unsigned long long)(j / e->storage), at, x, y);
        } else if (e->is_signed) {
            snprintf(msg, len, "%s[%llu]%s = %lld, reference: %lld", a->name,
                     (unsigned long long)(j / e->storage), at, (long long)get_int(e, got, j),
                     (long long)get_int(e, want, j));
        } else {
            snprintf(msg, len, "%s[%llu]%s = %llu, reference: %llu", a->name,
                     (unsigned long long)(j / e->storage), at,
                     (unsigned long long)get_int(e, got, j),
                     (unsigned long long)get_int(e, want, j));
        }
        return false;
    }
    return true;
}
