/* cli.h - the command line: exit codes, usage, the options that the window
 * and `convis apply` share. */
#ifndef CONVIS_CLI_H
#define CONVIS_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "core/conv.h"
#include "core/filter.h"
#include "core/image.h"
#include "settings.h"

/* The exit statuses (README.md, "Exit statuses"; the end of --help). */
enum app_exit {
    APP_EXIT_OK = 0,
    APP_EXIT_USAGE = 1,             /* a usage error: an unknown command or option, a wrong value, options that clash */
    APP_EXIT_INPUT = 2,             /* an input error: a file that cannot be read or is refused, an output path
                                 * that cannot be used */
    APP_EXIT_ENV = 3,               /* an environment error: no display, the asked engine unavailable or failing,
                                 * no memory, a full disk or another failed write */
    APP_EXIT_ENGINE = APP_EXIT_ENV, /* the asked engine is unavailable or fails */
};

/* The status of a failure whose reason is in err_msg(): APP_EXIT_ENV when
 * the machine refused (err_kind ERR_ENV: a full disk, no memory), else
 * `otherwise`. */
int app_exit_of_error(int otherwise);

/* The command line's options: one table, from which each command parses
 * and `convis --help` is printed. */
typedef enum app_option_id {
    OPT_KERNEL,
    OPT_BORDER,
    OPT_FLIP,
    OPT_STRIDE,
    OPT_DILATION,
    OPT_PADDING,
    OPT_DISPLAY,
    OPT_MAX_SIDE,
    OPT_MAX_PIXELS, /* every command */
    OPT_OUTPUT,
    OPT_ENGINE,
    OPT_REPS,
    OPT_SEPARABLE,
    OPT_DIFF_MAP,
    OPT_FFT,
    OPT_GPU_KERNEL,
    OPT_RESULT,
    OPT_COLOR,
    OPT_LAYER,
    OPT_WAY,
    OPT_MATH, /* apply (--layer and --math: bench too) */
    OPT_WINDOW,
    OPT_LANG,
    OPT_DO,
    OPT_SCREENSHOT,
    OPT_RENDER_STEPS,
    OPT_REPORT_FRAMES,
    OPT_PRINT_STATE,
    OPT_LESSON,
    OPT_RECORD,
    OPT_GIF,
    OPT_GIF_SECONDS,
    OPT_GIF_FPS,
    OPT_GIF_STEPS,
    OPT_PRESENTER,
    OPT_ATTEMPTS,
    OPT_LAB, /* the window */
    OPT_SIZES,
    OPT_ENGINES,
    OPT_BUDGET_MS,
    OPT_KSIZE,
    OPT_CSV,
    OPT_JSON,    /* bench */
    OPT_HANDOUT, /* the window: what `convis handout` passes on */
} app_option_id;

enum { APP_FOR_ALL = 1, APP_FOR_APPLY = 2, APP_FOR_WINDOW = 4, APP_FOR_BENCH = 8, APP_FOR_HANDOUT = 16 };
#define APP_FOR_ANY (APP_FOR_ALL | APP_FOR_APPLY | APP_FOR_WINDOW | APP_FOR_BENCH | APP_FOR_HANDOUT)

/* The most frames one --gif may have, --gif-steps included: 60 s at 30
 * frames a second (--gif-seconds and --gif-fps at their most). */
#define APP_GIF_MOST_FRAMES 1800

typedef struct app_option {
    app_option_id id;
    const char *name;  /* "--kernel" */
    const char *alias; /* "-k", or NULL */
    const char *value; /* what it takes ("FILTER"), NULL for a switch */
    int scope;         /* APP_FOR_*: which commands take it */
    const char *help;  /* for --help, lines parted by \n; NULL: not listed */
} app_option;

/* The option named `arg` among those of `scope` (a mask of APP_FOR_*). */
const app_option *app_option_named(const char *arg, int scope);

/* Reads argv[*i]: 0 when it is no option (an argument), 1 when it is an
 * option of `scope` (*opt, its value in *value and *i moved past it), -1
 * after a message for an unknown option or a missing value. */
int app_next_option(int argc, char **argv, int *i, int scope, const app_option **opt, const char **value);

/* Applies one of the options every command takes: 1 when taken, 0 when it
 * is not one of them, -1 after a message for a bad value. */
int app_take_shared_option(const app_option *opt, const char *value, app_options *o);

/* Reads a whole number from 1 to max given to option `opt`; prints a
 * message naming the option and returns false otherwise. */
bool app_parse_count(const char *opt, const char *text, long long max, long long *out);

/* Prints "convis: <sentence>" to stderr. */
void app_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

void app_usage(FILE *f);

/* Whether `word` is one of the subcommands (apply, bench, ...). */
bool app_is_command(const char *word);

/* The usage of one subcommand (its forms, options and the exit statuses);
 * false when `command` is none. */
bool app_command_usage(FILE *f, const char *command);

/* Whether the arguments of a command ask for help (--help or -h where an
 * option may stand, not as an option's value). */
bool app_asks_help(int argc, char **argv);

/* The language the command line asks for (--lang's value, the last one),
 * whatever the command; NULL when it names none. main() puts it in force
 * before anything is said, --help included. */
const char *app_lang_option(int argc, char **argv);

/* `text` padded with spaces to `columns` columns of a terminal, on the
 * left (right-aligned) or the right. */
void app_put_column(FILE *f, const char *text, int columns, bool right);

int app_kernels_main(void);
int app_engines_main(void);
int app_apply_main(int argc, char **argv);
int app_window_main(int argc, char **argv);
int app_lesson_main(int argc, char **argv);
/* Whether the lesson at `path` can play on `image`: not when it opens an
 * image of its own at its start (said in a sentence); window.c. */
bool app_lesson_plays_on_image(const char *path, const char *image);
int app_record_main(int argc, char **argv);
int app_bench_main(int argc, char **argv);
int app_handout_main(int argc, char **argv); /* handout.c */

#endif
