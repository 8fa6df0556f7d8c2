/* main.c - convis: dispatches to a subcommand or opens the window. Only this
 * layer decides to exit. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int main(int argc, char **argv)
{
    if (argc >= 2) {
        const char *cmd = argv[1];
        if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
            app_usage(stdout);
            return APP_EXIT_OK;
        }
        if (strcmp(cmd, "--version") == 0) {
            printf("convis %s\n", CONVIS_VERSION);
            return APP_EXIT_OK;
        }
        if (strcmp(cmd, "lesson") == 0)
            return app_lesson_main(argc - 2, argv + 2);
        if (strcmp(cmd, "apply") == 0)
            return app_apply_main(argc - 2, argv + 2);
        if (strcmp(cmd, "kernels") == 0)
            return argc == 2 ? app_kernels_main() : (app_error("'kernels' takes no arguments"), APP_EXIT_USAGE);
        if (strcmp(cmd, "engines") == 0)
            return argc == 2 ? app_engines_main() : (app_error("'engines' takes no arguments"), APP_EXIT_USAGE);
    }
    return app_window_main(argc - 1, argv + 1);
}
