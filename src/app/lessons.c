#define _XOPEN_SOURCE 700
#include "lessons.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "action_table.h"
#include "core/decode.h"
#include "core/err.h"
#include "core/image.h"
#include "data.h"
#include "i18n.h"

/* Whether `path` is `root` or inside it, both as realpath gives them. */
static bool inside(const char *root, const char *path)
{
    size_t n = strlen(root);
    return strncmp(root, path, n) == 0 && (path[n] == '/' || path[n] == '\0' || (n == 1 && root[0] == '/'));
}

/* A file a lesson names (an image, a record): beside the lesson file (or in
 * a folder under it), else in convis's own `folder` (assets, records); with
 * symbolic links followed, it must be inside one of those two folders (the
 * parser already refused absolute names and ".."). False, with `buf` unset,
 * when it is in neither. */
static bool data_path(const char *lesson_path, const char *image, const char *folder, char *buf, size_t size)
{
    char dir[4096], assets[4200], real_root[PATH_MAX], real_file[PATH_MAX];
    const char *slash = strrchr(lesson_path, '/');
    const char *roots[2];

    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - lesson_path) : 1, slash ? lesson_path : ".");
    if (!dir[0])
        snprintf(dir, sizeof dir, "/");
    snprintf(assets, sizeof assets, "%s/%s", app_data_dir(), folder);
    roots[0] = dir;
    roots[1] = assets;
    for (int i = 0; i < 2; ++i) {
        char candidate[8400];
        snprintf(candidate, sizeof candidate, "%s/%s", roots[i], image);
        if (realpath(roots[i], real_root) && realpath(candidate, real_file) && inside(real_root, real_file)) {
            snprintf(buf, size, "%s", real_file); /* the path checked, not one a link swapped in could change */
            return true;
        }
    }
    return false;
}

bool app_lesson_image(const char *lesson_path, const char *image, int line, int column, char *buf, size_t size)
{
    char shown[400];
    if (data_path(lesson_path, image, "assets", buf, size))
        return true;
    return err_set("%s:%d:%d: image '%s' is neither in the lesson's folder nor among convis's images (%s/assets)",
                   lesson_path, line, column, err_shown(image, strlen(image), shown, sizeof shown), app_data_dir());
}

bool app_lesson_record(const char *lesson_path, const lsn_lesson *l, app_record *r)
{
    char path[4096], why[600], shown[400];
    if (!data_path(lesson_path, l->record, "records", path, sizeof path))
        return err_set("%s:%d:%d: record '%s' is neither in the lesson's folder nor among convis's records "
                       "(%s/records)",
                       lesson_path, l->record_line, l->record_column,
                       err_shown(l->record, strlen(l->record), shown, sizeof shown), app_data_dir());
    if (rec_read(path, r))
        return true;
    snprintf(why, sizeof why, "%s", err_msg());
    return err_set("%s:%d:%d: %s", lesson_path, l->record_line, l->record_column, why);
}

/* The pixels of the image file at `path` as its header states them, read
 * by convis's own small readers from its first bytes (not decoded); 0 when
 * they do not say (a file that is no regular one is not read). */
static long long header_pixels(const char *path)
{
    enum { HEAD = 64 * 1024 };
    unsigned char *head = malloc(HEAD);
    long long w = 0, h = 0;
    ssize_t n = -1;
    struct stat st;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0 && head && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
        n = read(fd, head, HEAD);
    if (fd >= 0)
        close(fd);
    if (n <= 0 || !img_header_size(head, (size_t)n, &w, &h) || w <= 0 || h <= 0)
        w = h = 0;
    free(head);
    return w * h;
}

bool app_lesson_load(const char *path, lsn_lesson *out)
{
    char img[4096];
    long long pixels = 0; /* of the image the steps work on, where known */
    if (!lsn_load(path, out))
        return false;
    if (out->image && !app_lesson_image(path, out->image, out->image_line, out->image_column, img, sizeof img))
        goto fail;
    if (out->image)
        pixels = header_pixels(img);
    if (out->record) {
        app_record *r = malloc(sizeof *r); /* read to be checked: a lesson never points at a broken one */
        bool ok = r && app_lesson_record(path, out, r);
        if (!r)
            err_set("out of memory while checking the lesson's record");
        free(r);
        if (!ok)
            goto fail;
    }
    for (int i = 0; i < out->step_count; ++i) {
        const lsn_step *st = &out->steps[i];
        app_tally tally; /* a step's actions together are one script */
        if (st->image && !app_lesson_image(path, st->image, st->image_line, st->image_column, img, sizeof img))
            goto fail;
        if (st->image)
            pixels = header_pixels(img);
        /* its work on whole images bounded at the size it will have: the
         * image's where known (the window checks again on the image shown),
         * and after too-big, convis's limit at most */
        memset(&tally, 0, sizeof tally);
        tally.pixels = pixels;
        tally.too_big = img_default_limits().max_pixels;
        for (int k = 0; k < st->action_count; ++k) {
            const lsn_action *a = &st->actions[k];
            const app_action *found;
            long times;
            if (!app_tally_word(&tally, a->text, &found, &times)) {
                char why[400];
                snprintf(why, sizeof why, "%s", err_msg());
                err_set("%s:%d:%d: %s", path, a->line, a->column, why);
                goto fail;
            }
            if (app_action_steers(found)) {
                err_set("%s:%d:%d: a step cannot do '%s': it steers the lesson or the program; a step may wait for "
                        "it (wait: %s)",
                        path, a->line, a->column, found->name, found->name);
                goto fail;
            }
        }
        pixels = tally.pixels; /* too-big's image stays for the steps after */
        if (st->wait && !app_action_find(st->wait)) {
            char shown[200];
            err_set("%s:%d:%d: wait names no action: '%s'; name one of the window's actions, such as gpu or play", path,
                    st->wait_line, st->wait_column, err_shown(st->wait, strlen(st->wait), shown, sizeof shown));
            goto fail;
        }
    }
    return true;
fail:
    lsn_free(out);
    return false;
}

static int by_path(const void *a, const void *b)
{
    return strcmp(((const app_lesson_entry *)a)->path, ((const app_lesson_entry *)b)->path);
}

int app_lesson_list(const char *lang, app_lesson_entry *out, int max)
{
    char dir[4096];
    DIR *d;
    struct dirent *e;
    int n = 0;

    snprintf(dir, sizeof dir, "%s/lessons/%s", app_data_dir(), lang);
    d = opendir(dir);
    if (!d)
        return 0;
    while ((e = readdir(d)) && n < max) {
        size_t len = strlen(e->d_name);
        lsn_lesson l;
        if (len < 6 || strcmp(e->d_name + len - 5, ".yaml") != 0)
            continue;
        snprintf(out[n].path, sizeof out[n].path, "%s/%s", dir, e->d_name);
        if (!lsn_load(out[n].path, &l))
            continue; /* a broken file is not offered; --check says why */
        snprintf(out[n].title, sizeof out[n].title, "%s", l.title);
        lsn_free(&l);
        ++n;
    }
    closedir(d);
    qsort(out, (size_t)n, sizeof *out, by_path);
    return n;
}

bool app_lang_known(const char *lang)
{
    char path[4400];
    struct stat st;
    size_t n = strlen(lang);
    if (n < 2 || n > 3)
        return false;
    for (size_t i = 0; i < n; ++i)
        if (lang[i] < 'a' || lang[i] > 'z')
            return false;
    if (strcmp(lang, "en") == 0)
        return true;
    snprintf(path, sizeof path, "%s/lessons/%s", app_data_dir(), lang);
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return true;
    snprintf(path, sizeof path, "%s/%s/LC_MESSAGES/convis.mo", i18n_locale_dir(), lang);
    return stat(path, &st) == 0;
}

const char *app_lesson_lang(const char *path)
{
    static char lang[4];
    const char *slash = strrchr(path, '/'), *folder;
    size_t n;
    if (!slash)
        return NULL; /* in the current folder, whose name is not at hand */
    folder = slash;
    while (folder > path && folder[-1] != '/')
        --folder;
    n = (size_t)(slash - folder);
    if (n < 2 || n > 3)
        return NULL;
    snprintf(lang, sizeof lang, "%.*s", (int)n, folder);
    return app_lang_known(lang) ? lang : NULL;
}
