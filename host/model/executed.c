/* executed.c - what a work-item of a kernel executes, counted by running its PTX: the
 * integer work (index arithmetic, loops over a group's id, divisions by a run-time length)
 * that a kernel pays beside its memory traffic.  The instructions a work-item executes depend
 * on the launch (a loop over the bits of the group count runs log2 of it times, a division
 * takes its 32-bit path only for numbers below 2^32), which the PTX alone does not give: so
 * the lanes of one warp are run, instruction by instruction, on the launch's own values
 * (arguments, sizes, ids), following their branches.  What a load returns is not known; a
 * branch on it is taken as not taken, the usual path of a guard (`@%p bra` past an access).
 * Only the work on the path to a global load's address is counted, by data or by a loop's
 * count (the test and branch of a loop that computes part of an address): a load waits for
 * it, while other work (a value computed to be stored, indices into __local, a loop's own
 * control where the loop only loads) runs as the loads are in flight, which the memory's
 * time already covers (counting all of it, the suite's broadcast and scatter rows and the
 * tiled transposes ran 5 to 13 % faster than predicted on the H100).
 *
 * The count is in units of issued 32-bit instructions: on NVIDIA's GPUs the integer units
 * are 32 bits wide, so a 64-bit add, logic operation, shift or comparison is two, a 64-bit
 * multiply four; register copies and parameter reads cost nothing the assembler keeps.
 * Divisions and remainders are counted apart, by width, since each is a sequence whose cost
 * the `indexmath` case measures (bench/results/h100/indexmath/: a 64-bit multiply-add round,
 * 6 units, and a shift round, 6 units, each cost 0.243 ps an element on the H100). */
#define _GNU_SOURCE
#include "clcoalesce/model.h"
#include "ptxtext.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define STEPS_MAX 200000 /* instructions a lane may run before the count is given up */
#define PREFIXES 16      /* register kinds declared (%r, %rd, %p, %f, %fd, ...) */

enum op {
    OP_OTHER, OP_ADD, OP_SUB, OP_MUL, OP_MAD, OP_DIV, OP_REM, OP_AND, OP_OR, OP_XOR, OP_NOT,
    OP_NEG, OP_SHL, OP_SHR, OP_MIN, OP_MAX, OP_SELP, OP_SETP, OP_CVT, OP_MOV, OP_PARAM,
    OP_BRA, OP_RET
};
enum cmp { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE, C_NONE };
enum special { S_TID, S_NTID = 3, S_CTAID = 6, S_NCTAID = 9, S_ENVREG = 12, S_LANE = 21, S_NONE };

/* An operand: a register, an immediate, a special register, a parameter or a label. */
struct opnd {
    enum { K_NONE, K_REG, K_IMM, K_SPECIAL, K_PARAM, K_LABEL, K_UNKNOWN } kind;
    int reg;        /* K_REG: its index; K_SPECIAL: enum special (+ dimension) */
    uint64_t imm;   /* K_IMM: its bits; K_PARAM: the parameter's position */
    const char *s;  /* K_LABEL: its name in the text */
    size_t len;
};

struct insn {
    enum op op;
    int guard;      /* the predicate register it runs under, -1 none */
    bool guard_not;
    int width;      /* bits of its type; 1 a predicate */
    bool sgn, flt;  /* a signed or a floating-point type */
    int src_width;  /* cvt: the source type's; mul, mad .wide: the operands' */
    bool src_sgn, src_flt, hi, wide;
    enum cmp cmp;
    int n;          /* operands: d, a, b, c */
    struct opnd o[4];
    long target;    /* OP_BRA: the instruction it goes to */
    double units;
    int division;   /* 0, or the width of a division or remainder */
    int addr_reg;   /* a global load: the register of its address (-1: none) */
    bool on_path;   /* a global load, or an instruction whose result one's address needs */
};

struct prog {
    struct insn *in;
    size_t n;
    int nregs;
    struct { char name[8]; int base, count; } pre[PREFIXES];
    int npre;
};

/* ------------------------------------------------------------------ reading the text */

/* The register `%rd12` (name, len) as an index; -1 where its kind was not declared. */
static int reg_index(const struct prog *pg, const char *s, size_t len)
{
    size_t k = 0;
    while (k < len && !isdigit((unsigned char)s[k]))
        k++;
    for (int i = 0; i < pg->npre; i++)
        if (strlen(pg->pre[i].name) == k && strncmp(pg->pre[i].name, s, k) == 0) {
            long num = k < len ? strtol(s + k, NULL, 10) : 0;
            return num >= 0 && num < pg->pre[i].count ? pg->pre[i].base + (int)num : -1;
        }
    return -1;
}

/* A declaration `.reg .b64 %rd<39>;`: room for its registers. */
static void declare(struct prog *pg, const char *p, const char *end)
{
    const char *pct = memchr(p, '%', (size_t)(end - p));
    const char *lt = pct ? memchr(pct, '<', (size_t)(end - pct)) : NULL;
    if (lt == NULL || pg->npre == PREFIXES || (size_t)(lt - pct) >= sizeof pg->pre[0].name)
        return;
    long count = strtol(lt + 1, NULL, 10);
    if (count <= 0 || count > 100000)
        return;
    memcpy(pg->pre[pg->npre].name, pct, (size_t)(lt - pct));
    pg->pre[pg->npre].name[lt - pct] = '\0';
    pg->pre[pg->npre].base = pg->nregs;
    pg->pre[pg->npre++].count = (int)count;
    pg->nregs += (int)count;
}

static int special_of(const char *s, size_t len)
{
    static const char *const names[] = {"%tid", "%ntid", "%ctaid", "%nctaid"};
    for (int i = 0; i < 4; i++) {
        size_t k = strlen(names[i]);
        if (len == k + 2 && strncmp(s, names[i], k) == 0 && s[k] == '.' && s[k + 1] >= 'x' &&
            s[k + 1] <= 'z')
            return 3 * i + (s[k + 1] - 'x');
    }
    if (len > 7 && strncmp(s, "%envreg", 7) == 0) {
        long e = strtol(s + 7, NULL, 10);
        return e >= 0 && e < 9 ? S_ENVREG + (int)e : S_NONE;
    }
    return len == 7 && strncmp(s, "%laneid", 7) == 0 ? S_LANE : S_NONE;
}

/* One operand's text [s, s + len). */
static struct opnd operand(const struct prog *pg, const char *s, size_t len)
{
    struct opnd o = {.kind = K_UNKNOWN, .s = s, .len = len};
    if (len == 0)
        return o;
    if (s[0] == '%') {
        int sp = special_of(s, len);
        if (sp != S_NONE)
            return (struct opnd){.kind = K_SPECIAL, .reg = sp};
        int r = reg_index(pg, s, len);
        return r >= 0 ? (struct opnd){.kind = K_REG, .reg = r} : o;
    }
    if (s[0] == '[') { /* [name_param_3] names a parameter; another address, a load's */
        const char *pp = memmem(s, len, "_param_", 7);
        if (pp != NULL)
            return (struct opnd){.kind = K_PARAM, .imm = strtoull(pp + 7, NULL, 10)};
        return o;
    }
    if (isdigit((unsigned char)s[0]) || s[0] == '-') {
        if (len > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'd'))
            return o; /* a float's bits: not followed */
        return (struct opnd){.kind = K_IMM, .imm = strtoull(s, NULL, 0)};
    }
    if (s[0] == '$' || isalpha((unsigned char)s[0]) || s[0] == '_')
        o.kind = K_LABEL;
    return o;
}

/* The type named by an opcode's modifier, as width and kind; false for another modifier. */
static bool type_of(const char *m, size_t len, int *width, bool *sgn, bool *flt)
{
    if (len == 4 && strncmp(m, "pred", 4) == 0) {
        *width = 1, *sgn = *flt = false;
        return true;
    }
    if (len < 2 || len > 3 || !strchr("usbf", m[0]) || !isdigit((unsigned char)m[1]))
        return false;
    *width = atoi(m + 1);
    *sgn = m[0] == 's';
    *flt = m[0] == 'f';
    return *width == 8 || *width == 16 || *width == 32 || *width == 64;
}

static enum op op_named(const char *s, size_t len)
{
    static const struct { const char *name; enum op op; } ops[] = {
        {"add", OP_ADD}, {"sub", OP_SUB}, {"mul", OP_MUL},   {"mad", OP_MAD},   {"div", OP_DIV},
        {"rem", OP_REM}, {"and", OP_AND}, {"or", OP_OR},     {"xor", OP_XOR},   {"not", OP_NOT},
        {"neg", OP_NEG}, {"shl", OP_SHL}, {"shr", OP_SHR},   {"min", OP_MIN},   {"max", OP_MAX},
        {"selp", OP_SELP}, {"setp", OP_SETP}, {"cvt", OP_CVT}, {"mov", OP_MOV}, {"cvta", OP_MOV},
        {"bra", OP_BRA}, {"ret", OP_RET}, {"exit", OP_RET}};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strlen(ops[i].name) == len && strncmp(ops[i].name, s, len) == 0)
            return ops[i].op;
    return OP_OTHER;
}

/* The opcode's modifiers: types, comparison, mul/mad's lo, hi, wide, ld's state space. */
static void modifiers(struct insn *in, const char *p, const char *end)
{
    static const char *const cmps[] = {"eq", "ne", "lt", "le", "gt", "ge",
                                       "lo", "ls", "hi", "hs"};
    int types = 0;
    while (p < end && *p == '.') {
        const char *m = ++p;
        while (p < end && *p != '.')
            p++;
        size_t len = (size_t)(p - m);
        int w;
        bool s, f;
        if (type_of(m, len, &w, &s, &f)) {
            if (types++ == 0)
                in->width = w, in->sgn = s, in->flt = f;
            else
                in->src_width = w, in->src_sgn = s, in->src_flt = f;
        } else if (in->op == OP_SETP && in->cmp == C_NONE) {
            for (int c = 0; c < 10; c++)
                if (strlen(cmps[c]) == len && strncmp(cmps[c], m, len) == 0)
                    in->cmp = (enum cmp)(c < 6 ? c : c - 4); /* lo ls hi hs: unsigned lt le gt ge */
        } else if (len == 2 && strncmp(m, "hi", 2) == 0)
            in->hi = true;
        else if (len == 4 && strncmp(m, "wide", 4) == 0)
            in->wide = true;
        else if (in->op == OP_OTHER && len == 5 && strncmp(m, "param", 5) == 0)
            in->op = OP_PARAM;
    }
    if (in->op == OP_MUL || in->op == OP_MAD) { /* mul.wide.s32: 32-bit operands, 64-bit d */
        if (in->wide)
            in->src_width = in->width, in->src_sgn = in->sgn, in->width *= 2;
    }
}

/* What an instruction costs in 32-bit instructions issued (the file's comment). */
static double units_of(const struct insn *in)
{
    switch (in->op) {
    case OP_MOV:
    case OP_PARAM:
    case OP_RET:
        return 0;
    case OP_DIV:
    case OP_REM:
        return in->flt ? 1 : 0; /* integer ones are counted apart */
    case OP_MUL:
    case OP_MAD:
        return !in->flt && in->width == 64 && !in->wide ? 4 : 1;
    case OP_CVT:
    case OP_BRA:
    case OP_OTHER:
        return 1;
    default:
        return !in->flt && in->width == 64 ? 2 : 1;
    }
}

/* Splits the operands of an instruction (after its opcode, before its ';') at the commas
 * outside brackets and braces. */
static int split_operands(const char *p, const char *end, const char *s[], size_t len[], int max)
{
    int n = 0, depth = 0;
    p = clc_ptx_skip_space(p, end);
    const char *start = p;
    for (; p <= end && n < max; p++) {
        if (p < end && (*p == '[' || *p == '{'))
            depth++;
        else if (p < end && (*p == ']' || *p == '}'))
            depth--;
        if (p == end || (*p == ',' && depth == 0)) {
            const char *e = p;
            while (e > start && isspace((unsigned char)e[-1]))
                e--;
            if (e > start) {
                s[n] = start;
                len[n++] = (size_t)(e - start);
            }
            start = clc_ptx_skip_space(p + 1, end);
        }
    }
    return n;
}

/* Whether opcode [name, end) (modifiers from mods) loads from global memory: ld, ld.global,
 * ld.global.nc, not from the parameter, shared, local or constant space. */
static bool global_load(const char *name, const char *mods, const char *end)
{
    static const char *const other[] = {".param", ".shared", ".local", ".const"};
    if (mods - name != 2 || strncmp(name, "ld", 2) != 0)
        return false;
    for (int i = 0; i < 4; i++)
        if (memmem(mods, (size_t)(end - mods), other[i], strlen(other[i])) != NULL)
            return false;
    return true;
}

/* Reads one instruction line [p, end) into in; false where it is none (a directive, a
 * label, a brace). */
static bool read_insn(const struct prog *pg, const char *p, const char *end, struct insn *in)
{
    *in = (struct insn){.guard = -1, .target = -1, .width = 32, .cmp = C_NONE, .addr_reg = -1};
    p = clc_ptx_skip_space(p, end);
    const char *semi = memchr(p, ';', (size_t)(end - p));
    if (semi == NULL || *p == '.' || *p == '{' || *p == '}' || *p == '/')
        return false;
    end = semi;
    if (*p == '@') {
        in->guard_not = p[1] == '!';
        const char *g = p + 1 + in->guard_not, *ge = g;
        while (ge < end && !isspace((unsigned char)*ge))
            ge++;
        in->guard = reg_index(pg, g, (size_t)(ge - g));
        p = clc_ptx_skip_space(ge, end);
    }
    const char *name = p;
    while (p < end && *p != '.' && !isspace((unsigned char)*p))
        p++;
    in->op = op_named(name, (size_t)(p - name));
    const char *mods = p;
    while (p < end && !isspace((unsigned char)*p))
        p++;
    modifiers(in, mods, p);
    const char *s[4];
    size_t len[4];
    in->n = split_operands(p, end, s, len, 4);
    for (int i = 0; i < in->n; i++)
        in->o[i] = operand(pg, s[i], len[i]);
    if (in->op == OP_SETP && in->n > 0 && memchr(s[0], '|', len[0]) != NULL)
        in->cmp = C_NONE; /* two predicates written: not followed */
    if (global_load(name, mods, p) && in->n > 1 && s[1][0] == '[') {
        const char *r = memchr(s[1], '%', len[1]), *re = r;
        while (re != NULL && re < s[1] + len[1] && *re != '+' && *re != ']' &&
               !isspace((unsigned char)*re))
            re++;
        in->addr_reg = r != NULL ? reg_index(pg, r, (size_t)(re - r)) : -1;
    }
    if ((in->op == OP_DIV || in->op == OP_REM) && !in->flt)
        in->division = in->width;
    in->units = units_of(in);
    return true;
}

/* The body of entry `kernel` read into pg (free pg->in); false where ptx has no such entry
 * or a branch goes to no label of it. */
static bool read_prog(const char *ptx, const char *kernel, struct prog *pg)
{
    memset(pg, 0, sizeof *pg);
    size_t cap = 0;
    const char *e = clc_ptx_entry_body(ptx, kernel);
    if (e == NULL)
        return false;
    /* labels: where each stands, by instruction index */
    const char *lab[1024];
    size_t lab_len[1024];
    long lab_at[1024];
    int nlab = 0;
    for (const char *l = e + 1; *l != '\0';) {
        const char *nl = strchr(l, '\n'), *end = nl ? nl : l + strlen(l);
        if (end > l && l[0] == '}') /* the body ends with a "}" in the first column */
            break;
        const char *p = clc_ptx_skip_space(l, end);
        if (strncmp(p, ".reg", 4) == 0)
            declare(pg, p, end);
        else if (p < end && (*p == '$' || isalpha((unsigned char)*p)) && /* a label */
                 memchr(p, ':', (size_t)(end - p)) != NULL &&
                 memchr(p, ';', (size_t)(end - p)) == NULL) {
            if (nlab < 1024) {
                lab[nlab] = p;
                lab_len[nlab] = (size_t)((const char *)memchr(p, ':', (size_t)(end - p)) - p);
                lab_at[nlab++] = (long)pg->n;
            }
        } else {
            if (pg->n == cap) {
                struct insn *g = realloc(pg->in, (cap = cap ? 2 * cap : 256) * sizeof *g);
                if (g == NULL)
                    return false;
                pg->in = g;
            }
            pg->n += read_insn(pg, p, end, &pg->in[pg->n]);
        }
        l = nl ? nl + 1 : end;
    }
    for (size_t i = 0; i < pg->n; i++) {
        struct insn *in = &pg->in[i];
        if (in->op != OP_BRA)
            continue;
        for (int k = 0; k < nlab && in->target < 0; k++)
            if (in->n > 0 && in->o[0].len == lab_len[k] &&
                strncmp(in->o[0].s, lab[k], lab_len[k]) == 0)
                in->target = lab_at[k];
        if (in->target < 0)
            return false;
    }
    return pg->n > 0;
}

/* Marks the instructions on the path to a global load's address: the loads, those whose
 * results an address needs, through any number of steps (over the whole body, whatever the
 * order), and the branch back of a loop that computes part of an address, with what its
 * test reads (the trips decide the address).  A test only a forward branch reads is not on
 * it.  False where memory runs short. */
/* Whether the loop [from, to] computes part of an address: an instruction of it on the path
 * that is not a load itself. */
static bool loop_feeds(const struct prog *pg, size_t from, size_t to)
{
    for (size_t j = from; j < to; j++)
        if (pg->in[j].on_path && pg->in[j].addr_reg < 0 && pg->in[j].op != OP_BRA)
            return true;
    return false;
}

static bool address_path(struct prog *pg)
{
    bool *need = calloc((size_t)pg->nregs + 1, sizeof *need);
    if (need == NULL)
        return false;
    for (size_t i = 0; i < pg->n; i++)
        if (pg->in[i].addr_reg >= 0)
            need[pg->in[i].addr_reg] = pg->in[i].on_path = true;
    for (bool grew = true; grew;) {
        grew = false;
        for (size_t i = 0; i < pg->n; i++) {
            struct insn *in = &pg->in[i];
            if (in->op == OP_BRA && in->target <= (long)i && !in->on_path &&
                loop_feeds(pg, (size_t)in->target, i)) {
                in->on_path = grew = true; /* the loop's count decides the address */
                if (in->guard >= 0)
                    need[in->guard] = true;
                continue;
            }
            if (in->n == 0 || in->o[0].kind != K_REG || !need[in->o[0].reg])
                continue;
            grew |= !in->on_path;
            in->on_path = true;
            for (int k = 1; k < in->n; k++)
                if (in->o[k].kind == K_REG && !need[in->o[k].reg])
                    need[in->o[k].reg] = grew = true;
        }
    }
    free(need);
    return true;
}

/* ------------------------------------------------------------------ running a lane */

struct lane {
    uint64_t *v;
    bool *known;
    uint64_t special[S_NONE];
    const uint64_t *args;
    unsigned nargs;
};

static uint64_t fit(uint64_t v, int width)
{
    return width >= 64 ? v : v & ((UINT64_C(1) << width) - 1);
}

/* v of `width` bits, sign-extended to 64 where sgn. */
static int64_t ext(uint64_t v, int width, bool sgn)
{
    v = fit(v, width);
    if (sgn && width < 64 && (v >> (width - 1)) & 1)
        v |= ~UINT64_C(0) << width;
    return (int64_t)v;
}

/* The value of operand o, false where it is not known. */
static bool value(const struct lane *ln, const struct opnd *o, uint64_t *out)
{
    switch (o->kind) {
    case K_REG:
        *out = ln->v[o->reg];
        return ln->known[o->reg];
    case K_IMM:
        *out = o->imm;
        return true;
    case K_SPECIAL:
        *out = ln->special[o->reg];
        return true;
    case K_PARAM:
        *out = o->imm < ln->nargs ? ln->args[o->imm] : 0;
        return o->imm < ln->nargs;
    default:
        return false;
    }
}

static bool compare(enum cmp c, uint64_t a, uint64_t b, int width, bool sgn)
{
    int64_t x = ext(a, width, sgn), y = ext(b, width, sgn);
    uint64_t ux = fit(a, width), uy = fit(b, width);
    switch (c) {
    case C_EQ: return ux == uy;
    case C_NE: return ux != uy;
    case C_LT: return sgn ? x < y : ux < uy;
    case C_LE: return sgn ? x <= y : ux <= uy;
    case C_GT: return sgn ? x > y : ux > uy;
    default: return sgn ? x >= y : ux >= uy;
    }
}

/* The result of an integer instruction on known a, b, c; false where it has none (a
 * division by zero, a float, an instruction not followed). */
static bool compute(const struct insn *in, uint64_t a, uint64_t b, uint64_t c, uint64_t *d)
{
    int w = in->width, sw = in->src_width ? in->src_width : w;
    bool s = in->sgn;
    unsigned sh = (unsigned)fit(b, 32);
    switch (in->op) {
    case OP_ADD: *d = a + b; break;
    case OP_SUB: *d = a - b; break;
    case OP_MUL:
    case OP_MAD:
        if (in->wide)
            *d = s ? (uint64_t)(ext(a, sw, true) * ext(b, sw, true)) : fit(a, sw) * fit(b, sw);
        else if (in->hi)
            *d = s ? (uint64_t)(((__int128)ext(a, w, true) * ext(b, w, true)) >> w)
                   : (uint64_t)(((unsigned __int128)fit(a, w) * fit(b, w)) >> w);
        else
            *d = a * b;
        if (in->op == OP_MAD)
            *d += c;
        break;
    case OP_DIV:
    case OP_REM:
        if (fit(b, w) == 0 || (s && ext(b, w, true) == -1))
            return false;
        if (s)
            *d = (uint64_t)(in->op == OP_DIV ? ext(a, w, true) / ext(b, w, true)
                                             : ext(a, w, true) % ext(b, w, true));
        else
            *d = in->op == OP_DIV ? fit(a, w) / fit(b, w) : fit(a, w) % fit(b, w);
        break;
    case OP_AND: *d = a & b; break;
    case OP_OR: *d = a | b; break;
    case OP_XOR: *d = a ^ b; break;
    case OP_NOT: *d = w == 1 ? !(a & 1) : ~a; break;
    case OP_NEG: *d = -a; break;
    case OP_SHL: *d = sh >= (unsigned)w ? 0 : a << sh; break;
    case OP_SHR:
        if (s)
            *d = (uint64_t)(ext(a, w, true) >> (sh >= (unsigned)w ? (unsigned)w - 1 : sh));
        else
            *d = sh >= (unsigned)w ? 0 : fit(a, w) >> sh;
        break;
    case OP_MIN:
    case OP_MAX: {
        bool lt = compare(C_LT, a, b, w, s);
        *d = (in->op == OP_MIN) == lt ? a : b;
        break;
    }
    case OP_CVT: *d = (uint64_t)ext(a, sw, in->src_sgn); break;
    case OP_MOV:
    case OP_PARAM: *d = a; break;
    default: return false;
    }
    *d = fit(*d, w);
    return true;
}

/* Runs instruction i of pg in lane ln: its result into its destination (unknown where its
 * inputs are), and the next instruction's index; -1 where the lane is done. */
static long step(const struct prog *pg, long i, struct lane *ln)
{
    const struct insn *in = &pg->in[i];
    uint64_t g = 1;
    bool g_known = in->guard < 0 || value(ln, &(struct opnd){.kind = K_REG, .reg = in->guard}, &g);
    bool runs = g_known ? (g & 1) != in->guard_not : true;
    if (in->op == OP_RET)
        return runs && g_known ? -1 : i + 1;
    if (in->op == OP_BRA) /* unknown: not taken, the usual path past a guard */
        return runs && g_known ? in->target : i + 1;
    if (!runs || in->n == 0 || in->o[0].kind != K_REG)
        return i + 1; /* a store, a barrier: no register written */
    int d = in->o[0].reg;
    uint64_t v[3] = {0, 0, 0};
    bool known = g_known && !in->flt && !(in->op == OP_CVT && in->src_flt);
    for (int k = 1; k < in->n && k < 4 && known; k++)
        known = value(ln, &in->o[k], &v[k - 1]);
    if (in->op == OP_SELP) { /* d, a, b, p */
        ln->v[d] = fit((v[2] & 1) ? v[0] : v[1], in->width);
        ln->known[d] = known && in->n == 4;
    } else if (in->op == OP_SETP) { /* p, a, b (p|q and combined forms: cmp C_NONE) */
        known = known && in->n == 3 && in->cmp != C_NONE;
        ln->v[d] = known && compare(in->cmp, v[0], v[1], in->width, in->sgn);
        ln->known[d] = known;
    } else
        ln->known[d] = known && compute(in, v[0], v[1], v[2], &ln->v[d]);
    return i + 1;
}

/* Runs one lane from the entry to its return: its units and divisions into w; false where
 * it ran past STEPS_MAX. */
static bool run_lane(const struct prog *pg, struct lane *ln, struct clc_ptx_work *w)
{
    memset(ln->known, 0, (size_t)pg->nregs * sizeof *ln->known);
    *w = (struct clc_ptx_work){0};
    long i = 0;
    for (long steps = 0; i >= 0 && (size_t)i < pg->n; steps++) {
        if (steps == STEPS_MAX)
            return false;
        const struct insn *in = &pg->in[i];
        if (in->on_path) { /* the rest runs while the loads are in flight */
            w->units += in->units;
            w->div32 += in->division > 0 && in->division <= 32;
            w->div64 += in->division == 64;
        }
        i = step(pg, i, ln);
    }
    return true;
}

/* The special registers of lane `lane` of warp 0 of the launch's middle work-group.  NVIDIA's
 * OpenCL reads the group id as %envreg0.. + %ctaid, the global id as %envreg3.. + the CUDA
 * ids, the group count from %envreg6..: offsets 0, counts the launch's. */
static bool lane_ids(const struct clc_ptx_launch *l, unsigned lane, uint64_t *sp)
{
    memset(sp, 0, S_NONE * sizeof *sp);
    size_t lin = lane;
    for (unsigned d = 0; d < 3; d++) {
        size_t local = d < l->dims && l->local[d] ? l->local[d] : 1;
        size_t groups = d < l->dims ? l->global[d] / local : 1;
        sp[S_TID + d] = lin % local;
        lin /= local;
        sp[S_NTID + d] = local;
        sp[S_CTAID + d] = groups / 2;
        sp[S_NCTAID + d] = groups ? groups : 1;
        sp[S_ENVREG + 6 + d] = sp[S_NCTAID + d];
    }
    sp[S_LANE] = lane;
    return lin == 0; /* past the group's last work-item otherwise */
}

bool clc_ptx_work(const char *ptx, const char *kernel, const struct clc_ptx_launch *l,
                  struct clc_ptx_work *out)
{
    struct prog pg = {0};
    *out = (struct clc_ptx_work){NAN, NAN, NAN};
    if (ptx == NULL || kernel == NULL || l == NULL || l->dims < 1 || l->dims > 3 ||
        !read_prog(ptx, kernel, &pg) || !address_path(&pg)) {
        free(pg.in);
        return false;
    }
    struct lane ln = {.v = calloc((size_t)pg.nregs + 1, sizeof *ln.v),
                      .known = calloc((size_t)pg.nregs + 1, sizeof *ln.known),
                      .args = l->args, .nargs = l->nargs};
    bool ok = ln.v != NULL && ln.known != NULL;
    struct clc_ptx_work most = {0}, one;
    for (unsigned lane = 0; ok && lane < CLC_MODEL_WARP && lane_ids(l, lane, ln.special); lane++) {
        ok = run_lane(&pg, &ln, &one);
        if (one.units > most.units) /* the warp issues what its busiest lane does */
            most = one;
    }
    if (ok)
        *out = most;
    free(ln.v);
    free(ln.known);
    free(pg.in);
    return ok;
}
