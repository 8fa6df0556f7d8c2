/* record_cli.c - `convis record FILE`: the size sweep measured here, on the
 * sample image (or IMAGE), written as a record (record.h) to a new file. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "i18n.h"
#include "core/err.h"
#include "data.h"
#include "engine_host.h"
#include "record.h"
#include "scene.h"

/* Whether a new file can be made at `path`: nothing there yet, and the
 * folder it goes in is there. Says why not. */
static bool writable_new_file(const char *path)
{
    const char *slash = strrchr(path, '/');
    char dir[4096];
    struct stat st;
    if (lstat(path, &st) == 0) {
        app_error("'%s' already exists; convis does not overwrite it", path);
        return false;
    }
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1, slash ? path : ".");
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        app_error("cannot write '%s': the folder '%s' is not there", path, dir);
        return false;
    }
    return true;
}

int app_record_main(int argc, char **argv)
{
    app_options opt;
    scene_host host = {app_host_open_engine, NULL, NULL, NULL, NULL};
    const char *file = NULL, *image = NULL;
    char sample[4096], label[512];
    app_record r;
    scene s;
    int rc = APP_EXIT_INPUT;

    app_options_default(&opt, "gaussian");
    for (int i = 0; i < argc; ++i) {
        const char *v;
        const app_option *o;
        int kind = app_next_option(argc, argv, &i, APP_FOR_ALL, &o, &v);
        if (kind < 0)
            return APP_EXIT_USAGE;
        if (kind == 1) {
            if (app_take_shared_option(o, v, &opt) < 0)
                return APP_EXIT_USAGE;
        } else if (!file) {
            file = argv[i];
        } else if (!image) {
            image = argv[i];
        } else {
            app_error("record: takes a file to write and at most one image, not '%s' too", argv[i]);
            return APP_EXIT_USAGE;
        }
    }
    if (!file) {
        app_error("record: no file to write; usage: convis record FILE.json [IMAGE] [OPTIONS]");
        return APP_EXIT_USAGE;
    }
    if (!writable_new_file(file))
        return APP_EXIT_INPUT; /* said before a minute of measuring, not after */
    snprintf(sample, sizeof sample, "%s/assets/sample.png", app_data_dir());
    scene_init(&s, &host, &opt);
    if (!scene_open_image(&s, image ? image : sample)) {
        app_error("%s", s.banner);
        goto done;
    }
    fprintf(stderr, _("convis: measuring every engine on 4x4 ... 4096x4096 (a minute at most)...\n"));
    scene_sweep(&s);
    scene_settle(&s);
    if (!rec_from_scene(&s, CONVIS_VERSION, &r) || !rec_write(file, &r)) {
        app_error("%s", err_msg());
        rc = app_exit_of_error(APP_EXIT_INPUT);
        goto done;
    }
    rec_label(&r, label, sizeof label);
    printf(_("wrote %s: %d engines, %d sizes, %s\n"), file, r.engine_count, s.sweep.count, label);
    rc = APP_EXIT_OK;
done:
    scene_free(&s);
    app_engine_host_close();
    return rc;
}
