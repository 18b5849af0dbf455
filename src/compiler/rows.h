/* rows.h - work-item loops cut where a quotient of the work-item's id
 * changes (rows.cpp). */
#ifndef CPUCL_COMPILER_ROWS_H
#define CPUCL_COMPILER_ROWS_H

#include <stdbool.h>

#include <llvm-c/Core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Cuts fn's innermost work-item loops that divide the id by a value the
 * same for every work-item (`i / w`) into one loop a row; returns whether
 * fn changed. Runs inside O3, right before narrowing (optimize.cpp);
 * keeps no analysis valid. */
bool cc_cut_rows(LLVMValueRef fn);

#ifdef __cplusplus
}
#endif
#endif
