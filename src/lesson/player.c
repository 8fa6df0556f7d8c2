#include "player.h"

#include "core/linebreak.h"

#include <stdio.h>
#include <string.h>

static void enter(lsn_player *p, int i)
{
    p->step = i;
    p->waiting = p->lesson.steps[i].wait != NULL;
    p->asked = p->lesson.steps[i].ask.kind ? LSN_OPEN : LSN_NONE;
    p->tries = 0;
}

void lsn_player_start(lsn_player *p, lsn_lesson *lesson)
{
    lsn_player_stop(p);
    p->lesson = *lesson;
    memset(lesson, 0, sizeof *lesson);
    p->active = p->lesson.step_count > 0;
    if (p->active)
        enter(p, 0);
    else
        lsn_free(&p->lesson);
}

void lsn_player_stop(lsn_player *p)
{
    if (p->active)
        lsn_free(&p->lesson);
    memset(p, 0, sizeof *p);
}

bool lsn_player_next(lsn_player *p)
{
    if (!p->active || p->waiting || lsn_player_asking(p) || p->step + 1 >= p->lesson.step_count)
        return false;
    enter(p, p->step + 1);
    return true;
}

bool lsn_player_prev(lsn_player *p)
{
    if (!p->active || p->step == 0)
        return false;
    enter(p, p->step - 1);
    return true;
}

bool lsn_player_restart(lsn_player *p)
{
    if (!p->active)
        return false;
    enter(p, 0);
    return true;
}

bool lsn_player_saw(lsn_player *p, const char *action)
{
    if (!p->active || !p->waiting || strcmp(p->lesson.steps[p->step].wait, action) != 0)
        return false;
    p->waiting = false;
    return true;
}

lsn_answer lsn_player_answer(lsn_player *p, bool right)
{
    if (!p->active || !lsn_player_asking(p))
        return LSN_NONE;
    ++p->tries;
    p->asked = right ? LSN_RIGHT : p->asked == LSN_OPEN ? LSN_HINTED : LSN_SHOWN;
    return p->asked;
}

void lsn_player_let_go(lsn_player *p)
{
    if (lsn_player_asking(p))
        p->asked = LSN_SHOWN;
}

bool lsn_player_asking(const lsn_player *p)
{
    return p->active && (p->asked == LSN_OPEN || p->asked == LSN_HINTED);
}

const lsn_step *lsn_player_current(const lsn_player *p)
{
    return p->active ? &p->lesson.steps[p->step] : NULL;
}

bool lsn_player_at_end(const lsn_player *p)
{
    return !p->active || p->step + 1 >= p->lesson.step_count;
}

void lsn_player_narration(const lsn_player *p, lsn_variant on, lsn_lookup lookup, const void *user, char *buf,
                          size_t size)
{
    const lsn_step *st = lsn_player_current(p);
    if (size == 0)
        return;
    buf[0] = '\0';
    if (st)
        lsn_fill(on >= 0 && on < LSN_VARIANTS && st->say_on[on] ? st->say_on[on] : st->say, lookup, user, buf, size);
}

void lsn_fill(const char *say, lsn_lookup lookup, const void *user, char *buf, size_t size)
{
    size_t out = 0;
    if (size == 0)
        return;
    buf[0] = '\0';
    if (!say)
        return;
    while (*say && out + 1 < size) {
        const char *close = say[0] == '{' ? strchr(say, '}') : NULL;
        if ((say[0] == '{' && say[1] == '{') || (say[0] == '}' && say[1] == '}')) {
            buf[out++] = say[0];
            say += 2;
        } else if (close) {
            char name[64], value[1024]; /* a placeholder's words: a sentence or two */
            size_t n = (size_t)(close - say - 1);
            if (n >= sizeof name)
                n = sizeof name - 1;
            memcpy(name, say + 1, n);
            name[n] = '\0';
            if (!lookup || !lookup(user, name, value, sizeof value))
                snprintf(value, sizeof value, "?");
            out += (size_t)snprintf(buf + out, size - out, "%s", value);
            if (out >= size)
                out = size - 1;
            say = close + 1;
        } else if (say[0] == '\n' && say[1] && say[1] != '\n' && out > 0 && buf[out - 1] != '\n') {
            /* a line break inside a paragraph joins the lines, the panel
             * wraps them at its own width: with a space, or with nothing
             * between two characters of a script written without spaces */
            size_t last = out - 1;
            const char *before, *after = say + 1;
            while (last > 0 && ((unsigned char)buf[last] & 0xC0) == 0x80)
                --last; /* the start of the last character */
            before = buf + last;
            if (!(lb_is_cjk(lb_utf8_next(&before)) && lb_is_cjk(lb_utf8_next(&after))))
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
