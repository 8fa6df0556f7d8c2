/* lesson.h - lesson files: the parser (lessons/README.md describes the format).
 *
 * A lesson is a YAML file a teacher writes: a title, an optional image, an
 * optional recorded run to draw beside the live ones, and a sequence of steps, each with narration (say), the actions that set the
 * scene (do) and an action the learner must do before the next step (wait).
 * The parser checks the structure and the narration's {placeholders}; it
 * does not know the action names: the app checks them with its action table,
 * using the positions recorded here, so its messages can point into the file.
 *
 * Every failure leaves "name:line:column: message" in err_msg() (core/err.h);
 * no input crashes the parser. Lines and columns are 1-based; columns count
 * characters (UTF-8 code points), as editors do. */
#ifndef CONVIS_LESSON_H
#define CONVIS_LESSON_H

#include <stdbool.h>
#include <stddef.h>

/* The limits a lesson must stay within. */
#define LSN_MAX_FILE_BYTES (1024 * 1024) /* a whole file: 1 MiB */
#define LSN_MAX_STRING_BYTES (64 * 1024) /* one string (narration, title, ...): 64 KiB */
#define LSN_MAX_STEPS 1000
#define LSN_MAX_ACTIONS 100 /* per step */

/* One action as `convis --do` takes it ("step*3"), and its 1-based position
 * in the file. */
typedef struct lsn_action {
    char *text;
    int line, column;
} lsn_action;

/* What a step may say differently on different machines (say-gpu,
 * say-software, say-no-gpu): where the GPU engine is a real GPU, software
 * running on this CPU (llvmpipe), or missing. A step without the variant
 * says its `say`. */
typedef enum lsn_variant { LSN_ON_GPU = 0, LSN_ON_SOFTWARE, LSN_ON_NO_GPU, LSN_VARIANTS } lsn_variant;

/* A question a step asks (its `ask:`): the learner answers a number, picks
 * an option or clicks a cell, and the app checks the answer against `fact`,
 * a figure convis computes or measures on this machine when the answer
 * comes (lsn_facts: its name and kind; the app computes it). The step's say
 * is the question; a wrong answer gets `hint`, a second the answer, and
 * every end `why` (placeholders filled). */
typedef enum lsn_ask_kind { LSN_ASK_NONE = 0, LSN_ASK_NUMBER, LSN_ASK_CHOICE, LSN_ASK_CLICK } lsn_ask_kind;

#define LSN_MAX_OPTIONS 6

typedef struct lsn_option {
    char *key;  /* the answer it stands for, one of the fact's answers ("faster") */
    char *text; /* what the learner reads */
} lsn_option;

typedef struct lsn_ask {
    lsn_ask_kind kind;
    const char *fact; /* the fact's name, from lsn_facts (static); NULL when the step asks nothing */
    int line, column; /* of the fact's name in the file */
    double within;    /* a number: the tolerance, absolute or (relative) a fraction of the answer */
    bool relative;
    lsn_option options[LSN_MAX_OPTIONS];
    int option_count;
    char *hint, *why;
} lsn_ask;

/* The facts a question may be checked against: their names, their kind,
 * and a choice's possible answers (its options must offer each of them). */
typedef struct lsn_fact {
    const char *name;
    lsn_ask_kind kind;
    const char *answers; /* a choice's, space-separated ("faster slower same"); NULL for the others */
} lsn_fact;

extern const lsn_fact lsn_facts[]; /* ends with a NULL name */

/* The fact named `name`, or NULL. */
const lsn_fact *lsn_fact_find(const char *name);

typedef struct lsn_step {
    char *say;
    int say_line, say_column;   /* the narration; its value's position */
    char *say_on[LSN_VARIANTS]; /* the variants; NULL when absent */
    int say_on_line[LSN_VARIANTS];
    lsn_action *actions;
    int action_count; /* actions NULL when count is 0 */
    char *wait;
    int wait_line, wait_column; /* wait NULL when absent */
    char *image;
    int image_line, image_column; /* an image the step opens; NULL when absent */
    lsn_ask ask;                  /* the question it asks; kind LSN_ASK_NONE when none */
    char *notes;                  /* for the teacher (presenter mode, the handout); NULL when absent */
    int line;                     /* where the step's mapping starts */
} lsn_step;

typedef struct lsn_lesson {
    char *title;
    char *image;
    int image_line, image_column; /* image NULL when absent */
    char *record;
    int record_line, record_column; /* a recorded run to draw; NULL when absent */
    char *notes; /* the lesson's notes for the teacher; NULL when absent */
    lsn_step *steps;
    int step_count;
} lsn_lesson;

/* Parses text (size bytes, not necessarily NUL-terminated) named `name` for
 * messages. On failure returns false, *out empty (all zero), and err_msg()
 * reads "name:line:column: message": one sentence saying what is wrong and
 * what is expected. Never crashes on any input. */
bool lsn_parse(const char *name, const char *text, size_t size, lsn_lesson *out);

/* Reads and parses a file; refuses files over 1 MiB, directories, unreadable
 * or missing files with "path: message". The name in messages is the path. */
bool lsn_load(const char *path, lsn_lesson *out);

/* Frees what lsn_parse or lsn_load filled and leaves *l empty. NULL and an
 * empty lesson are fine. */
void lsn_free(lsn_lesson *l);

/* The placeholders narration may use, e.g. {cpu_seq_ms}; NULL-terminated,
 * for the app to fill with live measurements and for checks. */
extern const char *const lsn_placeholders[];

/* Checks a narration's placeholders: every {name} must be in
 * lsn_placeholders, braces balanced ({{ and }} stand for literal braces).
 * `line` and `column` are where text's first character sits in the file.
 * by_lines true: text keeps the file's line breaks (a block scalar, | or >),
 * each '\n' moves to the next line, back to `column`; false: text is one
 * run (a plain or quoted scalar) and offsets add to `column`. False with
 * "name:line:column: ..." pointing as close as possible to the bad
 * placeholder. lsn_parse calls it for each say. */
bool lsn_check_placeholders(const char *name, const char *text, int line, int column, bool by_lines);

#endif
