/* fuzz_result.c - libFuzzer target: any bytes as a result file.  The reader must refuse or
 * read them without a crash, a leak or undefined behaviour; and what it reads, the writers
 * must write and the reader read back (a file clcoalesce accepts is a file it can write
 * again), with no control byte of it reaching a table. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "clcoalesce/result.h"

/* Aborts, so that libFuzzer keeps the input, when what rep holds does not survive writing. */
static void check_writers(const struct clc_report *rep)
{
    char *json = NULL;
    size_t json_len = 0;
    FILE *f = open_memstream(&json, &json_len);
    if (f == NULL)
        return;
    int rc = clc_write_json(rep, f);
    fclose(f);
    if (rc != CLC_OK)
        abort(); /* a report read from a file must be writable */
    struct clc_report back;
    if (clc_read_json_text(json, json_len, "written.json", &back) != CLC_OK ||
        back.n_results != rep->n_results)
        abort(); /* ... and what is written must read back */
    clc_report_free(&back);
    free(json);

    char *table = NULL;
    size_t table_len = 0;
    f = open_memstream(&table, &table_len);
    if (f == NULL)
        return;
    clc_write_table(rep, f);
    fclose(f);
    for (size_t i = 0; i < table_len; i++)
        if (((unsigned char)table[i] < 0x20 && table[i] != '\n') || table[i] == 0x7f)
            abort(); /* a control byte from the file would reach the terminal */
    free(table);

    char *csv = NULL;
    size_t csv_len = 0;
    f = open_memstream(&csv, &csv_len);
    if (f == NULL)
        return;
    clc_write_csv(rep, f);
    fclose(f);
    free(csv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    clc_quiet = true;
    struct clc_report rep;
    if (clc_read_json_text((const char *)data, size, "fuzz.json", &rep) == CLC_OK)
        check_writers(&rep);
    clc_report_free(&rep);
    return 0;
}
