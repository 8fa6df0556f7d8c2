/* sandbox.c - img_decode in a child process. See sandbox.h. */
#define _GNU_SOURCE
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "decode.h"
#include "err.h"
#include "tr.h"

#ifdef __linux__
#include <sys/prctl.h>
#endif

#if defined(__SANITIZE_ADDRESS__)
#define SBX_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define SBX_ASAN 1
#endif
#endif

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/syscall.h>
#ifndef SBX_ASAN /* a sanitizer's runtime makes calls of its own */
#define SBX_SECCOMP 1
#endif
#endif

#define HEADER_MAGIC 0x636f6e76u /* "conv" */
#define SANDBOX_REFUSED 3        /* the child's status when its filter could not be installed */

/* What the child sends first. */
typedef struct reply {
    uint32_t magic;
    int32_t ok;
    int32_t w, h;
    int32_t bits; /* img_image's */
    char msg[512];
} reply;

bool sbx_limits_memory(void)
{
#ifdef SBX_ASAN
    return false;
#else
    return true;
#endif
}

bool sbx_filtered(void)
{
#ifdef SBX_SECCOMP
    return true;
#else
    return false;
#endif
}

static double seconds_allowed(void)
{
    const char *v = getenv("CONVIS_DECODE_SECONDS");
    double s = v && v[0] ? strtod(v, NULL) : 20.0;
    return s > 0.0 && s < 3600.0 ? s : 20.0;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- the child ------------------------------------------------------------------ */

static bool write_all(int fd, const void *buf, size_t n)
{
    const unsigned char *p = buf;
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        p += k;
        n -= (size_t)k;
    }
    return true;
}

#ifdef SBX_SECCOMP
#if defined(__x86_64__)
#define SBX_ARCH AUDIT_ARCH_X86_64
#else
#define SBX_ARCH AUDIT_ARCH_AARCH64
#endif
#ifndef SECCOMP_RET_KILL_PROCESS
#define SECCOMP_RET_KILL_PROCESS SECCOMP_RET_KILL
#endif

/* The low 32 bits of a call's argument i (both architectures are little-endian). */
#define ARG_LOW(i) (offsetof(struct seccomp_data, args) + 8 * (i))

/* Allows memory management, exiting, and write() on `fd` alone; anything
 * else (opening a file, a socket, exec, another write) kills the process.
 * Memory is anonymous and never executable: mmap of a file (an inherited
 * descriptor), and mmap or mprotect with PROT_EXEC (code an attacker wrote
 * into a buffer, made runnable), kill it too. */
static bool install_filter(int fd)
{
#define ALLOW(nr) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)
    struct sock_filter f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SBX_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        /* mmap: not executable, anonymous, with no descriptor (-1) */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mmap, 0, 8),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LOW(2)),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 5, 0),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LOW(3)),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, MAP_ANONYMOUS, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LOW(4)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0xffffffffu, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        /* mprotect: never to executable */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mprotect, 0, 4),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LOW(2)),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        ALLOW(SYS_munmap),
        ALLOW(SYS_mremap),
        ALLOW(SYS_brk),
        ALLOW(SYS_madvise),
        ALLOW(SYS_futex),
        ALLOW(SYS_rt_sigreturn),
        ALLOW(SYS_exit),
        ALLOW(SYS_exit_group),
        /* write: on the pipe only */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_write, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)fd, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
    };
#undef ALLOW
    struct sock_fprog prog = {(unsigned short)(sizeof f / sizeof f[0]), f};
    return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0;
}
#endif

/* The address space the process has mapped now, in bytes (0 when unknown):
 * the first number of /proc/self/statm, in pages. Only open, read and close
 * on a buffer of the stack: safe in the child of a process with threads,
 * right after fork. */
static unsigned long long mapped_bytes(void)
{
    char buf[64];
    unsigned long long pages = 0;
    ssize_t n;
    int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    n = read(fd, buf, sizeof buf - 1);
    close(fd);
    for (ssize_t i = 0; i < n && buf[i] >= '0' && buf[i] <= '9'; ++i)
        pages = pages * 10 + (unsigned long long)(buf[i] - '0');
    return pages * (unsigned long long)sysconf(_SC_PAGESIZE);
}

static void set_limit(int what, unsigned long long soft, unsigned long long hard)
{
    struct rlimit r = {(rlim_t)soft, (rlim_t)hard};
    setrlimit(what, &r);
}

/* Closes descriptors first..last (last may be ~0u), where first <= last. */
static void close_from(unsigned first, unsigned last)
{
    DIR *d;
    struct dirent *e;
    if (first > last)
        return;
#ifdef SYS_close_range
    if (syscall(SYS_close_range, first, last, 0) == 0)
        return;
#endif
    d = opendir("/proc/self/fd"); /* a kernel before close_range (5.9) */
    if (!d)
        return;
    while ((e = readdir(d)) != NULL) {
        char *end;
        unsigned long n = strtoul(e->d_name, &end, 10);
        if (*end == '\0' && end != e->d_name && (int)n != dirfd(d) && n >= first && n <= last)
            close((int)n);
    }
    closedir(d);
}

/* Closes every descriptor the child inherited but its end of the pipe and
 * stderr (where a sanitizer writes its report): the window's sockets to
 * the display, its font file, whatever the parent holds open are nothing a
 * decoder needs, and nothing a decoder taken over may reach. */
static void close_inherited(int pipe_fd)
{
    unsigned a = (unsigned)pipe_fd < 2u ? (unsigned)pipe_fd : 2u, b = (unsigned)pipe_fd < 2u ? 2u : (unsigned)pipe_fd;
    if (a > 0)
        close_from(0, a - 1);
    if (b > a + 1)
        close_from(a + 1, b - 1);
    close_from(b + 1, ~0u);
}

/* CONVIS_SANDBOX_TEST=fds: the descriptors the child holds open, but its
 * pipe and stderr, as the decoder would find them ("none" when there are
 * none), said in r->msg. */
static void list_descriptors(int pipe_fd, reply *r)
{
    size_t at = (size_t)snprintf(r->msg, sizeof r->msg, "descriptors open in the decoder:");
    bool any = false;
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    if (!d) {
        snprintf(r->msg, sizeof r->msg, "cannot list the decoder's descriptors: %s", strerror(errno));
        return;
    }
    while ((e = readdir(d)) != NULL && at + 16 < sizeof r->msg) {
        char *end;
        long n = strtol(e->d_name, &end, 10);
        if (*end != '\0' || end == e->d_name || n == dirfd(d) || n == pipe_fd || n == 2)
            continue;
        at += (size_t)snprintf(r->msg + at, sizeof r->msg - at, " %ld", n);
        any = true;
    }
    closedir(d);
    if (!any)
        snprintf(r->msg + at, sizeof r->msg - at, " none");
}

/* CONVIS_SANDBOX_TEST=unfit: the child, and the probe of the filter
 * (filter_works), make a call the filter stops as soon as it holds, as a
 * memory checker's own calls would: the filter itself cannot work here. */
static void unfit_on_purpose(void)
{
    const char *test = getenv("CONVIS_SANDBOX_TEST");
    if (test && strcmp(test, "unfit") == 0)
        syscall(SYS_getpid);
}

/* CONVIS_SANDBOX_TEST=crash|syscall|spin|hog|exec-map|exec-protect|map-file:
 * the child misbehaves on purpose, inside its limits and filter, so that a
 * test can show each of them holding: a crash (an illegal instruction), a
 * system call decoding never makes (opening a file), an endless loop,
 * memory without end, executable memory mapped or made so, a file mapped
 * (descriptor 0 stands for one inherited). */
static void misbehave(const char *how, reply *r)
{
    if (strcmp(how, "crash") == 0)
        __builtin_trap();
    if (strcmp(how, "syscall") == 0)
        fopen("/etc/passwd", "r");
    if (strcmp(how, "exec-map") == 0 &&
        mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) != MAP_FAILED)
        snprintf(r->msg, sizeof r->msg, "the decoder mapped executable memory");
    if (strcmp(how, "exec-protect") == 0) {
        void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p != MAP_FAILED && mprotect(p, 4096, PROT_READ | PROT_EXEC) == 0)
            snprintf(r->msg, sizeof r->msg, "the decoder made its memory executable");
    }
    if (strcmp(how, "map-file") == 0 && mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, 0, 0) != MAP_FAILED)
        snprintf(r->msg, sizeof r->msg, "the decoder mapped a file");
    if (strcmp(how, "spin") == 0)
        for (volatile unsigned long i = 0;; ++i)
            ;
    if (strcmp(how, "hog") == 0) {
        size_t total = 0;
        unsigned char *p;
        while ((p = malloc(64u << 20)) != NULL) {
            memset(p, 1, 64u << 20);
            total += 64u << 20;
        }
        snprintf(r->msg, sizeof r->msg, "the image decoder ran out of memory after %zu MiB (its limit)", total >> 20);
    }
}

static void __attribute__((noreturn))
child(int fd, pid_t parent, sbx_decoder decode, const char *name, const unsigned char *data, size_t size,
      const img_limits *lim, unsigned long long pixels, bool color)
{
    /* what this child has mapped, itself: the parent's other threads (a
     * library's pool) may have mapped more or less since it last looked */
    unsigned long long mapped = mapped_bytes();
    reply r;
    img_image img;
    size_t n;
    const char *test = getenv("CONVIS_SANDBOX_TEST");

#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* the parent ended (a signal): so does the decoder */
#endif
    if (getppid() != parent) /* it ended before that took hold */
        _exit(5);
    set_limit(RLIMIT_CORE, 0, 0);
    set_limit(RLIMIT_FSIZE, 0, 0);
    /* SIGXCPU at the soft limit, SIGKILL a second later */
    set_limit(RLIMIT_CPU, (unsigned long long)seconds_allowed() + 1, (unsigned long long)seconds_allowed() + 2);
#ifndef SBX_ASAN
    /* what it has mapped, the file once more, and 24 bytes a pixel of the
     * image (the decoder's buffers, 16-bit rows at worst, and the planes) */
    if (mapped > 0)
        set_limit(RLIMIT_AS, mapped + 2ULL * size + 24ULL * pixels + (64ULL << 20),
                  mapped + 2ULL * size + 24ULL * pixels + (64ULL << 20));
#else
    (void)mapped;
    (void)pixels;
#endif
    close_inherited(fd);
    memset(&r, 0, sizeof r);
    r.magic = HEADER_MAGIC;
    if (test && strcmp(test, "fds") == 0) { /* what the decoder would find open */
        list_descriptors(fd, &r);
        _exit(write_all(fd, &r, sizeof r) ? 0 : 4);
    }
#ifdef SBX_SECCOMP
    if (!install_filter(fd))
        _exit(SANDBOX_REFUSED);
#endif
    unfit_on_purpose();
    if (test && test[0]) {
        misbehave(test, &r);
        _exit(write_all(fd, &r, sizeof r) ? 0 : 4);
    }
    r.ok = decode(name, data, size, lim, &img);
    if (!r.ok) {
        snprintf(r.msg, sizeof r.msg, "%s", err_msg());
        _exit(write_all(fd, &r, sizeof r) ? 0 : 4);
    }
    r.w = img.luma.w;
    r.h = img.luma.h;
    r.bits = img.bits;
    n = (size_t)r.w * (size_t)r.h;
    if (!write_all(fd, &r, sizeof r) || !write_all(fd, img.luma.px, n * sizeof(float)) ||
        (color && !write_all(fd, img.color.px, n * 4)))
        _exit(4);
    _exit(0);
}

/* ---- the parent ------------------------------------------------------------------ */

/* Reads n bytes before `deadline`; 1 done, 0 the pipe ended, -1 time ran out. */
static int read_all(int fd, void *buf, size_t n, double deadline)
{
    unsigned char *p = buf;
    while (n > 0) {
        struct pollfd pf = {fd, POLLIN, 0};
        double left = deadline - now_s();
        int ready;
        ssize_t k;
        if (left <= 0)
            return -1;
        ready = poll(&pf, 1, (int)(left * 1000.0) + 1);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0)
            return -1;
        k = read(fd, p, n);
        if (k < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (k <= 0)
            return 0;
        p += k;
        n -= (size_t)k;
    }
    return 1;
}

/* Whether a child under the filter lives at all: one that installs it,
 * decodes nothing and says so. False where the filter stops even that (a
 * memory checker such as valgrind, whose own calls it does not allow): a
 * child the filter stopped then says nothing of the file it decoded. */
static bool filter_works(void)
{
#ifdef SBX_SECCOMP
    int fds[2], status = 0, got;
    char byte = 0;
    pid_t pid;
    if (pipe2(fds, O_CLOEXEC) != 0)
        return true; /* not known: the file is blamed, as it was */
    pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return true;
    }
    if (pid == 0) {
        close(fds[0]);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (!install_filter(fds[1]))
            _exit(SANDBOX_REFUSED);
        unfit_on_purpose();
        _exit(write_all(fds[1], "1", 1) ? 0 : 4);
    }
    close(fds[1]);
    got = read_all(fds[0], &byte, 1, now_s() + 5.0);
    if (got != 1)
        kill(pid, SIGKILL);
    close(fds[0]);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return got == 1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
#else
    return true;
#endif
}

/* The sentence for a child that ended without sending what it owed. */
static bool child_failed(const char *name, int status, bool timed_out, double seconds)
{
    if (timed_out)
        return err_set("the image decoder took more than %.0f s on '%s' and was stopped; the file is too large to "
                       "decode here or made to stall decoders",
                       seconds, name);
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        if (sig == SIGSYS && !filter_works())
            return err_set("cannot decode '%s': the image decoder's sandbox does not work here (its seccomp filter "
                           "stops even a decoder that decodes nothing, as under a memory checker such as valgrind); "
                           "for such a checker, set CONVIS_DECODE_IN_PROCESS=1 to decode without the sandbox",
                           name);
        if (sig == SIGSYS)
            return err_set("the image decoder was stopped on '%s': it tried to do something decoding never needs "
                           "(the file may be made to attack decoders)",
                           name);
        if (sig == SIGXCPU)
            return err_set("the image decoder ran out of CPU time on '%s' and was stopped; the file is too large "
                           "to decode here or made to stall decoders",
                           name);
        return err_set("the image decoder failed on '%s': the file is damaged or made to crash decoders "
                       "(the decoder stopped on signal %d, %s)",
                       name, sig, strsignal(sig));
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == SANDBOX_REFUSED)
        return err_set("cannot decode '%s': this system refused the image decoder its sandbox (a seccomp filter); "
                       "convis decodes files only inside one",
                       name);
    return err_set("the image decoder failed on '%s': the file is damaged or made to crash decoders (it ended with "
                   "status %d before sending the image)",
                   name, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

bool sbx_decode(const char *name, const unsigned char *data, size_t size, const img_limits *lim, img_image *out)
{
    return sbx_decode_with(img_decode, name, data, size, lim, out);
}

static bool decode_in_child(sbx_decoder decode, const char *name, const unsigned char *data, size_t size,
                            const img_limits *lim, bool color, img_image *out);

bool sbx_decode_with(sbx_decoder decode, const char *name, const unsigned char *data, size_t size,
                     const img_limits *lim, img_image *out)
{
    return decode_in_child(decode, name, data, size, lim, true, out);
}

bool sbx_decode_luma(const char *name, const unsigned char *data, size_t size, const img_limits *lim, img_image *out)
{
    return decode_in_child(img_decode, name, data, size, lim, false, out);
}

/* CONVIS_DECODE_IN_PROCESS=1: the decoder runs in this process, without its
 * sandbox, for a memory checker (valgrind: the child's filter stops the
 * checker's own calls) or a debugger. Never the default; the environment
 * is the user's own, and the first decode says so on stderr. */
static bool in_process(void)
{
    static bool said;
    const char *v = getenv("CONVIS_DECODE_IN_PROCESS");
    if (!v || strcmp(v, "1") != 0)
        return false;
    if (!said)
        fprintf(stderr, _("convis: CONVIS_DECODE_IN_PROCESS=1: images are decoded without their sandbox (for memory "
                          "checkers and debugging only)\n"));
    said = true;
    return true;
}

/* The decoder here, in this process (in_process). */
static bool decode_here(sbx_decoder decode, const char *name, const unsigned char *data, size_t size,
                        const img_limits *lim, bool color, img_image *out)
{
    if (!decode(name, data, size, lim, out))
        return false;
    if (!img_check_limits(name, out->luma.w, out->luma.h, lim)) {
        img_free(out);
        return false;
    }
    if (!color) {
        free(out->color.px);
        out->color = (img_rgba){0, 0, NULL};
    }
    return true;
}

/* The decoder's result comes back: the luma plane, and the colours when
 * `color` (what the window shows); without them, 4 bytes a pixel less. */
static bool decode_in_child(sbx_decoder decode, const char *name, const unsigned char *data, size_t size,
                            const img_limits *lim, bool color, img_image *out)
{
    double seconds = seconds_allowed(), deadline;
    unsigned long long pixels = (unsigned long long)lim->max_pixels;
    long long hw, hh;
    int fds[2], status = 0, got;
    bool ok = false, timed_out = false;
    reply r;
    pid_t pid, parent;
    size_t n;

    memset(out, 0, sizeof *out);
    /* the size the header states, read by our own small readers: refused
     * here when over the limits, and the child's memory sized from it */
    if (img_header_size(data, size, &hw, &hh)) {
        if (!img_check_limits(name, hw, hh, lim))
            return false;
        pixels = (unsigned long long)hw * (unsigned long long)hh;
    }
    if (in_process())
        return decode_here(decode, name, data, size, lim, color, out);
    if (pipe2(fds, O_CLOEXEC) != 0)
        return err_set("cannot start the image decoder for '%s': %s", name, strerror(errno));
    fflush(NULL); /* nothing buffered is written twice */
    /* the catalogue of the current language loaded here, so that the
     * child's sentences are translated from memory: under its seccomp
     * filter, opening the catalogue's file would end it */
    {
        const char *header = ""; /* (a variable: the catalogue's own header, no string to collect) */
        (void)gettext(header);
    }
    parent = getpid();
    pid = fork();
    if (pid < 0) {
        int e = errno;
        close(fds[0]);
        close(fds[1]);
        return err_set("cannot start the image decoder for '%s': %s", name, strerror(e));
    }
    if (pid == 0) {
        close(fds[0]);
        child(fds[1], parent, decode, name, data, size, lim, pixels, color);
    }
    close(fds[1]);
    deadline = now_s() + seconds;

    got = read_all(fds[0], &r, sizeof r, deadline);
    if (got == 1 && r.magic != HEADER_MAGIC) {
        got = 0;
    } else if (got == 1 && !r.ok) {
        r.msg[sizeof r.msg - 1] = '\0';
        err_set("%s", r.msg);
        got = 2; /* a sentence from the decoder: the file's fault, said as it was */
    } else if (got == 1 && !img_check_limits(name, r.w, r.h, lim)) {
        got = 2;
    } else if (got == 1 && (r.bits < 0 || r.bits > 32)) {
        got = 0; /* a depth no decoder gives: nothing more it sends is believed */
    } else if (got == 1) {
        out->bits = r.bits;
        if (!img_plane_alloc(&out->luma, r.w, r.h)) {
            got = 2;
        } else {
            n = (size_t)r.w * (size_t)r.h;
            if (color)
                out->color = (img_rgba){r.w, r.h, malloc(n * 4)};
            if (color && !out->color.px) {
                err_set("out of memory for a %dx%d image", r.w, r.h);
                got = 2;
            } else {
                got = read_all(fds[0], out->luma.px, n * sizeof(float), deadline);
                if (got == 1 && color)
                    got = read_all(fds[0], out->color.px, n * 4, deadline);
                ok = got == 1;
            }
        }
    }
    if (got == -1) {
        timed_out = true;
        kill(pid, SIGKILL);
    } else if (got != 1) {
        kill(pid, SIGKILL); /* it has nothing more to say that anyone will read */
    }
    /* the child ends at once after its last write, which closes the pipe (it
     * cannot close it otherwise: the filter allows no close); one that does
     * not (a decoder taken over, waiting) is killed at the deadline */
    if (got == 1) {
        unsigned char extra;
        int end = read_all(fds[0], &extra, 1, deadline);
        if (end != 0) { /* more than it owed, or no end in time */
            ok = false;
            timed_out = end == -1;
            got = end == -1 ? -1 : 0;
            kill(pid, SIGKILL);
        }
    }
    close(fds[0]);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (ok && WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return true;
    img_free(out);
    if (got == 2)
        return false;
    return child_failed(name, status, timed_out, seconds);
}
