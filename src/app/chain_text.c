/* chain_text.c - the chain's placeholders (chain_text.h), in the words
 * chain.c gives its figures and verdicts. */
#include "chain_text.h"

#include "format.h"

void app_chain_length(const app *a, char *buf, size_t size)
{
    (void)a;
    fmt_count(SCENE_CHAIN_LENGTH, buf, size);
}

void app_chain_cpu_ms(const app *a, char *buf, size_t size)
{
    scene_chain_ms_text(&a->s, 0, false, buf, size);
}

void app_chain_gpu_ms(const app *a, char *buf, size_t size)
{
    scene_chain_ms_text(&a->s, 1, false, buf, size);
}

void app_chain_cpu_independent_ms(const app *a, char *buf, size_t size)
{
    scene_chain_ms_text(&a->s, 0, true, buf, size);
}

void app_chain_gpu_independent_ms(const app *a, char *buf, size_t size)
{
    scene_chain_ms_text(&a->s, 1, true, buf, size);
}

void app_chain_cpu_wait_ratio(const app *a, char *buf, size_t size)
{
    scene_chain_wait_text(&a->s, 0, FMT_SENTENCE, buf, size);
}

void app_chain_gpu_wait_ratio(const app *a, char *buf, size_t size)
{
    scene_chain_wait_text(&a->s, 1, FMT_SENTENCE, buf, size);
}
