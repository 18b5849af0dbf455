/* icd.h - the ICD dispatch table every handle points to (cl_khr_icd). */
#ifndef CPUCL_API_ICD_H
#define CPUCL_API_ICD_H

#include <CL/cl_icd.h>

extern const struct _cl_icd_dispatch api_dispatch;

#endif
