/* format.h - numbers as convis writes them, in one place: times, byte
 * counts, counts with thousands separators, ratios, cell values. */
#ifndef CONVIS_FORMAT_H
#define CONVIS_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

/* "1.23 s", "12.3 ms", "1.23 ms", "45.6 µs" */
void fmt_ms(double ms, char *buf, size_t size);

/* "768 KiB", "1.5 MiB", "512 MiB", "1.5 GiB" (binary units; one decimal
 * from 1 to 10 MiB and in GiB) */
void fmt_bytes(long long bytes, char *buf, size_t size);

/* "1,234,567" */
void fmt_count(long long n, char *buf, size_t size);

/* How many times slower `slow` is than `fast`, always one way round and at
 * least 1: "23.4×", and "1.04×" below 1.1, where one decimal would read
 * "1.0×". */
void fmt_ratio(double slow_ms, double fast_ms, char *buf, size_t size);

typedef struct eng_timing eng_timing;
typedef struct eng_verdict eng_verdict;

/* The words for what eng_verdict_of decided, in three places' forms:
 * FMT_SENTENCE for the narration ("cpu-par was 27.1× faster than cpu-seq",
 * "cpu-par and gl took about the same time (...)"), FMT_SHORT for the chart
 * ("cpu-par 27.1× faster than cpu-seq", "cpu-par ≈ gl (...)") and
 * FMT_COLUMN for bench's column against cpu-seq, without names ("26.8x
 * faster", "about the same"). A verdict from fewer than ENG_FEW_RUNS runs
 * says how many ("(from a single run)") except in the column, beside its reps. */
typedef enum fmt_style { FMT_SENTENCE, FMT_SHORT, FMT_COLUMN } fmt_style;
void fmt_verdict(fmt_style style, const char *a_name, const char *b_name, const eng_verdict *v, char *buf, size_t size);

/* What a verdict from fewer than ENG_FEW_RUNS runs rests on, to follow
 * its words: " (from a single run)", " (from two runs)"; "" from enough. */
const char *fmt_runs_note(const eng_verdict *v);

/* fmt_verdict(FMT_SENTENCE) of a against b, in the current language. */
void fmt_compare(const char *a_name, const eng_timing *a, const char *b_name, const eng_timing *b, char *buf,
                 size_t size);

/* A value as a cell or the arithmetic shows it: whole numbers plainly,
 * others with one decimal; never "-0". */
void fmt_value(float v, char *buf, size_t size);

/* A value in a grid cell, no wider than the whole values cells show
 * ("255", "-1020"): whole numbers plainly; others with one decimal under 10
 * in size, where rounding would lose the most (a dark 16-bit file's levels:
 * 0.9, 1.7, 2.6), rounded from 10 on; never "-0". */
void fmt_cell(float v, char *buf, size_t size);

#endif
