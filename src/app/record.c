/* record.c - recorded runs (record.h): from a sweep, to a JSON file, and
 * back (read with libyaml: JSON is YAML's flow style, and record_json.c
 * holds a text to JSON's before libyaml sees it). Contents: this machine ·
 * from the scene · writing · reading. */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include "record.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <yaml.h>

#include "core/err.h"
#include "core/image.h"
#include "core/linebreak.h"
#include "i18n.h"
#include "record_json.h"

/* ---- this machine ----------------------------------------------------------------- */

/* The CPU's model name (Linux: /proc/cpuinfo), else "a CPU". */
void rec_cpu_model(char *buf, size_t size)
{
    char line[512];
    FILE *f = fopen("/proc/cpuinfo", "r");
    snprintf(buf, size, "a CPU");
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (colon && (strncmp(line, "model name", 10) == 0 || strncmp(line, "Model", 5) == 0)) {
            char *v = colon + 1;
            while (*v == ' ' || *v == '\t')
                ++v;
            v[strcspn(v, "\n")] = '\0';
            lb_copy(buf, size, v); /* a long name cut between characters */
            break;
        }
    }
    fclose(f);
}

/* ---- from the scene ---------------------------------------------------------------- */

bool rec_from_scene(const scene *s, const char *convis_version, app_record *r)
{
    const scene_engine *e[REC_ENGINES] = {[SWEEP_SEQ] = &s->cpu[SCENE_CPU_SEQ],
                                          [SWEEP_PAR] = &s->cpu[SCENE_CPU_PAR],
                                          [SWEEP_GPU] = &s->gpu.eng,
                                          [SWEEP_SIMD] = &s->cpu[SCENE_CPU_SIMD]};
    time_t now = time(NULL);
    struct tm tm;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    memset(r, 0, sizeof *r);
    if (s->sweep.count < 1)
        return err_set("no size sweep has been measured to record");
    r->version = REC_VERSION;
    snprintf(r->convis, sizeof r->convis, "%s", convis_version);
    gmtime_r(&now, &tm);
    strftime(r->date, sizeof r->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    rec_cpu_model(r->cpu, sizeof r->cpu);
    r->cores = cores > 0 ? (int)cores : 1;
    lb_copy(r->gpu, sizeof r->gpu, s->gpu.device_known ? s->gpu.device.name : s->gpu.eng.engine ? "" : "none");
    if (!r->gpu[0] && s->gpu.eng.engine) { /* the device's name without a GPU run: from the engine */
        eng_device_info info;
        if (eng_device(s->gpu.eng.engine, &info))
            lb_copy(r->gpu, sizeof r->gpu, info.name);
    }
    snprintf(r->gpu_kind, sizeof r->gpu_kind, "%s",
             s->gpu.eng.engine ? eng_hardware_name(s->gpu.eng.hardware) : "none");
    snprintf(r->filter, sizeof r->filter, "%s", s->opt.kernel.name);
    snprintf(r->border, sizeof r->border, "%s", conv_border_name(s->opt.border));
    for (int k = 0; k < REC_ENGINES; ++k) {
        rec_engine *re = &r->engine[r->engine_count];
        if (!e[k]->engine)
            continue;
        snprintf(re->name, sizeof re->name, "%s", e[k]->name);
        lb_copy(re->description, sizeof re->description, eng_description(e[k]->engine));
        for (int i = 0; i < s->sweep.count; ++i) {
            if (s->sweep.ms[k][i] < 0)
                continue;
            rec_run *x = &re->run[re->count++];
            *x = (rec_run){s->sweep.size[i],  s->sweep.ms[k][i],   s->sweep.lo[k][i],
                           s->sweep.hi[k][i], s->sweep.reps[k][i], {0}};
            for (int p = 0; p < ENG_PHASE_COUNT; ++p)
                x->phase_ms[p] = s->sweep.phase[k][i][p];
        }
        ++r->engine_count;
    }
    return true;
}

/* ---- writing ------------------------------------------------------------------------- */

/* The record's JSON, to `f` (img_write_fn). */
static bool write_record(FILE *f, const void *ctx)
{
    const app_record *r = ctx;
    fprintf(f, "{\n  \"convis_record\": %d,\n  \"convis\": ", r->version);
    rec_json_string(f, r->convis);
    fprintf(f, ",\n  \"date\": ");
    rec_json_string(f, r->date);
    fprintf(f, ",\n  \"machine\": {\"cpu\": ");
    rec_json_string(f, r->cpu);
    fprintf(f, ", \"cores\": %d, \"gpu\": ", r->cores);
    rec_json_string(f, r->gpu);
    fprintf(f, ", \"gpu_kind\": ");
    rec_json_string(f, r->gpu_kind);
    fprintf(f, "},\n  \"filter\": ");
    rec_json_string(f, r->filter);
    fprintf(f, ",\n  \"border\": ");
    rec_json_string(f, r->border);
    fprintf(f, ",\n  \"what\": \"the size sweep: each engine on square images made from the sample, the median "
               "of its runs after a warm-up, and the fastest and slowest run, in milliseconds\",\n  \"engines\": [");
    for (int k = 0; k < r->engine_count; ++k) {
        const rec_engine *e = &r->engine[k];
        fprintf(f, "%s\n    {\"name\": ", k ? "," : "");
        rec_json_string(f, e->name);
        fprintf(f, ", \"description\": ");
        rec_json_string(f, e->description);
        fprintf(f, ", \"runs\": [");
        for (int i = 0; i < e->count; ++i) {
            const rec_run *x = &e->run[i];
            int n = 0;
            fprintf(f, "%s\n      {\"size\": %d, \"median_ms\": %.6g, \"min_ms\": %.6g, \"max_ms\": %.6g, \"reps\": %d",
                    i ? "," : "", x->size, x->median_ms, x->min_ms, x->max_ms, x->reps);
            for (int p = 0; p < ENG_PHASE_COUNT; ++p)
                if (x->phase_ms[p] >= 0)
                    fprintf(f, "%s\"%s\": %.6g", n++ ? ", " : ", \"phases\": {", eng_phase_name((eng_phase)p),
                            x->phase_ms[p]);
            fprintf(f, "%s}", n ? "}" : "");
        }
        fprintf(f, "]}");
    }
    fprintf(f, "\n  ]\n}\n");
    return true; /* img_write_file checks the writes (flush, close) */
}

/* Whole or not at all, never over a file (a SIGTERM meanwhile leaves
 * nothing at `path`: main's handler removes the temporary file). */
bool rec_write(const char *path, const app_record *r)
{
    return img_write_file(path, write_record, r, true);
}

/* ---- reading ------------------------------------------------------------------------- */

typedef struct reader {
    yaml_document_t doc;
    const char *path;
} reader;

/* The value of `key` in mapping node m, or NULL. */
static yaml_node_t *get(reader *rd, yaml_node_t *m, const char *key)
{
    if (!m || m->type != YAML_MAPPING_NODE)
        return NULL;
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; ++p) {
        yaml_node_t *k = yaml_document_get_node(&rd->doc, p->key);
        if (k && k->type == YAML_SCALAR_NODE && strcmp((const char *)k->data.scalar.value, key) == 0)
            return yaml_document_get_node(&rd->doc, p->value);
    }
    return NULL;
}

static bool text(reader *rd, yaml_node_t *m, const char *key, char *buf, size_t size)
{
    yaml_node_t *v = get(rd, m, key);
    if (!v || v->type != YAML_SCALAR_NODE)
        return err_set("'%s' is a damaged record: it has no \"%s\"", rd->path, key);
    lb_copy(buf, size, (const char *)v->data.scalar.value); /* a long one cut between characters */
    return true;
}

/* A value as a message shows it: a bare word as written, text in quotes,
 * both escaped; or what it is. */
static const char *shown_value(const yaml_node_t *v, char *buf, size_t size)
{
    char inner[80];
    if (v->type == YAML_SEQUENCE_NODE)
        return _("a list");
    if (v->type != YAML_SCALAR_NODE)
        return _("a mapping (key: value)");
    err_shown((const char *)v->data.scalar.value, v->data.scalar.length, inner, sizeof inner);
    snprintf(buf, size, v->data.scalar.style == YAML_PLAIN_SCALAR_STYLE ? "%s" : "\"%s\"", inner);
    return buf;
}

/* A number v (the value of `key`) from lo to hi: finite, as JSON writes it,
 * and a whole number (no fraction, no exponent) when `whole`. */
static bool number_value(reader *rd, const yaml_node_t *v, const char *key, bool whole, double lo, double hi,
                         double *out)
{
    char shown[96];
    bool is_whole;
    int line = (int)v->start_mark.line + 1, column = (int)v->start_mark.column + 1;
    bool plain = v->type == YAML_SCALAR_NODE && v->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    if (!plain || !rec_json_number((const char *)v->data.scalar.value, &is_whole) || (whole && !is_whole))
        return whole ? err_set("'%s' is a damaged record: \"%s\" at line %d, column %d is %s, not a whole number "
                               "(digits alone, without quotes)",
                               rd->path, key, line, column, shown_value(v, shown, sizeof shown))
                     : err_set("'%s' is a damaged record: \"%s\" at line %d, column %d is %s, not a number (a "
                               "number is written without quotes)",
                               rd->path, key, line, column, shown_value(v, shown, sizeof shown));
    *out = strtod((const char *)v->data.scalar.value, NULL);
    if (!isfinite(*out) || *out < lo || *out > hi)
        return err_set("'%s' is a damaged record: \"%s\" at line %d, column %d is %s, outside %g to %g", rd->path, key,
                       line, column, shown_value(v, shown, sizeof shown), lo, hi);
    return true;
}

/* The number at `key` of mapping m (number_value). */
static bool number(reader *rd, yaml_node_t *m, const char *key, bool whole, double lo, double hi, double *out)
{
    yaml_node_t *v = get(rd, m, key);
    if (!v)
        return err_set("'%s' is a damaged record: it has no \"%s\"", rd->path, key);
    return number_value(rd, v, key, whole, lo, hi, out);
}

#define MS_LO 1e-6 /* times in a record: from a nanosecond ... */
#define MS_HI 1e7  /* ... to about three hours */

/* A run's "phases", when it has them: known phase names, each once, each a
 * time. */
static bool read_phases(reader *rd, yaml_node_t *run, const char *engine, rec_run *x)
{
    yaml_node_t *ph = get(rd, run, "phases");
    char shown[64];
    for (int p = 0; p < ENG_PHASE_COUNT; ++p)
        x->phase_ms[p] = -1.0;
    if (!ph)
        return true; /* a record from before phases were written */
    if (ph->type != YAML_MAPPING_NODE)
        return err_set("'%s' is a damaged record: engine '%s' has \"phases\" that are not a mapping", rd->path, engine);
    for (yaml_node_pair_t *q = ph->data.mapping.pairs.start; q < ph->data.mapping.pairs.top; ++q) {
        yaml_node_t *k = yaml_document_get_node(&rd->doc, q->key), *v = yaml_document_get_node(&rd->doc, q->value);
        const char *name = k && k->type == YAML_SCALAR_NODE ? (const char *)k->data.scalar.value : "";
        int p = 0;
        while (p < ENG_PHASE_COUNT && strcmp(eng_phase_name((eng_phase)p), name) != 0)
            ++p;
        if (p == ENG_PHASE_COUNT)
            return err_set("'%s' is a damaged record: engine '%s' has a phase '%s'; the phases are upload, "
                           "compute, download, present and overhead",
                           rd->path, engine, err_shown(name, strlen(name), shown, sizeof shown));
        if (x->phase_ms[p] >= 0)
            return err_set("'%s' is a damaged record: engine '%s' has the phase '%s' twice in one run", rd->path,
                           engine, name);
        if (!v || !number_value(rd, v, name, false, 0, MS_HI, &x->phase_ms[p]))
            return false;
    }
    return true;
}

static bool read_doc(reader *rd, app_record *r)
{
    yaml_node_t *root = yaml_document_get_root_node(&rd->doc), *machine, *engines;
    double v;
    if (!root || root->type != YAML_MAPPING_NODE || !get(rd, root, "convis_record"))
        return err_set("'%s' is not a convis record: it lacks \"convis_record\"", rd->path);
    if (!number(rd, root, "convis_record", true, 1, 1e6, &v))
        return false;
    r->version = (int)v;
    if (r->version > REC_VERSION)
        return err_set("'%s' is a record of version %d, made by a newer convis; this one reads version %d", rd->path,
                       r->version, REC_VERSION);
    machine = get(rd, root, "machine");
    if (!text(rd, root, "convis", r->convis, sizeof r->convis) || !text(rd, root, "date", r->date, sizeof r->date) ||
        !text(rd, machine, "cpu", r->cpu, sizeof r->cpu) || !number(rd, machine, "cores", true, 1, 1e6, &v))
        return false;
    r->cores = (int)v;
    if (!text(rd, machine, "gpu", r->gpu, sizeof r->gpu) ||
        !text(rd, machine, "gpu_kind", r->gpu_kind, sizeof r->gpu_kind) ||
        !text(rd, root, "filter", r->filter, sizeof r->filter) ||
        !text(rd, root, "border", r->border, sizeof r->border))
        return false;
    engines = get(rd, root, "engines");
    if (!engines || engines->type != YAML_SEQUENCE_NODE)
        return err_set("'%s' is a damaged record: \"engines\" is not a list", rd->path);
    for (yaml_node_item_t *it = engines->data.sequence.items.start; it < engines->data.sequence.items.top; ++it) {
        yaml_node_t *en = yaml_document_get_node(&rd->doc, *it), *runs;
        rec_engine *e;
        char name[4 * sizeof e->name + 8]; /* the engine's name for messages, escaped */
        if (r->engine_count == REC_ENGINES)
            return err_set("'%s' is a damaged record: more than %d engines", rd->path, REC_ENGINES);
        e = &r->engine[r->engine_count++];
        if (!text(rd, en, "name", e->name, sizeof e->name) ||
            !text(rd, en, "description", e->description, sizeof e->description))
            return false;
        err_shown(e->name, strlen(e->name), name, sizeof name);
        runs = get(rd, en, "runs");
        if (!runs || runs->type != YAML_SEQUENCE_NODE)
            return err_set("'%s' is a damaged record: engine '%s' has no list of runs", rd->path, name);
        for (yaml_node_item_t *ri = runs->data.sequence.items.start; ri < runs->data.sequence.items.top; ++ri) {
            yaml_node_t *run = yaml_document_get_node(&rd->doc, *ri);
            rec_run *x;
            double size, reps;
            if (e->count == SCENE_SWEEP_SIZES)
                return err_set("'%s' is a damaged record: engine '%s' has more than %d runs", rd->path, name,
                               SCENE_SWEEP_SIZES);
            x = &e->run[e->count++];
            if (!number(rd, run, "size", true, 4, 4096, &size) ||
                !number(rd, run, "median_ms", false, MS_LO, MS_HI, &x->median_ms) ||
                !number(rd, run, "min_ms", false, MS_LO, MS_HI, &x->min_ms) ||
                !number(rd, run, "max_ms", false, MS_LO, MS_HI, &x->max_ms) ||
                !number(rd, run, "reps", true, 1, 1e6, &reps))
                return false;
            x->size = (int)size;
            x->reps = (int)reps;
            if (!read_phases(rd, run, name, x))
                return false;
            if (x->min_ms > x->median_ms || x->max_ms < x->median_ms)
                return err_set("'%s' is a damaged record: engine '%s' has a run of size %d with times %g, %g, %g ms "
                               "that do not hold together",
                               rd->path, name, x->size, x->min_ms, x->median_ms, x->max_ms);
        }
    }
    return true;
}

/* The sentence for a record over REC_MAX_BYTES. */
static bool too_large(const char *path, long long size)
{
    return err_set("'%s' is not a record convis reads: it is %lld bytes, and a record is at most 256 KiB (%d bytes)",
                   path, size, REC_MAX_BYTES);
}

bool rec_parse(const char *path, const unsigned char *data, size_t size, app_record *r)
{
    reader rd = {.path = path};
    yaml_parser_t parser;
    bool ok;

    memset(r, 0, sizeof *r);
    if (size > REC_MAX_BYTES)
        return too_large(path, (long long)size);
    if (!rec_json_shape(path, data, size))
        return false;
    if (!yaml_parser_initialize(&parser))
        return err_set("out of memory reading '%s'", path);
    yaml_parser_set_input_string(&parser, data, size);
    yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING); /* the bytes rec_json_shape looked at */
    if (!yaml_parser_load(&parser, &rd.doc)) {
        err_set("'%s' is a damaged record: %s at line %zu", path, parser.problem ? parser.problem : "not JSON",
                parser.problem_mark.line + 1);
        yaml_parser_delete(&parser);
        return false;
    }
    ok = read_doc(&rd, r);
    yaml_document_delete(&rd.doc);
    yaml_parser_delete(&parser);
    if (!ok)
        memset(r, 0, sizeof *r);
    return ok;
}

bool rec_read(const char *path, app_record *r)
{
    struct stat st;
    unsigned char *data;
    ssize_t got;
    bool ok;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

    memset(r, 0, sizeof *r);
    if (fd < 0)
        return err_set("cannot open the record '%s': %s", path, strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return err_set("'%s' is not a record convis reads: it is not a regular file (a folder, a pipe or a device)",
                       path);
    }
    if (st.st_size > REC_MAX_BYTES) { /* refused unread: a record is a few kilobytes */
        close(fd);
        return too_large(path, (long long)st.st_size);
    }
    data = malloc((size_t)st.st_size + 1);
    if (!data) {
        close(fd);
        return err_set("out of memory reading '%s'", path);
    }
    got = read(fd, data, (size_t)st.st_size);
    close(fd);
    if (got != (ssize_t)st.st_size) {
        free(data);
        return err_set("cannot read the record '%s'", path);
    }
    ok = rec_parse(path, data, (size_t)got, r);
    free(data);
    return ok;
}

void rec_label(const app_record *r, char *buf, size_t size)
{
    char day[16], whole[1024];
    lb_copy(day, 11, r->date); /* 2026-11-30, of an ISO 8601 date */
    /* the kinds a record says its GPU was, for the catalogue */
    static const char *const kinds[] = {N_("GPU"), N_("software on the CPU"), N_("virtual GPU"), N_("CPU"), N_("none")};
    (void)kinds;
    snprintf(whole, sizeof whole, _("recorded on %s (%s), %s, %s"), r->gpu[0] ? r->gpu : _("no GPU"),
             r->gpu_kind[0] ? _(r->gpu_kind) : "", r->cpu, day); /* _("") would be the catalogue's header */
    lb_copy(buf, size, whole);                                   /* shortened, if at all, between characters */
}
