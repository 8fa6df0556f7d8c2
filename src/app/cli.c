#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compute/engine.h"
#include "core/err.h"
#include "action_table.h"
#include "engine_host.h"
#include "core/linebreak.h"
#include "i18n.h"
#include "lessons.h"

void app_error(const char *fmt, ...)
{
    va_list ap;
    fputs("convis: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, _(fmt), ap); /* in the current language */
    va_end(ap);
    fputc('\n', stderr);
}

int app_exit_of_error(int otherwise)
{
    return err_last_kind() == ERR_ENV ? APP_EXIT_ENV : otherwise;
}

/* Takes the value of option argv[*i]; prints a message and returns NULL when
 * it is missing. */
static const char *app_option_value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        app_error("option '%s' needs a value; see 'convis --help'", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

bool app_parse_count(const char *opt, const char *text, long long max, long long *out)
{
    char *end;
    long long v;
    errno = 0;
    v = strtoll(text, &end, 10);
    if (errno || end == text || *end || v < 1 || v > max) {
        app_error("option '%s' takes a whole number from 1 to %lld, not '%s'", opt, max, text);
        return false;
    }
    *out = v;
    return true;
}

/* ---- the options: one table, from which parsing and usage come ------------------ */

/* clang-format off */
static const app_option options[] = {
    {OPT_KERNEL, "--kernel", "-k", "FILTER", APP_FOR_ALL,
     N_("a preset, a preset of a size (box:5, gaussian:1.5, motion:9) or rows of\n"
     "numbers, e.g. sobel-x or \"-1 0 1; -2 0 2; -1 0 1\": any odd number of rows and\n"
     "columns up to 31 (a divisor may follow: \"1 2 1; 2 4 2; 1 2 1 / 16\"); the\n"
     "window walks every size on the CPU, apply and bench run every size")},
    {OPT_BORDER, "--border", NULL, "MODE", APP_FOR_ALL, N_("zero, clamp (default), mirror or wrap: what taps outside read")},
    {OPT_FLIP, "--flip", NULL, NULL, APP_FOR_ALL,
     N_("true convolution (kernel rotated 180 degrees) instead of\ncross-correlation")},
    {OPT_STRIDE, "--stride", NULL, "N", APP_FOR_APPLY | APP_FOR_WINDOW, N_("outputs every N pixels across and down (default 1): the output\nshrinks N times each way")},
    {OPT_DILATION, "--dilation", NULL, "N", APP_FOR_APPLY | APP_FOR_WINDOW, N_("the taps N pixels apart (default 1): a 3×3 window spreads over\n2N+1 pixels a side")},
    {OPT_PADDING, "--padding", NULL, "MODE", APP_FOR_APPLY | APP_FOR_WINDOW,
     N_("same (default: an output for each input, taps past the edge by\n--border), valid (only whole windows: the output shrinks) or full\n(every overlap: it grows)")},
    {OPT_STRIDE, "--stride", NULL, "N", APP_FOR_BENCH, N_("outputs every N pixels across and down (default 1): the output\nshrinks N times each way")},
    {OPT_DILATION, "--dilation", NULL, "N", APP_FOR_BENCH, N_("the taps N pixels apart (default 1): a 3×3 window spreads over\n2N+1 pixels a side")},
    {OPT_PADDING, "--padding", NULL, "MODE", APP_FOR_BENCH,
     N_("same (default: an output for each input, taps past the edge by\n--border), valid (only whole windows: the output shrinks) or full\n(every overlap: it grows)")},
    {OPT_DISPLAY, "--display", NULL, "MODE", APP_FOR_ALL,
     N_("how results become grey levels: clamp, abs, signed\n(default: clamp for apply, abs in the window)")},
    {OPT_MAX_SIDE, "--max-side", NULL, "N", APP_FOR_ALL, N_("refuse images wider or taller than N pixels")},
    {OPT_MAX_PIXELS, "--max-pixels", NULL, "N", APP_FOR_ALL, N_("refuse images of more than N pixels")},
    {OPT_OUTPUT, "--output", "-o", "FILE", APP_FOR_APPLY, N_(".png (display, 8-bit grey) or .pfm (exact float values)")},
    {OPT_ENGINE, "--engine", NULL, "NAME", APP_FOR_APPLY, N_("the engine (default cpu-par): ")},
    {OPT_REPS, "--reps", NULL, "N", APP_FOR_APPLY, N_("time N runs after a warm-up and report the median (default 5)")},
    {OPT_SEPARABLE, "--separable", NULL, NULL, APP_FOR_APPLY,
     N_("a filter of rank 1 (box, gaussian, sobel, motion...) run again as a\n"
     "row pass and a column pass on one CPU thread: its taps, its time and\n"
     "how far its result is from the engine's, in ULPs (the output written\n"
     "stays the engine's)")},
    {OPT_DIFF_MAP, "--diff-map", NULL, "FILE", APP_FOR_APPLY,
     N_("with --separable: each output's distance in ULPs, as FILE (.pfm\nkeeps them exactly)")},
    {OPT_FFT, "--fft", NULL, NULL, APP_FOR_APPLY,
     N_("the filter run again through the FFT (FFTW, float, one CPU thread):\n"
     "its transforms' size, its time and how far its result is from the\n"
     "engine's, in ULPs (the output written stays the engine's)")},
    {OPT_GPU_KERNEL, "--gpu-kernel", NULL, "NAME", APP_FOR_APPLY,
     N_("cuda and gl: tiled (default; a shared-memory tile; in CUDA the\n"
     "filter in constant memory) or naive (nine reads from global memory\nper output)")},
    {OPT_RESULT, "--result", NULL, "PATH", APP_FOR_APPLY,
     N_("cuda: bulk (default; one copy back) or per-pixel (one copy per\n"
     "output pixel, the trap: measured on the first pixels, then\n"
     "extrapolated to the image, and labelled so). Other engines\nignore both and say so.")},
    {OPT_COLOR, "--color", "--colour", NULL, APP_FOR_APPLY,
     N_("a colour image in colour: the filter on its red, green and blue,\n"
     "each its own plane, written as a colour .png or a three-channel .pfm\n"
     "(a grey image stays one channel)")},
    {OPT_LAYER, "--layer", NULL, "NAME|FILE", APP_FOR_APPLY | APP_FOR_BENCH,
     N_("a layer of filters over every channel instead of -k: edges, opponent,\n"
     "blur, random:N or a layer file (lessons/README.md); apply writes one\n"
     "picture a filter, OUT-0.png, OUT-1.png ...")},
    {OPT_WAY, "--way", NULL, "WAY", APP_FOR_APPLY,
     N_("how --layer is computed: direct (default; a loop per output), im2col\n"
     "(the input unrolled, then our matrix product: the same bits) or\n"
     "library (OpenBLAS on the CPU, cuBLAS on cuda: compared within a\n"
     "stated tolerance)")},
    {OPT_MATH, "--math", NULL, "fp32|tf32|fp16", APP_FOR_APPLY | APP_FOR_BENCH,
     N_("the library way on cuda: fp32 (default) or the inputs rounded to\n"
     "tf32 or fp16 for tensor cores, the sums in fp32")},
    {OPT_WINDOW, "--window", NULL, "WxH", APP_FOR_WINDOW, N_("window size in pixels (default 1280x720)")},
    {OPT_LANG, "--lang", NULL, "en|zh", APP_FOR_ALL, N_("the language of convis's words, and in the window of lessons and their fonts (default: from the locale)")},
    {OPT_DO, "--do", NULL, "ACTIONS", APP_FOR_WINDOW,
     N_("run actions first, as keys would: names parted by commas, each\n"
     "repeatable as name*N, e.g. \"gpu,threads,step*40\" (the actions below)")},
    {OPT_SCREENSHOT, "--screenshot", NULL, "FILE", APP_FOR_WINDOW,
     N_("render one frame once the work is done, save it as FILE (.png) and\nexit (offscreen where there is no display)")},
    {OPT_RENDER_STEPS, "--render-steps", NULL, "DIR", APP_FOR_WINDOW,
     N_("with a lesson: save a screenshot of each step in DIR (step-01.png\n"
     "...) and exit; a step that waits for the learner gets a second\n"
     "one once that is done, as a learner would (step-01-after.png)")},
    {OPT_PRESENTER, "--presenter", NULL, NULL, APP_FOR_WINDOW,
     N_("presenter mode (F5): the grids' digits, the narration and the chart sized\nfrom the window's height, for a room")},
    {OPT_LAB, "--lab", NULL, "FILE", APP_FOR_WINDOW,
     N_("open the kernel lab (Shift+L) on your GLSL kernel FILE: checked each\ntime you save it (convis lab FILE does it in a terminal)")},
    {OPT_ATTEMPTS, "--attempts", NULL, "FILE", APP_FOR_WINDOW,
     N_("where the answers to the lessons' questions go, a file to hand in\n"
     "(default: ~/.local/share/convis/attempts.json; 'none': nowhere)")},
    {OPT_REPORT_FRAMES, "--report-frames", NULL, "N", APP_FOR_WINDOW,
     N_("play the CPU walk for N frames and print the frame times")},
    {OPT_GIF, "--gif", NULL, "FILE", APP_FOR_WINDOW,
     N_("record what the window shows after the actions (--do, a lesson's\n"
     "first step) as an animated GIF for slides, a new FILE, and exit:\n"
     "the walk playing, the GPU lighting up, tiles completing, in time")},
    {OPT_GIF_SECONDS, "--gif-seconds", NULL, "N", APP_FOR_WINDOW, N_("how long the GIF runs (default 5, at most 60)")},
    {OPT_GIF_FPS, "--gif-fps", NULL, "N", APP_FOR_WINDOW, N_("its frames a second (default 10, at most 30)")},
    {OPT_GIF_STEPS, "--gif-steps", NULL, NULL, APP_FOR_WINDOW,
     N_("with a lesson: the GIF shows every step in turn, each for\n--gif-seconds, its waits done as a learner would")},
    {OPT_PRINT_STATE, "--print-state", NULL, NULL, APP_FOR_WINDOW,
     N_("when the window ends, print its state, the regions that show\nmeasured times and the places to click (for tests)")},
    {OPT_RECORD, "--record", NULL, "FILE", APP_FOR_WINDOW,
     N_("draw a recorded run (convis record) beside the live ones in the size\nsweep (W), labelled with its machine and date")},
    {OPT_LESSON, "--lesson", NULL, "FILE", APP_FOR_WINDOW, NULL}, /* what `convis lesson FILE` passes on */
    {OPT_HANDOUT, "--handout", NULL, "DIR", APP_FOR_WINDOW, NULL}, /* what `convis handout -o DIR` passes on */
    {OPT_OUTPUT, "--output", "-o", "DIR", APP_FOR_HANDOUT,
     N_("the folder for the page (index.html) and its pictures: a new\n"
     "one, an empty one or one that holds an earlier handout")},
    {OPT_WINDOW, "--window", NULL, "WxH", APP_FOR_HANDOUT, N_("the pictures' size in pixels (default 1280x720)")},
    {OPT_SIZES, "--sizes", NULL, "N,N,...", APP_FOR_BENCH,
     N_("the sides of the squares measured, up to 16 from 1 to 16384\n(default 256,512,1024,2048,4096)")},
    {OPT_ENGINES, "--engines", NULL, "NAME,...", APP_FOR_BENCH,
     N_("the engines measured, parted by commas (default: all of them)")},
    {OPT_BUDGET_MS, "--budget-ms", NULL, "N", APP_FOR_BENCH,
     N_("the time for each engine at each size, in ms, from 1 to 60000\n(default 400)")},
    {OPT_KSIZE, "--ksize", NULL, "K,K,...", APP_FOR_BENCH,
     N_("filter sizes measured one after another, odd, 1 to 31: the -k\n"
        "filter's kind (box, gaussian or motion) at each size, such as 3,5,7,9")},
    {OPT_FFT, "--fft", NULL, NULL, APP_FOR_BENCH,
     N_("also the filter through the FFT (FFTW, float, one CPU thread) at each\n"
     "size, beside cpu-simd and cpu-par; with --ksize, the filter size from\n"
     "which it wins")},
    {OPT_CSV, "--csv", NULL, NULL, APP_FOR_BENCH,
     N_("the figures as CSV, a row for each engine and size (a run that\n"
        "failed: no figures, its reason in the last column)")},
    {OPT_JSON, "--json", NULL, NULL, APP_FOR_BENCH,
     N_("the figures as one JSON object (a run that failed: its \"error\")")},
};
/* clang-format on */

#define OPTION_COUNT (sizeof options / sizeof options[0])

const app_option *app_option_named(const char *arg, int scope)
{
    for (size_t i = 0; i < OPTION_COUNT; ++i)
        if ((options[i].scope & scope) &&
            (strcmp(arg, options[i].name) == 0 || (options[i].alias && strcmp(arg, options[i].alias) == 0)))
            return &options[i];
    return NULL;
}

int app_next_option(int argc, char **argv, int *i, int scope, const app_option **opt, const char **value)
{
    const char *arg = argv[*i];
    *opt = NULL;
    *value = NULL;
    if (arg[0] != '-' || arg[1] == '\0')
        return 0;
    *opt = app_option_named(arg, scope);
    if (!*opt) {
        app_error("unknown option '%s'; see 'convis --help'", arg);
        return -1;
    }
    if ((*opt)->value) {
        if (!(*value = app_option_value(argc, argv, i)))
            return -1;
    }
    return 1;
}

int app_take_shared_option(const app_option *opt, const char *v, app_options *o)
{
    long long n;
    switch (opt->id) {
    case OPT_FLIP: o->flip = true; return 1;
    case OPT_KERNEL:
        if (!filt_parse(v, &o->kernel))
            break;
        return 1;
    case OPT_BORDER:
        if (!conv_border_parse(v, &o->border))
            break;
        return 1;
    case OPT_STRIDE:
    case OPT_DILATION:
        if (!app_parse_count(opt->name, v, opt->id == OPT_STRIDE ? CONV_MAX_STRIDE : CONV_MAX_DILATION, &n))
            return -1;
        *(opt->id == OPT_STRIDE ? &o->stride : &o->dilation) = (int)n;
        return 1;
    case OPT_PADDING:
        if (!conv_padding_parse(v, &o->padding))
            break;
        return 1;
    case OPT_DISPLAY:
        if (!img_display_parse(v, &o->display))
            break;
        return 1;
    case OPT_MAX_SIDE:
        if (!app_parse_count(opt->name, v, INT_MAX, &n))
            return -1;
        o->limits.max_side = (int)n;
        return 1;
    case OPT_MAX_PIXELS:
        if (!app_parse_count(opt->name, v, LLONG_MAX, &n))
            return -1;
        o->limits.max_pixels = n;
        return 1;
    case OPT_LANG: /* in force from the start (app_lang_option); here only checked */
        if (!app_lang_known(v)) {
            app_error("option '--lang' takes en, zh or another language with lessons/<lang>/ or po/<lang>.po, "
                      "not '%s'",
                      v);
            return -1;
        }
        return 1;
    default: return 0;
    }
    app_error("%s", err_msg());
    return -1;
}

/* The option's default where it comes from a constant, else "". */
static void option_default(const app_option *o, char *buf, size_t size)
{
    buf[0] = '\0';
    if (o->id == OPT_MAX_SIDE)
        snprintf(buf, size, _(" (default %d)"), IMG_DEFAULT_MAX_SIDE);
    else if (o->id == OPT_MAX_PIXELS)
        snprintf(buf, size, _(" (default %lld)"), (long long)IMG_DEFAULT_MAX_PIXELS);
    else if (o->id == OPT_ENGINE)
        snprintf(buf, size, "%s", eng_names());
    else if (o->id == OPT_RESULT)
        snprintf(buf, size, _("\n  %-21s (per-pixel: %d pixels or %.0f ms at most, for real)"), "", ENG_PER_PIXEL_MAX,
                 ENG_PER_PIXEL_BUDGET_MS);
    else if (o->id == OPT_GIF_STEPS)
        snprintf(buf, size, _("\n  %-21s (at most %d frames in all, the steps together)"), "", APP_GIF_MOST_FRAMES);
}

/* `text`'s lines, the first after what is already on the line, the others
 * indented by `indent` columns. */
static void print_lines(FILE *f, const char *text, int indent)
{
    for (const char *line = text; *line;) {
        const char *nl = strchr(line, '\n');
        int n = nl ? (int)(nl - line) : (int)strlen(line);
        fprintf(f, "%.*s", n, line);
        if (!nl)
            break;
        fprintf(f, "\n%*s", indent, "");
        line = nl + 1;
    }
}

static void print_options(FILE *f, int scope)
{
    for (size_t i = 0; i < OPTION_COUNT; ++i) {
        const app_option *o = &options[i];
        char head[64], def[256];
        if (o->scope != scope || !o->help)
            continue;
        snprintf(head, sizeof head, "%s%s%s%s%s", o->alias ? o->alias : "", o->alias ? ", " : "", o->name,
                 o->value ? " " : "", o->value ? o->value : "");
        option_default(o, def, sizeof def);
        fprintf(f, "  %-21s ", head);
        print_lines(f, _(o->help), 24); /* the help's lines, each indented under the first */
        fprintf(f, "%s\n", def);
    }
}

/* The commands: how each is typed, and what it does (a line each, the help
 * indents the lines after the first). */
static const struct {
    const char *synopsis, *what;
} commands[] = {
    {"convis [IMAGE] [OPTIONS]", N_("open the window (on IMAGE, or the sample image)")},
    {"convis apply IN -k FILTER -o OUT.png|OUT.pfm [OPTIONS]", N_("convolve an image file from the command line")},
    {"convis lesson FILE [IMAGE] [OPTIONS]", N_("play a lesson (lessons/en/, lessons/zh/) in the window;\n"
                                                "one that names no image plays on IMAGE, a photo of yours:\n"
                                                "convis lesson lessons/en/08-your-own-image.yaml photo.jpg")},
    {"convis lesson --check FILE...", N_("check lesson files without opening a window")},
    {"convis lesson --render-steps DIR FILE",
     N_("save a screenshot of each step of a lesson in DIR, and\nof a step that waits, one once it is done")},
    {"convis handout LESSON [IMAGE] -o DIR", N_("write a page to print or show (DIR/index.html) with\n"
                                                "each step's pictures and words, this machine's figures\n"
                                                "in them (on IMAGE as lesson plays on it)")},
    {"convis lab FILE.comp [IMAGE] [--watch]", N_("the kernel lab: your GLSL kernel compiled, run, compared bit for\n"
                                                  "bit, its reads counted and timed (the starter: lab/tiled.comp)")},
    {"convis progress FILE... [--csv]", N_("sum up learners' attempts files (the answers to the lessons'\n"
                                           "questions) for a teacher: by learner and by question")},
    {"convis record FILE [OPTIONS]",
     N_("measure the size sweep here and write it, with this\nmachine's name and the date, to a new FILE (JSON)")},
    {"convis bench [IMAGE] [OPTIONS]", N_("measure every engine here, 256x256 to 4096x4096, beside\n"
                                          "a copy of the same bytes (--sizes 256,512,... --engines\n"
                                          "cpu-par,gl,... --budget-ms N a figure, --csv, --json)")},
    {"convis kernels", N_("list the preset filters and their values")},
    {"convis engines", N_("list the engines and whether they run here")},
    {"convis COMMAND --help", N_("the usage of one command, such as apply or bench")},
    {"convis --help | --version", NULL},
};

/* The subcommands, and the options each takes. */
static const struct {
    const char *name;
    int scope;
} command_options[] = {
    {"apply", APP_FOR_ALL | APP_FOR_APPLY},
    {"lesson", APP_FOR_ALL | APP_FOR_WINDOW},
    {"record", APP_FOR_ALL},
    {"bench", APP_FOR_ALL | APP_FOR_BENCH},
    {"handout", APP_FOR_ALL | APP_FOR_HANDOUT},
    {"progress", 0},
    {"lab", 0},
    {"kernels", 0},
    {"engines", 0},
};

#define COMMAND_COUNT (sizeof commands / sizeof commands[0])
#define SUBCOMMAND_COUNT (sizeof command_options / sizeof command_options[0])

/* One line of the usage: how a command is typed, and what it does. */
static void print_command(FILE *f, size_t i)
{
    int n = (int)strlen(commands[i].synopsis);
    fprintf(f, "  %s", commands[i].synopsis);
    if (!commands[i].what) {
        fputc('\n', f);
        return;
    }
    if (n > 29)
        fprintf(f, "\n%33s", "");
    else
        fprintf(f, "%*s", 31 - n, "");
    print_lines(f, _(commands[i].what), 33);
    fputc('\n', f);
}

static void print_exit_statuses(FILE *f)
{
    fputs(_("\nExit status: 0 done; 1 a usage error (an unknown command or option, a wrong\n"
            "value, options that do not go together); 2 an input error (a file that cannot\n"
            "be read or is refused, an output that cannot be made there); 3 an environment\n"
            "error (no display, the asked engine unavailable or failing, no memory, a full\n"
            "disk or another failed write, standard output's included).\n"),
          f);
}

bool app_is_command(const char *word)
{
    for (size_t i = 0; i < SUBCOMMAND_COUNT; ++i)
        if (strcmp(word, command_options[i].name) == 0)
            return true;
    return false;
}

bool app_command_usage(FILE *f, const char *command)
{
    char prefix[32];
    size_t k, n;
    int scope;
    for (k = 0; k < SUBCOMMAND_COUNT && strcmp(command, command_options[k].name) != 0; ++k)
        ;
    if (k == SUBCOMMAND_COUNT)
        return false;
    scope = command_options[k].scope;
    n = (size_t)snprintf(prefix, sizeof prefix, "convis %s", command);
    fputs(_("\nUsage:\n") + 1, f); /* the heading without the blank line before it */
    for (size_t i = 0; i < COMMAND_COUNT; ++i)
        if (strncmp(commands[i].synopsis, prefix, n) == 0 &&
            (commands[i].synopsis[n] == ' ' || commands[i].synopsis[n] == '\0'))
            print_command(f, i);
    if (scope & APP_FOR_ALL) {
        fputs(_("\nOptions:\n"), f);
        print_options(f, APP_FOR_ALL);
    }
    if (scope & APP_FOR_APPLY) {
        fputs(_("\nOptions of apply:\n"), f);
        print_options(f, APP_FOR_APPLY);
    }
    if (scope & APP_FOR_WINDOW) {
        fputs(_("\nOptions of the window (and of lesson):\n"), f);
        print_options(f, APP_FOR_WINDOW);
        fputs(_("\nThe actions --do takes: 'convis --help'.\n"), f);
    }
    if (scope & APP_FOR_BENCH) {
        fputs(_("\nOptions of bench:\n"), f);
        print_options(f, APP_FOR_BENCH);
    }
    if (scope & APP_FOR_HANDOUT) {
        fputs(_("\nOptions of handout:\n"), f);
        print_options(f, APP_FOR_HANDOUT);
    }
    print_exit_statuses(f);
    return true;
}

bool app_asks_help(int argc, char **argv)
{
    for (int i = 0; i < argc; ++i) {
        const app_option *o;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return true;
        o = app_option_named(argv[i], APP_FOR_ANY);
        if (o && o->value)
            ++i; /* its value, whatever it says */
    }
    return false;
}

const char *app_lang_option(int argc, char **argv)
{
    const char *lang = NULL;
    for (int i = 0; i < argc; ++i) {
        const app_option *o = app_option_named(argv[i], APP_FOR_ANY);
        if (!o || !o->value)
            continue;
        if (o->id == OPT_LANG && i + 1 < argc)
            lang = argv[i + 1];
        ++i; /* its value, whatever it says */
    }
    return lang;
}

void app_usage(FILE *f)
{
    fprintf(f,
            _("convis %s - see a 3x3 convolution computed one output at a time on the CPU\n"
              "and all at once on the GPU, with timings measured on this machine.\n"),
            CONVIS_VERSION);
    fputs(_("\nUsage:\n"), f);
    for (size_t i = 0; i < COMMAND_COUNT; ++i)
        print_command(f, i);
    fputs(_("\nOptions:\n"), f);
    print_options(f, APP_FOR_ALL);
    fputs(_("\nOptions of apply:\n"), f);
    print_options(f, APP_FOR_APPLY);
    fputs(_("\nOptions of the window (and of lesson):\n"), f);
    print_options(f, APP_FOR_WINDOW);
    fputs(_("\nOptions of bench:\n"), f);
    print_options(f, APP_FOR_BENCH);
    fputs(_("\nOptions of handout:\n"), f);
    print_options(f, APP_FOR_HANDOUT);
    fputs(_("\nActions, for --do and lessons (the window's help, F1, shows their keys):\n"), f);
    app_action_list(f);
    print_exit_statuses(f);
}

/* The columns of a terminal `text` takes: a Chinese character two. */
static int app_text_columns(const char *text)
{
    int used = 0;
    for (const char *p = text; *p;)
        used += lb_is_cjk(lb_utf8_next(&p)) ? 2 : 1;
    return used;
}

void app_put_column(FILE *f, const char *text, int columns, bool right)
{
    int pad = columns - app_text_columns(text);
    if (right)
        fprintf(f, "%*s%s", pad > 0 ? pad : 0, "", text);
    else
        fprintf(f, "%s%*s", text, pad > 0 ? pad : 0, "");
}
