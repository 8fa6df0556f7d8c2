/* lab_log.c - a GLSL compiler's log read into messages at the learner's
 * lines (lab.h): the lab puts "#line 1" before the learner's file, so the
 * lines a compiler gives are theirs. No OpenGL here: the unit tests read
 * logs of the forms drivers write. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"

/* "0:12(5): error: msg" (Mesa), "0(12) : error C0000: msg" (NVIDIA),
 * "ERROR: 0:12: msg" (others): the line, the column (0 when none) and the
 * message; false for a line of none of those forms. */
static bool parse_line(const char *s, int *line, int *column, const char **text)
{
    char *end;
    long l, c = 0;
    if (!strncmp(s, "ERROR: ", 7) || !strncmp(s, "WARNING: ", 9))
        s = strchr(s, ' ') + 1;
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
