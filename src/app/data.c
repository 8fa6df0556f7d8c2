/* data.c - where convis finds the files it loads at run time. Shared by the
 * window, `convis apply` and `convis engines`. */
#define _POSIX_C_SOURCE 200809L
#include "data.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static char base[4096]; /* the executable's folder, with a trailing '/' */

void app_data_set_base(const char *exe_dir)
{
    snprintf(base, sizeof base, "%s", exe_dir ? exe_dir : "");
}

/* Whether `dir` holds a shaders/ folder. */
static bool has_shaders(const char *dir)
{
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/shaders", dir);
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *app_data_dir(void)
{
    static char dir[4096];
    const char *env = getenv("CONVIS_DATA_DIR");
    if (env && has_shaders(env))
        return env;
    if (base[0]) {
        snprintf(dir, sizeof dir, "%s../share/convis", base);
        if (has_shaders(dir))
            return dir;
    }
    if (has_shaders(CONVIS_SOURCE_DATA_DIR))
        return CONVIS_SOURCE_DATA_DIR;
    return CONVIS_INSTALL_DATA_DIR;
}
