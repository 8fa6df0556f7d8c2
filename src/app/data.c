/* data.c - where convis finds the files it loads at run time. Shared by the
 * window, `convis apply` and `convis engines`. */
#define _POSIX_C_SOURCE 200809L
#include "data.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

bool app_user_file(const char *name, bool make, char *buf, size_t size)
{
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    char *slash;
    if (xdg && xdg[0] == '/')
        snprintf(buf, size, "%s/convis/%s", xdg, name);
    else if (home && home[0] == '/')
        snprintf(buf, size, "%s/.local/share/convis/%s", home, name);
    else
        return false;
    for (slash = strchr(buf + 1, '/'); make && slash; slash = strchr(slash + 1, '/')) { /* its folders */
        *slash = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST) {
            *slash = '/';
            return false;
        }
        *slash = '/';
    }
    return true;
}
