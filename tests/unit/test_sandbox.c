/* Loading images from strangers (src/core/image.c, decode.c, sandbox.c):
 *   - the decoder child misbehaving on purpose (CONVIS_SANDBOX_TEST): a
 *     crash, a forbidden system call, an endless loop, memory without end,
 *     executable memory mapped or made so, a file mapped; each one
 *     sentence, within its time bound, and nothing returned; a filter that
 *     stops even a child that decodes nothing (as under valgrind) is said
 *     as the sandbox's failure, not the file's;
 *   - a descriptor the parent holds open is closed in the decoder child;
 *   - CONVIS_DECODE_IN_PROCESS=1 decodes without a child, said once;
 *   - what is refused before decoding: a FIFO (without blocking), a
 *     directory, a symbolic link loop (named as such), a 1 GiB file that is
 *     not an image (from its first bytes, without reading it), a header over
 *     the limits (named as too large), text and one-bit PNM;
 *   - 16-bit and odd-maxval PGM/PPM read by our own reader, value for value;
 *   - what the sandbox costs a load, printed: the median of img_load against
 *     img_decode in-process on the same file.
 *   - a real decoder crash contained: stb_image 2.27's PNM reader on a
 *     16-bit PGM (CVE-2021-42716), run in the sandbox;
 *   - another thread mapping and unmapping memory while images are decoded
 *     (as a library's thread pool does, OpenBLAS's starting up): the child's
 *     address space is limited from what it has itself, every image decodes;
 * Usage: test_sandbox SAMPLE.png PGM16.pgm */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "core/decode.h"
#include "core/err.h"
#include "core/image.h"
#include "core/sandbox.h"
#include "core/timing.h"

static char dir[] = "/tmp/convis-test_sandbox.XXXXXX";

static const char *path_in(const char *name)
{
    static char buf[4][256];
    static int next;
    char *p = buf[next++ % 4];
    snprintf(p, 256, "%s/%s", dir, name);
    return p;
}

static void write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(data, 1, n, f) == n, "writing %s", path);
    if (f)
        fclose(f);
}

/* img_load fails within `seconds`, with a sentence holding `want`. */
static void expect_refused(const char *path, const char *want, double seconds, const char *what)
{
    img_image img;
    double t0 = tim_now_ms(), ms;
    bool ok = img_load(path, NULL, &img);
    ms = tim_now_ms() - t0;
    CHECK(!ok && strstr(err_msg(), want) && !strchr(err_msg(), '\n') && img.luma.px == NULL, "%s: '%s' (wanted '%s')",
          what, err_msg(), want);
    CHECK(ms < seconds * 1000.0, "%s: refused in %.0f ms (at most %.0f s)", what, ms, seconds);
    if (ok)
        img_free(&img);
}

static void check_misbehaving_child(const char *sample)
{
    static const struct {
        const char *how, *want;
        double seconds;
    } cases[] = {
        {"crash", "the file is damaged or made to crash decoders", 5},
        {"syscall", "it tried to do something decoding never needs", 5},
        {"spin", "took more than 1 s", 5},
        {"hog", "ran out of memory", 10},
        {"exec-map", "it tried to do something decoding never needs", 5},
        {"exec-protect", "it tried to do something decoding never needs", 5},
        {"map-file", "it tried to do something decoding never needs", 5},
        {"unfit", "the image decoder's sandbox does not work here", 5},
    };
    setenv("CONVIS_DECODE_SECONDS", "1", 1);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char what[64];
        bool filtered_only =
            strcmp(cases[i].how, "crash") != 0 && strcmp(cases[i].how, "spin") != 0 && strcmp(cases[i].how, "hog") != 0;
        if ((!sbx_filtered() && filtered_only) || (!sbx_limits_memory() && strcmp(cases[i].how, "hog") == 0))
            continue;
        snprintf(what, sizeof what, "a decoder child that does '%s'", cases[i].how);
        setenv("CONVIS_SANDBOX_TEST", cases[i].how, 1);
        expect_refused(sample, cases[i].want, cases[i].seconds, what);
        printf("%s: %s\n", cases[i].how, err_msg());
    }
    unsetenv("CONVIS_SANDBOX_TEST");
    unsetenv("CONVIS_DECODE_SECONDS");
}

/* A file the parent holds open (the window's font, its display's socket)
 * is not open in the decoder child: it lists none but its pipe and stderr. */
static void check_inherited_descriptor(const char *sample)
{
    img_image img;
    int fd = open(sample, O_RDONLY);
    CHECK(fd >= 0, "open %s", sample);
    setenv("CONVIS_SANDBOX_TEST", "fds", 1);
    CHECK(!img_load(sample, NULL, &img), "the child that lists its descriptors sends no image");
    unsetenv("CONVIS_SANDBOX_TEST");
    CHECK(strcmp(err_msg(), "descriptors open in the decoder: none") == 0,
          "descriptor %d, open in the parent, is closed in the decoder: '%s'", fd, err_msg());
    CHECK(fcntl(fd, F_GETFD) != -1, "and still open in the parent");
    printf("a descriptor open in the parent (%d): %s\n", fd, err_msg());
    if (fd >= 0)
        close(fd);
}

/* CONVIS_DECODE_IN_PROCESS=1: the image decoded with no child (a child's
 * test modes do nothing), luma alone when asked, and one line on stderr
 * however many images. */
static void check_in_process(const char *sample)
{
    char log[256], text[1024] = "";
    img_image img;
    int saved, fd, lines = 0;
    ssize_t n;
    snprintf(log, sizeof log, "%s/stderr.txt", dir);
    fflush(stderr);
    saved = dup(2);
    fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(saved >= 0 && fd >= 0 && dup2(fd, 2) == 2, "stderr to %s", log);
    setenv("CONVIS_DECODE_IN_PROCESS", "1", 1);
    setenv("CONVIS_SANDBOX_TEST", "crash", 1);
    CHECK(img_load(sample, NULL, &img) && img.color.px, "in-process: the image, colours too: %s", err_msg());
    if (img.luma.px)
        img_free(&img);
    CHECK(img_load_luma(sample, NULL, &img) && img.luma.px && !img.color.px, "in-process: luma alone: %s", err_msg());
    if (img.luma.px)
        img_free(&img);
    unsetenv("CONVIS_SANDBOX_TEST");
    unsetenv("CONVIS_DECODE_IN_PROCESS");
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    fd = open(log, O_RDONLY);
    n = fd >= 0 ? read(fd, text, sizeof text - 1) : -1;
    text[n > 0 ? n : 0] = '\0';
    if (fd >= 0)
        close(fd);
    for (char *p = text; *p; ++p)
        lines += *p == '\n';
    CHECK(lines == 1 && strstr(text, "CONVIS_DECODE_IN_PROCESS=1: images are decoded without their sandbox"),
          "said once on stderr: '%s'", text);
}

static void check_refused_before_decoding(void)
{
    static const unsigned char text[] = "hello, this is not an image\n";
    /* a PNG header (valid CRC not needed: refused from the size alone) claiming 100000 x 100000 */
    static const unsigned char huge[] = {0x89, 'P',  'N', 'G', '\r', '\n', 0x1a, '\n', 0,    0, 0,
                                         13,   'I',  'H', 'D', 'R',  0,    1,    0x86, 0xa0, 0, 1,
                                         0x86, 0xa0, 8,   2,   0,    0,    0,    0,    0,    0, 0};
    int fd;

    CHECK(mkfifo(path_in("fifo.png"), 0600) == 0, "mkfifo");
    expect_refused(path_in("fifo.png"), "is not a regular file", 2, "a FIFO, with no writer");
    expect_refused(dir, "is a directory", 2, "a directory");
    CHECK(symlink("loop-b.png", path_in("loop-a.png")) == 0 && symlink("loop-a.png", path_in("loop-b.png")) == 0,
          "symlinks");
    expect_refused(path_in("loop-a.png"), "loop-a.png': it is a symbolic link that leads round in a loop", 2,
                   "a symbolic link loop");
    fd = open(path_in("big.png"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(fd >= 0 && ftruncate(fd, 1LL << 30) == 0 && pwrite(fd, text, sizeof text - 1, 0) > 0, "a 1 GiB file");
    if (fd >= 0)
        close(fd);
    expect_refused(path_in("big.png"), "its first bytes are not those of a", 1, "1 GiB of text named .png");
    write_file(path_in("huge.png"), huge, sizeof huge);
    expect_refused(path_in("huge.png"), "is 100000x100000 pixels, over the limit", 2, "a 100000x100000 PNG header");
    write_file(path_in("text.pgm"), "P2\n2 1\n255\n0 255\n", 17);
    expect_refused(path_in("text.pgm"), "is a text or one-bit PNM (P2)", 2, "a text PGM");
    write_file(path_in("short.pgm"), "P5\n4 4\n255\n\1\2\3", 14);
    expect_refused(path_in("short.pgm"), "is truncated", 2, "a truncated PGM");
    write_file(path_in("maxval.pgm"), "P5\n1 1\n70000\n\1\2", 16);
    expect_refused(path_in("maxval.pgm"), "maxval of 70000", 2, "a PGM with a maxval over 65535");
}

static void check_pnm(void)
{
    /* 16-bit grey: 0, 65535, 32768 (of 65535) -> 0, 255, 127.5019...; and
     * RGB with maxval 1023 */
    static const unsigned char pgm16[] = {'P', '5', '\n', '3',  ' ',  '1',  '\n', '6',  '5', '5',
                                          '3', '5', '\n', 0x00, 0x00, 0xff, 0xff, 0x80, 0x00};
    static const unsigned char ppm10[] = {'P', '6', ' ', '#',  'c',  '\n', '1',  ' ',  '1',  ' ', '1',
                                          '0', '2', '3', '\n', 0x03, 0xff, 0x00, 0x00, 0x02, 0x00};
    img_image img;

    write_file(path_in("g16.pgm"), pgm16, sizeof pgm16);
    CHECK(img_load(path_in("g16.pgm"), NULL, &img), "16-bit PGM: %s", err_msg());
    if (img.luma.px) {
        CHECK(img.luma.w == 3 && img.luma.h == 1 && img.luma.px[0] == 0.0f && img.luma.px[1] == 255.0f &&
                  img.luma.px[2] == 32768.0f * (255.0f / 65535.0f),
              "16-bit PGM values %g %g %g", img.luma.px[0], img.luma.px[1], img.luma.px[2]);
        CHECK(img.color.px[4] == 255 && img.color.px[8] == 128 && img.color.px[11] == 255, "16-bit PGM colours");
        img_free(&img);
    }
    write_file(path_in("c10.ppm"), ppm10, sizeof ppm10);
    CHECK(img_load(path_in("c10.ppm"), NULL, &img), "10-bit PPM: %s", err_msg());
    if (img.luma.px) {
        float r = 255.0f, b = 512.0f * (255.0f / 1023.0f);
        CHECK(img.color.px[0] == 255 && img.color.px[1] == 0 && img.color.px[2] == 128 &&
                  img.luma.px[0] == 0.299f * r + 0.114f * b,
              "10-bit PPM: %d %d %d, luma %g", img.color.px[0], img.color.px[1], img.color.px[2], img.luma.px[0]);
        img_free(&img);
    }
}

bool stb_pnm_decode(const char *name, const unsigned char *data, size_t size, const img_limits *lim, img_image *out);

/* The whole file in memory (NULL with a failed check). */
static unsigned char *slurp(const char *path, size_t *size)
{
    unsigned char *data = NULL;
    long n;
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL, "open %s", path);
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    rewind(f);
    data = n > 0 ? malloc((size_t)n) : NULL;
    CHECK(data && fread(data, 1, (size_t)n, f) == (size_t)n, "read %s", path);
    fclose(f);
    *size = (size_t)n;
    return data;
}

/* The real thing: stb_image 2.27's own PNM reader (tests/unit/stb_pnm_2_27.c)
 * on a 16-bit PGM of 300x280 overflows its buffer (CVE-2021-42716) and
 * crashes, or hands back heap bytes. Through the sandbox: the parent lives,
 * and either a sentence comes back or an image; the image is never of
 * another size than the file's. (In-process it would crash this test.) */
static void check_real_crash_contained(const char *pgm16)
{
    img_limits lim = img_default_limits();
    size_t size = 0;
    unsigned char *data = slurp(pgm16, &size);
    img_image img;
    bool ok;

    if (!data)
        return;
    ok = sbx_decode_with(stb_pnm_decode, pgm16, data, size, &lim, &img);
    if (ok) {
        CHECK(img.luma.w == 300 && img.luma.h == 280, "stb's PNM reader in the sandbox: an image of %dx%d", img.luma.w,
              img.luma.h);
        printf("stb 2.27's PNM reader on the 16-bit PGM, in the sandbox: it returned (no crash this time)\n");
        img_free(&img);
    } else {
        CHECK(strstr(err_msg(), "pgm16.pgm") && !strchr(err_msg(), '\n'), "one sentence naming the file: '%s'",
              err_msg());
        printf("stb 2.27's PNM reader on the 16-bit PGM, in the sandbox: %s\n", err_msg());
    }
    free(data);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void measure_cost(const char *sample)
{
    enum { N = 21 };
    double with[N], without[N];
    img_image img;
    size_t size = 0;
    unsigned char *data = slurp(sample, &size);

    if (!data)
        return;
    for (int i = 0; i < N; ++i) {
        img_limits lim = img_default_limits();
        double t0 = tim_now_ms();
        bool ok = img_load(sample, NULL, &img);
        with[i] = tim_now_ms() - t0;
        if (ok)
            img_free(&img);
        t0 = tim_now_ms();
        ok = img_decode(sample, data, size, &lim, &img);
        without[i] = tim_now_ms() - t0;
        CHECK(ok, "in-process decode: %s", err_msg());
        if (ok)
            img_free(&img);
    }
    qsort(with, N, sizeof with[0], cmp_double);
    qsort(without, N, sizeof without[0], cmp_double);
    printf("loading %s: %.2f ms through the sandbox, %.2f ms decoded in-process: the sandbox costs %.2f ms a load "
           "(medians of %d)\n",
           sample, with[N / 2], without[N / 2], with[N / 2] - without[N / 2], N);
    free(data);
}

static atomic_int churn_stop;

/* 512 MiB of address space mapped, then unmapped, over and over until
 * told to stop: the parent's mapping changes from one instant to the next. */
static void *churn(void *arg)
{
    const size_t n = (size_t)512 << 20;
    (void)arg;
    while (!atomic_load(&churn_stop)) {
        unsigned char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            break;
        p[0] = 1;
        munmap(p, n);
    }
    return NULL;
}

static void check_parent_mapping_meanwhile(const char *sample)
{
    pthread_t t;
    int ok = 0, runs = 40;
    if (!sbx_limits_memory() || pthread_create(&t, NULL, churn, NULL) != 0)
        return;
    for (int i = 0; i < runs; ++i) {
        img_image img;
        if (img_load(sample, NULL, &img)) {
            ++ok;
            img_free(&img);
        } else {
            fprintf(stderr, "  decode %d: %s\n", i, err_msg());
        }
    }
    atomic_store(&churn_stop, 1);
    pthread_join(t, NULL);
    CHECK(ok == runs, "every image decodes while another thread maps 512 MiB and unmaps it: %d of %d", ok, runs);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_sandbox SAMPLE.png PGM16.pgm\n");
        return 2;
    }
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    printf("seccomp filter: %s; address space limited: %s\n",
           sbx_filtered() ? "yes" : "no (not Linux on x86-64 or arm64, or a sanitizer build)",
           sbx_limits_memory() ? "yes" : "no (a sanitizer build)");
    check_misbehaving_child(argv[1]);
    check_inherited_descriptor(argv[1]);
    check_in_process(argv[1]);
    check_refused_before_decoding();
    check_pnm();
    check_real_crash_contained(argv[2]);
    check_parent_mapping_meanwhile(argv[1]);
    measure_cost(argv[1]);
    {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", dir);
    }
    return CHECK_SUMMARY();
}
