/* Border rules against index tables written out by hand. */
#include "check.h"
#include "core/conv.h"

static const char *name[] = {"zero", "clamp", "mirror", "wrap"};

/* expected index for i = -2 .. n+1 (-1 means "reads zero") */
static void check_axis(int n, conv_border b, const int *want)
{
    for (int i = -2; i <= n + 1; ++i) {
        int got = conv_border_index(i, n, b);
        CHECK(got == want[i + 2], "n=%d border=%s i=%d: got %d, want %d", n, name[b], i, got, want[i + 2]);
    }
}

int main(void)
{
    /* n = 1: a single pixel a.  zero: 0 a 0; every other rule reads a. */
    check_axis(1, CONV_BORDER_ZERO, (int[]){-1, -1, 0, -1, -1});
    check_axis(1, CONV_BORDER_CLAMP, (int[]){0, 0, 0, 0, 0});
    check_axis(1, CONV_BORDER_MIRROR, (int[]){0, 0, 0, 0, 0});
    check_axis(1, CONV_BORDER_WRAP, (int[]){0, 0, 0, 0, 0});
    /* n = 2: a b.  clamp aa|ab|bb, mirror ab|ab|ab (reflect-101), wrap ab|ab|ab */
    check_axis(2, CONV_BORDER_ZERO, (int[]){-1, -1, 0, 1, -1, -1});
    check_axis(2, CONV_BORDER_CLAMP, (int[]){0, 0, 0, 1, 1, 1});
    check_axis(2, CONV_BORDER_MIRROR, (int[]){0, 1, 0, 1, 0, 1});
    check_axis(2, CONV_BORDER_WRAP, (int[]){0, 1, 0, 1, 0, 1});
    /* n = 3: a b c.  mirror cb|abc|ba, wrap bc|abc|ab */
    check_axis(3, CONV_BORDER_ZERO, (int[]){-1, -1, 0, 1, 2, -1, -1});
    check_axis(3, CONV_BORDER_CLAMP, (int[]){0, 0, 0, 1, 2, 2, 2});
    check_axis(3, CONV_BORDER_MIRROR, (int[]){2, 1, 0, 1, 2, 1, 0});
    check_axis(3, CONV_BORDER_WRAP, (int[]){1, 2, 0, 1, 2, 0, 1});
    /* n = 5: a b c d e.  mirror cb|abcde|dc, wrap de|abcde|ab */
    check_axis(5, CONV_BORDER_ZERO, (int[]){-1, -1, 0, 1, 2, 3, 4, -1, -1});
    check_axis(5, CONV_BORDER_CLAMP, (int[]){0, 0, 0, 1, 2, 3, 4, 4, 4});
    check_axis(5, CONV_BORDER_MIRROR, (int[]){2, 1, 0, 1, 2, 3, 4, 3, 2});
    check_axis(5, CONV_BORDER_WRAP, (int[]){3, 4, 0, 1, 2, 3, 4, 0, 1});

    /* names round-trip, and an unknown one is refused */
    for (int b = 0; b < CONV_BORDER_COUNT; ++b) {
        conv_border got;
        CHECK(conv_border_parse(conv_border_name((conv_border)b), &got) && got == (conv_border)b, "%s", name[b]);
    }
    {
        conv_border got;
        CHECK(!conv_border_parse("reflect", &got), "'reflect' must be refused");
    }
    return CHECK_SUMMARY();
}
