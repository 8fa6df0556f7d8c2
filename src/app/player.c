#define _XOPEN_SOURCE 700
#include "player.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "actions.h"
#include "cli.h"
#include "core/err.h"
#include "data.h"
#include "scene.h"

/* Whether `path` is `root` or inside it, both as realpath gives them. */
static bool inside(const char *root, const char *path)
{
    size_t n = strlen(root);
    return strncmp(root, path, n) == 0 && (path[n] == '/' || path[n] == '\0' || (n == 1 && root[0] == '/'));
}

/* A lesson's image file: beside the lesson file (or in a folder under it),
 * else among convis's own images; with symbolic links followed, it must be
 * inside one of those two folders (the parser already refused absolute
 * names and ".."). False, with `buf` unset, when it is in neither. */
static bool image_path(const char *lesson_path, const char *image, char *buf, size_t size)
{
    char dir[4096], assets[4200], real_root[PATH_MAX], real_file[PATH_MAX];
    const char *slash = strrchr(lesson_path, '/');
    const char *roots[2];

    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - lesson_path) : 1, slash ? lesson_path : ".");
    if (!dir[0])
        snprintf(dir, sizeof dir, "/");
    snprintf(assets, sizeof assets, "%s/assets", app_data_dir());
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

/* The sentence for an image that image_path could not find. */
static bool image_missing(const char *lesson_path, int line, int column, const char *image)
{
    return err_set("%s:%d:%d: image '%s' is neither in the lesson's folder nor among convis's images (%s/assets)",
                   lesson_path, line, column, image, app_data_dir());
}

bool app_lesson_load(const char *path, lsn_lesson *out)
{
    char img[4096];
    if (!lsn_load(path, out))
        return false;
    if (out->image && !image_path(path, out->image, img, sizeof img)) {
        image_missing(path, out->image_line, out->image_column, out->image);
        goto fail;
    }
    for (int i = 0; i < out->step_count; ++i) {
        const lsn_step *st = &out->steps[i];
        app_tally tally; /* a step's actions together are one script */
        memset(&tally, 0, sizeof tally);
        if (st->image && !image_path(path, st->image, img, sizeof img)) {
            image_missing(path, st->image_line, st->image_column, st->image);
            goto fail;
        }
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
        }
        if (st->wait && !app_action_find(st->wait)) {
            err_set("%s:%d:%d: wait names no action: '%s'; name one of the window's actions, such as gpu or play",
                    path, st->wait_line, st->wait_column, st->wait);
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

/* Runs the actions of step i. */
static void enter(scene *s, int i)
{
    app_player *p = &s->player;
    const lsn_step *st = &p->lesson.steps[i];
    p->step = i;
    p->waiting = false;
    if (st->image) {
        char img[4096];
        if (image_path(p->path, st->image, img, sizeof img)) {
            scene_open_image(s, img);
        } else { /* gone since the lesson was loaded */
            image_missing(p->path, st->image_line, st->image_column, st->image);
            snprintf(s->banner, sizeof s->banner, "%s", err_msg());
        }
    }
    for (int k = 0; k < st->action_count; ++k)
        if (!app_run_script(s, st->actions[k].text))
            snprintf(s->banner, sizeof s->banner, "%s:%d:%d: %s", p->path, st->actions[k].line,
                     st->actions[k].column, err_msg());
    p->waiting = st->wait != NULL; /* the step's own actions do not count as the learner's */
}


bool app_player_start(scene *s, const char *path)
{
    lsn_lesson l;
    app_player *p = &s->player;
    if (!app_lesson_load(path, &l)) {
        snprintf(s->banner, sizeof s->banner, "%s", err_msg());
        return false;
    }
    app_player_stop(s);
    p->lesson = l;
    /* a lesson in lessons/zh/ is in Chinese: the text needs a font that has it */
    if (strstr(path, "/zh/") || strncmp(path, "zh/", 3) == 0)
        snprintf(s->lang, sizeof s->lang, "zh");
    else if (strstr(path, "/en/") || strncmp(path, "en/", 3) == 0)
        snprintf(s->lang, sizeof s->lang, "en");
    snprintf(p->path, sizeof p->path, "%s", path);
    p->active = true;
    if (l.image) {
        char img[4096];
        if (image_path(p->path, l.image, img, sizeof img)) {
            scene_open_image(s, img);
        } else { /* gone since the lesson was loaded */
            image_missing(p->path, l.image_line, l.image_column, l.image);
            snprintf(s->banner, sizeof s->banner, "%s", err_msg());
        }
    }
    enter(s, 0);
    return true;
}

void app_player_stop(scene *s)
{
    if (s->player.active)
        lsn_free(&s->player.lesson);
    memset(&s->player, 0, sizeof s->player);
}

void app_player_next(scene *s)
{
    app_player *p = &s->player;
    if (!p->active || p->waiting || p->step + 1 >= p->lesson.step_count)
        return;
    enter(s, p->step + 1);
}

void app_player_prev(scene *s)
{
    app_player *p = &s->player;
    if (!p->active || p->step == 0)
        return;
    enter(s, p->step - 1);
}

void app_player_restart(scene *s)
{
    if (s->player.active)
        enter(s, 0);
}

void app_player_saw(scene *s, const char *action)
{
    app_player *p = &s->player;
    if (p->active && p->waiting && strcmp(p->lesson.steps[p->step].wait, action) == 0)
        p->waiting = false;
}

/* ---- narration ------------------------------------------------------------ */

/* The words a placeholder's value may contain, in the lesson's language. */
static const char *words(const scene *s, const char *en)
{
    static const char *const zh[][2] = {
        {"(not measured yet)", "（尚未测量）"},
        {"(launch the GPU phase first)", "（请先在 GPU 上运行）"},
        {"straight into the picture, no copy", "直接写进屏幕上的图像，不复制"},
        {"one bulk copy back", "一次整体复制取回"},
        {"one copy per pixel", "每个像素复制一次"},
        {"no GPU engine here", "这台机器上没有 GPU 引擎"},
    };
    if (strcmp(s->lang, "zh") == 0)
        for (size_t i = 0; i < sizeof zh / sizeof zh[0]; ++i)
            if (strcmp(en, zh[i][0]) == 0)
                return zh[i][1];
    return en;
}

static void ms_value(const scene *s, const scene_engine *e, char *buf, size_t size)
{
    double ms;
    if (!e->measured) {
        snprintf(buf, size, "%s", words(s, "(not measured yet)"));
        return;
    }
    ms = eng_total_ms(&e->timing);
    if (ms >= 1000)
        snprintf(buf, size, "%.2f s", ms / 1000);
    else if (ms >= 0.1)
        snprintf(buf, size, "%.2f ms", ms);
    else
        snprintf(buf, size, "%.1f \xC2\xB5s", ms * 1000);
}

static void ratio_value(const scene *s, const scene_engine *slow, const scene_engine *fast, char *buf, size_t size)
{
    double a, b;
    if (!slow->measured || !fast->measured) {
        snprintf(buf, size, "%s", words(s, "(not measured yet)"));
        return;
    }
    a = eng_total_ms(&slow->timing);
    b = eng_total_ms(&fast->timing);
    /* one decimal from 1x up; below 1x, two significant digits (0.017x) */
    if (b > 0 && a / b < 1)
        snprintf(buf, size, "%.2g\xC3\x97", a / b);
    else
        snprintf(buf, size, "%.1f\xC3\x97", b > 0 ? a / b : 0.0);
}

static void mib_text(long long bytes, char *buf, size_t size)
{
    if (bytes >= (1LL << 30))
        snprintf(buf, size, "%.1f GiB", (double)bytes / (double)(1LL << 30));
    else
        snprintf(buf, size, "%.1f MiB", (double)bytes / (double)(1LL << 20));
}

static void with_commas(long long n, char *buf, size_t size)
{
    char raw[32];
    int len, out = 0;
    snprintf(raw, sizeof raw, "%lld", n);
    len = (int)strlen(raw);
    for (int i = 0; i < len && out + 2 < (int)size; ++i) {
        buf[out++] = raw[i];
        if ((len - i - 1) % 3 == 0 && i < len - 1)
            buf[out++] = ',';
    }
    buf[out] = '\0';
}

/* The value of placeholder `name`, measured now. */
static void placeholder(const scene *s, const char *name, char *buf, size_t size)
{
    int bx, by, w = s->img.luma.w, h = s->img.luma.h;
    long long gx, gy;
    char t[32];
    scene_block_size(s, &bx, &by);
    gx = (w + bx - 1) / bx;
    gy = (h + by - 1) / by;
    if (strcmp(name, "cpu_seq_ms") == 0)
        ms_value(s, &s->seq, buf, size);
    else if (strcmp(name, "cpu_par_ms") == 0)
        ms_value(s, &s->par, buf, size);
    else if (strcmp(name, "gpu_ms") == 0)
        ms_value(s, &s->gpu, buf, size);
    else if (strcmp(name, "gpu_engine") == 0)
        snprintf(buf, size, "%s", s->gpu.engine ? eng_description(s->gpu.engine) : words(s, "no GPU engine here"));
    else if (strcmp(name, "gpu_device") == 0)
        snprintf(buf, size, "%s", s->gpu_device_known ? s->gpu_device.name : words(s, "(launch the GPU phase first)"));
    else if (strcmp(name, "ratio_par_seq") == 0)
        ratio_value(s, &s->seq, &s->par, buf, size);
    else if (strcmp(name, "ratio_gpu_par") == 0)
        ratio_value(s, &s->par, &s->gpu, buf, size);
    else if (strcmp(name, "image_size") == 0)
        snprintf(buf, size, "%d\xC3\x97%d", w, h);
    else if (strcmp(name, "outputs") == 0)
        with_commas((long long)w * h, buf, size);
    else if (strcmp(name, "threads") == 0)
        with_commas(gx * gy * bx * by, buf, size);
    else if (strcmp(name, "blocks") == 0)
        snprintf(buf, size, "%lld\xC3\x97%lld", gx, gy);
    else if (strcmp(name, "block_size") == 0)
        snprintf(buf, size, "%d\xC3\x97%d", bx, by);
    else if (strcmp(name, "gpu_result") == 0) {
        if (!s->gpu.measured)
            snprintf(buf, size, "%s", words(s, "(launch the GPU phase first)"));
        else if (s->gpu.timing.result == ENG_RESULT_PER_PIXEL && s->gpu.timing.extrapolated) {
            char m[32], n[32];
            with_commas(s->gpu.timing.measured_px, m, sizeof m);
            with_commas(s->gpu.timing.total_px, n, sizeof n);
            snprintf(buf, size,
                     strcmp(s->lang, "zh") == 0 ? "每个像素复制一次（测量了 %s 次中的 %s 次，其余按比例推算）"
                                                : "one copy per pixel (%2$s of the %1$s copies measured, the rest extrapolated)",
                     n, m);
        } else if (s->gpu.timing.result == ENG_RESULT_PER_PIXEL)
            snprintf(buf, size, "%s", words(s, "one copy per pixel"));
        else if (s->gpu_presented)
            snprintf(buf, size, "%s", words(s, "straight into the picture, no copy"));
        else
            snprintf(buf, size, "%s", words(s, "one bulk copy back"));
    } else if (strcmp(name, "gpu_copy_ms") == 0) {
        if (!s->gpu.measured)
            snprintf(buf, size, "%s", words(s, "(not measured yet)"));
        else {
            double ms = s->gpu.timing.has[ENG_DOWNLOAD] ? s->gpu.timing.ms[ENG_DOWNLOAD] : 0.0;
            snprintf(buf, size, ms >= 0.1 ? "%.2f ms" : "%.1f \xC2\xB5s", ms >= 0.1 ? ms : ms * 1000);
        }
    } else if (strcmp(name, "image_bytes") == 0) {
        mib_text((long long)w * h * 8, buf, size);
    } else if (strcmp(name, "device_memory") == 0) {
        const eng_device_info *d = &s->gpu_device;
        char a[32], b[32];
        if (!s->gpu_device_known)
            snprintf(buf, size, "%s", words(s, "(launch the GPU phase first)"));
        else if (d->memory_total > 0 && d->memory_free >= 0) {
            mib_text(d->memory_free, a, sizeof a);
            mib_text(d->memory_total, b, sizeof b);
            snprintf(buf, size, strcmp(s->lang, "zh") == 0 ? "%2$s 中空闲 %1$s" : "%s free of %s", a, b);
        } else if (d->max_buffer > 0) {
            mib_text(d->max_buffer, a, sizeof a);
            snprintf(buf, size,
                     strcmp(s->lang, "zh") == 0 ? "驱动不报告总量；一个缓冲区最多 %s" : "not reported by the driver; one buffer may hold %s",
                     a);
        } else
            snprintf(buf, size, "%s", strcmp(s->lang, "zh") == 0 ? "驱动不报告" : "not reported by the driver");
    } else if (strcmp(name, "largest_image") == 0) {
        long long most = scene_gpu_max_pixels(s), side = 1;
        char px[32], sd[32];
        if (most < 0) {
            snprintf(buf, size, "%s", words(s, "(launch the GPU phase first)"));
        } else {
            side = (long long)sqrt((double)most); /* the largest square that fits */
            while (side > 1 && side * side > most)
                --side;
            with_commas(most, px, sizeof px);
            with_commas(side, sd, sizeof sd);
            snprintf(buf, size, strcmp(s->lang, "zh") == 0 ? "约 %s 个像素（大约 %s×%s）" : "about %s pixels (about %s×%s)",
                     px, sd, sd);
        }
    } else if (strcmp(name, "passes") == 0) {
        snprintf(buf, size, "%d", s->passes);
    } else if (strcmp(name, "chain_length") == 0) {
        with_commas(SCENE_CHAIN_LENGTH, buf, size);
    } else if (strcmp(name, "chain_cpu_ms") == 0 || strcmp(name, "chain_gpu_ms") == 0) {
        double ms = s->chain_ms[name[6] == 'g'];
        if (ms < 0)
            snprintf(buf, size, "%s", strcmp(s->lang, "zh") == 0 ? "（请先按 X 测量）" : "(press X to measure first)");
        else if (ms >= 1000)
            snprintf(buf, size, "%.2f s", ms / 1000);
        else
            snprintf(buf, size, "%.2f ms", ms);
    } else if (strcmp(name, "crossover") == 0) {
        int c = scene_sweep_crossover(s), last = s->sweep.count ? s->sweep.size[s->sweep.count - 1] : 0;
        bool zh = strcmp(s->lang, "zh") == 0;
        if (!s->sweep.count)
            snprintf(buf, size, "%s", zh ? "（请先按 W 测量）" : "(press W to measure first)");
        else if (c)
            snprintf(buf, size, zh ? "从 %d\xC3\x97%d 起" : "from %d\xC3\x97%d up", c, c);
        else
            snprintf(buf, size, zh ? "在 %d\xC3\x97%d 以内的任何尺寸都没有" : "at no size up to %d\xC3\x97%d", last, last);
    } else if (strcmp(name, "cpu_threads") == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        with_commas(n > 0 ? n : 1, t, sizeof t);
        snprintf(buf, size, "%s", t);
    } else
        snprintf(buf, size, "{%s}", name);
}

void app_player_narration(const scene *s, char *buf, size_t size)
{
    const char *say;
    size_t out = 0;
    if (!s->player.active || size == 0) {
        if (size)
            buf[0] = '\0';
        return;
    }
    say = s->player.lesson.steps[s->player.step].say;
    while (*say && out + 1 < size) {
        if ((say[0] == '{' && say[1] == '{') || (say[0] == '}' && say[1] == '}')) {
            buf[out++] = say[0];
            say += 2;
        } else if (say[0] == '{' && strchr(say, '}')) {
            char name[64], value[256];
            size_t n = (size_t)(strchr(say, '}') - say - 1);
            if (n >= sizeof name)
                n = sizeof name - 1;
            memcpy(name, say + 1, n);
            name[n] = '\0';
            placeholder(s, name, value, sizeof value);
            out += (size_t)snprintf(buf + out, size - out, "%s", value);
            if (out >= size)
                out = size - 1;
            say = strchr(say, '}') + 1;
        } else if (say[0] == '\n' && say[1] && say[1] != '\n' && out > 0 && buf[out - 1] != '\n') {
            /* a line break inside a paragraph joins the lines, the panel
             * wraps them at its own width: with a space, or with nothing
             * between two CJK characters (both sides outside ASCII) */
            if (!((unsigned char)buf[out - 1] >= 0x80 && (unsigned char)say[1] >= 0x80))
                buf[out++] = ' ';
            ++say;
        } else if (say[0] == '\n' && say[1] == '\0') {
            ++say; /* the block's last line break */
        } else {
            buf[out++] = *say++;
        }
    }
    buf[out] = '\0';
}

void app_player_hint(const scene *s, char *buf, size_t size)
{
    const app_player *p = &s->player;
    const app_action *a;
    if (!p->active || !p->waiting) {
        buf[0] = '\0';
        return;
    }
    a = app_action_find(p->lesson.steps[p->step].wait);
    const char *form = strcmp(s->lang, "zh") == 0 ? "\xE8\xBD\xAE\xE5\x88\xB0\xE4\xBD\xA0\xE4\xBA\x86\xEF\xBC\x9A\xE6\x8C\x89 %s \xE7\xBB\xA7\xE7\xBB\xAD"
                                                  : "Your turn: press %s to go on";
    if (a && a->keys)
        snprintf(buf, size, form, a->keys);
    else if (a && strncmp(a->name, "filter-", 7) == 0) /* filter-N: the key is N */
        snprintf(buf, size, form, a->name + 7);
    else
        snprintf(buf, size, "Your turn: do '%s' to go on", p->lesson.steps[p->step].wait);
}

/* ---- the command line: convis lesson ... ---------------------------------- */

static int check_files(int argc, char **argv)
{
    int bad = 0;
    if (argc == 0) {
        app_error("lesson --check: no file; usage: convis lesson --check FILE...");
        return APP_EXIT_USAGE;
    }
    for (int i = 0; i < argc; ++i) {
        lsn_lesson l;
        if (!app_lesson_load(argv[i], &l)) {
            fprintf(stderr, "%s\n", err_msg());
            ++bad;
            continue;
        }
        printf("%s: ok, \"%s\", %d step%s\n", argv[i], l.title, l.step_count, l.step_count == 1 ? "" : "s");
        lsn_free(&l);
    }
    return bad ? APP_EXIT_INPUT : APP_EXIT_OK;
}

/* Whether window option `opt` takes a value (the next argument). */
static bool takes_value(const char *opt)
{
    static const char *const with_value[] = {"--render-steps", "--window", "--screenshot", "--do", "--report-frames",
                                             "-k", "--kernel", "--border", "--display", "--max-side",
                                             "--max-pixels", "--lang", NULL};
    for (int i = 0; with_value[i]; ++i)
        if (strcmp(opt, with_value[i]) == 0)
            return true;
    return false;
}

int app_lesson_main(int argc, char **argv)
{
    char **args;
    int n = 0, file = -1, rc;

    if (argc >= 1 && strcmp(argv[0], "--check") == 0)
        return check_files(argc - 1, argv + 1);
    for (int i = 0; i < argc; ++i) {
        if (argv[i][0] == '-' && argv[i][1]) {
            if (takes_value(argv[i]))
                ++i;
            continue;
        }
        file = i;
        break;
    }
    if (file < 0) {
        app_error("lesson: no lesson file; usage: convis lesson FILE [OPTIONS], or convis lesson --check FILE...");
        return APP_EXIT_USAGE;
    }
    /* the window, with --lesson FILE in place of FILE */
    args = malloc(sizeof *args * (size_t)(argc + 2));
    if (!args) {
        app_error("out of memory");
        return APP_EXIT_INPUT;
    }
    args[n++] = "--lesson";
    args[n++] = argv[file];
    for (int i = 0; i < argc; ++i)
        if (i != file)
            args[n++] = argv[i];
    rc = app_window_main(n, args);
    free(args);
    return rc;
}
