/* text.c - fonts through fontconfig, text through SDL2_ttf. */
#include <SDL.h>
#include <SDL_ttf.h>
#include <fontconfig/fontconfig.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "platform.h"

struct plat_font {
    TTF_Font *ttf;
};

static int ttf_users;

/* The file of the best sans-serif font for `lang`, into path. */
static bool find_font(const char *lang, char *path, size_t size)
{
    FcPattern *pat, *match;
    FcResult result;
    FcChar8 *file = NULL;
    bool ok = false;

    if (!FcInit())
        return err_set("fontconfig could not start");
    pat = FcPatternCreate();
    if (!pat)
        return err_set("out of memory");
    FcPatternAddString(pat, FC_FAMILY, (const FcChar8 *)"sans-serif");
    FcPatternAddString(pat, FC_LANG, (const FcChar8 *)(strcmp(lang, "zh") == 0 ? "zh-cn" : lang));
    FcPatternAddInteger(pat, FC_WEIGHT, FC_WEIGHT_REGULAR);
    FcConfigSubstitute(NULL, pat, FcMatchPattern);
    FcDefaultSubstitute(pat);
    match = FcFontMatch(NULL, pat, &result);
    if (match && FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch) {
        snprintf(path, size, "%s", (const char *)file);
        ok = true;
    }
    if (match)
        FcPatternDestroy(match);
    FcPatternDestroy(pat);
    return ok ? true : err_set("fontconfig found no sans-serif font for '%s'; install fonts-dejavu-core", lang);
}

plat_font *plat_font_open(const char *lang, int px)
{
    char path[4096];
    plat_font *font;

    if (!find_font(lang, path, sizeof path))
        return NULL;
    if (ttf_users++ == 0 && TTF_Init() != 0) {
        ttf_users = 0;
        err_set("SDL2_ttf could not start: %s", TTF_GetError());
        return NULL;
    }
    font = calloc(1, sizeof *font);
    if (font)
        font->ttf = TTF_OpenFont(path, px);
    if (!font || !font->ttf) {
        err_set("cannot open the font '%s': %s", path, font ? TTF_GetError() : "out of memory");
        free(font);
        if (--ttf_users == 0)
            TTF_Quit();
        return NULL;
    }
    return font;
}

void plat_font_close(plat_font *font)
{
    if (!font)
        return;
    TTF_CloseFont(font->ttf);
    free(font);
    if (--ttf_users == 0)
        TTF_Quit();
}

int plat_font_height(const plat_font *font)
{
    return TTF_FontHeight(font->ttf);
}

/* Copies a rendered surface into RGBA bytes. */
static bool surface_to_rgba(SDL_Surface *s, img_rgba *out)
{
    SDL_Surface *rgba;

    out->px = NULL;
    out->w = out->h = 0;
    if (!s)
        return err_set("cannot render text: %s", TTF_GetError());
    rgba = SDL_ConvertSurfaceFormat(s, SDL_PIXELFORMAT_ABGR8888, 0); /* bytes R,G,B,A */
    SDL_FreeSurface(s);
    if (!rgba)
        return err_set("cannot convert text: %s", SDL_GetError());
    out->px = malloc((size_t)rgba->w * (size_t)rgba->h * 4);
    if (!out->px) {
        SDL_FreeSurface(rgba);
        return err_set("out of memory");
    }
    SDL_LockSurface(rgba);
    for (int y = 0; y < rgba->h; ++y)
        memcpy(out->px + (size_t)y * rgba->w * 4, (const uint8_t *)rgba->pixels + (size_t)y * rgba->pitch,
               (size_t)rgba->w * 4);
    SDL_UnlockSurface(rgba);
    out->w = rgba->w;
    out->h = rgba->h;
    SDL_FreeSurface(rgba);
    return true;
}

bool plat_glyph_render(plat_font *font, uint32_t codepoint, img_rgba *out, int *advance)
{
    SDL_Color white = {255, 255, 255, 255};
    char utf8[5] = {0};
    int minx, maxx, miny, maxy, adv = 0;

    if (codepoint < 0x80) {
        utf8[0] = (char)codepoint;
    } else if (codepoint < 0x800) {
        utf8[0] = (char)(0xC0 | codepoint >> 6);
        utf8[1] = (char)(0x80 | (codepoint & 0x3F));
    } else if (codepoint < 0x10000) {
        utf8[0] = (char)(0xE0 | codepoint >> 12);
        utf8[1] = (char)(0x80 | (codepoint >> 6 & 0x3F));
        utf8[2] = (char)(0x80 | (codepoint & 0x3F));
    } else {
        utf8[0] = (char)(0xF0 | codepoint >> 18);
        utf8[1] = (char)(0x80 | (codepoint >> 12 & 0x3F));
        utf8[2] = (char)(0x80 | (codepoint >> 6 & 0x3F));
        utf8[3] = (char)(0x80 | (codepoint & 0x3F));
    }
    if (TTF_GlyphMetrics32(font->ttf, codepoint, &minx, &maxx, &miny, &maxy, &adv) != 0)
        adv = 0;
    if (codepoint == ' ') {
        out->w = 1;
        out->h = 1;
        out->px = calloc(1, 4);
        *advance = adv;
        return out->px != NULL;
    }
    if (!surface_to_rgba(TTF_RenderUTF8_Blended(font->ttf, utf8, white), out))
        return false;
    *advance = adv > 0 ? adv : out->w;
    return true;
}
