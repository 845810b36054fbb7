/* compiled.c - what the compiler made of a kernel, read off its PTX: how many global loads a
 * work-item has in flight at once as compiled, where the trace sees only the order of its
 * accesses.  A GPU issues a warp's instructions in order and stalls one that reads a register
 * a load has not filled yet; the assembler (ptxas) moves loads ahead of such an instruction
 * within a straight stretch of code, and turns a short forward branch around a few
 * instructions into predicated ones, but moves nothing across any other branch.  So a loop
 * that loads an element into __local as it loads it, each under a guard of two conditions
 * (`if (x < w && y < h) tile[..] = in[..]`: NVIDIA's OpenCL compiler makes two branches of
 * it, the second around the load and the store), waits for each load before the next, where
 * the same loop under one condition, or loading into registers first, keeps them all in
 * flight (bench/results/h200/validation/guards/: 0.83 of CUDA's GB/s and 1.0). */
#define _GNU_SOURCE
#include "clcoalesce/model.h"
#include "ptxtext.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HAMMOCK_MAX 16   /* instructions a forward branch may skip and still be predicated */
#define PENDING_MAX 256  /* loads followed at once; past that, more count but are not followed */
#define REG_MAX 16       /* registers a load fills followed (a vector load: up to 4) */

/* One line of the entry's body, classified. */
struct line {
    const char *s; /* its text, not NUL-terminated */
    size_t len;
    enum { OTHER, INSN, LABEL, BRANCH, BARRIER } kind;
    bool load;          /* ld.global..., or a generic ld. */
    bool read_only;     /* a load through the read-only path (.nc): no store writes there */
    bool store;         /* st.* and red.*: every operand is read */
    bool global_write;  /* a store or reduction to global memory, or a generic one */
    const char *target; /* BRANCH: the label it goes to (in the text) */
    size_t target_len;
    bool predicated;
};

bool clc_ptx_ident(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '.';
}

const char *clc_ptx_skip_space(const char *p, const char *end)
{
    while (p < end && isspace((unsigned char)*p))
        p++;
    return p;
}

const char *clc_ptx_entry_body(const char *ptx, const char *kernel)
{
    size_t klen = strlen(kernel);
    const char *e = ptx;
    while ((e = strstr(e, ".entry ")) != NULL) {
        e += 7;
        if (strncmp(e, kernel, klen) == 0 && !clc_ptx_ident(e[klen]))
            return strchr(e, '{');
    }
    return NULL;
}

static bool starts(const char *p, const char *end, const char *prefix)
{
    size_t n = strlen(prefix);
    return (size_t)(end - p) >= n && strncmp(p, prefix, n) == 0;
}

const char *clc_ptx_opcode(const char *line, size_t len, size_t *oplen, const char **guard_end)
{
    const char *end = line + len, *p = clc_ptx_skip_space(line, end);
    if (p < end && *p == '@') /* a guard, "@%p1" or "@!%p1" */
        while (p < end && !isspace((unsigned char)*p))
            p++;
    if (guard_end != NULL)
        *guard_end = p;
    p = clc_ptx_skip_space(p, end);
    const char *e = p;
    while (e < end && !isspace((unsigned char)*e))
        e++;
    *oplen = (size_t)(e - p);
    return p;
}

/* Classifies one line: a label ("$L__BB0_2:"), a branch, a barrier, another instruction, or
 * nothing to follow (directives, comments, braces). */
static void classify(struct line *l)
{
    const char *p = clc_ptx_skip_space(l->s, l->s + l->len), *end = l->s + l->len;
    const char *c = memmem(p, (size_t)(end - p), "//", 2);
    if (c != NULL)
        end = c;
    l->kind = OTHER;
    if (p >= end || *p == '.' || *p == '{' || *p == '}')
        return;
    const char *q = p;
    while (q < end && clc_ptx_ident(*q))
        q++;
    if (q < end && *q == ':' && q > p) {
        l->kind = LABEL;
        l->target = p;
        l->target_len = (size_t)(q - p);
        return;
    }
    l->predicated = *p == '@';
    size_t oplen;
    p = clc_ptx_opcode(p, (size_t)(end - p), &oplen, NULL);
    l->kind = INSN;
    /* a global load, or a generic one (an address space the compiler could not tell) */
    l->load = starts(p, end, "ld.global") || starts(p, end, "ldu.global") ||
              (starts(p, end, "ld.") && !starts(p, end, "ld.param") &&
               !starts(p, end, "ld.shared") && !starts(p, end, "ld.local") &&
               !starts(p, end, "ld.const"));
    l->read_only = l->load && memmem(p, oplen, ".nc", 3) != NULL;
    l->store = starts(p, end, "st.") || starts(p, end, "red.");
    l->global_write = (l->store || starts(p, end, "atom.")) && !starts(p, end, "st.shared") &&
                      !starts(p, end, "st.local") && !starts(p, end, "st.param") &&
                      !starts(p, end, "red.shared") && !starts(p, end, "atom.shared");
    if (starts(p, end, "bar") && !starts(p, end, "bra"))
        l->kind = BARRIER;
    else if (starts(p, end, "ret") || starts(p, end, "exit"))
        l->kind = BRANCH; /* a way out: no target, never skipped over */
    else if (starts(p, end, "bra")) {
        l->kind = BRANCH;
        p = clc_ptx_skip_space(p + oplen, end);
        const char *t = p;
        while (p < end && clc_ptx_ident(*p))
            p++;
        l->target = t;
        l->target_len = (size_t)(p - t);
    }
    l->len = (size_t)(end - l->s);
}

static bool same_label(const struct line *a, const struct line *b)
{
    return a->target_len == b->target_len && a->target_len > 0 &&
           strncmp(a->target, b->target, a->target_len) == 0;
}

/* Whether branch b (at index i) skips a short straight stretch forward to its own label:
 * ptxas predicates those instructions and the branch splits nothing. */
static bool hammock(const struct line *ls, size_t n, size_t i)
{
    if (!ls[i].predicated || ls[i].target == NULL)
        return false;
    unsigned insns = 0;
    for (size_t j = i + 1; j < n; j++) {
        if (ls[j].kind == LABEL)
            return same_label(&ls[j], &ls[i]);
        if (ls[j].kind == BRANCH || ls[j].kind == BARRIER || ++insns > HAMMOCK_MAX)
            return false;
    }
    return false;
}

/* The registers ("%f1", "%rd7") among [p, end) into regs (at most max, each `len` bytes);
 * returns how many. */
static int registers(const char *p, const char *end, char regs[][24], int max)
{
    int n = 0;
    while (p < end && n < max) {
        if (*p != '%') {
            p++;
            continue;
        }
        const char *q = p + 1;
        while (q < end && (isalnum((unsigned char)*q) || *q == '_'))
            q++;
        if (q - p < 24) {
            memcpy(regs[n], p, (size_t)(q - p));
            regs[n++][q - p] = '\0';
        }
        p = q;
    }
    return n;
}

/* An instruction's parts: its guard ("@%p1", [*g, *g_end), empty without), its first operand
 * ([*first, *rest): what it writes, unless it only reads: a store) and the operands after it
 * ([*rest, end of line)). */
static void parts(const struct line *l, const char **g, const char **g_end, const char **first,
                  const char **rest)
{
    const char *end = l->s + l->len;
    size_t oplen;
    *g = clc_ptx_skip_space(l->s, end);
    const char *p = clc_ptx_opcode(l->s, l->len, &oplen, g_end) + oplen;
    *first = p;
    int depth = 0; /* a vector operand "{%f1, %f2}" is one */
    for (; p < end && !(*p == ',' && depth == 0); p++)
        depth += *p == '{' ? 1 : *p == '}' ? -1 : 0;
    *rest = p;
}

struct regs {
    char name[40][24];
    int n;
};

/* The registers instruction l reads (its guard's, and its operands' but the one it writes). */
static void reads_of(const struct line *l, struct regs *r)
{
    const char *g, *g_end, *first, *rest, *end = l->s + l->len;
    parts(l, &g, &g_end, &first, &rest);
    r->n = registers(g, g_end, r->name, 40);
    r->n += registers(l->store ? first : rest, end, r->name + r->n, 40 - r->n);
}

/* The registers load l fills. */
static void writes_of(const struct line *l, struct regs *r)
{
    const char *g, *g_end, *first, *rest;
    parts(l, &g, &g_end, &first, &rest);
    r->n = registers(first, rest, r->name, REG_MAX);
}

/* Whether one of the registers `read` is one of those load `ld` fills. */
static bool reads(const struct regs *read, const struct regs *ld)
{
    for (int i = 0; i < read->n; i++)
        for (int j = 0; j < ld->n; j++)
            if (strcmp(read->name[i], ld->name[j]) == 0)
                return true;
    return false;
}

/* The body of entry `kernel` in ptx as lines, classified (free *out); 0 when not found. */
static size_t body_lines(const char *ptx, const char *kernel, struct line **out)
{
    *out = NULL;
    size_t n = 0, cap = 0;
    const char *e = clc_ptx_entry_body(ptx, kernel);
    if (e == NULL)
        return 0;
    for (const char *l = e + 1; *l != '\0';) {
        const char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l) : strlen(l);
        if (len > 0 && l[0] == '}') /* the body ends with a "}" in the first column */
            break;
        if (n == cap) {
            struct line *g = realloc(*out, (cap = cap ? 2 * cap : 256) * sizeof *g);
            if (g == NULL) {
                free(*out);
                *out = NULL;
                return 0;
            }
            *out = g;
        }
        (*out)[n] = (struct line){.s = l, .len = len};
        classify(&(*out)[n++]);
        l = nl ? nl + 1 : l + len;
    }
    return n;
}

/* Whether line i starts a stretch of straight code: a label some branch that splits code
 * goes to (one that is not a hammock, or goes back). */
static bool starts_stretch(const struct line *ls, size_t n, size_t i, const bool *split)
{
    if (ls[i].kind != LABEL)
        return false;
    for (size_t j = 0; j < n; j++)
        if (ls[j].kind == BRANCH && split[j] && same_label(&ls[j], &ls[i]))
            return true;
    return false;
}

/* The loads of the stretch after line k (up to j) that may be issued before k: a load after
 * a global store stays after it, since the two may touch the same bytes (a kernel's
 * pointers may alias, and the compiler keeps their order: a naive transpose's load of its
 * next row waits for the store before it), and so does k's own, where k is such a store;
 * a load through the read-only path moves past any. */
static int movable_loads(const struct line *ls, size_t k, size_t j)
{
    int n = 0;
    bool stored = ls[k].global_write;
    for (size_t m = k + 1; m < j; m++) {
        n += ls[m].load && (ls[m].read_only || !stored);
        stored |= ls[m].global_write;
    }
    return n;
}

double clc_ptx_loads_in_flight(const char *ptx, const char *kernel)
{
    struct line *ls;
    size_t n = ptx && kernel ? body_lines(ptx, kernel, &ls) : 0;
    if (n == 0)
        return NAN;
    bool *split = calloc(n, sizeof *split), *start = calloc(n, sizeof *start);
    struct regs *pend = calloc(PENDING_MAX, sizeof *pend), read;
    double longest = NAN;
    if (split == NULL || start == NULL || pend == NULL)
        goto done;
    for (size_t i = 0; i < n; i++)
        split[i] = ls[i].kind == BRANCH && !hammock(ls, n, i);
    for (size_t i = 0; i < n; i++)
        start[i] = starts_stretch(ls, n, i, split);
    int np = 0; /* loads issued and not waited for */
    longest = 0;
    for (size_t i = 0; i < n;) {
        /* one stretch [i, j): its loads may all be issued before the first that waits */
        size_t j = i + 1;
        while (j < n && !start[j] && !split[j - 1] && ls[j - 1].kind != BARRIER)
            j++;
        for (size_t k = i; k < j; k++) {
            if (ls[k].kind == BARRIER) { /* nothing moves across it; what is in flight stays */
                longest = fmax(longest, np);
                continue;
            }
            if (ls[k].kind != INSN && ls[k].kind != BRANCH)
                continue;
            int before = np;
            reads_of(&ls[k], &read);
            for (int q = 0; q < np; q++)
                if (reads(&read, &pend[q]))
                    pend[q--] = pend[--np];
            if (np < before)
                longest = fmax(longest, before + movable_loads(ls, k, j));
            if (ls[k].load && np < PENDING_MAX)
                writes_of(&ls[k], &pend[np++]);
        }
        i = j;
    }
    longest = fmax(longest, np);
done:
    free(split);
    free(start);
    free(pend);
    free(ls);
    return longest;
}

/* A global store's parts, read off its line: its guard ("@%p1", empty without), whether it
 * stores a vector, the bytes of an element, its address register and offset ("[%rd7+8]"). */
struct store_at {
    const char *guard;
    size_t guard_len;
    bool vector;
    unsigned width;
    char reg[24];
    long offset;
    unsigned stretch; /* which straight stretch of code it lies in */
};

/* Whether line l stores to global memory (or through a generic address, which the compiler
 * could not tell), and if so its parts into *s. */
static bool global_store(const struct line *l, struct store_at *s)
{
    size_t oplen;
    const char *end = l->s + l->len, *g = clc_ptx_skip_space(l->s, end), *g_end;
    const char *op = clc_ptx_opcode(l->s, l->len, &oplen, &g_end);
    if (!starts(op, end, "st.") || starts(op, end, "st.shared") || starts(op, end, "st.local") ||
        starts(op, end, "st.param"))
        return false;
    const char *op_end = op + oplen, *type = op_end;
    while (type > op && type[-1] != '.')
        type--;
    unsigned bits = *type && strchr("fbus", *type) ? (unsigned)strtoul(type + 1, NULL, 10) : 0;
    const char *a = memchr(op_end, '[', (size_t)(end - op_end));
    if (bits < 8 || a == NULL)
        return false;
    const char *r = a + 1, *re = r;
    while (re < end && (clc_ptx_ident(*re) || *re == '%') && *re != '+')
        re++;
    if (re - r >= (long)sizeof s->reg || re == r)
        return false;
    *s = (struct store_at){.guard = g, .guard_len = (size_t)(g_end - g), .width = bits / 8,
                           .vector = memmem(op, oplen, ".v2", 3) || memmem(op, oplen, ".v4", 3)};
    memcpy(s->reg, r, (size_t)(re - r));
    s->offset = re < end && *re == '+' ? strtol(re + 1, NULL, 10) : 0;
    return true;
}

/* Whether two scalar stores of one stretch come back to back as a run: the same guard, the
 * same address register, neighbouring elements of one width. */
static bool neighbours(const struct store_at *a, const struct store_at *b)
{
    return a->stretch == b->stretch && a->width == b->width && strcmp(a->reg, b->reg) == 0 &&
           labs(a->offset - b->offset) == (long)a->width && a->guard_len == b->guard_len &&
           strncmp(a->guard, b->guard, a->guard_len) == 0;
}

double clc_ptx_stores_combined(const char *ptx, const char *kernel)
{
    struct line *ls;
    size_t n = ptx && kernel ? body_lines(ptx, kernel, &ls) : 0;
    if (n == 0)
        return NAN;
    struct store_at *st = malloc(n * sizeof *st);
    size_t ns = 0;
    unsigned stretch = 0;
    bool together = false;
    for (size_t i = 0; st != NULL && i < n; i++) {
        if (ls[i].kind == LABEL || ls[i].kind == BRANCH || ls[i].kind == BARRIER)
            stretch++;
        else if (ls[i].kind == INSN && global_store(&ls[i], &st[ns])) {
            st[ns].stretch = stretch;
            together |= st[ns++].vector;
        }
    }
    for (size_t i = 0; st != NULL && !together && i < ns; i++)
        for (size_t j = i + 1; j < ns && !together; j++)
            together = neighbours(&st[i], &st[j]);
    double combined = st == NULL || ns == 0 ? NAN : together ? 1.0 : 0.0;
    free(st);
    free(ls);
    return combined;
}
