/* test_lesson.c - the lesson parser (src/lesson/lesson.c): a valid lesson
 * with every field and position, then every kind of mistake with its
 * file:line:column and sentence, lsn_load's refusals, and damaged input that
 * must never crash. argv[1] is tests/unit/lessons. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "core/err.h"
#include "lesson/lesson.h"
#include "lesson/player.h"

static const char *dir = "tests/unit/lessons";

static bool lesson_empty(const lsn_lesson *l)
{
    return !l->title && !l->image && !l->steps && !l->step_count && !l->image_line && !l->image_column;
}

/* Parses text named "t.yaml" and expects a failure whose message starts with
 * `where` ("t.yaml:3:5: ") and contains `part`. */
#define FAILS(text, where, part) fails_at(__LINE__, "t.yaml", text, strlen(text), where, part)

static void fails_at(int line, const char *name, const char *text, size_t size, const char *where, const char *part)
{
    lsn_lesson l;
    bool ok;
    err_clear();
    memset(&l, 0x55, sizeof l); /* junk: lsn_parse must empty it */
    ok = lsn_parse(name, text, size, &l);
    CHECK(!ok, "line %d: parsed, expected '%s%s'", line, where, part);
    if (ok) {
        lsn_free(&l);
        return;
    }
    CHECK(lesson_empty(&l), "line %d: the lesson is not left empty after a failure", line);
    CHECK(strncmp(err_msg(), where, strlen(where)) == 0, "line %d: message '%s', expected it to start '%s'", line,
          err_msg(), where);
    CHECK(strstr(err_msg(), part) != NULL, "line %d: message '%s', expected it to contain '%s'", line, err_msg(), part);
    CHECK(strchr(err_msg(), '\n') == NULL, "line %d: message '%s' is more than one line", line, err_msg());
    for (const char *c = err_msg(); *c; ++c)
        if ((unsigned char)*c < 0x20 || *c == 0x7F) {
            CHECK(false, "line %d: message '%s' holds a control character (0x%02x)", line, err_msg(), *c);
            break;
        }
}

static void file_fails(int line, const char *file, const char *where_after_name, const char *part)
{
    char path[1024], where[1100];
    lsn_lesson l;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    snprintf(where, sizeof where, "%s%s", path, where_after_name);
    CHECK(!lsn_load(path, &l), "line %d: %s loaded", line, path);
    CHECK(lesson_empty(&l), "line %d: the lesson is not left empty", line);
    CHECK(strncmp(err_msg(), where, strlen(where)) == 0, "line %d: message '%s', expected it to start '%s'", line,
          err_msg(), where);
    CHECK(strstr(err_msg(), part) != NULL, "line %d: message '%s', expected '%s'", line, err_msg(), part);
}

#define ACTION(st, k, t, l, c)                                                                                         \
    CHECK((st)->action_count > (k) && !strcmp((st)->actions[k].text, t) && (st)->actions[k].line == (l) &&             \
              (st)->actions[k].column == (c),                                                                          \
          "action %d: '%s' at %d:%d, expected '%s' at %d:%d", k,                                                       \
          (st)->action_count > (k) ? (st)->actions[k].text : "(none)",                                                 \
          (st)->action_count > (k) ? (st)->actions[k].line : 0,                                                        \
          (st)->action_count > (k) ? (st)->actions[k].column : 0, t, l, c)

static void check_valid(const lsn_lesson *l)
{
    const lsn_step *s;
    CHECK(l->title && !strcmp(l->title, "One at a time"), "title '%s'", l->title ? l->title : "(null)");
    CHECK(l->image && !strcmp(l->image, "sample.png"), "image");
    CHECK(l->image_line == 3 && l->image_column == 8, "image at %d:%d", l->image_line, l->image_column);
    CHECK(l->step_count == 3, "%d steps", l->step_count);
    if (l->step_count != 3)
        return;

    s = &l->steps[0];
    CHECK(s->line == 5, "step 1 at line %d", s->line);
    CHECK(!strcmp(s->say, "A 3\xC3\x97"
                          "3 convolution computes each output from the nine inputs around it.\n"
                          "On this machine the CPU took {cpu_seq_ms} ms; {{braces}} stay braces.\n"),
          "say 1 '%s'", s->say);
    CHECK(s->say_line == 5 && s->say_column == 10, "say 1 at %d:%d", s->say_line, s->say_column);
    CHECK(s->action_count == 3, "step 1: %d actions", s->action_count);
    ACTION(s, 0, "filter-6", 8, 10);
    ACTION(s, 1, "restart", 8, 20);
    ACTION(s, 2, "slower*2", 8, 29);
    CHECK(s->wait && !strcmp(s->wait, "step") && s->wait_line == 9 && s->wait_column == 11, "wait 1 %s at %d:%d",
          s->wait ? s->wait : "(null)", s->wait_line, s->wait_column);

    s = &l->steps[1];
    CHECK(s->line == 10, "step 2 at line %d", s->line);
    CHECK(!strcmp(s->say, "The GPU ({gpu_engine}) took {gpu_ms} ms."), "say 2 '%s'", s->say);
    CHECK(s->say_line == 10 && s->say_column == 10, "say 2 at %d:%d", s->say_line, s->say_column);
    CHECK(s->action_count == 3, "step 2: %d actions", s->action_count);
    ACTION(s, 0, "gpu", 11, 10);
    ACTION(s, 1, "threads", 11, 15);
    ACTION(s, 2, "step*3", 11, 24);
    CHECK(!s->wait && !s->wait_line && !s->wait_column, "step 2 has no wait");

    s = &l->steps[2];
    CHECK(s->line == 12 && s->say_line == 12 && s->say_column == 10, "step 3 at %d, say at %d:%d", s->line, s->say_line,
          s->say_column);
    CHECK(!strcmp(s->say, "Plain narration, {ratio_gpu_par} times"), "say 3 '%s'", s->say);
    CHECK(s->action_count == 2, "step 3: %d actions", s->action_count);
    ACTION(s, 0, "finish", 14, 9);
    ACTION(s, 1, "gpu", 15, 9);
    CHECK(!s->wait, "step 3 has no wait");
}

static void test_valid(void)
{
    char path[1024];
    lsn_lesson l;
    FILE *f;
    char *text;
    size_t n;

    snprintf(path, sizeof path, "%s/valid.yaml", dir);
    CHECK(lsn_load(path, &l), "%s: %s", path, err_msg());
    check_valid(&l);
    lsn_free(&l);
    CHECK(lesson_empty(&l), "lsn_free empties the lesson");
    lsn_free(&l); /* twice is fine */
    lsn_free(NULL);

    /* The same text through lsn_parse, not NUL-terminated, and after a UTF-8
     * byte order mark (positions unchanged). */
    f = fopen(path, "rb");
    CHECK(f != NULL, "open %s", path);
    if (!f)
        return;
    text = malloc(4096 + 3);
    memcpy(text, "\xEF\xBB\xBF", 3);
    n = fread(text + 3, 1, 4096, f);
    fclose(f);
    text[3 + n] = 'x'; /* not part of the size */
    CHECK(lsn_parse("v.yaml", text + 3, n, &l), "%s", err_msg());
    check_valid(&l);
    lsn_free(&l);
    CHECK(lsn_parse("v.yaml", text, n + 3, &l), "with a BOM: %s", err_msg());
    check_valid(&l);
    lsn_free(&l);
    free(text);

    /* A minimal lesson: no image, no do, no wait; CRLF line ends. */
    {
        const char *t = "title: T\r\nsteps:\r\n  - say: Hello {outputs}\r\n";
        CHECK(lsn_parse("m.yaml", t, strlen(t), &l), "%s", err_msg());
        CHECK(l.step_count == 1 && !l.image && !l.image_line && !l.steps[0].actions && !l.steps[0].action_count &&
                  !l.steps[0].wait && l.steps[0].say_line == 3 && l.steps[0].say_column == 10 &&
                  !strcmp(l.steps[0].say, "Hello {outputs}"),
              "minimal lesson");
        lsn_free(&l);
    }
    /* Numbers and quoted text are text for say and title. */
    {
        const char *t = "title: 1984\nsteps:\n  - say: 42\n  - say: '{{'\n";
        CHECK(lsn_parse("m.yaml", t, strlen(t), &l), "%s", err_msg());
        CHECK(l.title && !strcmp(l.title, "1984") && l.step_count == 2 && !strcmp(l.steps[0].say, "42"), "numbers");
        lsn_free(&l);
    }
    /* Every placeholder is accepted. */
    {
        char t[2048];
        int k = snprintf(t, sizeof t, "title: All\nsteps:\n  - say: \"");
        for (int i = 0; lsn_placeholders[i]; ++i)
            k += snprintf(t + k, sizeof t - (size_t)k, "{%s} ", lsn_placeholders[i]);
        snprintf(t + k, sizeof t - (size_t)k, "\"\n");
        CHECK(lsn_parse("m.yaml", t, strlen(t), &l), "%s", err_msg());
        lsn_free(&l);
        CHECK(lsn_placeholders[12] && !strcmp(lsn_placeholders[12], "cpu_threads") && lsn_placeholders[14] &&
                  !strcmp(lsn_placeholders[14], "gpu_copy_ms") && lsn_placeholders[15] &&
                  !strcmp(lsn_placeholders[15], "crossover") && lsn_placeholders[19] &&
                  !strcmp(lsn_placeholders[19], "chain_length") && lsn_placeholders[22] &&
                  !strcmp(lsn_placeholders[22], "largest_image") && lsn_placeholders[25] &&
                  !strcmp(lsn_placeholders[25], "ratio_par_simd") && lsn_placeholders[28] &&
                  !strcmp(lsn_placeholders[28], "tile_ms") && lsn_placeholders[29] &&
                  !strcmp(lsn_placeholders[29], "warp_size") && lsn_placeholders[30] &&
                  !strcmp(lsn_placeholders[30], "record") && lsn_placeholders[31] &&
                  !strcmp(lsn_placeholders[31], "gpu_label") && lsn_placeholders[32] &&
                  !strcmp(lsn_placeholders[32], "cpu_cores") && lsn_placeholders[33] &&
                  !strcmp(lsn_placeholders[33], "cpu_cores_note") && lsn_placeholders[34] &&
                  !strcmp(lsn_placeholders[34], "par_band_outputs") && lsn_placeholders[35] &&
                  !strcmp(lsn_placeholders[35], "tiles_vs_whole") && lsn_placeholders[36] &&
                  !strcmp(lsn_placeholders[36], "race_wrong") && lsn_placeholders[37] &&
                  !strcmp(lsn_placeholders[37], "chain_cpu_independent_ms") && lsn_placeholders[38] &&
                  !strcmp(lsn_placeholders[38], "chain_gpu_independent_ms") && lsn_placeholders[39] &&
                  !strcmp(lsn_placeholders[39], "chain_cpu_wait_ratio") && lsn_placeholders[40] &&
                  !strcmp(lsn_placeholders[40], "chain_gpu_wait_ratio") && lsn_placeholders[41] &&
                  !strcmp(lsn_placeholders[41], "gpu_bound") && lsn_placeholders[42] &&
                  !strcmp(lsn_placeholders[42], "sweep_bound") && lsn_placeholders[43] &&
                  !strcmp(lsn_placeholders[43], "cpu_threads_why") && lsn_placeholders[44] &&
                  !strcmp(lsn_placeholders[44], "sweep_gpu_vs_seq") && lsn_placeholders[45] &&
                  !strcmp(lsn_placeholders[45], "filter") && lsn_placeholders[47] &&
                  !strcmp(lsn_placeholders[47], "tile_reuse") && lsn_placeholders[49] &&
                  !strcmp(lsn_placeholders[49], "filter_sweep_growth") && lsn_placeholders[50] &&
                  !strcmp(lsn_placeholders[50], "filter_sweep_separable") &&
                  !strcmp(lsn_placeholders[51], "filter_sweep_roofline") && lsn_placeholders[55] &&
                  !strcmp(lsn_placeholders[52], "layer") && !strcmp(lsn_placeholders[55], "layer_library") && !strcmp(lsn_placeholders[58], "lab_file") &&
                  !lsn_placeholders[59],
              "59 placeholders");
    }
}

static void test_structure(void)
{
    /* unknown keys */
    file_fails(__LINE__, "unknown_key.yaml", ":5:5: ",
               "unknown key 'sya' in a step (did you mean 'say'?); a step has say (and say-gpu, say-software, "
               "say-no-gpu), do, wait, image, ask and notes");
    FAILS("title: T\ntitel: U\nsteps:\n  - say: a\n", "t.yaml:2:1: ",
          "unknown key 'titel' in the lesson (did you mean 'title'?); a lesson has title, image, record, notes and "
          "steps");
    FAILS("title: T\nsteps:\n  - say: a\n    then: gpu\n", "t.yaml:4:5: ", "unknown key 'then' in a step; a step has");
    FAILS("title: T\nsteps:\n  - say: a\n    [x]: gpu\n", "t.yaml:4:5: ", "a key here is a list in a step");
    /* missing or empty parts */
    FAILS("steps:\n  - say: a\n", "t.yaml:1:1: ", "the lesson has no title");
    FAILS("# a comment\nimage: a.png\nsteps:\n  - say: a\n", "t.yaml:2:1: ", "no title");
    FAILS("title: T\n", "t.yaml:1:1: ", "the lesson has no steps; a lesson needs at least one step");
    FAILS("title: T\nsteps: []\n", "t.yaml:2:8: ", "steps is empty");
    FAILS("title: T\nsteps:\n", "t.yaml:2:7: ", "steps is empty");
    FAILS("title: T\nsteps: hello\n", "t.yaml:2:8: ", "steps is text, not a list");
    FAILS("title: T\nsteps:\n  say: a\n", "t.yaml:3:3: ", "steps is a mapping (key: value), not a list");
    FAILS("title:\nsteps:\n  - say: a\n", "t.yaml:1:7: ", "the title is empty");
    FAILS("title: [a, b]\nsteps:\n  - say: a\n", "t.yaml:1:8: ", "the title is a list, not text");
    FAILS("title: T\nimage: ''\nsteps:\n  - say: a\n", "t.yaml:2:8: ", "image is empty");
    FAILS("title: T\nsteps:\n  - say: a\n  - hello\n", "t.yaml:4:5: ", "step 2 is text; a step is a mapping");
    FAILS("title: T\nsteps:\n  - do: gpu\n", "t.yaml:3:5: ", "step 1 has no say; every step needs 'say:'");
    FAILS("title: T\nsteps:\n  - say: a\n  - wait: gpu\n    do: step\n", "t.yaml:4:5: ", "step 2 has no say");
    FAILS("[a, b]\n", "t.yaml:1:1: ", "the lesson is a list; a lesson is a mapping that starts with 'title:'");
    FAILS("hello\n", "t.yaml:1:1: ", "the lesson is text");
    /* say */
    FAILS("title: T\nsteps:\n  - say: [a, b]\n", "t.yaml:3:10: ", "say in step 1 is a list, not text");
    FAILS("title: T\nsteps:\n  - say:\n      a: b\n",
          "t.yaml:4:7: ", "say in step 1 is a mapping (key: value), not text");
    FAILS("title: T\nsteps:\n  - say:\n    do: gpu\n", "t.yaml:3:9: ", "say in step 1 is empty");
    FAILS("title: T\nsteps:\n  - say: \"  \"\n", "t.yaml:3:10: ", "say in step 1 is empty");
    /* do */
    FAILS("title: T\nsteps:\n  - say: a\n    do: 5\n",
          "t.yaml:4:9: ", "do in step 1 holds a number (5); actions are names");
    FAILS("title: T\nsteps:\n  - say: a\n    do: 2.5e3\n", "t.yaml:4:9: ", "holds a number (2.5e3)");
    FAILS("title: T\nsteps:\n  - say: a\n    do: {gpu: 1}\n", "t.yaml:4:9: ", "do in step 1 is a mapping (key: value)");
    FAILS("title: T\nsteps:\n  - say: a\n    do:\n      gpu: 1\n", "t.yaml:5:7: ", "do in step 1 is a mapping");
    FAILS("title: T\nsteps:\n  - say: a\n    do: [gpu, 3]\n", "t.yaml:4:15: ", "do in step 1 holds a number (3)");
    FAILS("title: T\nsteps:\n  - say: a\n    do: [gpu, [step]]\n", "t.yaml:4:15: ", "an action in step 1 is a list");
    FAILS("title: T\nsteps:\n  - say: a\n    do: []\n", "t.yaml:4:9: ", "do in step 1 is an empty list");
    FAILS("title: T\nsteps:\n  - say: a\n    do:\n", "t.yaml:4:8: ", "do in step 1 holds an empty action");
    FAILS("title: T\nsteps:\n  - say: a\n    do: gpu,, step\n", "t.yaml:4:13: ", "step 1 has an empty action");
    FAILS("title: T\nsteps:\n  - say: a\n    do: gpu, filter 6\n",
          "t.yaml:4:14: ", "the action 'filter 6' in step 1 has a space in it");
    /* wait */
    FAILS("title: T\nsteps:\n  - say: a\n    wait: press step\n",
          "t.yaml:4:11: ", "wait in step 1 is 'press step'; wait names one action");
    FAILS("title: T\nsteps:\n  - say: a\n    wait: [step]\n", "t.yaml:4:11: ", "wait in step 1 is a list");
    FAILS("title: T\nsteps:\n  - say: a\n    wait: 3\n", "t.yaml:4:11: ", "wait in step 1 is a number");
    FAILS("title: T\nsteps:\n  - say: a\n    wait:\n", "t.yaml:4:10: ", "wait in step 1 is empty");
    /* duplicate keys */
    FAILS("title: A\ntitle: B\nsteps:\n  - say: a\n",
          "t.yaml:2:1: ", "the key 'title' appears twice in the lesson (first at 1:1); keep one");
    FAILS("title: T\nsteps:\n  - say: a\n    do: gpu\n    \"say\": b\n",
          "t.yaml:5:5: ", "the key 'say' appears twice in a step (first at 3:5)");
    /* several documents, aliases, tags, nesting */
    FAILS("title: T\nsteps:\n  - say: a\n---\ntitle: U\n", "t.yaml:4:1: ", "a lesson file holds one lesson");
    FAILS("title: &t T\nsteps:\n  - say: *t\n", "t.yaml:3:10: ", "aliases (*t) are not used in lessons");
    file_fails(__LINE__, "billion_laughs.yaml", ":2:8: ", "aliases (*a) are not used in lessons");
    FAILS("title: !!str T\nsteps:\n  - say: a\n", "t.yaml:1:8: ", "tags (tag:yaml.org,2002:str) are not used");
    {
        char deep[300];
        memset(deep, '[', 100);
        memset(deep + 100, ']', 100);
        deep[200] = '\0';
        FAILS(deep, "t.yaml:1:33: ", "nested more than 32 deep");
    }
}

/* A lesson's text quoted in a message has its control characters escaped
 * (an escape sequence could retitle or clear the terminal). */
static void test_quoted_escaped(void)
{
    FAILS("title: T\n\"\\e[2Jx\": 1\nsteps:\n  - say: a\n", "t.yaml:2:1: ", "unknown key '\\x1b[2Jx' in the lesson");
    FAILS("title: T\nimage: \"/\\e]0;x\\a\"\nsteps:\n  - say: a\n",
          "t.yaml:2:8: ", "image '/\\x1b]0;x\\x07' is a path outside the lesson's folder");
    FAILS("title: T\nrecord: \"x/../\\e[2J\"\nsteps:\n  - say: a\n",
          "t.yaml:2:9: ", "record 'x/../\\x1b[2J' climbs out of the lesson's folder");
    FAILS("title: T\nsteps:\n  - say: a\n    wait: \"a\\e[2J,\"\n", "t.yaml:4:11: ", "wait in step 1 is 'a\\x1b[2J,'");
    FAILS("title: T\nsteps:\n  - say: a\n    do: \"a \\e[2J\"\n",
          "t.yaml:4:10: ", "the action 'a \\x1b[2J' in step 1 has a space");
    FAILS("title: T\nsteps:\n  - say: \"{\\e[2J}\"\n", "t.yaml:3:11: ", "unknown placeholder {\\x1b[2J}");
    FAILS("title: T\nsteps:\n  - say: a\n    do: \"\\u009b2J 1\"\n", "t.yaml:4:10: ", "the action '\\u009b2J 1'");
}

/* A step may open an image of its own when it begins. */
static void test_step_image(void)
{
    lsn_lesson l;
    const char *ok = "title: T\nsteps:\n  - say: a\n  - say: b\n    image: tiny.png\n";
    CHECK(lsn_parse("t.yaml", ok, strlen(ok), &l), "%s", err_msg());
    CHECK(l.step_count == 2 && !l.steps[0].image && l.steps[1].image && !strcmp(l.steps[1].image, "tiny.png") &&
              l.steps[1].image_line == 5 && l.steps[1].image_column == 12,
          "step image and its position");
    lsn_free(&l);
    FAILS("title: T\nsteps:\n  - say: a\n    image: [a, b]\n", "t.yaml:4:12: ", "image");
}

/* A lesson's recorded run: a file name inside the lesson's folder or among
 * convis's records, like an image. */
static void test_lesson_record(void)
{
    lsn_lesson l;
    const char *ok = "title: T\nrecord: lab.json\nsteps:\n  - say: a\n";
    CHECK(lsn_parse("t.yaml", ok, strlen(ok), &l), "%s", err_msg());
    CHECK(l.record && !strcmp(l.record, "lab.json") && l.record_line == 2 && l.record_column == 9,
          "the record and its position");
    lsn_free(&l);
    FAILS("title: T\nrecord: /etc/passwd\nsteps:\n  - say: a\n",
          "t.yaml:2:9: ", "record '/etc/passwd' is a path outside the lesson's folder");
    FAILS("title: T\nrecord: runs/../../x.json\nsteps:\n  - say: a\n",
          "t.yaml:2:9: ", "record 'runs/../../x.json' climbs out of the lesson's folder");
    FAILS("title: T\nrecord: ''\nsteps:\n  - say: a\n", "t.yaml:2:9: ", "record is empty");
}

/* A step's texts for other machines: say-gpu, say-software, say-no-gpu,
 * each checked like say; the player picks the one for the machine. */
static void test_variants(void)
{
    lsn_lesson l;
    lsn_player p;
    char buf[128];
    const char *ok = "title: T\nsteps:\n  - say: any\n    say-software: soft\n    say-no-gpu: none\n";
    memset(&p, 0, sizeof p);
    CHECK(lsn_parse("t.yaml", ok, strlen(ok), &l), "%s", err_msg());
    CHECK(l.steps[0].say_on[LSN_ON_SOFTWARE] && !strcmp(l.steps[0].say_on[LSN_ON_SOFTWARE], "soft") &&
              !l.steps[0].say_on[LSN_ON_GPU] && l.steps[0].say_on_line[LSN_ON_NO_GPU] == 5,
          "the variants and their lines");
    lsn_player_start(&p, &l);
    lsn_player_narration(&p, LSN_ON_SOFTWARE, NULL, NULL, buf, sizeof buf);
    CHECK(!strcmp(buf, "soft"), "a software GPU gets say-software: %s", buf);
    lsn_player_narration(&p, LSN_ON_GPU, NULL, NULL, buf, sizeof buf);
    CHECK(!strcmp(buf, "any"), "a GPU without its variant gets say: %s", buf);
    lsn_player_narration(&p, LSN_ON_NO_GPU, NULL, NULL, buf, sizeof buf);
    CHECK(!strcmp(buf, "none"), "no GPU gets say-no-gpu: %s", buf);
    lsn_player_stop(&p);
    FAILS("title: T\nsteps:\n  - say: a\n    say-gpu: the {gpu_time}\n", "t.yaml:4:18: ", "unknown placeholder");
    FAILS("title: T\nsteps:\n  - say: a\n    say-gpu: [x]\n", "t.yaml:4:14: ", "say-gpu in step 1");
    FAILS("title: T\nsteps:\n  - say-gpu: a\n", "t.yaml:3:5: ", "step 1 has no say");
}

/* A line break inside a paragraph joins the lines: with a space in any
 * alphabet (accented Latin too), with nothing only between two CJK
 * characters. */
static void test_joined_lines(void)
{
    static const struct {
        const char *say, *want;
    } cases[] = {
        {"one\n      two", "one two"},
        {"caf\xC3\xA9\n      \xC3\xBC"
         "ber",
         "caf\xC3\xA9 \xC3\xBC"
         "ber"},                                                                 /* é, ü: a space */
        {"\xE4\xB8\xAD\n      \xE6\x96\x87", "\xE4\xB8\xAD\xE6\x96\x87"},        /* 中, 文: nothing */
        {"GPU\n      \xE5\xBC\x95\xE6\x93\x8E", "GPU \xE5\xBC\x95\xE6\x93\x8E"}, /* Latin, CJK: a space */
        {"\xCE\xB1\n      \xE6\x96\x87", "\xCE\xB1 \xE6\x96\x87"},               /* α, 文: a space */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char text[256], buf[128];
        lsn_lesson l;
        lsn_player p;
        memset(&p, 0, sizeof p);
        snprintf(text, sizeof text, "title: T\nsteps:\n  - say: |\n      %s\n", cases[i].say);
        bool parsed = lsn_parse("t.yaml", text, strlen(text), &l);
        CHECK(parsed, "case %zu: %s", i, err_msg());
        if (!parsed)
            continue;
        lsn_player_start(&p, &l);
        lsn_player_narration(&p, LSN_ON_GPU, NULL, NULL, buf, sizeof buf);
        CHECK(!strcmp(buf, cases[i].want), "case %zu: joined as '%s', not '%s'", i, buf, cases[i].want);
        lsn_player_stop(&p);
    }
}

/* A placeholder's words reach the narration whole: a bound's sentence is
 * over 500 bytes (it was cut at 255). */
static bool long_value(const void *user, const char *name, char *buf, size_t size)
{
    (void)user, (void)name;
    memset(buf, 'x', size < 800 ? size - 1 : 799);
    buf[size < 800 ? size - 1 : 799] = '\0';
    return true;
}

static void test_long_value(void)
{
    static const char text[] = "title: T\nsteps:\n  - say: \"{gpu_bound}.\"\n";
    static char buf[4096];
    lsn_lesson l;
    lsn_player p;
    memset(&p, 0, sizeof p);
    CHECK(lsn_parse("t.yaml", text, strlen(text), &l), "%s", err_msg());
    lsn_player_start(&p, &l);
    lsn_player_narration(&p, LSN_ON_GPU, long_value, NULL, buf, sizeof buf);
    CHECK(strlen(buf) == 800 && buf[799] == '.', "a value of 799 bytes, whole: %zu bytes", strlen(buf));
    lsn_player_stop(&p);
}

static void test_placeholders(void)
{
    FAILS("title: T\nsteps:\n  - say: Time {gpu_ms} and {bad}\n",
          "t.yaml:3:28: ", "unknown placeholder {bad}; the placeholders are cpu_seq_ms, cpu_par_ms, gpu_ms,");
    /* the whole list, to its last name (it overran its buffer once the list grew) */
    FAILS("title: T\nsteps:\n  - say: '{bad}'\n", "t.yaml:3:11: ", "cpu_simd_ms, ratio_simd_seq, ratio_par_simd");
    FAILS("title: T\nsteps:\n  - say: |\n      first line\n      the \xC3\x97{nope} here\n",
          "t.yaml:5:12: ", "unknown placeholder {nope}");
    FAILS("title: T\nsteps:\n  - say: >\n\n      folded {cpu_ms}\n", "t.yaml:5:14: ", "unknown placeholder {cpu_ms}");
    FAILS("title: T\nsteps:\n  - say: \"a {x\"\n", "t.yaml:3:13: ", "this '{' is never closed");
    FAILS("title: T\nsteps:\n  - say: a {{ {gpu_ms} }\n", "t.yaml:3:24: ", "this '}' closes no '{'; write }}");
    FAILS("title: T\nsteps:\n  - say: 'a {}'\n", "t.yaml:3:13: ", "unknown placeholder {}");
    FAILS("title: T\nsteps:\n  - say: a {gpu_ms\n", "t.yaml:3:12: ", "never closed");
    FAILS("title: T\nsteps:\n  - say: a {gpu_ms}}\n", "t.yaml:3:20: ", "closes no '{'");
    FAILS("title: T\nsteps:\n  - say: ok\n  - say: '{a{b}}'\n", "t.yaml:4:11: ", "never closed");

    /* the function itself */
    err_clear();
    CHECK(lsn_check_placeholders("x", "{{}} {gpu_device} {{gpu_ms}}", 1, 1, false), "%s", err_msg());
    CHECK(lsn_check_placeholders("x", NULL, 1, 1, false), "NULL text");
    CHECK(!lsn_check_placeholders("x", "ab\ncd {q}", 7, 3, true) && !strncmp(err_msg(), "x:8:6: ", 7), "%s", err_msg());
    CHECK(!lsn_check_placeholders("x", "ab\ncd {q}", 7, 3, false) && !strncmp(err_msg(), "x:7:9: ", 7), "%s",
          err_msg());
}

static void test_syntax(void)
{
    file_fails(__LINE__, "bad_indent.yaml", ":4:4: ", "check the indentation");
    file_fails(__LINE__, "unterminated_flow.yaml", ":4:9: ", "the list that starts here with '[' is not closed");
    file_fails(__LINE__, "unterminated_quote.yaml", ":3:10: ", "the quoted text that starts here is never closed");
    FAILS("title: T\nsteps:\n  - say: 'it is\n", "t.yaml:3:10: ", "quoted text that starts here is never closed");
    FAILS("title: T\nsteps:\n  - say: a\n    do: {gpu\n", "t.yaml:4:9: ", "the mapping that starts here with '{'");
    FAILS("title: T\nsteps:\n  - say: Note: this\n", "t.yaml:3:14: ", "put text that contains ': ' in quotes");
    FAILS("title: T\nsteps:\n\t- say: a\n", "t.yaml:3:1: ", "a tab indents this line; indent with spaces only");
    FAILS("title: T\nsteps:\n  - say: `a`\n", "t.yaml:3:10: ", "this character cannot start a value");
    FAILS("title: T\nsteps:\n  - say: a\n - say: b\n", "t.yaml:4:2: ", "check the indentation");
    FAILS("title: T\nsteps:\n  - say: \"\\q\"\n",
          "t.yaml:3:11: ", "found unknown escape character in the quoted text that starts at 3:10");
    FAILS("title: T\nsteps:\n  - say: \"a\\0b\"\n", "t.yaml:3:10: ", "NUL character");
    FAILS("title: T\nsteps:\n  - say: \"\\ud800\"\n", "t.yaml:3:13: ", "invalid Unicode character escape code");
}

static void test_limits_and_bytes(void)
{
    size_t big = 1000000;
    char *t = malloc(LSN_MAX_FILE_BYTES + 64);
    int n;

    /* empty */
    FAILS("", "t.yaml:1:1: ", "the lesson is empty; a lesson starts with 'title:'");
    FAILS("\n\n   \n", "t.yaml:1:1: ", "the lesson is empty");
    FAILS("# only a comment\n", "t.yaml:1:1: ", "the lesson is empty");
    FAILS("---\n", "t.yaml:1:1: ", "the lesson is empty");
    fails_at(__LINE__, "t.yaml", NULL, 0, "t.yaml:1:1: ", "is empty");

    /* a 1 MB single line: a string over the 64 KiB cap */
    n = sprintf(t, "title: ");
    memset(t + n, 'a', big);
    t[n + big] = '\n';
    fails_at(__LINE__, "t.yaml", t, n + big + 1, "t.yaml:1:8: ",
             "this text is 1000000 bytes long; a string in a lesson may be at most 65536 bytes (64 KiB)");
    /* a 1 MB line that is not even YAML text: same cap */
    memset(t, 'x', big);
    fails_at(__LINE__, "t.yaml", t, big, "t.yaml:1:1: ", "is 1000000 bytes long");
    /* over 1 MiB */
    memset(t, ' ', LSN_MAX_FILE_BYTES + 1);
    fails_at(__LINE__, "t.yaml", t, LSN_MAX_FILE_BYTES + 1,
             "t.yaml:1:1: ", "the lesson is 1048577 bytes; a lesson file may be at most 1048576 bytes (1 MiB)");
    /* 64 KiB exactly is fine */
    n = sprintf(t, "title: T\nsteps:\n  - say: ");
    memset(t + n, 'b', LSN_MAX_STRING_BYTES);
    {
        lsn_lesson l;
        CHECK(lsn_parse("t.yaml", t, (size_t)n + LSN_MAX_STRING_BYTES, &l), "64 KiB say: %s", err_msg());
        CHECK(l.step_count == 1 && strlen(l.steps[0].say) == LSN_MAX_STRING_BYTES, "64 KiB say kept");
        lsn_free(&l);
    }

    /* 1000 steps are fine, 1001 are not */
    n = sprintf(t, "title: T\nsteps:\n");
    for (int i = 0; i < 1000; ++i)
        n += sprintf(t + n, "  - say: s\n");
    {
        lsn_lesson l;
        CHECK(lsn_parse("t.yaml", t, (size_t)n, &l) && l.step_count == 1000, "1000 steps: %s", err_msg());
        lsn_free(&l);
    }
    n += sprintf(t + n, "  - say: s\n");
    fails_at(__LINE__, "t.yaml", t, (size_t)n,
             "t.yaml:1003:5: ", "this is step 1001; a lesson may have at most 1000 steps");

    /* 100 actions are fine, 101 are not; positions of a long string */
    n = sprintf(t, "title: T\nsteps:\n  - say: s\n    do: a0");
    for (int i = 1; i < 100; ++i)
        n += sprintf(t + n, ",a%d", i);
    {
        lsn_lesson l;
        CHECK(lsn_parse("t.yaml", t, (size_t)n, &l) && l.steps[0].action_count == 100, "100 actions: %s", err_msg());
        if (l.step_count == 1 && l.steps[0].action_count == 100)
            ACTION(&l.steps[0], 99, "a99", 4, 9 + 2 + 9 * 3 + 89 * 4 + 1);
        lsn_free(&l);
    }
    n += sprintf(t + n, ",a100\n");
    fails_at(__LINE__, "t.yaml", t, (size_t)n, "t.yaml:4:", "step 1 has more than 100 actions");

    /* invalid UTF-8 and control characters, with their positions */
    file_fails(__LINE__, "invalid_utf8.yaml", ":3:13: ", "not valid UTF-8");
    FAILS("title: \xFF\n", "t.yaml:1:8: ", "not valid UTF-8");
    FAILS("title: T\nsteps:\n  - say: \xC3\x97\xE2\x82\n", "t.yaml:3:11: ", "not valid UTF-8");
    FAILS("title: T\nsteps:\n  - say: a\xED\xA0\x80z\n", "t.yaml:3:11: ", "not valid UTF-8");
    FAILS("title: T\xEF\xBB\xBF\x01\n", "t.yaml:1:10: ", "a control character (byte 0x01) is not allowed");
    fails_at(__LINE__, "t.yaml", "title: a\0b\n", 11, "t.yaml:1:9: ", "control character");
    /* a UTF-16 file */
    fails_at(__LINE__, "t.yaml", "\xFF\xFEt\0i\0", 6, "t.yaml:1:1: ", "not valid UTF-8");
    free(t);
}

static void test_load(void)
{
    char path[1024], tmp[] = "/tmp/convis_lesson_XXXXXX";
    lsn_lesson l;
    int fd;

    snprintf(path, sizeof path, "%s/no-such-lesson.yaml", dir);
    CHECK(!lsn_load(path, &l) && lesson_empty(&l), "missing file loaded");
    CHECK(!strncmp(err_msg(), path, strlen(path)) && strstr(err_msg(), ": cannot read the lesson: No such file"), "%s",
          err_msg());

    CHECK(!lsn_load(dir, &l) && lesson_empty(&l), "a directory loaded");
    CHECK(!strncmp(err_msg(), dir, strlen(dir)) && strstr(err_msg(), ": is a folder; give a lesson file"), "%s",
          err_msg());

    fd = mkstemp(tmp);
    CHECK(fd >= 0, "mkstemp");
    if (fd >= 0) {
        FILE *f = fdopen(fd, "wb");
        static char block[4096];
        memset(block, ' ', sizeof block);
        for (int i = 0; i < 257; ++i) /* 1 MiB + 4 KiB */
            fwrite(block, 1, sizeof block, f);
        fclose(f);
        CHECK(!lsn_load(tmp, &l) && lesson_empty(&l), "a big file loaded");
        CHECK(!strncmp(err_msg(), tmp, strlen(tmp)) &&
                  strstr(err_msg(), ": the file is 1052672 bytes; a lesson file may be at most 1048576 bytes (1 MiB)"),
              "%s", err_msg());
        /* an empty file */
        f = fopen(tmp, "wb");
        fclose(f);
        CHECK(!lsn_load(tmp, &l), "an empty file loaded");
        CHECK(!strncmp(err_msg(), tmp, strlen(tmp)) && strstr(err_msg(), ":1:1: the lesson is empty"), "%s", err_msg());
        unlink(tmp);
    }
    CHECK(!lsn_load(NULL, &l), "NULL path");
}

/* Damaged copies of the valid lesson: every prefix, and bytes changed at
 * random (deterministic). Never a crash; a failure always names the file
 * and leaves the lesson empty. */
static void test_damage(void)
{
    char path[1024], text[4096], copy[4096];
    FILE *f;
    size_t n;
    unsigned seed = 12345;
    int bad_messages = 0, bad_empty = 0;
    static const char junk[] = "\0\t\n\r :-[]{},\"'|>&*!#%@`\xC3\xFF{}";

    snprintf(path, sizeof path, "%s/valid.yaml", dir);
    f = fopen(path, "rb");
    CHECK(f != NULL, "open %s", path);
    if (!f)
        return;
    n = fread(text, 1, sizeof text, f);
    fclose(f);
    for (size_t k = 0; k <= n; ++k) {
        lsn_lesson l;
        if (lsn_parse("d.yaml", text, k, &l))
            lsn_free(&l);
        else if (strncmp(err_msg(), "d.yaml:", 7))
            ++bad_messages;
        else if (!lesson_empty(&l))
            ++bad_empty;
    }
    for (int round = 0; round < 20000; ++round) {
        lsn_lesson l;
        memcpy(copy, text, n);
        for (int c = 0; c < 1 + round % 4; ++c) {
            seed = seed * 1103515245u + 12345u;
            size_t at = (seed >> 8) % n;
            seed = seed * 1103515245u + 12345u;
            copy[at] = junk[(seed >> 8) % (sizeof junk - 1)];
        }
        if (lsn_parse("d.yaml", copy, n, &l))
            lsn_free(&l);
        else if (strncmp(err_msg(), "d.yaml:", 7))
            ++bad_messages;
        else if (!lesson_empty(&l))
            ++bad_empty;
    }
    CHECK(bad_messages == 0, "%d failures without 'd.yaml:' (last: %s)", bad_messages, err_msg());
    CHECK(bad_empty == 0, "%d failures left a lesson filled", bad_empty);
}

/* Questions (ask:) and the teacher's notes: what a lesson may write, each
 * mistake at its line and column; the player holds a question's step until
 * it is answered right or twice wrong. */
static void test_questions(void)
{
    const char *ok = "title: T\nnotes: For the teacher {outputs}\nsteps:\n"
                     "  - say: How many?\n    notes: ask the class\n    ask:\n      number: outputs\n"
                     "      within: 10%\n      hint: h {image_size}\n      why: w\n"
                     "  - say: Which?\n    ask:\n      choice: gpu_vs_par\n      options:\n"
                     "        slower: s\n        faster: f {gpu_label}\n        same: m\n      hint: h\n      why: w\n"
                     "  - say: Where?\n    ask:\n      click: window\n      hint: h\n      why: w\n";
    lsn_lesson l;
    lsn_player p = {0};
    CHECK(lsn_parse("t.yaml", ok, strlen(ok), &l), "%s", err_msg());
    CHECK(l.notes && !strcmp(l.notes, "For the teacher {outputs}"), "the lesson's notes");
    CHECK(l.steps[0].notes && !strcmp(l.steps[0].notes, "ask the class"), "a step's notes");
    CHECK(l.steps[0].ask.kind == LSN_ASK_NUMBER && !strcmp(l.steps[0].ask.fact, "outputs") &&
              l.steps[0].ask.relative && fabs(l.steps[0].ask.within - 0.1) < 1e-12 && l.steps[0].ask.line == 7 &&
              l.steps[0].ask.column == 15,
          "a number question, 10%% either way, its fact at 7:15");
    CHECK(l.steps[1].ask.kind == LSN_ASK_CHOICE && l.steps[1].ask.option_count == 3 &&
              !strcmp(l.steps[1].ask.options[0].key, "slower") && !strcmp(l.steps[1].ask.options[1].text, "f {gpu_label}"),
          "a choice, its options in the file's order");
    CHECK(l.steps[2].ask.kind == LSN_ASK_CLICK && !strcmp(l.steps[2].ask.fact, "window"), "a click");
    lsn_player_start(&p, &l);
    CHECK(lsn_player_asking(&p) && !lsn_player_next(&p), "a question holds the step");
    CHECK(lsn_player_answer(&p, false) == LSN_HINTED && lsn_player_asking(&p), "a first wrong answer: the hint");
    CHECK(lsn_player_answer(&p, false) == LSN_SHOWN && !lsn_player_asking(&p) && p.tries == 2,
          "a second: the answer, and the step goes on");
    CHECK(lsn_player_next(&p) && lsn_player_asking(&p), "the next question");
    CHECK(lsn_player_answer(&p, true) == LSN_RIGHT && lsn_player_answer(&p, true) == LSN_NONE, "right, then settled");
    CHECK(lsn_player_prev(&p) && lsn_player_asking(&p) && p.tries == 0, "back: the question again, afresh");
    lsn_player_let_go(&p);
    CHECK(p.asked == LSN_SHOWN && lsn_player_next(&p), "let go where it cannot be checked");
    lsn_player_stop(&p);
    /* mistakes, at their line and column */
    FAILS("title: T\nsteps:\n  - say: a\n    ask:\n      number: outputz\n      hint: h\n      why: w\n", "t.yaml:5:15: ",
          "'outputz' in step 1 is no number fact; the number facts are outputs, taps,");
    FAILS("title: T\nsteps:\n  - say: a\n    ask:\n      choice: outputs\n      options:\n        a: b\n      hint: h\n"
          "      why: w\n",
          "t.yaml:5:15: ", "'outputs' in step 1 is no choice fact; the choice facts are gpu_vs_par,");
    FAILS("title: T\nsteps:\n  - say: a\n    ask:\n      hint: h\n      why: w\n", "t.yaml:5:7: ",
          "the question in step 1 says no kind");
    FAILS("title: T\nsteps:\n  - say: a\n    ask:\n      number: taps\n      click: window\n      hint: h\n      why: w\n",
          "t.yaml:6:14: ", "the question in step 1 has two kinds");
    FAILS("title: T\nsteps:\n  - say: a\n    ask:\n      number: taps\n      within: lots\n      hint: h\n      why: w\n",
          "t.yaml:6:15: ", "within in step 1 is 'lots'; write a number of 0 or more");
    FAILS("title: T\nsteps:\n  - say: a\n    ask:\n      number: taps\n      within: 120%\n      hint: h\n      why: w\n",
          "t.yaml:6:15: ", "a percentage from 0% to 100%");
    FAILS("title: T\nsteps:\n  - say: a\n    ask:\n      choice: separable\n      options:\n        \"yes\": y\n"
          "      hint: h\n      why: w\n",
          "t.yaml:7:9: ", "options in step 1 do not offer 'no'; separable can give yes no");
    FAILS("title: T\nsteps:\n  - say: a\n    ask:\n      choice: separable\n      options:\n        \"yes\": y\n"
          "        maybe: m\n        \"no\": n\n      hint: h\n      why: w\n",
          "t.yaml:8:9: ", "'maybe' in step 1 is no answer separable can give; its answers are yes no");
    FAILS("title: T\nsteps:\n  - say: a\n    ask:\n      number: taps\n      hint: h {nope}\n      why: w\n", "t.yaml:6:15: ",
          "unknown placeholder {nope}");
    FAILS("title: T\nsteps:\n  - say: a\n    ask:\n      number: taps\n      why: w\n", "t.yaml:5:7: ",
          "the question in step 1 has no hint");
    FAILS("title: T\nsteps:\n  - say: a\n    wait: gpu\n    ask:\n      number: taps\n      hint: h\n      why: w\n",
          "t.yaml:4:11: ", "step 1 asks a question and waits for an action");
    FAILS("title: T\nsteps:\n  - say: a\n    ask: taps\n", "t.yaml:4:10: ", "ask in step 1 is text; a question is a mapping");
    FAILS("title: T\nnotes:\nsteps:\n  - say: a\n", "t.yaml:2:7: ", "the lesson's notes is empty");
}

int main(int argc, char **argv)
{
    if (argc > 1)
        dir = argv[1];
    test_valid();
    test_structure();
    test_questions();
    test_step_image();
    test_quoted_escaped();
    test_variants();
    test_joined_lines();
    test_long_value();
    test_lesson_record();
    test_placeholders();
    test_syntax();
    test_limits_and_bytes();
    test_load();
    test_damage();
    return CHECK_SUMMARY();
}
