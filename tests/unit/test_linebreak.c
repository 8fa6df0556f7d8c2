/* Line breaking (src/core/linebreak.c) on hand-written cases: Latin text at
 * spaces, Chinese between characters with the kinsoku rules (no closing
 * mark starts a line, no opening mark ends one), numbers kept with their
 * units, and the last resort of a word longer than the line. Widths: one
 * unit a character, two for CJK, as a monospaced font would. And text cut
 * to fit (lb_copy) or quoted in a message (err_shown). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "core/err.h"
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

/* A text cut to fit a buffer (lb_copy) is cut between characters; a file's
 * text quoted in a message (err_shown) has its control characters escaped,
 * its printable text as it is. */
static void test_copy_and_shown(void)
{
    char buf[64];
    static const struct {
        const char *text, *want;
    } shown[] = {
        {"plain text", "plain text"},
        {"\x1b]0;owned\a\x1b[2JT", "\\x1b]0;owned\\x07\\x1b[2JT"}, /* a terminal's title and clear */
        {"caf\xC3\xA9 \xE4\xB8\xAD\xE6\x96\x87", "caf\xC3\xA9 \xE4\xB8\xAD\xE6\x96\x87"}, /* é, 中文: kept */
        {"a\xC2\x9B"
         "2J",
         "a\\u009b2J"}, /* the C1 CSI */
        {"tab\tline\nDEL\x7F", "tab\\x09line\\x0aDEL\\x7f"},
        {"bad \xE4\xB8 and \xC0\xAF", "bad \\xe4\\xb8 and \\xc0\\xaf"}, /* cut short, overlong */
    };
    for (size_t i = 0; i < sizeof shown / sizeof shown[0]; ++i) {
        err_shown(shown[i].text, strlen(shown[i].text), buf, sizeof buf);
        CHECK(!strcmp(buf, shown[i].want), "shown: got '%s', want '%s'", buf, shown[i].want);
    }
    /* too long for the buffer: cut at a whole character or escape, then "..." */
    err_shown("\x1b\x1b\x1b\x1b", 4, buf, 11);
    CHECK(!strcmp(buf, "\\x1b..."), "an escape is never cut: '%s'", buf);
    err_shown("\xE4\xB8\xAD\xE6\x96\x87\xE5\xAD\x97", 9, buf, 8);
    CHECK(!strcmp(buf, "\xE4\xB8\xAD..."), "a character is never cut: '%s'", buf);
    err_shown("a\0b", 3, buf, sizeof buf);
    CHECK(!strcmp(buf, "a\\x00b"), "a NUL shown: '%s'", buf);
    /* lb_copy: whole characters, as many as fit */
    lb_copy(buf, 6, "\xE4\xB8\xAD\xE6\x96\x87");
    CHECK(!strcmp(buf, "\xE4\xB8\xAD"), "two 3-byte characters in 5 bytes: the first: '%s'", buf);
    lb_copy(buf, 7, "\xE4\xB8\xAD\xE6\x96\x87");
    CHECK(!strcmp(buf, "\xE4\xB8\xAD\xE6\x96\x87"), "both in 6 bytes: '%s'", buf);
    lb_copy(buf, 4, "ab\xC3\xA9");
    CHECK(!strcmp(buf, "ab"), "a cut before the 2-byte character: '%s'", buf);
    lb_copy(buf, 4, "abc\xC3\xA9");
    CHECK(!strcmp(buf, "abc"), "a cut at a boundary: '%s'", buf);
    lb_copy(buf, sizeof buf, "short");
    CHECK(!strcmp(buf, "short"), "what fits is copied: '%s'", buf);
}

#define WRAPS(text, w, want)                                                                                           \
    do {                                                                                                               \
        char got[512];                                                                                                 \
        wrap(text, w, got, sizeof got);                                                                                \
        CHECK(strcmp(got, want) == 0, "'%s' at %d: got '%s', want '%s'", text, (int)(w), got, want);                   \
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
    WRAPS("a\xE4\xB8"
          "b c",
          3,
          "a\xE4\xB8"
          "b|c");
    test_copy_and_shown();
    return CHECK_SUMMARY();
}
