/* bench_roofline.c - `convis bench`'s roofline: each engine's two roofs,
 * measured on its own device (eng_measure_roofs: a copy, and a kernel of
 * the convolution's multiply-then-add), and its point at the largest size:
 * the operations an output (2*kw*kh + 1, as the bounds count them) over the
 * 8 bytes an output that must at least reach memory, against the rate its
 * measured compute phase gives. The roof under which the point sits is the
 * lower of the two at that intensity. */
#include "bench_roofline.h"

#include <math.h>
#include <stdio.h>

#include "cli.h"
#include "core/err.h"
#include "core/tr.h"
#include "record.h"

void bench_measure_roofs(bench *b, int k, eng_engine *e)
{
    b->roofs_ok[k] = eng_measure_roofs(e, &b->roofs[k]);
    if (!b->roofs_ok[k])
        snprintf(b->roofs_why[k], sizeof b->roofs_why[k], "%s", err_msg());
}

bench_point bench_point_of(const bench *b, int k, int i)
{
    const bench_cell *c = &b->cell[k][i];
    bench_point p = {0};
    double outputs = (double)b->sizes[i] * b->sizes[i];
    p.ops = 2.0 * b->opt.kernel.kw * b->opt.kernel.kh + 1.0;
    p.intensity = p.ops / 8.0;
    if (!c->ran || c->phase[ENG_COMPUTE] <= 0 || !b->roofs_ok[k])
        return p;
    p.gflops = outputs * p.ops / (c->phase[ENG_COMPUTE] * 1e6);
    p.memory_cap = b->roofs[k].memory_gb_s * p.intensity;
    p.by_memory = p.memory_cap < b->roofs[k].compute_gflops;
    p.cap = p.by_memory ? p.memory_cap : b->roofs[k].compute_gflops;
    p.share = p.cap > 0 ? p.gflops / p.cap : 0;
    p.valid = true;
    return p;
}

void bench_print_roofline(const bench *b)
{
    int i = b->size_count - 1;
    bool above = false;
    printf(_("\nRoofline at %dx%d, measured: each engine's memory roof (a copy on its device) and compute roof (a "
             "kernel of\nmultiply-then-add on its device), and its point: %g operations an output over the 8 bytes "
             "that must\nat least move (%.3g operations a byte), at the rate its compute phase gave.\n"),
           b->sizes[i], b->sizes[i], 2.0 * b->opt.kernel.kw * b->opt.kernel.kh + 1.0,
           (2.0 * b->opt.kernel.kw * b->opt.kernel.kh + 1.0) / 8.0);
    app_put_column(stdout, _("engine"), 11, false);
    app_put_column(stdout, _("memory GB/s"), 13, true);
    app_put_column(stdout, _("compute GFLOP/s"), 17, true);
    app_put_column(stdout, _("point GFLOP/s"), 15, true);
    app_put_column(stdout, _("under"), 10, true);
    app_put_column(stdout, _("of that roof"), 14, true);
    putchar('\n');
    for (int k = 0; k < b->engine_count; ++k) {
        bench_point p = bench_point_of(b, k, i);
        char cell[4][32];
        app_put_column(stdout, b->label[k], 11, false);
        if (!b->roofs_ok[k]) {
            printf("  %s\n", b->unavailable[k][0] ? b->unavailable[k] : b->roofs_why[k]);
            continue;
        }
        snprintf(cell[0], sizeof cell[0], "%.1f", b->roofs[k].memory_gb_s);
        snprintf(cell[1], sizeof cell[1], "%.1f", b->roofs[k].compute_gflops);
        snprintf(cell[2], sizeof cell[2], p.valid ? "%.2f" : "-", p.gflops);
        snprintf(cell[3], sizeof cell[3], p.valid ? "%.0f%%" : "-", 100.0 * p.share);
        app_put_column(stdout, cell[0], 13, true);
        app_put_column(stdout, cell[1], 17, true);
        app_put_column(stdout, cell[2], 15, true);
        app_put_column(stdout, p.valid ? (p.by_memory ? _("memory") : _("compute")) : "-", 10, true);
        app_put_column(stdout, cell[3], 14, true);
        printf("   %s\n", b->roofs[k].how);
        above = above || (p.valid && p.share > 1.0);
    }
    if (above)
        printf(_("A point above its roof (over 100%%) ran from the caches: the memory roof is a copy larger than them, "
                 "and this image is not.\n"));
}

void bench_json_roofline(const bench *b, bool *first)
{
    int i = b->size_count - 1;
    for (int k = 0; k < b->engine_count; ++k) {
        bench_point p = bench_point_of(b, k, i);
        if (b->unavailable[k][0])
            continue; /* the engines' list says why */
        printf("%s\n    {\"filter\": ", *first ? "" : ",");
        *first = false;
        rec_json_string(stdout, b->opt.kernel.name);
        printf(", \"engine\": \"%s\", ", b->cls[k]->name);
        if (b->kernel[k] >= 0)
            printf("\"kernel\": \"%s\", ", eng_kernel_name((eng_kernel)b->kernel[k]));
        printf("\"size\": %d, \"ops_per_output\": %g, \"ops_per_byte\": %.6g, ", b->sizes[i], p.ops, p.intensity);
        if (!b->roofs_ok[k]) {
            printf("\"error\": ");
            rec_json_string(stdout, b->roofs_why[k]);
            printf("}");
            continue;
        }
        printf("\"memory_roof_gb_s\": %.6g, \"compute_roof_gflops\": %.6g, \"how\": ", b->roofs[k].memory_gb_s,
               b->roofs[k].compute_gflops);
        rec_json_string(stdout, b->roofs[k].how);
        if (p.valid)
            printf(", \"point_gflops\": %.6g, \"under\": \"%s\", \"share\": %.6g", p.gflops,
                   p.by_memory ? "memory" : "compute", p.share);
        printf("}");
    }
}
