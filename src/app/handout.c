/* handout.c - `convis handout LESSON [IMAGE] -o DIR`: the command line,
 * passed on to the window as `convis lesson` is (window.c), the folder, and
 * the run: the lesson's steps through app_capture_steps (the pictures of
 * --render-steps) and the page (handout_page.c), written into a new folder
 * inside DIR, then put in place of an earlier handout's files. Nothing
 * else in DIR is written over: a DIR holding anything but a handout is
 * refused. A failure removes what the run wrote, and only that. */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include "handout.h"
#include "narration.h"
#include "quiz.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "core/err.h"
#include "core/image.h"
#include "core/linebreak.h"
#include "i18n.h"
#include "lessons.h"
#include "record.h"

#define STAGE_PREFIX ".convis-handout-" /* the folder a run writes into, inside DIR */

/* ---- the folder --------------------------------------------------------------------- */

/* Whether `name` is one of a handout's pictures: step-NN.png or
 * step-NN-after.png (2 to 4 digits). */
static bool is_picture_name(const char *name)
{
    const char *p = name + 5;
    int digits = 0;
    if (strncmp(name, "step-", 5) != 0)
        return false;
    for (; *p >= '0' && *p <= '9'; ++p)
        ++digits;
    return digits >= 2 && digits <= 4 && (strcmp(p, ".png") == 0 || strcmp(p, "-after.png") == 0);
}

/* Whether dir/name is a file of an earlier handout: a picture, or the page
 * with the handout's mark. */
static bool is_handout_file(const char *dir, const char *name)
{
    char path[4096], head[2048];
    struct stat st;
    size_t n;
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    if (is_picture_name(name))
        return true;
    if (strcmp(name, APP_HANDOUT_PAGE) != 0 || !(f = fopen(path, "r")))
        return false;
    n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[n] = '\0';
    return strstr(head, APP_HANDOUT_MARK) != NULL;
}

/* Goes over the entries of folder `dir` (. and .. left out): `each` is told
 * each name and stops at the first that gives false, whose name goes into
 * `stop` when not NULL. False too when the folder cannot be read (errno). */
static bool each_entry(const char *dir, bool (*each)(const char *dir, const char *name, void *user), void *user,
                       char *stop, size_t size)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    bool ok = true;
    if (!d)
        return false;
    while (ok && (e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        ok = each(dir, e->d_name, user);
        if (!ok && stop)
            snprintf(stop, size, "%s", e->d_name);
    }
    closedir(d);
    errno = 0;
    return ok;
}

static bool handout_file_in(const char *dir, const char *name, void *user)
{
    (void)user;
    return is_handout_file(dir, name);
}

/* Whether dir/name is a folder a run of convis handout wrote into and left
 * (stopped by a signal): holding nothing but a handout's files. */
static bool is_stage(const char *dir, const char *name)
{
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return strncmp(name, STAGE_PREFIX, strlen(STAGE_PREFIX)) == 0 && lstat(path, &st) == 0 && S_ISDIR(st.st_mode) &&
           each_entry(path, handout_file_in, NULL, NULL, 0);
}

static bool ours(const char *dir, const char *name, void *user)
{
    (void)user;
    return is_handout_file(dir, name) || is_stage(dir, name);
}

/* Whether a handout may be written into `dir`: a folder that is not there
 * yet (its own folder must be), or one that holds nothing but an earlier
 * handout. Else the sentence and the exit status. */
static int check_folder(const char *dir)
{
    struct stat st;
    char theirs[256] = "";
    if (lstat(dir, &st) != 0) {
        if (errno == ENOENT)
            return APP_EXIT_OK;
        app_error("cannot use the folder '%s' for the handout: %s", dir, strerror(errno));
        return APP_EXIT_INPUT;
    }
    if (!S_ISDIR(st.st_mode)) {
        app_error("'%s' is not a folder; the handout goes into a folder of its own (-o DIR)", dir);
        return APP_EXIT_INPUT;
    }
    if (!each_entry(dir, ours, NULL, theirs, sizeof theirs)) {
        if (!theirs[0])
            app_error("cannot read the folder '%s': %s", dir, strerror(errno));
        else
            app_error("the folder '%s' holds '%s', which is no part of a convis handout; convis writes over "
                      "nothing of yours: give a new folder, an empty one, or one with an earlier handout",
                      dir, theirs);
        return APP_EXIT_INPUT;
    }
    return APP_EXIT_OK;
}

/* ---- putting the handout in place --------------------------------------------------- */

/* Removes what this run wrote into folder `dir`: the pictures of the steps
 * kept, and with `page` the page. */
static void remove_written(const char *dir, const app_handout *h, bool page)
{
    char path[4096];
    for (int i = 0; i < h->count; ++i) {
        snprintf(path, sizeof path, "%s/%s", dir, h->shots[i].before);
        unlink(path);
        if (h->shots[i].after[0]) {
            snprintf(path, sizeof path, "%s/%s", dir, h->shots[i].after);
            unlink(path);
        }
    }
    if (page) {
        snprintf(path, sizeof path, "%s/%s", dir, APP_HANDOUT_PAGE);
        unlink(path);
    }
}

/* Whether the new handout has a file named `name`. */
static bool written(const app_handout *h, const char *name)
{
    for (int i = 0; i < h->count; ++i)
        if (strcmp(h->shots[i].before, name) == 0 || strcmp(h->shots[i].after, name) == 0)
            return true;
    return strcmp(name, APP_HANDOUT_PAGE) == 0;
}

typedef struct tidy {
    const app_handout *h;
    const char *stage; /* this run's folder's name */
} tidy;

static bool unlink_entry(const char *dir, const char *name, void *user)
{
    char path[4096];
    (void)user;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    unlink(path);
    return true;
}

/* What an earlier handout left that the new one has not: its other
 * pictures, and the folders of runs stopped midway (a handout's files
 * alone: is_stage). */
static bool tidy_one(const char *dir, const char *name, void *user)
{
    const tidy *t = user;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (is_picture_name(name) && !written(t->h, name)) {
        unlink(path);
    } else if (strcmp(name, t->stage) != 0 && is_stage(dir, name)) {
        each_entry(path, unlink_entry, NULL, NULL, 0);
        rmdir(path);
    }
    return true;
}

/* Renames `name` from the folder `stage` into `dir`; false with the sentence
 * said. */
static bool move_in(const char *stage, const char *dir, const char *name)
{
    char from[4096], to[4096];
    snprintf(from, sizeof from, "%s/%s", stage, name);
    snprintf(to, sizeof to, "%s/%s", dir, name);
    if (rename(from, to) == 0)
        return true;
    app_error("cannot put '%s' in place: %s", to, strerror(errno));
    return false;
}

/* The handout written into `stage`, moved into `dir`: the pictures first,
 * the page last, so the page never names a picture that is not there yet;
 * then what an earlier handout left, removed. */
static int put_in_place(const char *stage, const char *dir, const app_handout *h)
{
    const char *name = strrchr(stage, '/') + 1;
    for (int i = 0; i < h->count; ++i)
        if (!move_in(stage, dir, h->shots[i].before) ||
            (h->shots[i].after[0] && !move_in(stage, dir, h->shots[i].after)))
            return APP_EXIT_ENV;
    if (!move_in(stage, dir, APP_HANDOUT_PAGE))
        return APP_EXIT_ENV;
    rmdir(stage);
    each_entry(dir, tidy_one, &(tidy){h, name}, NULL, 0);
    return APP_EXIT_OK;
}

/* ---- the run ------------------------------------------------------------------------ */

/* Each step's pictures and words, kept for the page. */
static int keep_shot(void *user, const app_step_shot *shot)
{
    app_handout *h = user;
    if (h->count < h->most)
        h->shots[h->count++] = *shot;
    return APP_EXIT_OK;
}

/* The GPU engine as the window names it: on a GPU (its device), on a
 * software GPU (this CPU), or none here and why. */
static void gpu_words(const scene *s, char *buf, size_t size)
{
    const scene_engine *e = &s->gpu.eng;
    char dev[128] = "";
    eng_device_info info;
    if (!e->engine) {
        snprintf(buf, size, _("no GPU engine here: %s"), e->why[0] ? e->why : _("none is built"));
        return;
    }
    if (s->gpu.device_known)
        lb_copy(dev, sizeof dev, s->gpu.device.name);
    else if (eng_device(e->engine, &info))
        lb_copy(dev, sizeof dev, info.name);
    if (e->hardware == ENG_HW_SOFTWARE)
        snprintf(buf, size, _("%s, a software GPU on this CPU: %s"), e->name, dev);
    else if (e->hardware == ENG_HW_VIRTUAL)
        snprintf(buf, size, _("%s on a virtual GPU: %s"), e->name, dev);
    else
        snprintf(buf, size, _("%s on %s"), e->name, dev);
}

/* The lesson and this machine, as the handout names them. */
static void describe(app_handout *h, const app *a)
{
    const char *slash = strrchr(a->lesson_path, '/');
    time_t now = time(NULL);
    struct tm tm;
    snprintf(h->lang, sizeof h->lang, "%s", app_lang(a));
    h->title = a->player.lesson.title;
    lb_copy(h->lesson, sizeof h->lesson, slash ? slash + 1 : a->lesson_path);
    localtime_r(&now, &tm);
    strftime(h->made, sizeof h->made, "%Y-%m-%d %H:%M %Z", &tm);
    rec_cpu_model(h->cpu, sizeof h->cpu);
    app_notes(a, APP_NOTES_LESSON, h->notes, sizeof h->notes);
}

/* The folder, made when it is not there, and this run's folder inside it;
 * false with the sentence said and *rc set. */
static bool make_folders(const char *dir, char *stage, size_t size, bool *made_dir, int *rc)
{
    if ((*rc = check_folder(dir)) != APP_EXIT_OK)
        return false;
    *made_dir = mkdir(dir, 0777) == 0;
    if (!*made_dir && errno != EEXIST) {
        int e = errno;
        app_error("cannot make the folder '%s' for the handout: %s%s", dir, strerror(e),
                  e == ENOENT ? _(" (the folder it goes in must exist)") : "");
        *rc = err_kind_of_errno(e) == ERR_ENV ? APP_EXIT_ENV : APP_EXIT_INPUT;
        return false;
    }
    snprintf(stage, size, "%s/" STAGE_PREFIX "XXXXXX", dir);
    if (!mkdtemp(stage)) {
        int e = errno;
        app_error("cannot write into the folder '%s': %s", dir, strerror(e));
        *rc = err_kind_of_errno(e) == ERR_ENV ? APP_EXIT_ENV : APP_EXIT_INPUT;
        if (*made_dir)
            rmdir(dir);
        return false;
    }
    return true;
}

int app_handout_write(app_window *w, const char *dir)
{
    app *a = &w->app;
    app_handout h = {0};
    char stage[4096], page[4096 + 16];
    bool made_dir = false;
    int rc, pictures = 0;
    if (!make_folders(dir, stage, sizeof stage, &made_dir, &rc))
        return rc;
    describe(&h, a);
    h.most = a->player.lesson.step_count;
    h.shots = calloc((size_t)(h.most > 0 ? h.most : 1), sizeof *h.shots);
    rc = h.shots ? app_capture_steps(w, stage, keep_shot, &h) : (app_error("out of memory"), APP_EXIT_ENV);
    if (rc == APP_EXIT_OK) {
        gpu_words(&a->s, h.gpu, sizeof h.gpu); /* once the steps have run it, its device is known */
        snprintf(page, sizeof page, "%s/%s", stage, APP_HANDOUT_PAGE);
        if (!img_write_file(page, app_handout_page, &h, true)) {
            app_error("cannot write the handout's page: %s", err_msg());
            rc = app_exit_of_error(APP_EXIT_INPUT);
        }
    }
    if (rc == APP_EXIT_OK && (rc = put_in_place(stage, dir, &h)) != APP_EXIT_OK)
        remove_written(dir, &h, false); /* the pictures moved in before it failed (the page goes last) */
    if (rc != APP_EXIT_OK) {
        remove_written(stage, &h, true);
        rmdir(stage);
        if (made_dir)
            rmdir(dir); /* only when empty: whatever else came there stays */
    } else {
        for (int i = 0; i < h.count; ++i)
            pictures += h.shots[i].after[0] ? 2 : 1;
        printf(ngettext("wrote %s/%s: %d step, %d pictures\n", "wrote %s/%s: %d steps, %d pictures\n",
                        (unsigned long)h.count),
               dir, APP_HANDOUT_PAGE, h.count, pictures);
    }
    free(h.shots);
    return rc;
}

/* ---- the command line --------------------------------------------------------------- */

#define HANDOUT_USAGE "convis handout LESSON [IMAGE] -o DIR"

/* Reads the arguments: the lesson, the image, the folder, and the options
 * passed on to the window (into pass, *n of them). */
static int parse(int argc, char **argv, const char **lesson, const char **image, const char **dir, char **pass, int *n)
{
    for (int i = 0; i < argc; ++i) {
        const app_option *o;
        const char *v;
        int kind = app_next_option(argc, argv, &i, APP_FOR_ALL | APP_FOR_HANDOUT, &o, &v);
        if (kind < 0)
            return APP_EXIT_USAGE;
        if (kind == 0) {
            if (*image) {
                app_error("handout: takes a lesson and an image, but '%s' came after '%s'", argv[i], *image);
                return APP_EXIT_USAGE;
            }
            *(*lesson ? image : lesson) = argv[i];
        } else if (o->id == OPT_OUTPUT) {
            *dir = v;
        } else { /* as given: the window reads them */
            pass[(*n)++] = argv[o->value ? i - 1 : i];
            if (o->value)
                pass[(*n)++] = argv[i];
        }
    }
    if (!*lesson) {
        app_error("handout: no lesson file; usage: %s", HANDOUT_USAGE);
        return APP_EXIT_USAGE;
    }
    if (!*dir) {
        app_error("handout: no folder to write to (-o DIR); usage: %s", HANDOUT_USAGE);
        return APP_EXIT_USAGE;
    }
    return APP_EXIT_OK;
}

int app_handout_main(int argc, char **argv)
{
    const char *lesson = NULL, *image = NULL, *dir = NULL;
    char **args = malloc(sizeof *args * (size_t)(argc + 6));
    int n = 5, rc;
    lsn_lesson l;
    if (!args) {
        app_error("out of memory");
        return APP_EXIT_ENV;
    }
    rc = parse(argc, argv, &lesson, &image, &dir, args, &n);
    if (rc == APP_EXIT_OK && !app_lesson_load(lesson, &l)) { /* said before a window opens */
        app_error("%s", err_msg());
        rc = APP_EXIT_INPUT;
    } else if (rc == APP_EXIT_OK) {
        lsn_free(&l);
        rc = image && !app_lesson_plays_on_image(lesson, image) ? APP_EXIT_USAGE : check_folder(dir);
    }
    if (rc == APP_EXIT_OK) {
        /* the window's arguments: --lesson LESSON [IMAGE] --handout DIR, then the options */
        const char *head[5] = {"--lesson", lesson, "--handout", dir, image};
        int first = image ? 0 : 1;
        for (int i = 0; i < 5 - first; ++i)
            args[first + i] = (char *)head[i];
        rc = app_window_main(n - first, args + first);
    }
    free(args);
    return rc;
}
