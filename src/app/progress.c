/* progress.c - `convis progress FILE... [--csv]`: several learners'
 * attempts files (attempts.c), one file a learner, summed up for a
 * teacher: a table by learner and one by question (how many got it right at
 * the first answer, in the end, and the wrong answer given most), or with
 * --csv one row per learner and question. A file that cannot be read is
 * said in a sentence and left out; the others are still summed. */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <yaml.h>

#include "cli.h"
#include "core/err.h"
#include "i18n.h"
#include "record_json.h"

#define MOST_BYTES (16L * 1024 * 1024)

/* One learner's answers to one question. */
typedef struct answered {
    int learner;
    char lesson[128], fact[32];
    int step, tries;
    bool first_right, right;
    char wrong[4][64]; /* the first wrong answers, as given */
    int wrong_count;
} answered;

typedef struct progress {
    answered *q;
    int count, cap;
    char (*learners)[128];
    int learner_count;
} progress;

static const char *scalar(yaml_document_t *d, yaml_node_t *map, const char *key)
{
    if (!map || map->type != YAML_MAPPING_NODE)
        return NULL;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; ++p) {
        yaml_node_t *k = yaml_document_get_node(d, p->key), *v = yaml_document_get_node(d, p->value);
        if (k && v && k->type == YAML_SCALAR_NODE && v->type == YAML_SCALAR_NODE &&
            !strcmp((const char *)k->data.scalar.value, key))
            return (const char *)v->data.scalar.value;
    }
    return NULL;
}

static yaml_node_t *child(yaml_document_t *d, yaml_node_t *map, const char *key)
{
    if (!map || map->type != YAML_MAPPING_NODE)
        return NULL;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; ++p) {
        yaml_node_t *k = yaml_document_get_node(d, p->key);
        if (k && k->type == YAML_SCALAR_NODE && !strcmp((const char *)k->data.scalar.value, key))
            return yaml_document_get_node(d, p->value);
    }
    return NULL;
}

/* The learner's entry for (lesson, step), made when new. */
static answered *entry(progress *pg, int learner, const char *lesson, int step, const char *fact)
{
    for (int i = 0; i < pg->count; ++i)
        if (pg->q[i].learner == learner && pg->q[i].step == step && !strcmp(pg->q[i].lesson, lesson))
            return &pg->q[i];
    if (pg->count == pg->cap) {
        int cap = pg->cap ? 2 * pg->cap : 64;
        answered *q = realloc(pg->q, (size_t)cap * sizeof *q);
        if (!q)
            return NULL;
        pg->q = q;
        pg->cap = cap;
    }
    answered *e = &pg->q[pg->count++];
    memset(e, 0, sizeof *e);
    e->learner = learner;
    e->step = step;
    snprintf(e->lesson, sizeof e->lesson, "%s", lesson);
    snprintf(e->fact, sizeof e->fact, "%s", fact ? fact : "?");
    return e;
}

/* One record into the summary; false when it is not a record. */
static bool take(progress *pg, int learner, yaml_document_t *d, yaml_node_t *r)
{
    const char *lesson = scalar(d, r, "lesson"), *step = scalar(d, r, "step"), *correct = scalar(d, r, "correct"),
               *answer = scalar(d, r, "answer");
    answered *e;
    char *end;
    long n;
    if (!lesson || !step || !correct || !answer)
        return false;
    n = strtol(step, &end, 10);
    if (*end || n < 1 || n > 100000 || (strcmp(correct, "true") && strcmp(correct, "false")))
        return false;
    if (!(e = entry(pg, learner, lesson, (int)n, scalar(d, r, "fact"))))
        return false;
    if (e->right) /* answered again after it was right (the step shown again): the first round counts */
        return true;
    if (++e->tries == 1)
        e->first_right = !strcmp(correct, "true");
    e->right = !strcmp(correct, "true");
    if (!e->right && e->wrong_count < 4)
        snprintf(e->wrong[e->wrong_count++], sizeof e->wrong[0], "%s", answer);
    return true;
}

/* Reads one learner's file into the summary; false with the sentence said. */
static bool read_file(progress *pg, const char *path)
{
    struct stat st;
    FILE *f;
    unsigned char *text;
    yaml_parser_t p;
    yaml_document_t d;
    yaml_node_t *root, *list;
    bool ok = false;
    const char *base = strrchr(path, '/');
    char name[128];
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > MOST_BYTES) {
        app_error("%s: cannot read it as an attempts file (missing, not a regular file, or over 16 MiB); left out",
                  path);
        return false;
    }
    if (!(f = fopen(path, "rb")) || !(text = malloc((size_t)st.st_size + 1))) {
        if (f)
            fclose(f);
        app_error("%s: cannot read it; left out", path);
        return false;
    }
    size_t n = fread(text, 1, (size_t)st.st_size, f);
    fclose(f);
    if (!rec_json_shape(path, text, n)) { /* JSON's text, nested at most a few deep */
        app_error("%s: is not an attempts file convis wrote (not JSON as convis writes it); left out", path);
        free(text);
        return false;
    }
    yaml_parser_initialize(&p);
    yaml_parser_set_input_string(&p, text, n);
    if (yaml_parser_load(&p, &d)) {
        root = yaml_document_get_root_node(&d);
        list = child(&d, root, "attempts");
        if (scalar(&d, root, "convis_attempts") && list && list->type == YAML_SEQUENCE_NODE) {
            snprintf(name, sizeof name, "%s", base ? base + 1 : path);
            if (strlen(name) > 5 && !strcmp(name + strlen(name) - 5, ".json"))
                name[strlen(name) - 5] = '\0';
            char(*l)[128] = realloc(pg->learners, (size_t)(pg->learner_count + 1) * sizeof *l);
            if (l) {
                pg->learners = l;
                snprintf(l[pg->learner_count], sizeof l[0], "%s", name);
                ok = true;
                for (yaml_node_item_t *it = list->data.sequence.items.start; it < list->data.sequence.items.top; ++it)
                    ok = take(pg, pg->learner_count, &d, yaml_document_get_node(&d, *it)) && ok;
                ++pg->learner_count;
                if (!ok)
                    app_error("%s: some of its records are not answers convis wrote; those are left out", path);
                ok = true;
            }
        }
        yaml_document_delete(&d);
    }
    yaml_parser_delete(&p);
    free(text);
    if (!ok)
        app_error("%s: is not an attempts file convis wrote (no \"convis_attempts\" and \"attempts\"); left out",
                  path);
    return ok;
}

static void csv_field(const char *s)
{
    putchar('"');
    for (; *s; ++s) {
        if (*s == '"')
            putchar('"');
        putchar(*s);
    }
    putchar('"');
}

static void print_csv(const progress *pg)
{
    puts("learner,lesson,step,fact,tries,right_first_try,right,wrong_answers");
    for (int i = 0; i < pg->count; ++i) {
        const answered *e = &pg->q[i];
        char wrong[300] = "";
        for (int k = 0, n = 0; k < e->wrong_count; ++k)
            n += snprintf(wrong + n, sizeof wrong - (size_t)n, "%s%s", k ? "|" : "", e->wrong[k]);
        csv_field(pg->learners[e->learner]);
        putchar(',');
        csv_field(e->lesson);
        printf(",%d,", e->step);
        csv_field(e->fact);
        printf(",%d,%s,%s,", e->tries, e->first_right ? "true" : "false", e->right ? "true" : "false");
        csv_field(wrong);
        putchar('\n');
    }
}

static void share(char *buf, size_t size, int k, int n)
{
    snprintf(buf, size, "%d (%.0f%%)", k, n ? 100.0 * k / n : 0.0);
}

static void print_tables(const progress *pg)
{
    char a[32], b[32];
    printf(_("By learner (one file each):\n"));
    printf("  %-20s %9s %17s %17s\n", _("learner"), _("questions"), _("right first try"), _("right in the end"));
    for (int l = 0; l < pg->learner_count; ++l) {
        int n = 0, first = 0, right = 0;
        for (int i = 0; i < pg->count; ++i)
            if (pg->q[i].learner == l)
                ++n, first += pg->q[i].first_right, right += pg->q[i].right;
        share(a, sizeof a, first, n);
        share(b, sizeof b, right, n);
        printf("  %-20s %9d %17s %17s\n", pg->learners[l], n, a, b);
    }
    printf(_("\nBy question:\n"));
    printf("  %-28s %-16s %8s %17s %17s  %s\n", _("lesson:step"), _("fact"), _("learners"), _("right first try"),
           _("right in the end"), _("a wrong answer given"));
    for (int i = 0; i < pg->count; ++i) {
        const answered *e = &pg->q[i];
        int n = 0, first = 0, right = 0;
        char where[160], wrong[64] = "";
        bool seen = false;
        for (int j = 0; j < i && !seen; ++j)
            seen = pg->q[j].step == e->step && !strcmp(pg->q[j].lesson, e->lesson);
        if (seen)
            continue;
        for (int j = i; j < pg->count; ++j)
            if (pg->q[j].step == e->step && !strcmp(pg->q[j].lesson, e->lesson)) {
                ++n, first += pg->q[j].first_right, right += pg->q[j].right;
                if (!wrong[0] && pg->q[j].wrong_count)
                    snprintf(wrong, sizeof wrong, "%s", pg->q[j].wrong[0]);
            }
        snprintf(where, sizeof where, "%s:%d", e->lesson, e->step);
        share(a, sizeof a, first, n);
        share(b, sizeof b, right, n);
        printf("  %-28s %-16s %8d %17s %17s  %s\n", where, e->fact, n, a, b, wrong[0] ? wrong : "-");
    }
}

int app_progress_main(int argc, char **argv)
{
    progress pg = {0};
    bool csv = false;
    int files = 0, read = 0;
    for (int i = 0; i < argc; ++i) {
        if (!strcmp(argv[i], "--csv")) {
            csv = true;
        } else if (!strcmp(argv[i], "--lang") && i + 1 < argc) {
            ++i; /* in force already */
        } else if (argv[i][0] == '-' && argv[i][1]) {
            app_error("progress: unknown option '%s'; it takes attempts files and --csv", argv[i]);
            return APP_EXIT_USAGE;
        }
    }
    for (int i = 0; i < argc; ++i) {
        if (!strcmp(argv[i], "--lang")) {
            ++i;
        } else if (strcmp(argv[i], "--csv") != 0) {
            ++files;
            read += read_file(&pg, argv[i]);
        }
    }
    if (!files) {
        app_error("progress: no attempts files; usage: convis progress FILE.json... [--csv]");
        return APP_EXIT_USAGE;
    }
    if (csv)
        print_csv(&pg);
    else if (read)
        print_tables(&pg);
    free(pg.q);
    free(pg.learners);
    return read == files ? APP_EXIT_OK : APP_EXIT_INPUT;
}
