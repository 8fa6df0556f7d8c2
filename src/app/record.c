/* record.c - recorded runs (record.h): from a sweep, to a JSON file, and
 * back (read with libyaml: JSON is YAML's flow style). Contents: this
 * machine · from the scene · writing · reading. */
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
#include "i18n.h"

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
            snprintf(buf, size, "%s", v);
            break;
        }
    }
    fclose(f);
}

/* ---- from the scene ---------------------------------------------------------------- */

bool rec_from_scene(const scene *s, const char *convis_version, app_record *r)
{
    const scene_engine *e[REC_ENGINES] = {&s->seq, &s->par, &s->gpu};
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
    snprintf(r->gpu, sizeof r->gpu, "%s", s->gpu_device_known ? s->gpu_device.name : s->gpu.engine ? "" : "none");
    if (!r->gpu[0] && s->gpu.engine) { /* the device's name without a GPU run: from the engine */
        eng_device_info info;
        if (eng_device(s->gpu.engine, &info))
            snprintf(r->gpu, sizeof r->gpu, "%s", info.name);
    }
    snprintf(r->gpu_kind, sizeof r->gpu_kind, "%s", s->gpu.engine ? eng_hardware_name(s->gpu.hardware) : "none");
    snprintf(r->filter, sizeof r->filter, "%s", s->opt.kernel.name);
    snprintf(r->border, sizeof r->border, "%s", conv_border_name(s->opt.border));
    for (int k = 0; k < REC_ENGINES; ++k) {
        rec_engine *re = &r->engine[r->engine_count];
        if (!e[k]->engine)
            continue;
        snprintf(re->name, sizeof re->name, "%s", e[k]->name);
        snprintf(re->description, sizeof re->description, "%s", eng_description(e[k]->engine));
        for (int i = 0; i < s->sweep.count; ++i) {
            if (s->sweep.ms[k][i] < 0)
                continue;
            rec_run *x = &re->run[re->count++];
            *x = (rec_run){s->sweep.size[i], s->sweep.ms[k][i], s->sweep.lo[k][i], s->sweep.hi[k][i],
                           s->sweep.reps[k][i], {0}};
            for (int p = 0; p < ENG_PHASE_COUNT; ++p)
                x->phase_ms[p] = s->sweep.phase[k][i][p];
        }
        ++r->engine_count;
    }
    return true;
}

/* ---- writing ------------------------------------------------------------------------- */

/* A JSON string. */
void rec_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

bool rec_write(const char *path, const app_record *r)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    FILE *f;
    bool ok;
    if (fd < 0)
        return errno == EEXIST ? err_set_kind(ERR_EXISTS, "'%s' already exists; convis does not overwrite it", path)
                               : err_set("cannot write '%s': %s", path, strerror(errno));
    f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        unlink(path);
        return err_set("cannot write '%s': %s", path, strerror(errno));
    }
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
    ok = fflush(f) == 0 && !ferror(f);
    if (fclose(f) != 0)
        ok = false;
    if (!ok) {
        unlink(path);
        return err_set("cannot write '%s': %s", path, strerror(errno));
    }
    return true;
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
    snprintf(buf, size, "%s", (const char *)v->data.scalar.value);
    return true;
}

/* A finite number from lo to hi. */
static bool number(reader *rd, yaml_node_t *m, const char *key, double lo, double hi, double *out)
{
    char buf[64], *end;
    if (!text(rd, m, key, buf, sizeof buf))
        return false;
    *out = strtod(buf, &end);
    if (end == buf || *end || !isfinite(*out))
        return err_set("'%s' is a damaged record: \"%s\" is '%s', not a number", rd->path, key, buf);
    if (*out < lo || *out > hi)
        return err_set("'%s' is a damaged record: \"%s\" is %g, outside %g to %g", rd->path, key, *out, lo, hi);
    return true;
}

#define MS_LO 1e-6 /* times in a record: from a nanosecond ... */
#define MS_HI 1e7  /* ... to about three hours */

/* A run's "phases", when it has them: known phase names, each a time. */
static bool read_phases(reader *rd, yaml_node_t *run, const char *engine, rec_run *x)
{
    yaml_node_t *ph = get(rd, run, "phases");
    for (int p = 0; p < ENG_PHASE_COUNT; ++p)
        x->phase_ms[p] = -1.0;
    if (!ph)
        return true; /* a record from before phases were written */
    if (ph->type != YAML_MAPPING_NODE)
        return err_set("'%s' is a damaged record: engine '%s' has \"phases\" that are not a mapping", rd->path,
                       engine);
    for (yaml_node_pair_t *q = ph->data.mapping.pairs.start; q < ph->data.mapping.pairs.top; ++q) {
        yaml_node_t *k = yaml_document_get_node(&rd->doc, q->key);
        const char *name = k && k->type == YAML_SCALAR_NODE ? (const char *)k->data.scalar.value : "";
        int p = 0;
        while (p < ENG_PHASE_COUNT && strcmp(eng_phase_name((eng_phase)p), name) != 0)
            ++p;
        if (p == ENG_PHASE_COUNT)
            return err_set("'%s' is a damaged record: engine '%s' has a phase '%.40s'; the phases are upload, "
                           "compute, download, present and overhead", rd->path, engine, name);
        if (!number(rd, ph, name, 0, MS_HI, &x->phase_ms[p]))
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
    if (!number(rd, root, "convis_record", 1, 1e6, &v))
        return false;
    r->version = (int)v;
    if (r->version > REC_VERSION)
        return err_set("'%s' is a record of version %d, made by a newer convis; this one reads version %d", rd->path,
                       r->version, REC_VERSION);
    machine = get(rd, root, "machine");
    if (!text(rd, root, "convis", r->convis, sizeof r->convis) || !text(rd, root, "date", r->date, sizeof r->date) ||
        !text(rd, machine, "cpu", r->cpu, sizeof r->cpu) || !number(rd, machine, "cores", 1, 1e6, &v))
        return false;
    r->cores = (int)v;
    if (!text(rd, machine, "gpu", r->gpu, sizeof r->gpu) ||
        !text(rd, machine, "gpu_kind", r->gpu_kind, sizeof r->gpu_kind) ||
        !text(rd, root, "filter", r->filter, sizeof r->filter) || !text(rd, root, "border", r->border, sizeof r->border))
        return false;
    engines = get(rd, root, "engines");
    if (!engines || engines->type != YAML_SEQUENCE_NODE)
        return err_set("'%s' is a damaged record: \"engines\" is not a list", rd->path);
    for (yaml_node_item_t *it = engines->data.sequence.items.start; it < engines->data.sequence.items.top; ++it) {
        yaml_node_t *en = yaml_document_get_node(&rd->doc, *it), *runs;
        rec_engine *e;
        if (r->engine_count == REC_ENGINES)
            return err_set("'%s' is a damaged record: more than %d engines", rd->path, REC_ENGINES);
        e = &r->engine[r->engine_count++];
        if (!text(rd, en, "name", e->name, sizeof e->name) ||
            !text(rd, en, "description", e->description, sizeof e->description))
            return false;
        runs = get(rd, en, "runs");
        if (!runs || runs->type != YAML_SEQUENCE_NODE)
            return err_set("'%s' is a damaged record: engine '%s' has no list of runs", rd->path, e->name);
        for (yaml_node_item_t *ri = runs->data.sequence.items.start; ri < runs->data.sequence.items.top; ++ri) {
            yaml_node_t *run = yaml_document_get_node(&rd->doc, *ri);
            rec_run *x;
            double size, reps;
            if (e->count == SCENE_SWEEP_SIZES)
                return err_set("'%s' is a damaged record: engine '%s' has more than %d runs", rd->path, e->name,
                               SCENE_SWEEP_SIZES);
            x = &e->run[e->count++];
            if (!number(rd, run, "size", 4, 4096, &size) ||
                !number(rd, run, "median_ms", MS_LO, MS_HI, &x->median_ms) ||
                !number(rd, run, "min_ms", MS_LO, MS_HI, &x->min_ms) ||
                !number(rd, run, "max_ms", MS_LO, MS_HI, &x->max_ms) || !number(rd, run, "reps", 1, 1e6, &reps))
                return false;
            x->size = (int)size;
            x->reps = (int)reps;
            if (!read_phases(rd, run, e->name, x))
                return false;
            if (x->min_ms > x->median_ms || x->max_ms < x->median_ms)
                return err_set("'%s' is a damaged record: engine '%s' has a run of size %d with times %g, %g, %g ms "
                               "that do not hold together",
                               rd->path, e->name, x->size, x->min_ms, x->median_ms, x->max_ms);
        }
    }
    return true;
}

bool rec_read(const char *path, app_record *r)
{
    reader rd = {.path = path};
    yaml_parser_t parser;
    struct stat st;
    unsigned char *data;
    ssize_t got;
    bool ok;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

    memset(r, 0, sizeof *r);
    if (fd < 0)
        return err_set("cannot open the record '%s': %s", path, strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > REC_MAX_BYTES) {
        close(fd);
        return err_set("'%s' is not a record convis reads: a regular file of at most %d bytes", path, REC_MAX_BYTES);
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
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, data, (size_t)got);
    if (!yaml_parser_load(&parser, &rd.doc)) {
        err_set("'%s' is a damaged record: %s at line %zu", path, parser.problem ? parser.problem : "not JSON",
                parser.problem_mark.line + 1);
        yaml_parser_delete(&parser);
        free(data);
        return false;
    }
    ok = read_doc(&rd, r);
    yaml_document_delete(&rd.doc);
    yaml_parser_delete(&parser);
    free(data);
    if (!ok)
        memset(r, 0, sizeof *r);
    return ok;
}

void rec_label(const app_record *r, char *buf, size_t size)
{
    char day[16];
    snprintf(day, sizeof day, "%.10s", r->date);
    /* the kinds a record says its GPU was, for the catalogue */
    static const char *const kinds[] = {N_("GPU"), N_("software on the CPU"), N_("virtual GPU"), N_("CPU"),
                                        N_("none")};
    (void)kinds;
    snprintf(buf, size, _("recorded on %s (%s), %s, %s"), r->gpu[0] ? r->gpu : _("no GPU"),
             r->gpu_kind[0] ? _(r->gpu_kind) : "", r->cpu, day); /* _("") would be the catalogue's header */
}
