/* convis_hd.h - marks code that runs on both the host and a CUDA device.
 *
 * Under nvcc, CONVIS_HD expands to __host__ __device__, so one inline function
 * serves the CPU engines, the stepper and the CUDA kernels. In plain C it
 * expands to nothing. */
#ifndef CONVIS_HD_H
#define CONVIS_HD_H

#if defined(__CUDACC__)
#define CONVIS_HD __host__ __device__
#else
#define CONVIS_HD
#endif

#endif
