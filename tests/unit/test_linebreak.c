/* Line breaking (src/core/linebreak.c) on hand-written cases: Latin text at
 * spaces, Chinese between characters with the kinsoku rules (no closing
 * mark starts a line, no opening mark ends one), numbers kept with their
 * units, and the last resort of a word longer than the line. Widths: one
 * unit a character, two for CJK, as a monospaced font would. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "core/linebreak.h"

static float width(void *ctx, const char *s, const char *end)
{
    float w = 0;
    (void)ctx;
    while (s < end && *s) {
        uint32_t cp = lb_utf8_next(&s);
        w += lb_is_cjk(cp) ? 2.0f : 1.0f;
    }
    return w;
}

/* Wraps text at max_w and joins the lines with '|'. */
static void wrap(const char *text, float max_w, char *out, size_t size)
{
    const char *line = text;
    size_t n = 0;
    out[0] = '\0';
    while (*line && n < size) {
        const char *next, *end = lb_line(line, max_w, width, NULL, &next);
        n += (size_t)snprintf(out + n, size - n, "%s%.*s", n ? "|" : "", (int)(end - line), line);
        if (next <= line) {
            CHECK(next > line, "no progress in '%s'", text);
            return;
        }
        line = next;
    }
}

#define WRAPS(text, w, want)                                                                       \
    do {                                                                                           \
        char got[512];                                                                             \
        wrap(text, w, got, sizeof got);                                                            \
        CHECK(strcmp(got, want) == 0, "'%s' at %d: got '%s', want '%s'", text, (int)(w), got, want); \
    } while (0)

int main(void)
{
    /* Latin: at spaces, the spaces dropped */
    WRAPS("the quick brown fox", 10, "the quick|brown fox");
    WRAPS("the quick brown fox", 100, "the quick brown fox");
    WRAPS("a\nb c", 10, "a|b c");
    /* a word longer than the line: cut, one character at least a line */
    WRAPS("abcdefghij", 4, "abcd|efgh|ij");
    WRAPS("abc", 0, "a|b|c");
    /* a number keeps its unit */
    WRAPS("it took 4.4 ms here", 11, "it took|4.4 ms here");
    WRAPS("needs 1.5 MiB now", 9, "needs|1.5 MiB|now");
    WRAPS("was 138.4 \xC3\x97 slower", 9, "was|138.4 \xC3\x97|slower");
    /* Chinese: between characters (2 units each) */
    WRAPS("一二三四五六", 6, "一二三|四五六");
    /* no closing mark at the start of a line: the character before it goes along */
    WRAPS("一二三。四五", 6, "一二|三。四|五");
    WRAPS("一二三，四五", 6, "一二|三，四|五");
    WRAPS("一二三）四", 6, "一二|三）四");
    /* no opening mark at the end of a line */
    WRAPS("一二（三四", 6, "一二|（三四");
    WRAPS("一二「三四", 6, "一二|「三四");
    /* a number with its measure word, in Chinese */
    WRAPS("用了 2 个线程", 8, "用了|2 个线程");
    /* Latin inside Chinese: the word stays whole */
    WRAPS("这是 cpu-par 的", 10, "这是|cpu-par 的");
    /* UTF-8 broken in the middle never hangs */
    WRAPS("a\xE4\xB8" "b c", 3, "a\xE4\xB8" "b|c");
    return CHECK_SUMMARY();
}
