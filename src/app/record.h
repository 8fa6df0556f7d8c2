/* record.h - recorded runs: a size sweep measured by convis on one machine,
 * on one date, written to a file (JSON) with where it came from, and read
 * back to be drawn beside live runs, always labelled as recorded, never
 * mixed with them. A teacher records on a lab machine and replays it in
 * class; convis ships records made by convis itself (records/).
 *
 * The file:
 *   {"convis_record": 1, "convis": "0.1.0", "date": "2026-11-30T23:40:00Z",
 *    "machine": {"cpu": "...", "cores": 2, "gpu": "...", "gpu_kind": "software"},
 *    "filter": "gaussian", "border": "clamp", "what": "...",
 *    "engines": [{"name": "cpu-seq", "description": "...", "runs": [
 *        {"size": 4, "median_ms": 0.0012, "min_ms": 0.0011, "max_ms": 0.0015, "reps": 9,
 *         "phases": {"compute": 0.0011, "overhead": 0.0001}}, ...]}, ...]}
 * "phases" (the median of each phase the run had, eng_phase_name's names)
 * may be missing: records made before it was written have none. */
#ifndef CONVIS_RECORD_H
#define CONVIS_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "scene.h"

#define REC_VERSION 1
#define REC_ENGINES 4 /* cpu-seq, cpu-par, the GPU, cpu-simd (older records: the first three) */
#define REC_MAX_BYTES (256 * 1024)
#define REC_DEPTH 6     /* lists and mappings inside each other in a record: root, engines, engine, runs, run, phases */
#define REC_MAX_DEPTH 8 /* the most a record may have: deeper is refused before it is parsed */

typedef struct rec_run {
    int size; /* a square of size x size pixels */
    double median_ms, min_ms, max_ms;
    int reps;
    double phase_ms[ENG_PHASE_COUNT]; /* each phase's median (eng_phase order); < 0: the run had
                                         no such phase, or the record does not say */
} rec_run;

typedef struct rec_engine {
    char name[32];         /* "cpu-seq", "gl", "cuda" */
    char description[256]; /* what ran, as convis said it */
    int count;
    rec_run run[SCENE_SWEEP_SIZES];
} rec_engine;

typedef struct app_record {
    int version;
    char convis[32]; /* the version of convis that measured it */
    char date[32];   /* UTC, ISO 8601 */
    char cpu[128];
    int cores;
    char gpu[128];     /* the GPU engine's device, or "none" */
    char gpu_kind[24]; /* "GPU", "software on the CPU", "virtual GPU", "none" */
    char filter[32], border[16];
    int engine_count;
    rec_engine engine[REC_ENGINES];
} app_record;

/* Fills a record from the scene's finished sweep and this machine; false
 * with a sentence when no sweep has been measured. */
bool rec_from_scene(const scene *s, const char *convis_version, app_record *r);

/* Writes a record to a new file (an existing one is never replaced). */
bool rec_write(const char *path, const app_record *r);

/* This machine's CPU model (Linux: /proc/cpuinfo), else "a CPU". */
void rec_cpu_model(char *buf, size_t size);

/* `s` as a JSON string, quoted and escaped. */
void rec_json_string(FILE *f, const char *s);

/* Reads a record; false with one sentence naming the file for one that is
 * missing, damaged, too large (over REC_MAX_BYTES), nested too deep (over
 * REC_MAX_DEPTH), not JSON, of another kind, or from a newer convis.
 * Numbers are read as JSON writes them: whole numbers as digits alone. A
 * file's text quoted in the sentence has its control characters escaped. */
bool rec_read(const char *path, app_record *r);

/* rec_read of a record's bytes in memory (`path` names it in the sentence). */
bool rec_parse(const char *path, const unsigned char *data, size_t size, app_record *r);

/* "recorded on <gpu> (<gpu kind>), <cpu>, <date>": the label it is drawn with. */
void rec_label(const app_record *r, char *buf, size_t size);

#endif
