/* describe.h - a user's kernel of any signature, described once: each argument's role,
 * element type, length and the generator that fills it, the named sizes those lengths use,
 * and the NDRange.  The description is a small line-based language of clcoalesce's own (not
 * OpenCL C), read from a `clcoalesce:` comment before the kernel or from `--describe`; see
 * `custom --help` and docs/custom-any-kernel.md.  This module parses it, evaluates its size
 * expressions with overflow checks, fills input buffers with reproducible values, and reads
 * the kernel's parameter list from the source to check the description against it.  It
 * needs no device. */
#ifndef CLCOALESCE_DESCRIBE_H
#define CLCOALESCE_DESCRIBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CLC_DESC_ARGS 9    /* kernel arguments described (CLC_MAX_ARGS less the trace's 3) */
#define CLC_DESC_SIZES 16  /* named sizes */
#define CLC_DESC_EXPR 96   /* characters of an expression */
#define CLC_DESC_NAME 32   /* characters of a name */
#define CLC_DESC_ERR 256   /* room for a message */

enum clc_role {
    CLC_ROLE_IN,     /* __global, filled by its generator, not compared */
    CLC_ROLE_OUT,    /* __global, poisoned (all bits set) before the launch, compared */
    CLC_ROLE_INOUT,  /* __global, filled by its generator, compared */
    CLC_ROLE_LOCAL,  /* __local pointer: len elements per work-group */
    CLC_ROLE_SCALAR, /* a value: len is its expression */
};

enum clc_gen {
    CLC_GEN_RANDOM, /* random [lo hi): floats in [0, 1), integers in [0, 100) unless given */
    CLC_GEN_IOTA,   /* element i holds i */
    CLC_GEN_CONST,  /* every element holds the value */
    CLC_GEN_PERM,   /* a random permutation of 0 .. len - 1 */
    CLC_GEN_INDEX,  /* random indices below a bound */
    CLC_GEN_SORTED, /* sorted random indices below a bound */
    CLC_GEN_ROWPTR, /* the row offsets of a csr matrix (rows + 1 of them) */
    CLC_GEN_COLIDX, /* the column indices of a csr matrix (its NAME_nnz of them) */
};

/* An element type: a scalar of 8 to 64 bits, or a vector of 2, 3, 4, 8 or 16 of them. */
struct clc_elem {
    unsigned bytes;   /* of one component: 1, 2, 4, 8 */
    bool is_float;
    bool is_signed;
    unsigned width;   /* components: 1, 2, 3, 4, 8, 16 */
    unsigned storage; /* components stored: a 3-vector takes 4 */
};

struct clc_darg {
    char name[CLC_DESC_NAME];  /* in messages: the kernel's own parameter name */
    enum clc_role role;
    char type[CLC_DESC_NAME];  /* as written: float4, uint ... */
    struct clc_elem elem;
    char len[CLC_DESC_EXPR];   /* elements (pointers) or the value (scalars) */
    enum clc_gen gen;
    char gen_arg[2][CLC_DESC_EXPR]; /* const: the value; random: lo hi; index/sorted: bound;
                                     * rowptr / colidx: the csr matrix's name */
    bool gen_given;
};

/* A csr matrix: rows x cols, `per_row` nonzeros in each row at distinct sorted columns
 * (per_row = max(1, round(cols x density))), so that NAME_nnz = rows x per_row. */
struct clc_dcsr {
    char name[CLC_DESC_NAME];
    char rows[CLC_DESC_EXPR], cols[CLC_DESC_EXPR];
    double density;
};

struct clc_desc {
    unsigned nsizes;
    struct {
        char name[CLC_DESC_NAME];
        char expr[CLC_DESC_EXPR];
    } sizes[CLC_DESC_SIZES];
    unsigned ncsr;
    struct clc_dcsr csr[2];
    unsigned nargs;
    struct clc_darg args[CLC_DESC_ARGS];
    unsigned dims;                   /* 0: not given (1-D over n) */
    char global[3][CLC_DESC_EXPR];   /* work-items per dimension, rounded up to groups */
    char local[3][CLC_DESC_EXPR];    /* "": 256 in 1-D, 16 x 16 in 2-D, 8 x 8 x 4 in 3-D */
    unsigned ref_dims;               /* the reference's own launch (ref_grid, ref_group); */
    char ref_global[3][CLC_DESC_EXPR]; /* 0: the same as the kernel's */
    char ref_local[3][CLC_DESC_EXPR];
    double tolerance;                /* relative, for floats; < 0: not given */
    char flops[CLC_DESC_EXPR];       /* floating-point operations per launch (an FMA two), an
                                      * expression of the sizes; "": not given */
};

/* The description evaluated at one size. */
struct clc_dvals {
    uint64_t n;                      /* --size / 4 */
    uint64_t len[CLC_DESC_ARGS];     /* pointers: elements; local: bytes; scalars: 0 */
    uint64_t bits[CLC_DESC_ARGS];    /* scalars: the value's bits, in the argument's type */
    size_t global[3], local[3];      /* global rounded up to whole groups */
    unsigned dims;
    uint64_t csr_rows[2], csr_cols[2], csr_per_row[2];
    unsigned nsizes;                 /* the sizes, n first, for expressions evaluated later */
    char names[CLC_DESC_SIZES + 4][CLC_DESC_NAME];
    uint64_t values[CLC_DESC_SIZES + 4];
};

/* Reads an element type name (float, uint, char4, double2 ...; T is float) into e.  Returns
 * false for anything else. */
bool clc_elem_parse(const char *name, struct clc_elem *e);

/* Evaluates an unsigned integer expression (+ - * / % parentheses, decimal numbers with an
 * optional K, M or G suffix (x 1024^k), the names of v, sqrt(x), min(a, b), max(a, b)).
 * Returns true with *out, or false with a message naming what is wrong into err (overflow,
 * division by zero, a negative result, an unknown name). */
bool clc_desc_expr(const char *expr, const struct clc_dvals *v, uint64_t *out, char *err,
                   size_t errlen);

/* Parses a description: lines separated by newlines or ';', leading '*' and blanks skipped,
 * '#' to the end of a line a comment.  Returns true, or false with the line and what is
 * wrong in err. */
bool clc_desc_parse(const char *text, struct clc_desc *d, char *err, size_t errlen);

/* The text of the `clcoalesce:` comment placed before __kernel `name` in src (with no other
 * kernel between them), into a new string (free it), or NULL when there is none. */
char *clc_desc_find(const char *src, const char *name);

/* One parameter of a kernel as the source declares it. */
struct clc_param {
    char name[CLC_DESC_NAME];
    char type[CLC_DESC_NAME]; /* the type's last word: float4, uint, T ... */
    bool pointer, is_global, is_local, is_const;
};

/* Reads the parameter list of __kernel `name` in src (CLC_TRACE_ARGS left out).  Returns the
 * number of parameters (at most max), or -1 with a message in err (no such kernel). */
int clc_kernel_params(const char *src, const char *name, struct clc_param *out, int max,
                      char *err, size_t errlen);

/* The description a kernel's signature leaves no doubt about: const __global pointers in
 * (random), other __global pointers out, every length n, integer scalars n, a 1-D launch
 * over n.  Returns false with err naming the parameter it cannot describe (a __local
 * pointer, a float scalar). */
bool clc_desc_default(const struct clc_param *p, int np, struct clc_desc *d, char *err,
                      size_t errlen);

/* Checks d against the kernel's parameters: their count, each one's address space, pointer
 * or value, and element type.  Returns false with err naming the argument. */
bool clc_desc_match(const struct clc_desc *d, const struct clc_param *p, int np,
                    const char *kernel, char *err, size_t errlen);

/* Evaluates d at n = size / 4 elements into v; max_alloc > 0 refuses a buffer above it.
 * Returns false with err naming the argument or size (an overflow, a zero length). */
bool clc_desc_eval(const struct clc_desc *d, uint64_t size, uint64_t max_alloc,
                   struct clc_dvals *v, char *err, size_t errlen);

/* Bytes of argument i's buffer (pointers) at v. */
uint64_t clc_darg_bytes(const struct clc_desc *d, const struct clc_dvals *v, unsigned i);

/* Fills buffer i (an in or inout pointer) with its generator into dst (clc_darg_bytes of it),
 * reproducibly: the same description and size give the same bytes. */
void clc_desc_fill(const struct clc_desc *d, const struct clc_dvals *v, unsigned i, void *dst);

/* Compares buffer i as the kernel left it (got) with the reference's (want): integers and
 * bits exactly, floats within relative tolerance tol (bytes that are equal always match).
 * Returns true, or false with "NAME[index] = got, reference: want" in msg. */
bool clc_desc_compare(const struct clc_desc *d, const struct clc_dvals *v, unsigned i,
                      const void *got, const void *want, double tol, char *msg, size_t len);

#endif
