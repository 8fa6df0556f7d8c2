/* handout_page.c - the handout's one HTML page: where it was made, then
 * each step on a page of its own when printed (its narration, its picture,
 * what the learner does and the picture after). Print-ready: A4 and letter
 * alike, pictures as wide as the page, long words broken rather than cut,
 * fonts with Chinese among them. Every string from the lesson, the user or
 * the machine goes through put_text, which escapes it. */
#include <stdlib.h>
#include <string.h>

#include "handout.h"
#include "i18n.h"

/* clang-format off */
static const char style[] =
    "@page { margin: 14mm 12mm; }\n"
    "html { color: #111; background: #fff; font-size: 11pt; line-height: 1.45;\n"
    "  font-family: \"Noto Sans\", \"DejaVu Sans\", \"Liberation Sans\", Arial,\n"
    "    \"Noto Sans CJK SC\", \"Noto Sans CJK JP\", \"Source Han Sans SC\", \"PingFang SC\",\n"
    "    \"Microsoft YaHei\", sans-serif; }\n"
    "html:lang(zh) { font-family: \"Noto Sans CJK SC\", \"Source Han Sans SC\", \"PingFang SC\",\n"
    "    \"Microsoft YaHei\", \"Noto Sans\", \"DejaVu Sans\", sans-serif; }\n"
    "body { margin: 0 auto; padding: 1em; max-width: 48em; }\n"
    "h1 { font-size: 1.6em; line-height: 1.2; margin: 0 0 0.4em; }\n"
    "h2 { font-size: 1.25em; line-height: 1.2; margin: 0 0 0.5em; break-after: avoid; }\n"
    "h1, h2, p, dt, dd, figcaption { overflow-wrap: anywhere; }\n"
    "dl { display: grid; grid-template-columns: auto 1fr; gap: 0.2em 1em; }\n"
    "dt { font-weight: bold; }\n"
    "dd { margin: 0; min-width: 0; }\n"
    ".step { break-before: page; }\n"
    "figure { margin: 0.8em 0; break-inside: avoid; }\n"
    "img { display: block; box-sizing: border-box; width: 100%; height: auto; border: 1px solid #888; }\n"
    "figcaption { font-size: 0.9em; color: #444; margin-top: 0.2em; }\n"
    ".turn { font-weight: bold; break-after: avoid; }\n"
    ".notes { border-left: 0.3em solid #888; padding-left: 0.8em; color: #333; }\n"
    ".notes h3 { font-size: 1em; margin: 0.4em 0; }\n"
    "@media print {\n"
    "  body { max-width: none; padding: 0; }\n"
    "  img { width: auto; max-width: 100%; max-height: 92mm; }\n" /* a step's two pictures on its page */
    "}\n";
/* clang-format on */

/* `text` as HTML text or an attribute's value: &, <, >, " and ' escaped,
 * the control characters HTML forbids shown as U+FFFD. */
static void put_text(FILE *f, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; ++p) {
        switch (*p) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default:
            if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7F)
                fputs("\xEF\xBF\xBD", f);
            else
                fputc(*p, f);
        }
    }
}

/* The narration's paragraphs (parted by line breaks), each a <p>. */
static void put_paragraphs(FILE *f, const char *text)
{
    const char *p = text;
    while (*p) {
        size_t n = strcspn(p, "\n");
        if (n > 0) {
            char *para = malloc(n + 1);
            if (para) {
                memcpy(para, p, n);
                para[n] = '\0';
                fputs("<p>", f);
                put_text(f, para);
                fputs("</p>\n", f);
                free(para);
            }
        }
        p += n;
        while (*p == '\n')
            ++p;
    }
}

/* The images the steps showed, each with the steps it was shown at:
 * "sample.png, 512×384" alone, or "…: steps 1–3; tiny.png, 16×16: step 4". */
static bool several_images(const app_handout *h)
{
    for (int i = 1; i < h->count; ++i)
        if (strcmp(h->shots[i].image, h->shots[0].image) != 0)
            return true;
    return false;
}

static void put_images(FILE *f, const app_handout *h)
{
    int first = 0;
    bool several = several_images(h);
    for (int i = 0; i < h->count; ++i) {
        const app_step_shot *s = &h->shots[i];
        char size[64];
        if (i + 1 < h->count && strcmp(h->shots[i + 1].image, s->image) == 0)
            continue; /* the run of steps on this image goes on */
        if (first > 0)
            fputs("; ", f);
        put_text(f, s->image);
        snprintf(size, sizeof size, ", %d\xC3\x97%d", s->image_w, s->image_h);
        fputs(size, f);
        if (several) {
            char steps[64];
            if (first == i)
                snprintf(steps, sizeof steps, _(": step %d"), i + 1);
            else
                snprintf(steps, sizeof steps, _(": steps %d\xE2\x80\x93%d"), first + 1, i + 1);
            put_text(f, steps);
        }
        first = i + 1;
    }
}

/* One line of the list of where the handout was made. */
static void put_fact(FILE *f, const char *what, const char *value)
{
    fputs("<dt>", f);
    put_text(f, what);
    fputs("</dt><dd>", f);
    put_text(f, value);
    fputs("</dd>\n", f);
}

static void put_notes(FILE *f, const char *notes);

static void put_head(FILE *f, const app_handout *h)
{
    char line[256];
    fputs("<!DOCTYPE html>\n<html lang=\"", f);
    put_text(f, h->lang);
    fputs("\">\n<head>\n<meta charset=\"utf-8\">\n" APP_HANDOUT_MARK "\n", f);
    fputs("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", f);
    put_text(f, h->title);
    fputs(" \xC2\xB7 convis</title>\n<style>\n", f);
    fputs(style, f);
    fputs("</style>\n</head>\n<body>\n<header>\n<h1>", f);
    put_text(f, h->title);
    fputs("</h1>\n<p>", f);
    snprintf(line, sizeof line,
             ngettext("A convis lesson of %d step, as its window shows it, and where a step waits for the learner, "
                      "once that is done. Every figure in the text was measured on this machine when the handout "
                      "was made:",
                      "A convis lesson of %d steps, as its window shows them, and where a step waits for the learner, "
                      "once that is done. Every figure in the text was measured on this machine when the handout "
                      "was made:",
                      (unsigned long)h->count),
             h->count);
    put_text(f, line);
    fputs("</p>\n<dl>\n", f);
    put_fact(f, _("Lesson"), h->lesson);
    put_fact(f, _("Made"), h->made);
    put_fact(f, "convis", CONVIS_VERSION);
    put_fact(f, _("CPU"), h->cpu);
    put_fact(f, _("GPU engine"), h->gpu);
    fputs("<dt>", f);
    put_text(f, several_images(h) ? _("Images") : _("Image"));
    fputs("</dt><dd>", f);
    put_images(f, h);
    fputs("</dd>\n</dl>\n", f);
    put_notes(f, h->notes);
    fputs("</header>\n", f);
}

/* Notes for the teacher: a box of their own, as the window shows them only on request. */
static void put_notes(FILE *f, const char *notes)
{
    if (!notes[0])
        return;
    fputs("<aside class=\"notes\"><h3>", f);
    put_text(f, _("For the teacher"));
    fputs("</h3>\n", f);
    put_paragraphs(f, notes);
    fputs("</aside>\n", f);
}

/* A picture, as wide as the page, with its caption. */
static void put_figure(FILE *f, const app_step_shot *s, const char *file, const char *alt, const char *caption)
{
    fprintf(f, "<figure><img src=\"");
    put_text(f, file);
    fprintf(f, "\" width=\"%d\" height=\"%d\" alt=\"", s->width, s->height);
    put_text(f, alt);
    fputs("\"><figcaption>", f);
    put_text(f, caption);
    fputs("</figcaption></figure>\n", f);
}

static void put_step(FILE *f, const app_step_shot *s)
{
    char line[256];
    fprintf(f, "<section class=\"step\" id=\"step-%d\">\n<h2>", s->step);
    snprintf(line, sizeof line, _("Step %d of %d"), s->step, s->steps);
    put_text(f, line);
    fputs("</h2>\n", f);
    put_paragraphs(f, s->narration);
    snprintf(line, sizeof line, _("Step %d, as the window shows it"), s->step);
    put_figure(f, s, s->before, line,
               s->after[0] ? _("When the step begins") : _("What the window shows at this step"));
    if (s->hint[0]) {
        fputs("<p class=\"turn\">", f);
        put_text(f, s->hint);
        fputs("</p>\n", f);
    }
    if (s->after[0]) {
        snprintf(line, sizeof line, _("Step %d, once the learner has done it"), s->step);
        put_figure(f, s, s->after, line, _("Once the learner has done that"));
    }
    put_notes(f, s->notes);
    fputs("</section>\n", f);
}

bool app_handout_page(FILE *f, const void *handout)
{
    const app_handout *h = handout;
    put_head(f, h);
    for (int i = 0; i < h->count; ++i)
        put_step(f, &h->shots[i]);
    fputs("</body>\n</html>\n", f);
    return !ferror(f);
}
