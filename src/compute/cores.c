/* cores.c - the second-core check: whether the cores cpu-par counts on are
 * really there for it now.
 *
 * A fixed amount of arithmetic (a chain of dependent integer steps, no
 * memory traffic) runs on one thread, then the same amount on each of
 * `threads` threads at once: threads started once, each watching for the
 * start so none waits for a wake-up. On free cores the threads end
 * together, in about the one thread's time; where other programs hold a
 * core, or the machine's "cores" are a share of someone else's, some end
 * later. threads x the one thread's time / the threads' wall time is the
 * cores' worth of work they gave: `threads` on free cores, 1 when the
 * others gave nothing. The one thread's time is the median of three runs
 * before any other thread starts; then three rounds side by side, the
 * median of their figures. The work is sized to about WORK_MS on one
 * thread, so the whole check takes a few milliseconds. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/timing.h"
#include "engine.h"

#define MAX_THREADS 256
#define WORK_MS 0.5
#define ROUNDS 3
#define ARRIVE_MS 20.0 /* how long the start waits for every thread to be watching */

typedef struct check check;

typedef struct runner {
    check *owner;
    pthread_t tid;
    double end_ms;
} runner;

struct check {
    long long iters;
    int threads;
    runner r[MAX_THREADS];
    int arrived; /* threads watching for the round (atomic) */
    int round;   /* the round under way, 1..ROUNDS (atomic); 0 before */
    int ended;   /* threads done with the round (atomic) */
};

static volatile uint64_t sink; /* the work's results: kept, so the work is done */

static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ volatile("pause");
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

static uint64_t work(long long iters, uint64_t x)
{
    for (long long i = 0; i < iters; ++i)
        x = x * 6364136223846793005ULL + 1442695040888963407ULL; /* each step needs the one before */
    return x;
}

static void *runner_main(void *arg)
{
    runner *r = arg;
    check *c = r->owner;
    for (int round = 1; round <= ROUNDS; ++round) {
        __atomic_add_fetch(&c->arrived, 1, __ATOMIC_ACQ_REL);
        while (__atomic_load_n(&c->round, __ATOMIC_ACQUIRE) < round)
            relax();
        sink += work(c->iters, (uint64_t)round);
        r->end_ms = tim_now_ms();
        __atomic_add_fetch(&c->ended, 1, __ATOMIC_ACQ_REL);
    }
    return NULL;
}

static double one_thread_ms(long long iters)
{
    double t0 = tim_now_ms();
    sink += work(iters, sink);
    return tim_now_ms() - t0;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

bool eng_cores_check(int threads, eng_cores *out)
{
    static check c; /* one check at a time, on the thread that asks */
    static pthread_mutex_t one = PTHREAD_MUTEX_INITIALIZER;
    double worth[ROUNDS], one_ms[ROUNDS], wall_ms[ROUNDS], ms;
    int started = 1;

    memset(out, 0, sizeof *out);
    if (threads < 1)
        threads = 1;
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    pthread_mutex_lock(&one);
    memset(&c, 0, sizeof c);
    c.threads = threads;
    /* size the work: double it until one thread takes WORK_MS / 2, then scale up */
    for (c.iters = 4096;; c.iters *= 2) {
        double again = one_thread_ms(c.iters); /* the faster of two: one may be interrupted */
        ms = one_thread_ms(c.iters);
        if (again < ms)
            ms = again;
        if (ms >= WORK_MS / 2 || c.iters >= (1LL << 30))
            break;
    }
    if (ms > 0 && ms < WORK_MS)
        c.iters = (long long)((double)c.iters * WORK_MS / ms) + 1;
    /* the one thread's time, before any other thread runs (a watching thread takes a core) */
    for (int round = 0; round < ROUNDS; ++round)
        one_ms[round] = one_thread_ms(c.iters);
    qsort(one_ms, ROUNDS, sizeof one_ms[0], by_value);
    for (; started < threads; ++started) {
        c.r[started].owner = &c;
        if (pthread_create(&c.r[started].tid, NULL, runner_main, &c.r[started]) != 0)
            break;
    }
    if (started < threads) /* the ones started still run their rounds */
        c.threads = threads = started;
    for (int round = 1; round <= ROUNDS; ++round) {
        double until = tim_now_ms() + ARRIVE_MS, t0, last;
        while (__atomic_load_n(&c.arrived, __ATOMIC_ACQUIRE) < (threads - 1) * round && tim_now_ms() < until)
            sched_yield(); /* a thread not there yet starts late, and its lateness counts */
        t0 = tim_now_ms();
        __atomic_store_n(&c.round, round, __ATOMIC_RELEASE);
        sink += work(c.iters, sink);
        last = tim_now_ms();
        while (__atomic_load_n(&c.ended, __ATOMIC_ACQUIRE) < (threads - 1) * round)
            sched_yield(); /* this core free for a late thread */
        for (int i = 1; i < threads; ++i)
            if (c.r[i].end_ms > last)
                last = c.r[i].end_ms;
        wall_ms[round - 1] = last - t0;
        worth[round - 1] = wall_ms[round - 1] > 0 ? threads * one_ms[ROUNDS / 2] / wall_ms[round - 1] : threads;
        if (worth[round - 1] > threads)
            worth[round - 1] = threads;
    }
    for (int i = 1; i < threads; ++i)
        pthread_join(c.r[i].tid, NULL);
    pthread_mutex_unlock(&one);
    qsort(worth, ROUNDS, sizeof worth[0], by_value);
    qsort(wall_ms, ROUNDS, sizeof wall_ms[0], by_value);
    out->threads = threads;
    out->worth = worth[ROUNDS / 2];
    out->one_ms = one_ms[ROUNDS / 2];
    out->wall_ms = wall_ms[ROUNDS / 2];
    return true;
}
