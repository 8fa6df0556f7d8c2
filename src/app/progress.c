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

/* One answer as read, and its place in its file (answers are folded in
 * that order). */
typedef struct raw {
    int learner, step, try_no;
    long order;
    bool correct;
    char lesson[128], fact[32], answer[64];
} raw;

/* One learner's answers to one question: its first round (a round starts
 * at try 1: going back to the step asks it afresh, and only the first
 * answers count). */
typedef struct answered {
    int learner;
    char lesson[128], fact[32];
    int step, tries;
    bool first_right, right;
    char wrong[4][64]; /* the first wrong answers, as given */
    int wrong_count;
} answered;

typedef struct progress {
    raw *r;
    long raw_count, raw_cap;
    answered *q;
    int count;
    char (*learners)[256];
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

/* Control characters of a learner's file never reach the teacher's
 * terminal or sheet: each becomes '?'. */
static void clean_copy(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src ? src : "?");
    for (char *p = dst; *p; ++p)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
}

/* One record into the list; false when it is not a record. */
static bool take(progress *pg, int learner, yaml_document_t *d, yaml_node_t *r)
{
    const char *lesson = scalar(d, r, "lesson"), *step = scalar(d, r, "step"), *correct = scalar(d, r, "correct"),
               *answer = scalar(d, r, "answer"), *try_no = scalar(d, r, "try");
    raw *e;
    char *end;
    long n, t = 1;
    if (!lesson || !step || !correct || !answer)
        return false;
    n = strtol(step, &end, 10);
    if (*end || n < 1 || n > 100000 || (strcmp(correct, "true") && strcmp(correct, "false")))
        return false;
    if (try_no && ((t = strtol(try_no, &end, 10)) < 1 || t > 1000 || *end))
        return false;
    if (pg->raw_count == pg->raw_cap) {
        long cap = pg->raw_cap ? 2 * pg->raw_cap : 256;
        raw *grown = realloc(pg->r, (size_t)cap * sizeof *grown);
        if (!grown)
            return false;
        pg->r = grown;
        pg->raw_cap = cap;
    }
    e = &pg->r[pg->raw_count];
    memset(e, 0, sizeof *e);
    e->learner = learner;
    e->step = (int)n;
    e->try_no = (int)t;
    e->order = pg->raw_count++;
    e->correct = !strcmp(correct, "true");
    clean_copy(e->lesson, sizeof e->lesson, lesson);
    clean_copy(e->fact, sizeof e->fact, scalar(d, r, "fact"));
    clean_copy(e->answer, sizeof e->answer, answer);
    return true;
}

static int by_question(const void *x, const void *y)
{
    const raw *a = x, *b = y;
    int c = strcmp(a->lesson, b->lesson);
    if (!c)
        c = (a->step > b->step) - (a->step < b->step);
    if (!c)
        c = (a->learner > b->learner) - (a->learner < b->learner);
    return c ? c : (a->order > b->order) - (a->order < b->order);
}

/* The records sorted by question, learner and order, folded into one entry
 * per learner and question (their first round): n log n, whatever the files. */
static bool fold(progress *pg)
{
    qsort(pg->r, (size_t)pg->raw_count, sizeof *pg->r, by_question);
    pg->q = calloc((size_t)(pg->raw_count ? pg->raw_count : 1), sizeof *pg->q);
    if (!pg->q)
        return false;
    for (long i = 0; i < pg->raw_count; ++i) {
        const raw *e = &pg->r[i];
        answered *q = pg->count ? &pg->q[pg->count - 1] : NULL;
        bool same = q && q->learner == e->learner && q->step == e->step && !strcmp(q->lesson, e->lesson);
        if (!same) {
            q = &pg->q[pg->count++];
            q->learner = e->learner;
            q->step = e->step;
            snprintf(q->lesson, sizeof q->lesson, "%s", e->lesson);
            snprintf(q->fact, sizeof q->fact, "%s", e->fact);
        } else if (q->right || q->tries < 0 || (e->try_no == 1 && q->tries > 0)) {
            q->tries = q->tries > 0 ? -q->tries : q->tries; /* a later round: the first one stands */
            continue;
        }
        if (++q->tries == 1)
            q->first_right = e->correct;
        q->right = e->correct;
        if (!e->correct && q->wrong_count < 4)
            snprintf(q->wrong[q->wrong_count++], sizeof q->wrong[0], "%s", e->answer);
    }
    for (int i = 0; i < pg->count; ++i)
        pg->q[i].tries = pg->q[i].tries < 0 ? -pg->q[i].tries : pg->q[i].tries;
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
            char(*l)[256] = realloc(pg->learners, (size_t)(pg->learner_count + 1) * sizeof *l);
            if (l) {
                pg->learners = l;
                clean_copy(l[pg->learner_count], sizeof l[0], path); /* named when printed (learner_name) */
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

/* A learner's name: their file's without its folder and .json, or, where
 * two learners' files share that name (each handed in as attempts.json),
 * the path as given. */
static void learner_name(const progress *pg, int l, char *buf, size_t size)
{
    const char *path = pg->learners[l], *base = strrchr(path, '/');
    size_t n;
    base = base ? base + 1 : path;
    for (int k = 0; k < pg->learner_count; ++k) {
        const char *other = strrchr(pg->learners[k], '/');
        if (k != l && !strcmp(other ? other + 1 : pg->learners[k], base))
            base = path;
    }
    snprintf(buf, size, "%s", base);
    n = strlen(buf);
    if (n > 5 && !strcmp(buf + n - 5, ".json"))
        buf[n - 5] = '\0';
}

/* A CSV field, quoted; one a spreadsheet would read as a formula starts with
 * a quote mark instead. */
static void csv_field(const char *s)
{
    putchar('"');
    if (strchr("=+-@", s[0]) && s[0])
        putchar('\'');
    for (; *s; ++s) {
        if (*s == '"')
            putchar('"');
        putchar(*s);
    }
    putchar('"');
}

static void print_csv(const progress *pg)
{
    char name[256];
    puts("learner,lesson,step,fact,tries,right_first_try,right,wrong_answers");
    for (int i = 0; i < pg->count; ++i) {
        const answered *e = &pg->q[i];
        char wrong[300] = "";
        for (int k = 0, n = 0; k < e->wrong_count; ++k)
            n += snprintf(wrong + n, sizeof wrong - (size_t)n, "%s%s", k ? "|" : "", e->wrong[k]);
        learner_name(pg, e->learner, name, sizeof name);
        csv_field(name);
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

static void by_learner(const progress *pg)
{
    char a[32], b[32], name[256];
    int *n = calloc((size_t)pg->learner_count, 3 * sizeof *n);
    if (!n)
        return;
    for (int i = 0; i < pg->count; ++i) { /* each learner's questions, first tries right, right in the end */
        int *c = n + 3 * pg->q[i].learner;
        ++c[0], c[1] += pg->q[i].first_right, c[2] += pg->q[i].right;
    }
    printf(_("By learner (one file each):\n"));
    printf("  %-20s %9s %17s %17s\n", _("learner"), _("questions"), _("right first try"), _("right in the end"));
    for (int l = 0; l < pg->learner_count; ++l) {
        learner_name(pg, l, name, sizeof name);
        share(a, sizeof a, n[3 * l + 1], n[3 * l]);
        share(b, sizeof b, n[3 * l + 2], n[3 * l]);
        printf("  %-20s %9d %17s %17s\n", name, n[3 * l], a, b);
    }
    free(n);
}

/* The entries are sorted by question (fold): each question's run of them. */
static void by_question_table(const progress *pg)
{
    char a[32], b[32], where[160];
    printf(_("\nBy question:\n"));
    printf("  %-28s %-16s %8s %17s %17s  %s\n", _("lesson:step"), _("fact"), _("learners"), _("right first try"),
           _("right in the end"), _("a wrong answer given"));
    for (int i = 0, j; i < pg->count; i = j) {
        int n = 0, first = 0, right = 0;
        const char *wrong = NULL;
        for (j = i; j < pg->count && pg->q[j].step == pg->q[i].step && !strcmp(pg->q[j].lesson, pg->q[i].lesson); ++j) {
            ++n, first += pg->q[j].first_right, right += pg->q[j].right;
            if (!wrong && pg->q[j].wrong_count)
                wrong = pg->q[j].wrong[0];
        }
        snprintf(where, sizeof where, "%s:%d", pg->q[i].lesson, pg->q[i].step);
        share(a, sizeof a, first, n);
        share(b, sizeof b, right, n);
        printf("  %-28s %-16s %8d %17s %17s  %s\n", where, pg->q[i].fact, n, a, b, wrong ? wrong : "-");
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
    if (!fold(&pg)) {
        app_error("progress: out of memory for %ld answers", pg.raw_count);
        read = 0;
    } else if (csv) {
        print_csv(&pg);
    } else if (read) {
        by_learner(&pg);
        by_question_table(&pg);
    }
    free(pg.r);
    free(pg.q);
    free(pg.learners);
    return read == files ? APP_EXIT_OK : APP_EXIT_INPUT;
}
