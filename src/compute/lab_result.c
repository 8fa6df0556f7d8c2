/* lab_result.c - what both labs (GLSL, gl_lab.c; CUDA, cuda_lab.c) make of
 * a run, with no GPU API here, so that unit tests reach it: a compiler's log
 * read into messages at the learner's lines (the lab puts "#line 1" before
 * the learner's file, so the lines a compiler gives are theirs), and the
 * outputs compared with the reference, the reads per work group summed up. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/conv.h"
#include "lab.h"

/* "0:12(5): error: msg" (Mesa), "0(12) : error C0000: msg" (NVIDIA's GLSL),
 * "ERROR: 0:12: msg" (others), "kernel.cu(12): error: msg" (NVRTC): the
 * line, the column (0 when none) and the message; false for a line of none
 * of those forms. */
static bool parse_line(const char *s, int *line, int *column, const char **text)
{
    char *end;
    long l, c = 0;
    const char *paren = strchr(s, '(');
    if (!strncmp(s, "ERROR: ", 7) || !strncmp(s, "WARNING: ", 9))
        s = strchr(s, ' ') + 1;
    if (!isdigit((unsigned char)*s) && paren && paren > s && !memchr(s, ' ', (size_t)(paren - s)) &&
        isdigit((unsigned char)paren[1])) { /* NVRTC: a file's name, then (LINE): */
        l = strtol(paren + 1, &end, 10);
        if (*end != ')' || l < 1 || l > 1000000)
            return false;
        for (++end; *end == ' ' || *end == ':'; ++end)
            ;
        *line = (int)l;
        *column = 0;
        *text = end;
        return true;
    }
    if (!isdigit((unsigned char)*s))
        return false;
    strtol(s, &end, 10); /* the source string's number */
    if (*end == ':') {   /* Mesa, and others: 0:LINE(COL): or 0:LINE: */
        l = strtol(end + 1, &end, 10);
        if (*end == '(')
            c = strtol(end + 1, &end, 10), end += *end == ')';
    } else if (*end == '(') { /* NVIDIA: 0(LINE) : */
        l = strtol(end + 1, &end, 10);
        end += *end == ')';
    } else {
        return false;
    }
    while (*end == ' ' || *end == ':')
        ++end;
    if (l < 1 || l > 1000000)
        return false;
    *line = (int)l;
    *column = (int)c;
    *text = end;
    return true;
}

void lab_parse_log(const char *log, lab_result *r)
{
    const char *p = log;
    while (*p && r->error_count < LAB_MAX_ERRORS) {
        size_t n = strcspn(p, "\n");
        char one[512];
        const char *text;
        int line, column;
        snprintf(one, sizeof one, "%.*s", (int)(n < sizeof one ? n : sizeof one - 1), p);
        if (parse_line(one, &line, &column, &text) && *text) {
            lab_message *m = &r->errors[r->error_count++];
            m->line = line;
            m->column = column;
            snprintf(m->text, sizeof m->text, "%s", text);
        }
        p += n;
        p += *p == '\n';
    }
}

/* The outputs against the reference, bit for bit, and the reads. */
void lab_check_outputs(const img_plane *in, const conv_params *p, const img_plane *out, const unsigned *reads,
                       lab_result *r)
{
    img_plane ref = {0};
    long long n = (long long)in->w * in->h;
    r->outputs = n;
    r->wrong_map = calloc((size_t)n, 1);
    if (img_plane_alloc(&ref, in->w, in->h)) {
        conv_reference(in, p, &ref);
        for (long long i = 0; i < n; ++i)
            if (!conv_same(ref.px[i], out->px[i])) {
                ++r->wrong;
                if (r->wrong_map)
                    r->wrong_map[i] = 1;
            }
        img_plane_free(&ref);
    }
    for (long gy = 0; gy < r->groups_y; ++gy)
        for (long gx = 0; gx < r->groups_x; ++gx) {
            long long k = reads[gy * r->groups_x + gx];
            r->reads_max = k > r->reads_max ? k : r->reads_max;
        }
    r->reads_interior = reads[(r->groups_y / 2) * r->groups_x + r->groups_x / 2];
}

void lab_result_free(lab_result *r)
{
    free(r->wrong_map);
    r->wrong_map = NULL;
}
