/* ptxtext.h - reading PTX text, shared by compiled.c (what the assembler keeps in flight and
 * together) and executed.c (what a work-item executes): the model's own header. */
#ifndef CLC_MODEL_PTXTEXT_H
#define CLC_MODEL_PTXTEXT_H

#include <stdbool.h>

/* Whether c belongs to a PTX name (letters, digits, '_', '$', '.'). */
bool clc_ptx_ident(char c);

/* p past any white space, not beyond end. */
const char *clc_ptx_skip_space(const char *p, const char *end);

/* The '{' that opens the body of entry `kernel` in ptx; NULL where there is none. */
const char *clc_ptx_entry_body(const char *ptx, const char *kernel);

#endif
