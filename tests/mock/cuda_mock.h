/* cuda_mock.h - what tests can ask the CPU stand-in for CUDA
 * (cuda_mock.c) that the CUDA runtime cannot tell: how often the engine did
 * something. Only in builds against the stand-in (CONVIS_CUDA_MOCK). */
#ifndef CONVIS_CUDA_MOCK_H
#define CONVIS_CUDA_MOCK_H

typedef enum {
    CUDA_MOCK_REGISTRATIONS,  /* cudaGraphicsGLRegisterBuffer calls that succeeded */
    CUDA_MOCK_FILTER_UPLOADS, /* conv3x3_set_filter calls */
    CUDA_MOCK_LAUNCHES,       /* kernels launched */
    CUDA_MOCK_RESETS,         /* cudaDeviceReset calls */
    CUDA_MOCK_POISONS,        /* conv3x3_launch_poison_shared launches */
    CUDA_MOCK_COUNTER_COUNT
} cuda_mock_counter;

/* The counter's value since the program started. */
long cuda_mock_count(cuda_mock_counter c);

#endif
