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

enum app_exit {
    APP_EXIT_OK = 0,
    APP_EXIT_USAGE = 1,         /* wrong usage */
    APP_EXIT_INPUT = 2,         /* an input (or output path) that cannot be used */
    APP_EXIT_ENGINE = 3,        /* the asked engine is unavailable */
};


/* Tries argv[*i] as one of the shared options, taking its value from
 * argv[*i + 1] when it needs one. Returns 1 when taken (and *i moved past
 * it), 0 when argv[*i] is not a shared option, -1 on a bad value (message
 * already printed). */
int app_parse_shared_option(int argc, char **argv, int *i, app_options *o);

/* Takes the value of option argv[*i]; prints a message and returns NULL when
 * it is missing. */
const char *app_option_value(int argc, char **argv, int *i);

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

int app_kernels_main(void);
int app_engines_main(void);
int app_apply_main(int argc, char **argv);
int app_window_main(int argc, char **argv);
int app_lesson_main(int argc, char **argv);

#endif
