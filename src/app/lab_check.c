/* lab_check.c - a kernel lab check in a child process (lab_check.h). */
#define _POSIX_C_SOURCE 200809L
#include "lab_check.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/err.h"

static char program[4096]; /* convis, as the child of a check */

void lab_set_program(const char *path)
{
    snprintf(program, sizeof program, "%s", path ? path : "");
}

bool lab_job_possible(void)
{
    return program[0] != '\0';
}

static const char *const files[] = {"result.txt", "wrong.bin", "child.log", "input.pfm", NULL};

/* The folder of the check under way, for a signal handler (one at a time:
 * convis runs one check at once). */
static char live_dir[64];

bool lab_job_dir(lab_job *j)
{
    memset(j, 0, sizeof *j);
    j->status = LAB_RUNNING;
    snprintf(j->dir, sizeof j->dir, "/tmp/convis-lab.XXXXXX");
    if (!mkdtemp(j->dir)) {
        j->dir[0] = '\0';
        return err_set_kind(ERR_ENV, "cannot make a folder for the lab's check: %s", strerror(errno));
    }
    return true;
}

bool lab_job_run(lab_job *j, const char *file, const char *image, const char *kernel, double limit_s, double now_ms)
{
    char log[128], input[128];
    if (!program[0])
        return err_set("the kernel lab's checks run in convis itself, not here");
    snprintf(log, sizeof log, "%s/child.log", j->dir);
    snprintf(input, sizeof input, "%s/input.pfm", j->dir);
    fflush(stdout);
    j->pid = fork();
    if (j->pid == 0) { /* the child: its output into the folder, then convis again, as a check of its own */
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600); /* no stdio between fork and exec */
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* it ends with its parent, however the parent ends */
        if (getppid() == 1)
            _exit(3);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execl(program, "convis", "lab", "--child", j->dir, file, image ? image : input, kernel ? "-k" : NULL,
              kernel, (char *)NULL);
        _exit(3);
    }
    if (j->pid < 0) {
        j->pid = 0;
        return err_set_kind(ERR_ENV, "cannot start the lab's check: %s", strerror(errno));
    }
    j->started = now_ms;
    j->limit_ms = limit_s * 1000.0;
    memcpy(live_dir, j->dir, sizeof live_dir);
    j->status = LAB_RUNNING;
    return true;
}

int lab_job_poll(lab_job *j, double now_ms)
{
    int status;
    pid_t done;
    if (!j->pid || j->status != LAB_RUNNING)
        return j->status;
    done = waitpid(j->pid, &status, WNOHANG);
    if (done == 0 && now_ms - j->started <= j->limit_ms)
        return LAB_RUNNING;
    if (done == 0) { /* past its limit: a loop that never ends, most likely */
        kill(j->pid, SIGKILL);
        waitpid(j->pid, &status, 0);
        j->status = LAB_TIMED_OUT;
    } else if (done < 0) {
        j->status = errno == EINTR ? LAB_RUNNING : 3;
        return j->status;
    } else {
        j->status = WIFEXITED(status) ? WEXITSTATUS(status) : LAB_SIGNALLED - (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    }
    j->pid = 0;
    return j->status;
}

/* One line of result.txt into r. */
static void take_line(char *line, lab_report *r)
{
    int l, c, n = 0, k;
    line[strcspn(line, "\n")] = '\0';
    if (sscanf(line, "compiled %d", &k) == 1) {
        r->compiled = k;
    } else if (sscanf(line, "ran %d", &k) == 1) {
        r->ran = k;
    } else if (sscanf(line, "failed %d", &k) == 1) {
        r->failed = k;
    } else if (!strncmp(line, "note ", 5)) {
        snprintf(r->note, sizeof r->note, "%s", line + 5);
    } else if (!strncmp(line, "at ", 3) && r->errors > 0) {
        snprintf(r->error_source[r->errors - 1], sizeof r->error_source[0], "%s", line + 3);
    } else if (!strncmp(line, "renderer ", 9)) {
        snprintf(r->renderer, sizeof r->renderer, "%s", line + 9);
    } else if (sscanf(line, "error %d %d %n", &l, &c, &n) == 2 && n && r->errors < LAB_REPORT_ERRORS) {
        r->error_line[r->errors] = l;
        r->error_column[r->errors] = c;
        snprintf(r->error_text[r->errors++], sizeof r->error_text[0], "%s", line + n);
    } else {
        (void)(sscanf(line, "group %d %d", &r->group_w, &r->group_h) ||
               sscanf(line, "groups %ld %ld", &r->groups_x, &r->groups_y) || sscanf(line, "size %d %d", &r->w, &r->h) ||
               sscanf(line, "outputs %lld", &r->outputs) || sscanf(line, "wrong %lld", &r->wrong) ||
               sscanf(line, "reads %lld %lld", &r->reads_max, &r->reads_interior) || sscanf(line, "ms %lf", &r->ms) ||
               sscanf(line, "own %lf %lf", &r->tiled_ms, &r->naive_ms));
    }
}

bool lab_job_report(const lab_job *j, lab_report *r, unsigned char **wrong, char *log, size_t size)
{
    char path[128], line[512];
    FILE *f;
    memset(r, 0, sizeof *r);
    if (wrong)
        *wrong = NULL;
    snprintf(path, sizeof path, "%s/result.txt", j->dir);
    if (!(f = fopen(path, "r"))) {
        snprintf(path, sizeof path, "%s/child.log", j->dir);
        log[0] = '\0';
        if (size && (f = fopen(path, "r"))) {
            log[fread(log, 1, size - 1, f)] = '\0';
            fclose(f);
        }
        return false;
    }
    while (fgets(line, sizeof line, f))
        take_line(line, r);
    fclose(f);
    snprintf(path, sizeof path, "%s/wrong.bin", j->dir);
    if (wrong && r->outputs > 0 && r->outputs == (long long)r->w * r->h && (f = fopen(path, "rb"))) {
        *wrong = malloc((size_t)r->outputs);
        if (*wrong && fread(*wrong, 1, (size_t)r->outputs, f) != (size_t)r->outputs) {
            free(*wrong);
            *wrong = NULL;
        }
        fclose(f);
    }
    return true;
}

void lab_remove_on_signal(void)
{
    char path[128];
    if (!live_dir[0])
        return;
    for (int i = 0; files[i]; ++i) { /* the path by hand: snprintf is not async-signal-safe */
        size_t n = strlen(live_dir), k = strlen(files[i]);
        if (n + 1 + k >= sizeof path)
            continue;
        memcpy(path, live_dir, n);
        path[n] = '/';
        memcpy(path + n + 1, files[i], k + 1);
        unlink(path);
    }
    rmdir(live_dir);
}

void lab_job_end(lab_job *j)
{
    char path[128];
    if (!strcmp(live_dir, j->dir))
        live_dir[0] = '\0';
    if (j->pid) {
        kill(j->pid, SIGKILL);
        waitpid(j->pid, NULL, 0);
        j->pid = 0;
    }
    if (!j->dir[0])
        return;
    for (const char *const *f = files; *f; ++f) {
        snprintf(path, sizeof path, "%s/%s", j->dir, *f);
        unlink(path);
    }
    rmdir(j->dir);
    j->dir[0] = '\0';
}
