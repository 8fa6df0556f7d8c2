/* libFuzzer harness: the record reader (rec_parse, src/app/record.c) on any
 * bytes: a record or one sentence, never a crash; and its bounds hold: an
 * input nested deeper than REC_MAX_DEPTH (brackets and braces counted
 * outside JSON strings) or larger than REC_MAX_BYTES is refused, and what
 * it lets through libyaml never finds nested deeper either (the reader's
 * idea of where strings are is libyaml's). Built by `./do.sh fuzz` (clang). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "core/err.h"
#include "record.h"

/* The deepest nesting of [ and { outside JSON strings (escapes skipped). */
static int depth_of(const uint8_t *s, size_t n)
{
    int depth = 0, most = 0;
    bool in_string = false;
    for (size_t i = 0; i < n; ++i) {
        if (in_string) {
            if (s[i] == '\\')
                ++i;
            else if (s[i] == '"')
                in_string = false;
        } else if (s[i] == '"') {
            in_string = true;
        } else if (s[i] == '[' || s[i] == '{') {
            if (++depth > most)
                most = depth;
        } else if ((s[i] == ']' || s[i] == '}') && depth > 0) {
            --depth;
        }
    }
    return most;
}

/* The deepest nesting libyaml finds, stopping a little past the bound. */
static int yaml_depth(const uint8_t *s, size_t n)
{
    yaml_parser_t p;
    yaml_event_t ev;
    int depth = 0, most = 0;
    bool done = false;
    if (!yaml_parser_initialize(&p))
        return 0;
    yaml_parser_set_input_string(&p, s, n);
    yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);
    while (!done && most <= REC_MAX_DEPTH + 1 && yaml_parser_parse(&p, &ev)) {
        if (ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT) {
            if (++depth > most)
                most = depth;
        } else if (ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT)
            --depth;
        done = ev.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&p);
    return most;
}

static void refused(const uint8_t *data, size_t size, const char *why)
{
    app_record r;
    if (rec_parse("fuzz.json", data, size, &r)) {
        fprintf(stderr, "fuzz_record: %s, and read as a record\n", why);
        abort();
    }
}

/* The bounds on inputs the fuzzer's length limit never reaches: once. */
static void bounds_once(void)
{
    static bool done;
    uint8_t *big;
    if (done)
        return;
    done = true;
    big = malloc(REC_MAX_BYTES + 2);
    if (!big)
        abort();
    memset(big, ' ', REC_MAX_BYTES + 1);
    memcpy(big, "{\"convis_record\": 1}", 20);
    refused(big, REC_MAX_BYTES + 1, "one byte over the most a record may be");
    memset(big, '[', REC_MAX_BYTES);
    refused(big, REC_MAX_BYTES, "a file of '[' nested far past the bound");
    free(big);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    app_record r;
    bounds_once();
    err_clear(); /* so that a refusal without a sentence shows */
    if (rec_parse("fuzz.json", data, size, &r)) {
        if (size > REC_MAX_BYTES || depth_of(data, size) > REC_MAX_DEPTH || yaml_depth(data, size) > REC_MAX_DEPTH) {
            fprintf(stderr, "fuzz_record: %zu bytes nested %d deep (libyaml: %d) read as a record\n", size,
                    depth_of(data, size), yaml_depth(data, size));
            abort();
        }
        if (r.engine_count < 0 || r.engine_count > REC_ENGINES)
            abort();
        return 0;
    }
    if (!err_msg()[0])
        abort(); /* refused without a sentence */
    if (strstr(err_msg(), "is not a record convis reads") == NULL && yaml_depth(data, size) > REC_MAX_DEPTH) {
        fprintf(stderr, "fuzz_record: libyaml nested past %d in a text the bounds let through: %s\n", REC_MAX_DEPTH,
                err_msg());
        abort();
    }
    return 0;
}
