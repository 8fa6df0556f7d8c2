/* question.c - a step's question (`ask:`) and the teacher's notes (`notes:`)
 * in a lesson file (lessons/README.md, "Questions" and "Notes for the
 * teacher"): the facts a question may be checked against, and the checks of
 * what a lesson writes, at their line and column. */
#include "lesson_tree.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tr.h"

/* clang-format off */
const lsn_fact lsn_facts[] = {
    /* counted from the scene's settings: the same on every machine for the same image and filter */
    {"outputs", LSN_ASK_NUMBER, NULL},
    {"taps", LSN_ASK_NUMBER, NULL},
    {"threads", LSN_ASK_NUMBER, NULL},
    {"blocks", LSN_ASK_NUMBER, NULL},
    {"block_threads", LSN_ASK_NUMBER, NULL},
    {"tile_cells", LSN_ASK_NUMBER, NULL},
    {"halo_cells", LSN_ASK_NUMBER, NULL},
    {"naive_loads", LSN_ASK_NUMBER, NULL},
    {"tiled_loads", LSN_ASK_NUMBER, NULL},
    {"separable_taps", LSN_ASK_NUMBER, NULL},
    {"unrolled_copies", LSN_ASK_NUMBER, NULL},
    {"layer_products", LSN_ASK_NUMBER, NULL},
    {"image_kib", LSN_ASK_NUMBER, NULL},
    /* measured on this machine */
    {"cpu_threads", LSN_ASK_NUMBER, NULL},
    {"gpu_vs_par", LSN_ASK_CHOICE, "faster slower same"},
    {"par_vs_seq", LSN_ASK_CHOICE, "faster slower same"},
    {"simd_vs_seq", LSN_ASK_CHOICE, "faster slower same"},
    {"tiles_vs_whole", LSN_ASK_CHOICE, "faster slower same"},
    {"chain_vs_independent", LSN_ASK_CHOICE, "faster slower same"},
    {"race_seen", LSN_ASK_CHOICE, "yes no"},
    /* of the filter and the image */
    {"separable", LSN_ASK_CHOICE, "yes no"},
    {"fits_budget", LSN_ASK_CHOICE, "yes no"},
    /* the kernel lab's last check of the learner's kernel */
    {"lab_right", LSN_ASK_CHOICE, "yes no"},
    {"lab_wrong", LSN_ASK_NUMBER, NULL},
    {"lab_reads", LSN_ASK_NUMBER, NULL},
    /* a cell to click */
    {"window", LSN_ASK_CLICK, NULL},
    {"window_corner", LSN_ASK_CLICK, NULL},
    {"same_block", LSN_ASK_CLICK, NULL},
    {NULL, LSN_ASK_NONE, NULL},
};
/* clang-format on */

const lsn_fact *lsn_fact_find(const char *name)
{
    for (int i = 0; name && lsn_facts[i].name; ++i)
        if (!strcmp(lsn_facts[i].name, name))
            return &lsn_facts[i];
    return NULL;
}

/* The facts of one kind, for a message: "outputs, taps, threads, ...". */
static const char *facts_of(lsn_ask_kind kind, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; lsn_facts[i].name && n < size; ++i)
        if (lsn_facts[i].kind == kind)
            n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "", lsn_facts[i].name);
    return buf;
}

static const char *const kind_keys[] = {NULL, "number", "choice", "click"};

/* Whether word (n bytes) is one of the space-separated words of list. */
static bool in_list(const char *list, const char *word, size_t n)
{
    for (const char *p = list; *p;) {
        size_t k = strcspn(p, " ");
        if (k == n && !memcmp(p, word, n))
            return true;
        p += k;
        p += *p == ' ';
    }
    return false;
}

/* within: a number (absolute) or a number and '%' (relative): "0", "2", "10%". */
static bool within_value(const parse *ps, const node *v, int step_no, lsn_ask *q)
{
    char shown[64], *end;
    double x;
    if (v->kind != N_SCALAR || lsn_plain_null(v) || !v->length)
        return lsn_fail_at(ps->name, v->line, v->column,
                           "within in step %d is %s; write how far an answer may be from convis's figure and still "
                           "count, such as 'within: 2' or 'within: 10%%'",
                           step_no, lsn_node_what(v));
    x = strtod(v->value, &end);
    q->relative = *end == '%';
    if (end == v->value || (*end && !(q->relative && !end[1])) || !isfinite(x) || x < 0 || (q->relative && x > 100))
        return lsn_fail_at(ps->name, v->line, v->column,
                           "within in step %d is '%s'; write a number of 0 or more ('within: 2'), or a percentage "
                           "from 0%% to 100%% ('within: 10%%')",
                           step_no, lsn_clip(v->value, v->length, shown, sizeof shown));
    q->within = q->relative ? x / 100.0 : x;
    return true;
}

/* options: a mapping of the fact's answers to their texts, each answer the
 * fact can give offered once, in the order the learner sees them. */
static bool options_value(const parse *ps, const node *v, int step_no, const lsn_fact *f, lsn_ask *q)
{
    char shown[64], what[64];
    const char *fix = _("write each answer the fact can give as a key and its text, such as 'faster: the GPU'");
    if (v->kind != N_MAP || v->count == 0)
        return lsn_fail_at(ps->name, v->line, v->column, "options in step %d is %s; %s (the answers of %s: %s)",
                           step_no, lsn_node_what(v), fix, f->name, f->answers);
    if (v->count / 2 > LSN_MAX_OPTIONS)
        return lsn_fail_at(ps->name, v->kids[2 * LSN_MAX_OPTIONS]->line, v->kids[2 * LSN_MAX_OPTIONS]->column,
                           "options in step %d has more than %d; a question offers at most %d", step_no,
                           LSN_MAX_OPTIONS, LSN_MAX_OPTIONS);
    for (int i = 0; i + 1 < v->count; i += 2) {
        const node *k = v->kids[i], *t = v->kids[i + 1];
        if (k->kind != N_SCALAR || !in_list(f->answers, k->value, k->length))
            return lsn_fail_at(ps->name, k->line, k->column,
                               "'%s' in step %d is no answer %s can give; its answers are %s",
                               k->kind == N_SCALAR ? lsn_clip(k->value, k->length, shown, sizeof shown) : "?",
                               step_no, f->name, f->answers);
        for (int j = 0; j < i; j += 2)
            if (!strcmp(v->kids[j]->value, k->value))
                return lsn_fail_at(ps->name, k->line, k->column, "the option '%s' appears twice in step %d; keep one",
                                   k->value, step_no);
        if (!(q->options[i / 2].key = lsn_dup_n(k->value, k->length)))
            return lsn_fail_at(ps->name, k->line, k->column, "out of memory while reading the lesson");
        q->option_count = i / 2 + 1; /* so lsn_ask_free frees it */
        snprintf(what, sizeof what, _("the option '%s' in step %d"), k->value, step_no);
        if (!lsn_say_value(ps, t, what, &q->options[i / 2].text))
            return false;
    }
    for (const char *p = f->answers; *p;) { /* every answer offered: the right one is always there */
        size_t n = strcspn(p, " ");
        bool offered = false;
        for (int i = 0; i < q->option_count; ++i)
            offered |= strlen(q->options[i].key) == n && !memcmp(q->options[i].key, p, n);
        if (!offered)
            return lsn_fail_at(ps->name, v->line, v->column,
                               "options in step %d do not offer '%.*s'; %s can give %s, and each must be offered", step_no,
                               (int)n, p, f->name, f->answers);
        p += n;
        p += *p == ' ';
    }
    return true;
}

/* The question's kind: exactly one of number, choice, click, naming a fact of that kind. */
static bool kind_value(const parse *ps, const node *v, int step_no, const lsn_fact **fact, lsn_ask *q)
{
    const node *name = NULL;
    char shown[64], list[600];
    for (int k = 1; k <= 3; ++k) {
        const node *n = lsn_map_get(v, kind_keys[k]);
        if (!n)
            continue;
        if (name)
            return lsn_fail_at(ps->name, n->line, n->column,
                               "the question in step %d has two kinds; give one of number, choice and click", step_no);
        name = n;
        q->kind = (lsn_ask_kind)k;
    }
    if (!name)
        return lsn_fail_at(ps->name, v->line, v->column,
                           "the question in step %d says no kind; write 'number: FACT', 'choice: FACT' or "
                           "'click: FACT', the figure convis checks the answer against",
                           step_no);
    if (name->kind != N_SCALAR || lsn_plain_null(name))
        return lsn_fail_at(ps->name, name->line, name->column, "%s in step %d is %s; name a fact: %s",
                           kind_keys[q->kind], step_no, lsn_node_what(name), facts_of(q->kind, list, sizeof list));
    *fact = lsn_fact_find(name->value);
    if (!*fact || (*fact)->kind != q->kind)
        return lsn_fail_at(ps->name, name->line, name->column, "'%s' in step %d is no %s fact; the %s facts are %s",
                           lsn_clip(name->value, name->length, shown, sizeof shown), step_no, kind_keys[q->kind],
                           kind_keys[q->kind], facts_of(q->kind, list, sizeof list));
    q->fact = (*fact)->name;
    q->line = name->line;
    q->column = name->column;
    return true;
}

bool lsn_ask_value(const parse *ps, const node *v, int step_no, lsn_ask *q)
{
    static const char *const keys[] = {"number", "choice", "click", "within", "options", "hint", "why", NULL};
    const lsn_fact *f = NULL;
    const node *n;
    char what[64];
    memset(q, 0, sizeof *q);
    if (v->kind != N_MAP)
        return lsn_fail_at(ps->name, v->line, v->column,
                           "ask in step %d is %s; a question is a mapping such as 'number: threads' with hint: and why:",
                           step_no, lsn_node_what(v));
    if (!lsn_check_keys(ps, v, keys, _("in a question"),
                        _("a question has number, choice or click, within (a number's), options (a choice's), hint "
                          "and why")) ||
        !kind_value(ps, v, step_no, &f, q))
        return false;
    if ((n = lsn_map_get(v, "within")) && q->kind != LSN_ASK_NUMBER)
        return lsn_fail_at(ps->name, n->line, n->column, "within in step %d belongs to a number question; leave it out",
                           step_no);
    if (n && !within_value(ps, n, step_no, q))
        return false;
    n = lsn_map_get(v, "options");
    if (q->kind == LSN_ASK_CHOICE && !n)
        return lsn_fail_at(ps->name, v->line, v->column, "the choice in step %d has no options; give one for each of %s",
                           step_no, f->answers);
    if (n && q->kind != LSN_ASK_CHOICE)
        return lsn_fail_at(ps->name, n->line, n->column, "options in step %d belong to a choice; leave them out",
                           step_no);
    if (n && !options_value(ps, n, step_no, f, q))
        return false;
    for (int k = 0; k < 2; ++k) {
        const char *key = k ? "why" : "hint";
        if (!(n = lsn_map_get(v, key)))
            return lsn_fail_at(ps->name, v->line, v->column,
                               "the question in step %d has no %s; a wrong answer gets the hint, and every answer the "
                               "why, with this machine's figures",
                               step_no, key);
        snprintf(what, sizeof what, _("%s in step %d"), key, step_no);
        if (!lsn_say_value(ps, n, what, k ? &q->why : &q->hint))
            return false;
    }
    return true;
}

bool lsn_notes_value(const parse *ps, const node *v, const char *what, char **out)
{
    return lsn_say_value(ps, v, what, out);
}

void lsn_ask_free(lsn_ask *q)
{
    for (int i = 0; i < q->option_count; ++i) {
        free(q->options[i].key);
        free(q->options[i].text);
    }
    free(q->hint);
    free(q->why);
    memset(q, 0, sizeof *q);
}
