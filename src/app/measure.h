/* measure.h - the CPU engines and their figures: cpu-seq (one core,
 * scalar), cpu-simd (one core, vectorised) and cpu-par (every core), each
 * measured again after a change, on the measuring thread (worker.c) with an
 * engine of its own. measure.c is the only writer of scene.cpu and
 * scene.measure. */
#ifndef CONVIS_MEASURE_H
#define CONVIS_MEASURE_H

#include <stddef.h>

#include "scene_types.h"

typedef enum scene_cpu_kind { SCENE_CPU_SEQ = 0, SCENE_CPU_SIMD, SCENE_CPU_PAR, SCENE_CPU_COUNT } scene_cpu_kind;

typedef struct scene_measure {
    bool stale[SCENE_CPU_COUNT];      /* needs measuring again */
    eng_engine *own[SCENE_CPU_COUNT]; /* the measuring thread's own engines (NULL: none) */
    /* cpu-par's bands on the last image it ran (from its timing record;
     * a thread may run several: the record says which ran each); 0 before
     * it ran */
    int bands;
    /* the load on the CPU when its engines were last measured (other
     * programs' work slows them), and the cores there are */
    double load;
    int cores;
    /* the second-core check (eng_cores_check), made once, with cpu-par's
     * first measurement: whether its threads had cores of their own;
     * threads 0 before */
    eng_cores cores_check;
} scene_measure;

/* Who computed output (x, y) in cpu-par's last run on the image shown, as
 * two lines for the thread view: its band ("cpu-par band 1 of 1: outputs
 * 0…65535", in raster order) and the thread that ran it, with the threads
 * the run really used, not the engine's pool ("run by thread 1; this run
 * used 1 thread"). False while cpu-par has not run on this image. */
bool scene_cpu_owner_text(const scene *s, int x, int y, char *band_line, char *thread_line, size_t size);

/* What the second-core check found, measured: "2 threads at once gave
 * 1.9 cores' worth of work"; "(not measured yet)" before it ran. */
void scene_cores_text(const eng_cores *c, char *buf, size_t size);

/* What it means for cpu-par: the share of a core the other cores gave
 * ("your second core gave 40% of a core: the machine is busy or shared"),
 * said as lacking below SCENE_CORES_FREE of a core each; "(not measured
 * yet)" before it ran. */
#define SCENE_CORES_FREE 0.75
void scene_cores_note(const eng_cores *c, char *buf, size_t size);

/* Why cpu-par's last run used the threads it did ({cpu_threads_why}): the
 * image was one band; the first thread had taken every band before another
 * woke; or each thread took bands as it came free. */
void scene_cpu_threads_why(const scene *s, char *buf, size_t size);

/* Whether the figures are noisy: an engine's runs spread over half their
 * median (other work on the machine, convis's own drawing included, slows
 * some runs). The load average is said beside it; it counts convis's own
 * threads too, so it is no verdict alone. */
bool scene_noisy(const scene *s);

/* The measuring thread's engine for CPU engine k (NULL: none). */
eng_engine *scene_cpu_own(const scene *s, scene_cpu_kind k);

#endif
