/* view_internal.h - what the files of the view share, and only they: the
 * layout of a frame, the places to click it drew, the view's caches, the
 * palette, small drawing helpers.
 *
 *   view.c      create, fonts, text helpers, the frame (view_draw), the
 *               live regions, the tooltip over text cut with an ellipsis
 *   clicks.c    the places to click the panels add as they draw; the hit
 *               test and the targets --print-state lists, both read from them
 *   layout.c    where everything goes for a window size, from its rules
 *   grids.c     the input and output grids, the 3x3 window, thread owners
 *   kernel.c    the kernel cells and the arithmetic panel
 *   thumbs.c    the whole-image thumbnails, and the pictures of the whole
 *               input and output that the large picture shows too
 *   large.c     the large picture (I): both pictures in the grids' place
 *   inside.c    inside the GPU (O): one block's tile, its warp, the counts
 *   status.c    the title, chips, status lines, lesson panel, buttons
 *   charts.c    the timing bars, the memory gauge, the verdicts, the chain
 *   sweep.c     the size sweep and the filter sweep
 *   roofline.c  the filter sweep's roofline: each engine's roofs and points
 *   geometry.c  the geometry view: stride, dilation, padding on a piece
 *   overlays.c  the lesson menu, the help, the notice, the progress bar
 *
 * The view reads the app and its scene as const; it keeps only its own
 * state: caches (fonts, textures, the thumbnails' progress) and what the
 * last frame drew (its layout, its places to click, its text cut with an
 * ellipsis). Colours follow docs/ARCHITECTURE.md, section 5: input blue,
 * output green, the 3x3 window a shaded frame; meaning is never carried by
 * red versus green. */
#ifndef CONVIS_VIEW_INTERNAL_H
#define CONVIS_VIEW_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "../view.h"
#include "platform/platform.h"
#include "render/render.h"
#include "render/text.h"
#include "../i18n.h"

typedef struct rect {
    float x, y, w, h;
} rect;

static const rnd_color BG = {0.10f, 0.11f, 0.13f, 1};
static const rnd_color PANEL = {0.14f, 0.15f, 0.18f, 1};
static const rnd_color TEXT = {0.93f, 0.94f, 0.95f, 1};
static const rnd_color DIM = {0.62f, 0.65f, 0.70f, 1};
static const rnd_color FAINT = {0.40f, 0.42f, 0.46f, 1};
static const rnd_color BLUE = {0.35f, 0.62f, 1.00f, 1};
static const rnd_color GREEN = {0.40f, 0.85f, 0.45f, 1};
static const rnd_color WINDOW = {1.00f, 0.85f, 0.25f, 1}; /* the 3x3 window: amber */
static const rnd_color HOVER = {0.95f, 0.45f, 0.95f, 1};  /* the hovered receptive field: magenta */
static const rnd_color BANNER_BG = {0.55f, 0.12f, 0.10f, 1};
static const rnd_color WHITE = {1, 1, 1, 1};
static const rnd_color VERMILION = {0.84f, 0.37f, 0.00f, 1}; /* the filter sweep's two passes (Okabe-Ito) */
static const rnd_color BLACK = {0, 0, 0, 1};
/* phases of the timing chart */
static const rnd_color PHASE_COLOR[ENG_PHASE_COUNT] = {
    {0.90f, 0.60f, 0.00f, 1}, /* upload: orange */
    {0.34f, 0.71f, 0.91f, 1}, /* compute: sky blue */
    {0.80f, 0.47f, 0.65f, 1}, /* download: reddish purple */
    {0.00f, 0.62f, 0.45f, 1}, /* present: bluish green */
    {0.55f, 0.55f, 0.58f, 1}, /* overhead: grey */
};
/* blocks in thread view: the Okabe-Ito palette, told apart by lightness too */
static const rnd_color BLOCK_COLOR[8] = {
    {0.90f, 0.62f, 0.00f, 1}, {0.34f, 0.71f, 0.91f, 1}, {0.00f, 0.62f, 0.45f, 1}, {0.94f, 0.89f, 0.26f, 1},
    {0.00f, 0.45f, 0.70f, 1}, {0.84f, 0.37f, 0.00f, 1}, {0.80f, 0.47f, 0.65f, 1}, {0.60f, 0.60f, 0.60f, 1},
};

/* Font sizes kept open: three for each text size the layout tries, and
 * more for the cells, the kernel, the products, and the help and a
 * lesson's narration when they are made smaller to fit; when all are open,
 * the one used longest ago goes, never one of this frame's (view_font_px). */
#define MAX_FONTS 32
#define THUMB_MAX 1024 /* thumbnails are downsampled to at most this many pixels a side */

typedef struct sized_font {
    int px;
    unsigned long used; /* the frame that last used it */
    plat_font *pf;
    rnd_font *rf;
} sized_font;

typedef struct layout {
    float W, H;      /* the window's size */
    float u;         /* its height over the height the layout's rules are made at */
    float pad, line; /* the padding, and a line of the normal font */
    rect title, banner, notice, chips, input, input_cells, output, middle, sweep, kernel, arith, thumb_in, thumb_out,
        status, chart;
    rect preset[9], border, flip, display, gpu_button, play_button, large_button;
    float cell;        /* grid cell size in pixels */
    int vx, vy, vn;    /* the cells the grids show: vn x vn outputs from (vx, vy), of the scene's region */
    int fit;           /* the most cells across the grids have room for with their values */
    bool values;       /* the grids are about values: zoomed no further out than the usual region */
    int digit_px;      /* the values' digits in the cells (0: none, the cells too small to read them) */
    int least_px;      /* the least text a room reads: grid digits, and in presenter mode all text */
    bool presenter;    /* presenter mode: text from the window's height, decoration gone */
    float status_rows; /* the status block's lines above the buttons, in small lines */
    float text_scale;  /* the text size in force: the one asked for, or less where the window is short */
    bool top_cut;      /* the banner and the notice cut to a line each (their whole text under the
                          pointer): at the least text size the window is still too short for them whole */
    bool sweep_shown;  /* the sweep was drawn in `sweep` (the live regions say so) */
    const char *gpu_label, *large_label; /* the buttons' words, as long as the row has room for */
    bool keys_hint;                      /* "F1 or ?  every key" fits after them */
    /* input: the input grid with its ring of the cells around the region
     * shown; input_cells: the region itself, the same cells as output;
     * sweep: the grids' place, all of it, which the sweep, the large
     * picture and the inside view fill in their turn; arith: the
     * arithmetic, beside the large picture there (large.c sets it) */
} layout;

#define VW_MAX_CUT 48

/* How a point inside a place to click gives its action's argument. */
typedef enum vw_map {
    VW_MAP_NONE,   /* it gives none: the action's own, or the place's index (arg) */
    VW_MAP_CELL,   /* a cell of a grid: the image pixel (x, y) under the point */
    VW_MAP_PIXEL,  /* a picture of the whole image: the image pixel (x, y) under the point */
    VW_MAP_THREAD, /* a block's tile: the index (arg) of the thread under the point */
    VW_MAP_TAP,    /* a kernel's cells, cols by rows: the index (arg) of the tap under the point */
} vw_map;

/* A place to click, as a panel drew it. */
typedef struct vw_click {
    rect r;
    const app_action *action; /* NULL: it covers what is under it and runs nothing */
    int arg;                  /* VW_MAP_NONE: the index it gives (-1: the action's own) */
    vw_map map;
    int x0, y0;     /* VW_MAP_CELL: the image pixel of the cell at the corner */
    int cols, rows; /* CELL, PIXEL: the image's size; THREAD: the block's threads; TAP: the kernel's */
    float cell;     /* CELL, THREAD, TAP: a cell's side in window pixels */
    bool pans;      /* a drag here pans the grids */
    bool hovers;    /* the pointer here hovers the output under it */
} vw_click;

/* Places a frame may have: the chips, the buttons, the kernel's cells, the
 * grids or pictures, and the lesson menu's rows over a cover. */
#define VW_MAX_CLICKS (32 + APP_MAX_LESSONS)

struct view {
    sized_font fonts[MAX_FONTS];
    int nfonts;
    unsigned long frame; /* frames laid out and drawn: the fonts' clock */
    char lang[8];        /* the fonts cover this language */
    rnd_font *font, *small, *big;
    layout L;
    bool hide_window; /* a lesson's question asks where the window is: the grids draw none */
    /* the pictures of the whole input and output */
    rnd_texture thumb_in, thumb_out;
    rnd_texture plane;              /* the GPU's result, from its GL buffer */
    unsigned long plane_run;        /* which GPU run the plane shows (the scene's gpu.runs) */
    bool plane_ok;                  /* the plane could be made (else the copy that came back shows) */
    img_rgba out_px;                /* the output thumbnail's pixels, whose changed rows are sent */
    int thumb_step;                 /* image pixels per thumbnail pixel */
    unsigned long thumb_image;      /* which image the thumbnails show (the scene's image_generation) */
    long thumb_done;                /* outputs shown in the output thumbnail */
    unsigned long thumb_redo;       /* the scene's walk.redo the thumbnail has caught up with */
    unsigned long thumb_gpu_runs;   /* ... and its gpu.runs: the GPU result it shows */
    int thumb_phase, thumb_display; /* ... in that phase and display mode */
    double thumb_gpu_at;            /* ... and that GPU result's moment (the scene's gpu.shown_at) */
    /* text cut with an ellipsis this frame, whose whole text the pointer
     * shows on hover */
    struct {
        rect r;
        char text[512];
    } cut[VW_MAX_CUT];
    int cut_count;
    float pointer_x, pointer_y;     /* where the mouse is (negative: outside) */
    rnd_texture heat;               /* the runs without the barrier: where outputs came out wrong */
    unsigned long heat_for;         /* ... for that set of runs (scene's inside.gpu_generation) */
    rnd_texture lab_pic;            /* the kernel lab's outputs, the wrong ones amber */
    unsigned long lab_for;          /* ... for that check (app lab.generation; 0: none) */
    char tooltip[512];              /* the whole text shown this frame ("" none) */
    rnd_texture chan_in, chan_out[LAYER_MAX_CHANNELS]; /* the channels view's pictures ... */
    unsigned long chan_made;                           /* ... for that layer and image (channels.made) */
    int chan_display;                                  /* ... in that display mode */
    unsigned long colour_image; /* the image (scene's image_generation + 1) colour_of is for; 0: none yet */
    bool colour_of;             /* ... whether it has colours, not all grey (img_is_colour, once an image) */
    vw_click clicks[VW_MAX_CLICKS]; /* the places to click this frame, in the order drawn */
    int click_count;
};

/* view.c: fonts, text and drawing helpers */
rnd_font *view_font_px(view *v, int px);
float vw_text_w(rnd_font *f, const char *s);
float vw_lh(rnd_font *f);
void vw_text_fit(view *v, rnd_font *f, const char *s, float x, float y, float max_w, rnd_color c);
void vw_text_center(rnd_font *f, const char *s, rect r, rnd_color c);
bool vw_inside(rect r, float x, float y);
rnd_color vw_mix(rnd_color a, rnd_color b, float t);
rnd_color vw_alpha(rnd_color c, float a);
void vw_chip(view *v, rect r, const char *label, bool on, rnd_color accent);
void vw_dashed_frame(float x, float y, float w, float h, float t, rnd_color c); /* t: thickness */
const char *vw_T(const view *v, const char *en);                                /* the window's words in its language */
void vw_preset_label(int i, char *buf, size_t size); /* a filter chip's words: "3 gaussian" */

/* The GPU phase in words, saying what the GPU engine really is: "on the
 * GPU", "on a software GPU: this CPU", "on a virtual GPU"; in English, for
 * vw_T to translate. */
const char *vw_gpu_title(const scene *s);      /* "every output at once on ..." */
const char *vw_gpu_grid_title(const scene *s); /* "all at once, on ..." */

/* clicks.c: the places to click, added as they are drawn (the last added
 * is on top); a button gives its action with index arg (-1: the action's
 * own); a cover takes the clicks of what it lies over */
void vw_clicks_clear(view *v);
void vw_click_add(view *v, vw_click c);
void vw_click_button(view *v, rect r, const app_action *action, int arg);
void vw_click_cover(view *v, rect r);

/* layout.c */
void view_layout(view *v, const app *a, int W, int H);
void vw_banner_text(const scene *s, char *buf, size_t size);

/* overlays.c: the notice's height while it shows (0: none) */
float vw_notice_height(view *v, const scene *s);

/* grids.c; a cell's colour for grey level g (0..255) in a channel's hue, and the ink readable on a colour */
rnd_color vw_cell_color(uint8_t g, rnd_color hue);
rnd_color vw_ink_for(rnd_color c);
void vw_cell_rect(const layout *L, rect grid, const scene *s, int x, int y, rect *r);
rnd_color vw_owner_color(const scene *s, int x, int y, int bx, int by);
void vw_draw_grids(view *v, const scene *s, bool hide_window, double now_ms);
/* While a lesson's question asks for a cell: the grid it asks about, clicked, answers it. */
void vw_grid_answer_clicks(view *v, const app *a);

/* kernel.c */
void vw_draw_kernel(view *v, const app *a);
float vw_draw_arithmetic(view *v, const scene *s); /* returns the y under it */

/* thumbs.c */
rect vw_thumb_fit(const scene *s, rect box);
void vw_draw_thumbs(view *v, const scene *s);
/* The whole input (which 0) or output (1) in rectangle r: the output as
 * the walk has it, or the GPU's result, with thread view's owners and the
 * tiles over it. */
void vw_draw_picture(view *v, const scene *s, int which, rect r);

/* large.c: the two pictures side by side in L->sweep's place (I) */
void vw_draw_large(view *v, const app *a);
/* inside.c: inside the GPU (O), in the grids' place */
void vw_draw_inside(view *v, const app *a);

/* status.c */
void vw_draw_top(view *v, const scene *s);
void vw_draw_status(view *v, const scene *s);
void vw_draw_lesson(view *v, const app *a);
void vw_draw_lab(view *v, const app *a, rect box); /* the kernel lab (lab.c) */
void vw_draw_buttons(view *v, const app *a);

/* charts.c: the timing chart, or the chain's panel, in L->chart */
void vw_draw_chart(view *v, const app *a);
float vw_chart_height(view *v, const app *a, float w); /* the height its words need, w wide */

/* sweep.c: the size sweep in rectangle box */
void vw_draw_sweep(view *v, const app *a, rect box);
void vw_draw_filter_sweep(view *v, const app *a, rect box);
/* each engine's colour, name and marker in the sweeps and the roofline */
rnd_color vw_sweep_color(int k);
const char *vw_sweep_engine(const scene *s, int k);
void vw_sweep_marker(int k, float x, float y, float m, rnd_color color);
/* roofline.c: the filter sweep's roofline in rectangle box */
void vw_draw_roofline(view *v, const app *a, rect box);
/* channels.c: the channels view (Shift+C) in rectangle box */
void vw_draw_channels(view *v, const app *a, rect box);
/* geometry.c: the geometry view (, . /) in rectangle box */
void vw_draw_geometry(view *v, const app *a, rect box);

/* overlays.c */
void vw_draw_menu(view *v, const app *a);
void vw_draw_help(view *v);
void vw_draw_notice(view *v, const scene *s);
void vw_draw_progress(view *v, const scene *s);

#endif
