/* Line charts in an indexed picture: axes, grid, labels, legend, polylines. */
#include "sinew/tools/writers/plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SW__PLOT_GAP 8                                   /* pixels between parts */
#define SW__PLOT_LINE (SW_RASTER_GLYPH_H * SW_PLOT_TEXT) /* text height */
#define SW__PLOT_TICKS 6u
#define SW__PLOT_SWATCH 24

/* Distinct colours for series (a qualitative palette, dark enough on white). */
static const uint8_t sw__plot_colors[SW_PLOT_COLORS][3] = {
    {31, 119, 180}, {214, 39, 40},   {44, 160, 44},  {255, 127, 14}, {148, 103, 189},
    {140, 86, 75},  {227, 119, 194}, {23, 190, 207}, {188, 189, 34}, {90, 90, 90}};

static void sw__plot_rgb(sw_raster* r, uint32_t i, uint8_t red, uint8_t green, uint8_t blue) {
    r->palette[3 * i] = red;
    r->palette[3 * i + 1] = green;
    r->palette[3 * i + 2] = blue;
}

sw_result sw_plot_init(sw_raster* r, uint32_t width, uint32_t height, const sw_allocator* alloc) {
    const sw_result res = sw_raster_init(r, width, height, alloc);
    if (res != SW_RESULT_OK) return res;
    sw__plot_rgb(r, SW_PLOT_BACKGROUND, 255, 255, 255);
    sw__plot_rgb(r, SW_PLOT_FAINT, 205, 205, 205);
    sw__plot_rgb(r, 2, 232, 232, 232); /* grid */
    for (uint32_t k = 0; k < SW_PLOT_COLORS; ++k)
        sw__plot_rgb(r, sw_plot_color(k), sw__plot_colors[k][0], sw__plot_colors[k][1],
                     sw__plot_colors[k][2]);
    memset(r->pixels, SW_PLOT_BACKGROUND, (size_t)width * height);
    return SW_RESULT_OK;
}

float sw_plot_nice_step(float span, uint32_t ticks) {
    if (!(span > 0.0f) || !isfinite(span) || ticks == 0) return 0.0f;
    const double raw = (double)span / ticks;
    const double p = pow(10.0, floor(log10(raw)));
    const double m = raw / p;
    return (float)(p * (m <= 1.0 ? 1.0 : m <= 2.0 ? 2.0 : m <= 5.0 ? 5.0 : 10.0));
}

/* A square brush of w pixels centred on (x, y). */
static void sw__plot_dot(sw_raster* r, int32_t x, int32_t y, uint32_t w, uint8_t index) {
    const int32_t lo = -(int32_t)(w - 1u) / 2;
    for (int32_t dy = lo; dy < lo + (int32_t)w; ++dy)
        for (int32_t dx = lo; dx < lo + (int32_t)w; ++dx) {
            const int64_t xx = (int64_t)x + dx, yy = (int64_t)y + dy;
            if (xx >= 0 && yy >= 0 && xx < (int64_t)r->width && yy < (int64_t)r->height)
                r->pixels[yy * (int64_t)r->width + xx] = index;
        }
}

static void sw__plot_line(sw_raster* r, int32_t ax, int32_t ay, int32_t bx, int32_t by, uint32_t w,
                          uint8_t index) {
    const int32_t n = abs(bx - ax) > abs(by - ay) ? abs(bx - ax) : abs(by - ay);
    for (int32_t i = 0; i <= n; ++i) {
        const double t = n ? (double)i / n : 0.0;
        sw__plot_dot(r, (int32_t)lround(ax + t * (bx - ax)), (int32_t)lround(ay + t * (by - ay)), w,
                     index);
    }
}

/* Pixel of data value v on a scale [lo, hi] mapped to [p0, p1], clamped. */
static int32_t sw__plot_map(double v, double lo, double hi, int32_t p0, int32_t p1) {
    const double t = fmin(1.0, fmax(0.0, (v - lo) / (hi - lo)));
    return (int32_t)lround(p0 + t * (p1 - p0));
}

/* Tick k of a scale (value, as text with the step's decimals). */
static double sw__plot_tick(float lo, float step, uint32_t k, char* text, size_t cap) {
    const double v = (ceil((double)lo / step - 1e-6) + k) * step;
    const int decimals = step >= 1.0f ? 0 : (int)ceil(-log10((double)step) - 1e-6);
    snprintf(text, cap, "%.*f", decimals, fabs(v) < 1e-3 * step ? 0.0 : v);
    return v;
}

static uint32_t sw__plot_ticks(float lo, float hi, float step) {
    return (uint32_t)floor(((double)hi - lo) / step + 1e-6) + 1u;
}

static bool sw__plot_valid(const sw_plot_desc* d) {
    if (!(isfinite(d->x_min) && isfinite(d->x_max) && isfinite(d->y_min) && isfinite(d->y_max)) ||
        !(d->x_max > d->x_min) || !(d->y_max > d->y_min) || (d->series_count && !d->series))
        return false;
    for (uint32_t s = 0; s < d->series_count; ++s) {
        const sw_plot_series* p = &d->series[s];
        if (!p->x || !p->y || p->count == 0 || p->width < 1 || p->width > 3) return false;
    }
    return true;
}

/* Width of the legend: swatch, gap and the longest name (0 without names). */
static int32_t sw__plot_legend_width(const sw_plot_desc* d) {
    uint32_t w = 0;
    for (uint32_t s = 0; s < d->series_count; ++s)
        if (d->series[s].name) {
            const uint32_t t = sw_raster_text_width(d->series[s].name, SW_PLOT_TEXT);
            w = t > w ? t : w;
        }
    return w ? (int32_t)w + SW__PLOT_SWATCH + 3 * SW__PLOT_GAP : 0;
}

/* The area left for the data once the labels are placed. */
static sw_plot_area sw__plot_layout(const sw_raster* r, const sw_plot_desc* d, float ystep) {
    uint32_t label = 0;
    char text[64];
    for (uint32_t k = 0; k < sw__plot_ticks(d->y_min, d->y_max, ystep); ++k) {
        sw__plot_tick(d->y_min, ystep, k, text, sizeof text);
        const uint32_t w = sw_raster_text_width(text, SW_PLOT_TEXT);
        label = w > label ? w : label;
    }
    const int32_t band = SW__PLOT_LINE + SW__PLOT_GAP;
    sw_plot_area a;
    a.x0 = 2 * SW__PLOT_GAP + (int32_t)label;
    a.y0 = SW__PLOT_GAP + (d->title ? band : 0) + (d->y_label ? band : 0) + SW__PLOT_LINE / 2;
    a.x1 = (int32_t)r->width - 1 - 2 * SW__PLOT_GAP - sw__plot_legend_width(d);
    a.y1 = (int32_t)r->height - 1 - SW__PLOT_GAP - band - (d->x_label ? band : 0);
    return a;
}

/* Grid lines and tick labels of both scales. */
static void sw__plot_axes(sw_raster* r, const sw_plot_desc* d, const sw_plot_area* a, float xstep,
                          float ystep) {
    char text[64];
    for (uint32_t k = 0; k < sw__plot_ticks(d->y_min, d->y_max, ystep); ++k) {
        const double v = sw__plot_tick(d->y_min, ystep, k, text, sizeof text);
        const int32_t y = sw__plot_map(v, d->y_min, d->y_max, a->y1, a->y0);
        sw__plot_line(r, a->x0, y, a->x1, y, 1, 2);
        const int32_t w = (int32_t)sw_raster_text_width(text, SW_PLOT_TEXT);
        sw_raster_text(r, a->x0 - SW__PLOT_GAP - w, y - SW__PLOT_LINE / 2, text, SW_PLOT_TEXT,
                       SW_RASTER_INK);
    }
    for (uint32_t k = 0; k < sw__plot_ticks(d->x_min, d->x_max, xstep); ++k) {
        const double v = sw__plot_tick(d->x_min, xstep, k, text, sizeof text);
        const int32_t x = sw__plot_map(v, d->x_min, d->x_max, a->x0, a->x1);
        sw__plot_line(r, x, a->y0, x, a->y1, 1, 2);
        const int32_t w = (int32_t)sw_raster_text_width(text, SW_PLOT_TEXT);
        sw_raster_text(r, x - w / 2, a->y1 + SW__PLOT_GAP, text, SW_PLOT_TEXT, SW_RASTER_INK);
    }
    const int32_t band = SW__PLOT_LINE + SW__PLOT_GAP;
    if (d->x_label) {
        const int32_t w = (int32_t)sw_raster_text_width(d->x_label, SW_PLOT_TEXT);
        sw_raster_text(r, (a->x0 + a->x1 - w) / 2, a->y1 + SW__PLOT_GAP + band, d->x_label,
                       SW_PLOT_TEXT, SW_RASTER_INK);
    }
    if (d->y_label)
        sw_raster_text(r, SW__PLOT_GAP, a->y0 - SW__PLOT_LINE / 2 - band, d->y_label, SW_PLOT_TEXT,
                       SW_RASTER_INK);
    if (d->title)
        sw_raster_text(r, SW__PLOT_GAP, SW__PLOT_GAP, d->title, SW_PLOT_TEXT, SW_RASTER_INK);
}

static void sw__plot_legend(sw_raster* r, const sw_plot_desc* d, const sw_plot_area* a) {
    const int32_t x = a->x1 + 2 * SW__PLOT_GAP;
    int32_t y = a->y0;
    for (uint32_t s = 0; s < d->series_count; ++s) {
        const sw_plot_series* p = &d->series[s];
        if (!p->name) continue;
        if (y + SW__PLOT_LINE > (int32_t)r->height) break;
        sw__plot_line(r, x, y + SW__PLOT_LINE / 2, x + SW__PLOT_SWATCH, y + SW__PLOT_LINE / 2,
                      p->width + 1u, p->index);
        sw_raster_text(r, x + SW__PLOT_SWATCH + SW__PLOT_GAP, y, p->name, SW_PLOT_TEXT,
                       SW_RASTER_INK);
        y += SW__PLOT_LINE + SW__PLOT_GAP;
    }
}

sw_result sw_plot_draw(sw_raster* r, const sw_plot_desc* d, sw_plot_area* area) {
    if (!r || !r->pixels || !d || !sw__plot_valid(d)) return SW_RESULT_INVALID_ARGUMENT;
    const float xstep = sw_plot_nice_step(d->x_max - d->x_min, SW__PLOT_TICKS);
    const float ystep = sw_plot_nice_step(d->y_max - d->y_min, SW__PLOT_TICKS);
    const sw_plot_area a = sw__plot_layout(r, d, ystep);
    if (a.x1 - a.x0 < 80 || a.y1 - a.y0 < 60 || !(xstep > 0.0f) || !(ystep > 0.0f))
        return SW_RESULT_LIMIT;
    sw__plot_axes(r, d, &a, xstep, ystep);
    for (uint32_t s = d->series_count; s-- > 0;) {
        const sw_plot_series* p = &d->series[s];
        int32_t px = 0, py = 0;
        for (uint32_t i = 0; i < p->count; ++i) {
            const int32_t x = sw__plot_map(p->x[i], d->x_min, d->x_max, a.x0, a.x1);
            const int32_t y = sw__plot_map(p->y[i], d->y_min, d->y_max, a.y1, a.y0);
            sw__plot_line(r, i ? px : x, i ? py : y, x, y, p->width, p->index);
            px = x, py = y;
        }
    }
    const int32_t box[5][2] = {
        {a.x0, a.y0}, {a.x1, a.y0}, {a.x1, a.y1}, {a.x0, a.y1}, {a.x0, a.y0}};
    for (int k = 0; k < 4; ++k)
        sw__plot_line(r, box[k][0], box[k][1], box[k + 1][0], box[k + 1][1], 1, SW_RASTER_INK);
    sw__plot_legend(r, d, &a);
    if (area) *area = a;
    return SW_RESULT_OK;
}
