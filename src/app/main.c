/* main.c - convis: dispatches to a subcommand or opens the window. Only this
 * layer decides to exit. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "core/image.h"
#include "data.h"
#include "gif.h"
#include "i18n.h"
#include "lessons.h"
#include "platform/platform.h"
#include "progress.h"
#include "lab.h"
#include "lab_check.h"

/* SIGINT and SIGTERM end convis at once, whatever it is doing (a long
 * action, a sweep, a decode): the temporary file of a write in progress is
 * removed, so nothing half-written is left, then the signal ends the
 * process as it would have. (SDL is told not to turn them into a quit
 * event, which is only read between actions.) */
static void on_signal(int sig)
{
    img_remove_partial_write();
    gif_remove_partial_writes();
    lab_remove_on_signal(); /* a lab check's folder (its child ends with convis) */
    signal(sig, SIG_DFL);
    raise(sig);
}

static void end_on_signals(void)
{
    static const int sigs[] = {SIGINT, SIGTERM};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; ++i) {
        struct sigaction sa, old;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue; /* ignored by whoever started convis (a background job): stays so */
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}

/* What was written to stdout reached it: every write of results is
 * checked here, at the end, the last flush and the close included (a full
 * disk, a file size limit). A run that failed already keeps its status and
 * its one sentence. */
static int close_stdout(int rc)
{
    bool lost = fflush(stdout) != 0 || ferror(stdout);
    int e = errno;
    if (fclose(stdout) != 0 && !lost && errno != EBADF) /* EBADF: stdout was closed, and nothing was lost */
        lost = true, e = errno;
    if (!lost || rc != APP_EXIT_OK)
        return rc;
    app_error("cannot write the results to standard output: %s", e ? strerror(e) : _("a write failed"));
    return APP_EXIT_ENV;
}

/* The subcommand named `cmd`, with its arguments. */
/* Whether argv holds nothing but --lang and its value (in force already):
 * what the commands that take no arguments accept. */
static bool only_lang(int argc, char **argv)
{
    for (int i = 0; i < argc; i += 2)
        if (strcmp(argv[i], "--lang") != 0 || i + 1 >= argc)
            return false;
    return true;
}

static int run_command(const char *cmd, int argc, char **argv)
{
    if (strcmp(cmd, "lesson") == 0)
        return app_lesson_main(argc, argv);
    if (strcmp(cmd, "bench") == 0)
        return app_bench_main(argc, argv);
    if (strcmp(cmd, "record") == 0)
        return app_record_main(argc, argv);
    if (strcmp(cmd, "apply") == 0)
        return app_apply_main(argc, argv);
    if (strcmp(cmd, "handout") == 0)
        return app_handout_main(argc, argv);
    if (strcmp(cmd, "progress") == 0)
        return app_progress_main(argc, argv);
    if (strcmp(cmd, "lab") == 0)
        return app_lab_main(argc, argv);
    if (strcmp(cmd, "kernels") == 0)
        return only_lang(argc, argv) ? app_kernels_main()
                                     : (app_error("'kernels' takes no arguments but --lang"), APP_EXIT_USAGE);
    return only_lang(argc, argv) ? app_engines_main()
                                 : (app_error("'engines' takes no arguments but --lang"), APP_EXIT_USAGE);
}

static int run(int argc, char **argv)
{
    if (argc >= 2) {
        const char *cmd = argv[1];
        if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
            if (argc >= 3 && strcmp(cmd, "help") == 0) /* convis help apply */
                return app_command_usage(stdout, argv[2])
                           ? APP_EXIT_OK
                           : (app_error("no command '%s'; see 'convis --help'", argv[2]), APP_EXIT_USAGE);
            app_usage(stdout);
            return APP_EXIT_OK;
        }
        if (strcmp(cmd, "--version") == 0) {
            printf("convis %s\n", CONVIS_VERSION);
            return APP_EXIT_OK;
        }
        if (app_is_command(cmd)) {
            if (app_asks_help(argc - 2, argv + 2)) /* convis apply --help: its own usage */
                return app_command_usage(stdout, cmd), APP_EXIT_OK;
            return run_command(cmd, argc - 2, argv + 2);
        }
    }
    if (app_asks_help(argc - 1, argv + 1)) {
        app_usage(stdout);
        return APP_EXIT_OK;
    }
    return app_window_main(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
    end_on_signals();
    app_data_set_base(plat_base_path());
    lab_set_program("/proc/self/exe"); /* a kernel lab's check is convis again, in a child */
    i18n_init();
    /* the command line speaks --lang's language, else the environment's;
     * the window may choose another later (a lesson's folder) */
    {
        const char *lang = app_lang_option(argc - 1, argv + 1);
        if (!lang || !app_lang_known(lang))
            lang = app_lang_known(i18n_env_lang()) ? i18n_env_lang() : "en";
        i18n_set_lang(lang);
    }
    return close_stdout(run(argc, argv));
}
