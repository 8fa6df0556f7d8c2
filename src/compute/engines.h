/* engines.h - the engine classes, one per file in src/compute/. Private to
 * the compute layer: everything else goes through engine.h. */
#ifndef CONVIS_ENGINES_H
#define CONVIS_ENGINES_H

#include "engine.h"

extern const eng_class eng_cpu_seq_class;  /* cpu_seq.c */
extern const eng_class eng_cpu_par_class;  /* cpu_par.c */
extern const eng_class eng_cpu_simd_class; /* cpu_par.c, one thread */
extern const eng_class eng_gl_class;       /* gl_compute.c */
extern const eng_class eng_cuda_class;     /* cuda.c, or cuda_absent.c without CUDA */

#endif
