/* roofs.h - extern "C" launchers for the roofline's compute roof
 * (kernels/roofs.cu). Only src/compute/cuda_roofs.c (and the CUDA stand-in,
 * tests/mock/roofs_mock.c) include this. */
#ifndef CONVIS_ROOFS_H
#define CONVIS_ROOFS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Chains a thread of the compute roof's kernel runs. */
#define ROOFS_CHAINS 8

/* Enqueues the compute roof's kernel on `stream` (a cudaStream_t): `blocks`
 * blocks of `threads` threads, each running ROOFS_CHAINS independent chains
 * of x = x * a + b for `steps` steps (a multiply then an add, never fused:
 * --fmad=false), 2 operations a chain a step, and writing its chains' sum
 * into d_sink[its global index] (blocks * threads floats). Returns a
 * cudaError_t as an int: the launch's own error (0 = cudaSuccess);
 * cudaErrorInvalidConfiguration for blocks or threads below 1 or steps
 * below 0. */
int roofs_launch_mul_add(float *d_sink, int blocks, int threads, int steps, float a, float b, void *stream);

#ifdef __cplusplus
}
#endif

#endif
