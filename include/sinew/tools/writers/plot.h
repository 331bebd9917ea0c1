/* sinew/tools/writers/plot.h: line charts in an indexed picture, for the
 * tools' figures (`sinew compress --plot`), written with sw_png_write_file.
 *
 * The picture is an sw_raster (sinew/tools/writers/raster.h) used in 2D: its
 * text (sw_raster_text) and its palette, set by sw_plot_init: index 0 the
 * white background, 1 light grey (for series in the background), 2 the grid
 * lines, 3 black ink, and SW_PLOT_COLORS distinct colours from
 * sw_plot_color(0) up.
 *
 * Layout (sw_plot_draw): the title in the top band; the plot area framed in
 * ink, with grid lines and labels at "nice" steps (1, 2 or 5 times a power
 * of ten, sw_plot_nice_step) on the left (y) and below (x); the x axis's
 * name under its labels, the y axis's above the area; the legend right of
 * the area (a swatch and the name of each named series, in order). Data
 * maps linearly into the area, y up, rounded to the nearest pixel:
 *
 *     px = x0 + (x - x_min) / (x_max - x_min) * (x1 - x0)
 *     py = y1 - (y - y_min) / (y_max - y_min) * (y1 - y0)
 *
 * with the area's corners (x0, y0) top left and (x1, y1) bottom right, both
 * inside it; points beyond the scales are clamped to its edges.
 */
#ifndef SINEW_TOOLS_PLOT_H
#define SINEW_TOOLS_PLOT_H

#include "sinew/tools/writers/raster.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SW_PLOT_BACKGROUND 0
#define SW_PLOT_FAINT 1 /* light grey */
#define SW_PLOT_COLORS 10
#define SW_PLOT_TEXT 2 /* text scale: glyphs of 10 x 14 pixels */

/* Palette index of distinct colour k (0..SW_PLOT_COLORS - 1). */
static inline uint8_t sw_plot_color(uint32_t k) {
    return (uint8_t)(SW_RASTER_FIRST_MATERIAL + k % SW_PLOT_COLORS);
}

/* One polyline: count points (x[i], y[i]), drawn width pixels wide (1..3)
 * in palette index `index`. */
typedef struct sw_plot_series {
    const char* name; /* legend text; NULL: not in the legend */
    const float* x;
    const float* y;
    uint32_t count;
    uint8_t index;
    uint8_t width;
} sw_plot_series;

typedef struct sw_plot_desc {
    const char* title;   /* optional */
    const char* x_label; /* optional */
    const char* y_label; /* optional */
    float x_min, x_max;  /* the scales: finite, max > min */
    float y_min, y_max;
    const sw_plot_series* series; /* drawn last to first (the first on top); legend in order */
    uint32_t series_count;
} sw_plot_desc;

/* The plot area in pixels, corners inclusive. */
typedef struct sw_plot_area {
    int32_t x0, y0, x1, y1;
} sw_plot_area;

/* sw_raster_init, then the plot's palette (the top of this header) and the
 * picture cleared to the background. Fails: as sw_raster_init. */
SINEW_API sw_result sw_plot_init(sw_raster* r, uint32_t width, uint32_t height,
                                 const sw_allocator* alloc);

/* A step of 1, 2 or 5 times a power of ten giving at most `ticks` steps
 * over span (> 0, finite); 0 for a bad span or ticks 0. */
SINEW_API float sw_plot_nice_step(float span, uint32_t ticks);

/* Draws the chart (layout at the top) on r (from sw_plot_init) and returns
 * its plot area in *area (optional). Fails: INVALID_ARGUMENT (NULL r or d,
 * series NULL with a count, a series without points or with a width outside
 * 1..3, scales not finite or max <= min); LIMIT (the picture too small for
 * the labels and legend: under 80 x 60 pixels of area). */
SINEW_API sw_result sw_plot_draw(sw_raster* r, const sw_plot_desc* d, sw_plot_area* area);

#ifdef __cplusplus
}
#endif

#endif
