/* chain_text.h - the chain's placeholders for the lessons (narration.c's
 * table lists them): its length, each way's time on each engine, and the
 * chained passes against the independent ones, in chain.c's words. */
#ifndef CONVIS_CHAIN_TEXT_H
#define CONVIS_CHAIN_TEXT_H

#include <stddef.h>

#include "app.h"

void app_chain_length(const app *a, char *buf, size_t size);             /* {chain_length} */
void app_chain_cpu_ms(const app *a, char *buf, size_t size);             /* {chain_cpu_ms}: chained, cpu-seq */
void app_chain_gpu_ms(const app *a, char *buf, size_t size);             /* {chain_gpu_ms}: chained, the GPU */
void app_chain_cpu_independent_ms(const app *a, char *buf, size_t size); /* independent, cpu-seq */
void app_chain_gpu_independent_ms(const app *a, char *buf, size_t size); /* independent, the GPU */
void app_chain_cpu_wait_ratio(const app *a, char *buf, size_t size);     /* chained against independent, cpu-seq */
void app_chain_gpu_wait_ratio(const app *a, char *buf, size_t size);     /* ... on the GPU */

#endif
