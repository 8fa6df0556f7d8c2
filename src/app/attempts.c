/* attempts.c - the attempts file: every answer a learner gives to a
 * lesson's question, one JSON record a line, in a file they can hand in
 * (README.md, "Questions and the attempts file"). convis writes it whole,
 * through a new file moved over the old (img_write_file), and touches no file it did not write:
 *
 *   {"convis_attempts": 1, "attempts": [
 *   {"lesson": "01-one-at-a-time", "lang": "en", "step": 7, ...},
 *   ...
 *   ]}
 */
#define _POSIX_C_SOURCE 200809L
#include "quiz.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/err.h"
#include "i18n.h"
#include "data.h"
#include "record.h"
#include "core/image.h"

#define HEAD "{\"convis_attempts\": 1, \"attempts\": [\n"
#define TAIL "]}\n"
#define MOST_BYTES (16L * 1024 * 1024) /* an attempts file: 16 MiB (some 40,000 answers) */

void app_attempts_default(char *buf, size_t size)
{
    if (!app_user_file("attempts.json", false, buf, size))
        buf[0] = '\0';
}

/* The record as one line of JSON. */
static char *record_line(const app_attempt *r, size_t *n)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, n);
    if (!f)
        return NULL;
    fputs("{\"lesson\": ", f);
    rec_json_string(f, r->lesson);
    fputs(", \"lang\": ", f);
    rec_json_string(f, r->lang);
    fprintf(f, ", \"step\": %d, \"kind\": ", r->step);
    rec_json_string(f, r->kind);
    fputs(", \"fact\": ", f);
    rec_json_string(f, r->fact);
    fputs(", \"answer\": ", f);
    rec_json_string(f, r->answer);
    fputs(", \"expected\": ", f);
    rec_json_string(f, r->expected);
    fprintf(f, ", \"correct\": %s, \"try\": %d, \"seconds\": %.1f, \"time\": ", r->correct ? "true" : "false",
            r->try_no, r->seconds);
    rec_json_string(f, r->time);
    fputs(", \"machine\": ", f);
    rec_json_string(f, r->machine);
    fputs("}", f);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* The file's records so far (between HEAD and TAIL), read: *body NULL
 * and *n 0 when there is no file yet. False when it is no attempts file. */
static bool read_old(const char *path, char **body, size_t *n)
{
    struct stat st;
    FILE *f;
    char *text;
    size_t got, hl = strlen(HEAD), tl = strlen(TAIL);
    *body = NULL;
    *n = 0;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? true : err_set("%s: cannot read the attempts: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return err_set("%s: is not a regular file; give a file for the attempts (a new one is made)", path);
    if (st.st_size > MOST_BYTES)
        return err_set("%s: the attempts file is over 16 MiB; hand it in and start another with --attempts", path);
    if (!(f = fopen(path, "rb")))
        return err_set("%s: cannot read the attempts: %s", path, strerror(errno));
    text = malloc((size_t)st.st_size + 1);
    got = text ? fread(text, 1, (size_t)st.st_size, f) : 0;
    fclose(f);
    if (!text)
        return err_set_kind(ERR_ENV, "%s: out of memory while reading the attempts", path);
    if (got != (size_t)st.st_size || got < hl + tl || memcmp(text, HEAD, hl) || memcmp(text + got - tl, TAIL, tl) ||
        (got > hl + tl && text[got - tl - 1] != '\n')) {
        free(text);
        return err_set("%s: is not an attempts file convis wrote, so convis leaves it as it is; give another file "
                       "with --attempts",
                       path);
    }
    memmove(text, text + hl, got - hl - tl);
    *n = got - hl - tl;
    *body = text;
    return true;
}

/* What the file becomes: its records so far and the new one. */
typedef struct attempts_text {
    const char *body, *line;
    size_t n, len;
} attempts_text;

static bool write_text(FILE *f, const void *ctx)
{
    const attempts_text *t = ctx;
    fputs(HEAD, f);
    if (t->n) {
        fwrite(t->body, 1, t->n - 1, f); /* the records so far, less the last line break */
        fputs(",\n", f);
    }
    fwrite(t->line, 1, t->len, f);
    fputs("\n" TAIL, f);
    return !ferror(f) || err_set_kind(ERR_ENV, "cannot write the attempts: %s", strerror(errno));
}

/* The folders above path, made where missing. */
static bool make_parents(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *p = dir + 1; *p; ++p) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, 0755) != 0 && errno != EEXIST)
            return err_set_kind(ERR_ENV, "%s: cannot make the folder for the attempts: %s", dir, strerror(errno));
        *p = '/';
    }
    return true;
}

bool app_attempts_add(const char *path, const app_attempt *r)
{
    attempts_text t = {NULL, NULL, 0, 0};
    char *body, *line;
    bool ok;
    if (!read_old(path, &body, &t.n))
        return false;
    line = record_line(r, &t.len);
    t.body = body, t.line = line;
    ok = line ? make_parents(path) && img_write_file(path, write_text, &t, false)
              : err_set_kind(ERR_ENV, "%s: out of memory for the attempts", path);
    free(body);
    free(line);
    return ok;
}
