/* rewrite.c - a kernel written without the trace macros, rewritten for its trace build (see
 * rewrite.h).  libclang parses the file as OpenCL C 1.2; a walk over each kernel's body finds
 * every lvalue in __global or __local memory (p[i], *p, p->x, s.x, a __local variable) and
 * every built-in that reaches memory through a pointer (vloadN / vstoreN, the atomics), and
 * records text edits that wrap each one in a recorder of cl/clc_trace.h (CLC_TRACE_GI_ and
 * friends).  The edits only insert or replace the punctuation between an expression's parts,
 * never a line break, so one `#line` keeps the compiler's messages on the user's lines.
 *
 * What the recorders need from the text: CLC_TRACE_GI_(p, i, kind) evaluates p more than once
 * (so p must be free of side effects and accesses: "pure" below; otherwise the access takes
 * the address form CLC_TRACE_GA_(e, kind), which evaluates &e once).  An access written
 * inside a macro's expansion has no text of its own to wrap: it is named as untraceable, and
 * so is one in a function that is not a kernel (the trace state lives in the kernel). */
#define _GNU_SOURCE
#include "clcoalesce/rewrite.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clcoalesce/core.h"

#include <errno.h>
#include <unistd.h>

/* ------------------------------------------------------------------ into a file */

int clc_rewrite_to_file(const char *path, const char *include_dir, const char *defines,
                        char *tmp, size_t tmp_len, char *why, size_t why_len)
{
    char *src;
    tmp[0] = '\0';
    if (clc_rewrite_for_trace(path, include_dir, defines, &src, why, why_len) != CLC_OK)
        return CLC_ERR;
    const char *dir = getenv("TMPDIR");
    snprintf(tmp, tmp_len, "%s/clcoalesce-trace-XXXXXX.cl", dir && *dir ? dir : "/tmp");
    int fd = mkstemps(tmp, 3);
    size_t len = strlen(src);
    bool ok = fd >= 0 && write(fd, src, len) == (ssize_t)len;
    int err = errno;
    if (fd >= 0 && close(fd) != 0 && ok) {
        ok = false;
        err = errno;
    }
    free(src);
    if (!ok) {
        snprintf(why, why_len, "cannot write the rewritten kernel to '%s': %s", tmp,
                 strerror(err));
        if (fd >= 0)
            unlink(tmp);
        tmp[0] = '\0';
        return CLC_ERR;
    }
    return CLC_OK;
}

#ifndef CLC_HAVE_LIBCLANG

bool clc_rewrite_available(void)
{
    return false;
}

int clc_rewrite_for_trace(const char *path, const char *include_dir, const char *defines,
                          char **source_out, char *why, size_t why_len)
{
    (void)path;
    (void)include_dir;
    (void)defines;
    *source_out = NULL;
    snprintf(why, why_len, "the rewriter was not built (libclang was not found when "
                           "clcoalesce was built)");
    return CLC_ERR;
}

#else

#include <clang-c/Index.h>
#include <ctype.h>

#include "clcoalesce/kernelfile.h"

enum { AS_GLOBAL = 1, AS_LOCAL = 2 }; /* clang's LangAS numbers for OpenCL C */
enum { LOAD = 0, STORE = 1, UPDATE = 2, NONE = -1 }; /* the kinds clc_trace.h records */
enum { CLOSE = 0, REPLACE = 1, OPEN = 2 }; /* edits at one offset apply in this order */
#define MAX_DEPTH 256

/* One text edit: `len` bytes at `off` replaced by `text` (len 0: an insertion). */
struct edit {
    unsigned off, len;
    int cls;    /* CLOSE, REPLACE or OPEN: the order among edits at the same offset */
    long key;   /* within a class: inner closes first, outer opens first */
    size_t seq; /* the order made: of two wrappers of one text, the first made is outer */
    char *text; /* owned */
};

/* The state of one rewrite. */
struct rw {
    CXFile file;        /* the main file */
    const char *src;    /* its text */
    unsigned len;       /* its length */
    const char *path;   /* as the caller named it, for messages */
    struct edit *edits; /* the edits so far */
    size_t n, cap;
    char *why;          /* the first problem, "PATH:LINE: ..." */
    size_t why_len;
    bool failed;
    bool kernel;                 /* walking a kernel (else another function) */
    CXString func;               /* the function walked */
    CXCursor stack[MAX_DEPTH];   /* the ancestors of the cursor walked, outermost first */
    int depth;
};

/* ------------------------------------------------------------------ small helpers */

/* Records the first problem, at the line where c starts. */
static void fail(struct rw *r, CXCursor c, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(struct rw *r, CXCursor c, const char *fmt, ...)
{
    if (r->failed)
        return;
    r->failed = true;
    unsigned line = 0;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), NULL, &line, NULL,
                               NULL);
    int k = snprintf(r->why, r->why_len, "%s:%u: ", r->path, line);
    va_list ap;
    va_start(ap, fmt);
    if (k >= 0 && (size_t)k < r->why_len)
        vsnprintf(r->why + k, r->why_len - (size_t)k, fmt, ap);
    va_end(ap);
}

/* Adds an edit; the text is formatted. */
static void edit(struct rw *r, unsigned off, unsigned len, int cls, long key, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static void edit(struct rw *r, unsigned off, unsigned len, int cls, long key, const char *fmt, ...)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 64;
        struct edit *e = realloc(r->edits, cap * sizeof *e);
        if (e == NULL)
            goto oom;
        r->edits = e;
        r->cap = cap;
    }
    struct edit *e = &r->edits[r->n];
    va_list ap;
    va_start(ap, fmt);
    int k = vasprintf(&e->text, fmt, ap);
    va_end(ap);
    if (k < 0)
        goto oom;
    e->off = off;
    e->len = len;
    e->cls = cls;
    e->key = key;
    e->seq = r->n;
    r->n++;
    return;
oom:
    if (!r->failed)
        snprintf(r->why, r->why_len, "out of memory");
    r->failed = true;
}

/* c's extent as offsets [*s, *e) into the main file; false when it lies elsewhere. */
static bool extent(const struct rw *r, CXCursor c, unsigned *s, unsigned *e)
{
    CXSourceRange x = clang_getCursorExtent(c);
    CXFile f1, f2;
    clang_getExpansionLocation(clang_getRangeStart(x), &f1, NULL, NULL, s);
    clang_getExpansionLocation(clang_getRangeEnd(x), &f2, NULL, NULL, e);
    return f1 != NULL && clang_File_isEqual(f1, r->file) && f2 != NULL &&
           clang_File_isEqual(f2, r->file) && *s <= *e && *e <= r->len;
}

static unsigned address_space(CXType t)
{
    return t.kind == CXType_Invalid ? 0 : clang_getAddressSpace(t);
}

static bool is_array(CXType t)
{
    enum CXTypeKind k = clang_getCanonicalType(t).kind;
    return k == CXType_ConstantArray || k == CXType_IncompleteArray ||
           k == CXType_VariableArray || k == CXType_DependentSizedArray;
}

static bool is_vector(CXType t)
{
    enum CXTypeKind k = clang_getCanonicalType(t).kind;
    return k == CXType_Vector || k == CXType_ExtVector;
}

/* The children of c, at most `max`, into out; returns how many there are. */
struct kids {
    CXCursor *out;
    int max, n;
};
static enum CXChildVisitResult add_kid(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    struct kids *k = d;
    if (k->n < k->max)
        k->out[k->n] = c;
    k->n++;
    return CXChildVisit_Continue;
}
static int children(CXCursor c, CXCursor *out, int max)
{
    struct kids k = {out, max, 0};
    clang_visitChildren(c, add_kid, &k);
    return k.n;
}

/* The offset of the first character at or after `off` that is not white space. */
static unsigned skip_space(const struct rw *r, unsigned off)
{
    while (off < r->len && isspace((unsigned char)r->src[off]))
        off++;
    return off;
}

/* ------------------------------------------------------------------ what an access is */

/* The address space of the lvalue c when it is an access of __global or __local memory the
 * recorders can wrap (an element, a member, a __local variable; not an array, which decays
 * to its address, nor an element of a vector, whose vector is the access), else 0. */
static unsigned access_space(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_ArraySubscriptExpr && k != CXCursor_UnaryOperator &&
        k != CXCursor_MemberRefExpr && k != CXCursor_DeclRefExpr)
        return 0;
    CXType t = clang_getCursorType(c);
    unsigned as = address_space(t);
    if ((as != AS_GLOBAL && as != AS_LOCAL) || is_array(t))
        return 0;
    /* a unary operator of such a type is *p (++ and -- give an unqualified value), even one
     * whose '*' comes from a macro: wrap_access then names it */
    if (k == CXCursor_ArraySubscriptExpr) {
        CXCursor kid[2];
        if (children(c, kid, 2) == 2 && is_vector(clang_getCursorType(kid[0])))
            return 0;
    }
    return as;
}

/* Whether evaluating c twice is the same as once: no side effects, no call, no access. */
static enum CXChildVisitResult impure_visit(CXCursor c, CXCursor parent, CXClientData d);
static bool pure(const struct rw *r, CXCursor c)
{
    bool impure = false;
    const void *ctx[2] = {r, &impure};
    impure_visit(c, clang_getNullCursor(), ctx);
    if (!impure)
        clang_visitChildren(c, impure_visit, ctx);
    return !impure;
}
static enum CXChildVisitResult impure_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    const void *const *ctx = d;
    const struct rw *r = ctx[0];
    bool *impure = (bool *)ctx[1];
    enum CXCursorKind k = clang_getCursorKind(c);
    unsigned s, e;
    bool bad = k == CXCursor_CallExpr || k == CXCursor_CompoundAssignOperator ||
               access_space(c) != 0 || !extent(r, c, &s, &e);
    if (!bad && k == CXCursor_UnaryOperator)
        bad = strncmp(r->src + s, "++", 2) == 0 || strncmp(r->src + s, "--", 2) == 0 ||
              (e >= 2 && (strncmp(r->src + e - 2, "++", 2) == 0 ||
                          strncmp(r->src + e - 2, "--", 2) == 0));
    if (!bad && k == CXCursor_BinaryOperator) {
        CXCursor kid[2];
        unsigned ls, le;
        if (children(c, kid, 2) == 2 && extent(r, kid[0], &ls, &le)) {
            unsigned o = skip_space(r, le);
            bad = r->src[o] == '=' && r->src[o + 1] != '=';
        }
    }
    if (bad) {
        *impure = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether c or anything in it comes from a function-like macro's argument (its text is then
 * not where the expansion is, and wrapping it would wrap every use of the argument). */
static enum CXChildVisitResult macro_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    unsigned sp, ex;
    CXSourceLocation at = clang_getRangeStart(clang_getCursorExtent(c));
    clang_getSpellingLocation(at, NULL, NULL, NULL, &sp);
    clang_getExpansionLocation(at, NULL, NULL, NULL, &ex);
    if (sp != ex) {
        *(bool *)d = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}
static bool from_macro(CXCursor c)
{
    bool m = false;
    macro_visit(c, clang_getNullCursor(), &m);
    if (!m)
        clang_visitChildren(c, macro_visit, &m);
    return m;
}

/* What the access c does: LOAD, STORE, UPDATE (read and written: a[i] += x, a[i]++), or NONE
 * (its address is taken: &a[i]).  r->stack holds c's ancestors. */
static int access_kind(const struct rw *r, CXCursor c)
{
    int i = r->depth - 1;
    CXCursor x = c;
    bool part = false; /* x is a part of a vector that c is */
    for (; i >= 0; i--) {
        CXCursor p = r->stack[i];
        enum CXCursorKind k = clang_getCursorKind(p);
        CXType t = clang_getCursorType(p);
        unsigned as = address_space(t);
        CXCursor kid[2];
        if (k == CXCursor_ParenExpr)
            ;
        else if (k == CXCursor_UnexposedExpr && (as == AS_GLOBAL || as == AS_LOCAL) &&
                 !is_array(t))
            part = true; /* v.x, v.s01: an lvalue still */
        else if (k == CXCursor_ArraySubscriptExpr && children(p, kid, 2) == 2 &&
                 clang_equalCursors(kid[0], x) && is_vector(clang_getCursorType(x)))
            part = true; /* v[2] of a vector v */
        else
            break;
        x = p;
    }
    if (i < 0)
        return LOAD;
    CXCursor p = r->stack[i];
    enum CXCursorKind k = clang_getCursorKind(p);
    unsigned s, e;
    if (!extent(r, p, &s, &e))
        return LOAD;
    CXCursor kid[2];
    bool first = children(p, kid, 2) >= 1 && clang_equalCursors(kid[0], x);
    if (k == CXCursor_UnaryOperator) {
        if (strncmp(r->src + s, "++", 2) == 0 || strncmp(r->src + s, "--", 2) == 0 ||
            (e >= 2 && (strncmp(r->src + e - 2, "++", 2) == 0 ||
                        strncmp(r->src + e - 2, "--", 2) == 0)))
            return UPDATE;
        if (r->src[s] == '&' && !part)
            return NONE;
        return LOAD;
    }
    if (k == CXCursor_CompoundAssignOperator && first)
        return UPDATE;
    if (k == CXCursor_BinaryOperator && first) {
        unsigned xs, xe;
        if (extent(r, x, &xs, &xe)) {
            unsigned o = skip_space(r, xe);
            if (r->src[o] == '=' && r->src[o + 1] != '=')
                return STORE;
        }
    }
    return LOAD;
}

/* Whether an ancestor in r->stack is sizeof / alignof / vec_step (nothing there runs). */
static bool unevaluated(const struct rw *r)
{
    for (int i = r->depth - 1; i >= 0; i--)
        if (clang_getCursorKind(r->stack[i]) == CXCursor_UnaryExpr)
            return true;
    return false;
}

/* ------------------------------------------------------------------ the edits */

/* Wraps the access c (address space as, kind) in its recorder. */
static void wrap_access(struct rw *r, CXCursor c, unsigned as, int kind)
{
    char m = as == AS_GLOBAL ? 'G' : 'L';
    unsigned s, e;
    if (!extent(r, c, &s, &e) || from_macro(c)) {
        fail(r, c, "cannot trace this %s access: it is written inside a macro (write it in "
                   "the kernel, or use LOAD / STORE by hand)", as == AS_GLOBAL ? "__global" : "__local");
        return;
    }
    if (clang_getCursorKind(c) == CXCursor_ArraySubscriptExpr) {
        CXCursor kid[2];
        unsigned bs, be, is, ie;
        if (children(c, kid, 2) != 2 || !extent(r, kid[0], &bs, &be) ||
            !extent(r, kid[1], &is, &ie) || bs != s || be > is || ie > e ||
            r->src[skip_space(r, be)] != '[' || r->src[skip_space(r, ie)] != ']') {
            fail(r, c, "cannot trace this %s access: its text is not p[i] (a macro?)",
                 as == AS_GLOBAL ? "__global" : "__local");
            return;
        }
        CXType bt = clang_getCursorType(kid[0]);
        enum CXTypeKind bk = clang_getCanonicalType(bt).kind;
        if ((bk == CXType_Pointer || is_array(bt)) && pure(r, kid[0])) {
            /* p[i] -> CLC_TRACE_GI_((p), (i), kind): the index form, which also tells a
             * gather's dependent load (the index is the value just loaded) */
            edit(r, s, 0, OPEN, -(long)e, "CLC_TRACE_%cI_((", m);
            edit(r, be, is - be, REPLACE, 0, "), (");
            edit(r, ie, e - ie, REPLACE, 0, "), %d)", kind);
            return;
        }
    }
    /* e -> CLC_TRACE_GA_((e), kind): its address evaluated once */
    edit(r, s, 0, OPEN, -(long)e, "CLC_TRACE_%cA_((", m);
    edit(r, e, 0, CLOSE, -(long)s, "), %d)", kind);
}

/* The element count and size in bytes of what vloadN / vstoreN / vload_halfN (name) touch:
 * *n elements, *half when they are halves; false for another name. */
static bool vector_io(const char *name, unsigned *n, bool *half, bool *store, bool *aligned)
{
    const char *p;
    if (strncmp(name, "vload", 5) == 0)
        p = name + 5, *store = false;
    else if (strncmp(name, "vstore", 6) == 0)
        p = name + 6, *store = true;
    else
        return false;
    *aligned = *p == 'a';
    p += *aligned;
    *half = strncmp(p, "_half", 5) == 0;
    p += *half ? 5 : 0;
    if (!*half && !isdigit((unsigned char)*p))
        return false;
    *n = isdigit((unsigned char)*p) ? (unsigned)strtoul(p, NULL, 10) : 1;
    if (*aligned && *n == 3)
        *n = 4; /* vloada_half3 reads four halves */
    return true;
}

static bool is_atomic(const char *name)
{
    static const char *const ops[] = {"add", "sub", "xchg", "inc", "dec", "cmpxchg",
                                      "min", "max", "and", "or",  "xor"};
    const char *p = strncmp(name, "atomic_", 7) == 0 ? name + 7
                    : strncmp(name, "atom_", 5) == 0 ? name + 5
                                                     : NULL;
    for (size_t i = 0; p != NULL && i < sizeof ops / sizeof *ops; i++)
        if (strcmp(p, ops[i]) == 0)
            return true;
    return false;
}

/* The address space of the memory the pointer argument a points to. */
static unsigned pointee_space(CXCursor a)
{
    CXType t = clang_getCursorType(a);
    if (clang_getCanonicalType(t).kind != CXType_Pointer)
        return 0;
    return address_space(clang_getPointeeType(t));
}

/* A call: in a kernel, vloadN / vstoreN and the atomics on __global or __local memory are
 * wrapped, and any other built-in handed such a pointer is named as untraceable; in another
 * function any built-in handed one is. */
static void wrap_call(struct rw *r, CXCursor c)
{
    CXString cs = clang_getCursorSpelling(c);
    const char *name = clang_getCString(cs);
    int nargs = clang_Cursor_getNumArguments(c);
    unsigned n;
    bool half, store, aligned;
    /* a built-in has no definition (clang declares it where it is first called) */
    bool builtin = clang_Cursor_isNull(clang_getCursorDefinition(clang_getCursorReferenced(c)));
    for (int i = 0; builtin && !r->kernel && i < nargs; i++) {
        unsigned as = pointee_space(clang_Cursor_getArgument(c, i));
        if ((as == AS_GLOBAL || as == AS_LOCAL) && strcmp(name, "prefetch") != 0)
            fail(r, c, "cannot trace %s in '%s', which is not a kernel (the trace state lives "
                       "in the kernel: write the access there)", name, clang_getCString(r->func));
    }
    if (r->failed || !r->kernel) {
        clang_disposeString(cs);
        return;
    }
    if (vector_io(name, &n, &half, &store, &aligned) && nargs == (store ? 3 : 2)) {
        CXCursor off = clang_Cursor_getArgument(c, store), p = clang_Cursor_getArgument(c, store + 1);
        unsigned as = pointee_space(p), os, oe, ps, pe;
        if (as == AS_GLOBAL || as == AS_LOCAL) {
            if (!extent(r, off, &os, &oe) || !extent(r, p, &ps, &pe) || from_macro(off) ||
                from_macro(p) || !pure(r, p))
                fail(r, c, "cannot trace %s: its pointer must be written in the kernel, free of "
                           "side effects and accesses", name);
            else if (as == AS_GLOBAL && !aligned) {
                /* offset -> (size_t)CLC_TRACE_GV_((p), (offset), n, size, kind): n
                 * accesses of an element, as a GPU issues them (clc_trace_vix); p is pure,
                 * so its text can be evaluated twice */
                edit(r, os, 0, OPEN, -(long)oe, "(size_t)CLC_TRACE_GV_((%.*s), (",
                     (int)(pe - ps), r->src + ps);
                edit(r, oe, 0, CLOSE, -(long)os, "), %u, %s%.*s%s, %d)", n,
                     half ? "2" : "sizeof((", half ? 0 : (int)(pe - ps), r->src + ps,
                     half ? "" : ")[0])", store);
            } else {
                /* offset -> (size_t)CLC_TRACE_GK_((p), (offset), n * size, kind): the
                 * aligned forms (vloada_half) and __local memory take one access */
                edit(r, os, 0, OPEN, -(long)oe, "(size_t)CLC_TRACE_%cK_((%.*s), (",
                     as == AS_GLOBAL ? 'G' : 'L', (int)(pe - ps), r->src + ps);
                edit(r, oe, 0, CLOSE, -(long)os, "), %u * %s%.*s%s, %d)", n,
                     half ? "2" : "sizeof((", half ? 0 : (int)(pe - ps), r->src + ps,
                     half ? "" : ")[0])", store);
            }
        }
    } else if (builtin && is_atomic(name) && nargs >= 1) {
        CXCursor p = clang_Cursor_getArgument(c, 0);
        unsigned as = pointee_space(p), ps, pe;
        if (as == AS_GLOBAL || as == AS_LOCAL) {
            if (!extent(r, p, &ps, &pe) || from_macro(p))
                fail(r, c, "cannot trace %s: its pointer is written inside a macro", name);
            else {
                edit(r, ps, 0, OPEN, -(long)pe, "CLC_TRACE_%cP_((", as == AS_GLOBAL ? 'G' : 'L');
                edit(r, pe, 0, CLOSE, -(long)ps, "), %d)", UPDATE);
            }
        }
    } else if (builtin && strcmp(name, "prefetch") != 0) {
        for (int i = 0; i < nargs && !r->failed; i++) {
            unsigned as = pointee_space(clang_Cursor_getArgument(c, i));
            if (as == AS_GLOBAL || as == AS_LOCAL)
                fail(r, c, "cannot trace %s: it reaches %s memory through a pointer", name,
                     as == AS_GLOBAL ? "__global" : "__local");
        }
    }
    clang_disposeString(cs);
}

/* ------------------------------------------------------------------ the walk */

static enum CXChildVisitResult walk(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    struct rw *r = d;
    if (r->failed)
        return CXChildVisit_Break;
    unsigned as = access_space(c);
    if (as != 0 && !unevaluated(r)) {
        /* a struct's member s.x is the access, not s */
        CXCursor up = r->depth > 0 ? r->stack[r->depth - 1] : clang_getNullCursor();
        bool member = clang_getCursorKind(up) == CXCursor_MemberRefExpr &&
                      access_space(up) == as;
        if (!member) {
            int kind = access_kind(r, c);
            if (kind != NONE && !r->kernel)
                fail(r, c, "cannot trace this %s access in '%s', which is not a kernel (the "
                           "trace state lives in the kernel: write the access there)",
                     as == AS_GLOBAL ? "__global" : "__local", clang_getCString(r->func));
            else if (kind != NONE)
                wrap_access(r, c, as, kind);
        }
    }
    if (clang_getCursorKind(c) == CXCursor_CallExpr && !unevaluated(r))
        wrap_call(r, c);
    if (r->depth == MAX_DEPTH) {
        fail(r, c, "cannot trace this expression: nested more than %d deep", MAX_DEPTH);
        return CXChildVisit_Break;
    }
    r->stack[r->depth++] = c;
    clang_visitChildren(c, walk, r);
    r->depth--;
    return r->failed ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Whether the function c is a kernel: one of its attributes is spelled __kernel or kernel. */
static enum CXChildVisitResult kernel_attr(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    const struct rw *r = ((const void *const *)d)[0];
    bool *yes = (bool *)((const void *const *)d)[1];
    unsigned s, e;
    if (clang_isAttribute(clang_getCursorKind(c)) && extent(r, c, &s, &e) &&
        (strncmp(r->src + s, "__kernel", 8) == 0 || strncmp(r->src + s, "kernel", 6) == 0))
        *yes = true;
    return CXChildVisit_Continue;
}

/* The kernel c gets CLC_TRACE_ARGS at the end of its parameters and CLC_TRACE_BEGIN at the
 * start of its body. */
static void add_trace_state(struct rw *r, CXCursor c, CXCursor body)
{
    unsigned s, e, bs, be;
    int nargs = clang_Cursor_getNumArguments(c);
    if (!extent(r, c, &s, &e) || !extent(r, body, &bs, &be) || r->src[bs] != '{') {
        fail(r, c, "cannot add the trace parameters to kernel '%s': it is written inside a "
                   "macro", clang_getCString(r->func));
        return;
    }
    unsigned close;
    if (nargs > 0) {
        unsigned ps, pe;
        if (!extent(r, clang_Cursor_getArgument(c, (unsigned)nargs - 1), &ps, &pe)) {
            fail(r, c, "cannot add the trace parameters to kernel '%s'", clang_getCString(r->func));
            return;
        }
        close = skip_space(r, pe);
    } else {
        unsigned ns, ne;
        clang_getExpansionLocation(clang_getCursorLocation(c), NULL, NULL, NULL, &ns);
        ne = ns;
        while (ne < bs && r->src[ne] != '(')
            ne++;
        close = ne + 1;
        while (close < bs && r->src[close] != ')')
            close++;
        ns = ne + 1;
        if (close < bs)
            edit(r, ns, close - ns, REPLACE, 0, "CLC_TRACE_PARAMS_");
    }
    if (close >= bs || r->src[close] != ')') {
        fail(r, c, "cannot add the trace parameters to kernel '%s': no ')' after its last "
                   "parameter", clang_getCString(r->func));
        return;
    }
    if (nargs > 0)
        edit(r, close, 0, CLOSE, 0, " CLC_TRACE_ARGS");
    edit(r, bs + 1, 0, OPEN, 0, " CLC_TRACE_BEGIN");
}

/* Each function defined in the main file: a kernel gets its trace state and its accesses
 * wrapped; in another function an access is an error. */
static enum CXChildVisitResult top(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    struct rw *r = d;
    if (r->failed)
        return CXChildVisit_Break;
    if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c) ||
        !clang_Location_isFromMainFile(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    bool kernel = false;
    const void *ctx[2] = {r, &kernel};
    clang_visitChildren(c, kernel_attr, ctx);
    CXCursor kid[64], body = clang_getNullCursor();
    int n = children(c, kid, 64);
    for (int i = 0; i < n && i < 64; i++)
        if (clang_getCursorKind(kid[i]) == CXCursor_CompoundStmt)
            body = kid[i];
    if (clang_Cursor_isNull(body))
        return CXChildVisit_Continue;
    r->func = clang_getCursorSpelling(c);
    r->kernel = kernel;
    if (kernel)
        add_trace_state(r, c, body);
    r->depth = 0;
    walk(body, c, r);
    clang_disposeString(r->func);
    return r->failed ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Edits in the order they apply: by offset; at one offset the closing text of inner
 * accesses first, then replacements, then the opening text of outer accesses. */
static int by_offset(const void *a, const void *b)
{
    const struct edit *x = a, *y = b;
    if (x->off != y->off)
        return x->off < y->off ? -1 : 1;
    if (x->cls != y->cls)
        return x->cls - y->cls;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    bool outer_first = x->cls == OPEN;
    return (x->seq < y->seq) == outer_first ? -1 : 1;
}

/* The rewritten text: the header, a #line back to the file, then the file with the edits. */
static char *apply(struct rw *r)
{
    qsort(r->edits, r->n, sizeof *r->edits, by_offset);
    char *out = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&out, &len);
    if (m == NULL)
        return NULL;
    fputs("#include \"clc_trace.h\"\n#line 1 \"", m);
    for (const char *p = r->path; *p; p++) {
        if (*p == '"' || *p == '\\')
            fputc('\\', m);
        fputc(*p, m);
    }
    fputs("\"\n", m);
    unsigned pos = 0;
    for (size_t i = 0; i < r->n; i++) {
        const struct edit *e = &r->edits[i];
        if (e->off < pos) { /* two edits of one text: cannot happen for parsed C */
            fclose(m);
            free(out);
            snprintf(r->why, r->why_len, "%s: the rewriting overlaps itself", r->path);
            return NULL;
        }
        fwrite(r->src + pos, 1, e->off - pos, m);
        fputs(e->text, m);
        pos = e->off + e->len;
    }
    fwrite(r->src + pos, 1, r->len - pos, m);
    fclose(m);
    return out;
}

bool clc_rewrite_available(void)
{
    return true;
}

/* The parse's arguments: the language, the include directories, then each word of defines. */
static int parse_args(const char *include_dir, char *defines, const char **argv, int max)
{
    int n = 0;
    argv[n++] = "-x";
    argv[n++] = "cl";
    argv[n++] = "-cl-std=CL1.2";
    argv[n++] = "-I";
    argv[n++] = include_dir;
#ifdef CLC_CLANG_INCLUDE
    /* Debian's libclang does not find its own headers (opencl-c-base.h) alone */
    argv[n++] = "-isystem";
    argv[n++] = CLC_CLANG_INCLUDE;
#endif
    for (char *w = defines ? strtok(defines, " \t") : NULL; w && n < max; w = strtok(NULL, " \t"))
        argv[n++] = w;
    return n;
}

int clc_rewrite_for_trace(const char *path, const char *include_dir, const char *defines,
                          char **source_out, char *why, size_t why_len)
{
    *source_out = NULL;
    snprintf(why, why_len, "%s: cannot be rewritten", path);
    size_t len;
    char *src = clc_read_kernel_file(path, &len);
    char *words = defines ? strdup(defines) : NULL;
    const char *argv[64];
    int argc = parse_args(include_dir, words, argv, 64);
    CXIndex index = clang_createIndex(0, 0);
    CXTranslationUnit tu = NULL;
    struct rw r = {.src = src, .len = (unsigned)len, .path = path, .why = why, .why_len = why_len};
    int rc = CLC_ERR;
    if (src == NULL || (defines && words == NULL))
        goto done;
    struct CXUnsavedFile unsaved = {path, src, (unsigned long)len};
    enum CXErrorCode err = clang_parseTranslationUnit2(index, path, argv, argc, &unsaved, 1,
                                                       CXTranslationUnit_None, &tu);
    if (err != CXError_Success) {
        snprintf(why, why_len, "%s: libclang could not parse it (error %d)", path, (int)err);
        goto done;
    }
    for (unsigned i = 0; i < clang_getNumDiagnostics(tu); i++) {
        CXDiagnostic dg = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(dg) >= CXDiagnostic_Error) {
            CXString msg = clang_getDiagnosticSpelling(dg);
            CXFile f;
            unsigned line;
            clang_getExpansionLocation(clang_getDiagnosticLocation(dg), &f, &line, NULL, NULL);
            CXString fn = clang_getFileName(f);
            snprintf(why, why_len, "%s:%u: does not compile: %s",
                     f ? clang_getCString(fn) : path, line, clang_getCString(msg));
            clang_disposeString(fn);
            clang_disposeString(msg);
            clang_disposeDiagnostic(dg);
            goto done;
        }
        clang_disposeDiagnostic(dg);
    }
    r.file = clang_getFile(tu, path);
    clang_visitChildren(clang_getTranslationUnitCursor(tu), top, &r);
    if (r.failed || (*source_out = apply(&r)) == NULL)
        goto done;
    rc = CLC_OK;
done:
    for (size_t i = 0; i < r.n; i++)
        free(r.edits[i].text);
    free(r.edits);
    if (tu != NULL)
        clang_disposeTranslationUnit(tu);
    clang_disposeIndex(index);
    free(words);
    free(src);
    return rc;
}

#endif
