/* Software rasterizer: ground grid, flat-shaded skinned triangles, z-buffer. */
#include "sinew/tools/writers/raster.h"

#include <math.h>
#include <string.h>

#include "sinew/core/skin.h"
#include "sinew/tools/writers/png.h"

#define SW__RASTER_SKY 0
#define SW__RASTER_GROUND 1
#define SW__RASTER_GRID 2
#define SW__RASTER_FAR 60.0f

static void sw__set_color(sw_raster* r, uint32_t i, uint8_t red, uint8_t green, uint8_t blue) {
    r->palette[3 * i + 0] = red;
    r->palette[3 * i + 1] = green;
    r->palette[3 * i + 2] = blue;
}

void sw_raster_set_material(sw_raster* r, uint32_t m, uint8_t red, uint8_t green, uint8_t blue) {
    if (!r || m >= SW_RASTER_MATERIALS) return;
    for (uint32_t s = 0; s < SW_RASTER_SHADES; ++s) {
        const float k = 0.25f + 0.75f * (float)s / (float)(SW_RASTER_SHADES - 1);
        sw__set_color(r, sw_raster_material_index(m, s), (uint8_t)lroundf((float)red * k),
                      (uint8_t)lroundf((float)green * k), (uint8_t)lroundf((float)blue * k));
    }
}

sw_result sw_raster_init(sw_raster* r, uint32_t width, uint32_t height, const sw_allocator* alloc) {
    if (!r) return SW_RESULT_INVALID_ARGUMENT;
    memset(r, 0, sizeof *r);
    if (width == 0 || height == 0 || width > SW_RASTER_MAX_SIDE || height > SW_RASTER_MAX_SIDE)
        return SW_RESULT_LIMIT;
    if (alloc) r->alloc_ = *alloc;
    const size_t n = (size_t)width * height;
    r->pixels = (uint8_t*)sw_alloc(&r->alloc_, n, 16);
    r->depth = (float*)sw_alloc(&r->alloc_, n * sizeof(float), 16);
    if (!r->pixels || !r->depth) {
        sw_raster_free(r);
        return SW_RESULT_OUT_OF_MEMORY;
    }
    r->width = width;
    r->height = height;
    sw__set_color(r, SW__RASTER_SKY, 214, 226, 238);
    sw__set_color(r, SW__RASTER_GROUND, 168, 172, 160);
    sw__set_color(r, SW__RASTER_GRID, 128, 132, 122);
    sw__set_color(r, 3, 0, 0, 0);
    for (uint32_t m = 0; m < SW_RASTER_MATERIALS; ++m)
        sw_raster_set_material(r, m, 200, 200, 200);
    memset(r->pixels, SW__RASTER_SKY, n);
    memset(r->depth, 0, n * sizeof(float));
    return SW_RESULT_OK;
}

void sw_raster_free(sw_raster* r) {
    if (!r) return;
    const size_t n = (size_t)r->width * r->height;
    sw_free(&r->alloc_, r->pixels, n);
    sw_free(&r->alloc_, r->depth, n * sizeof(float));
    sw_free(&r->alloc_, r->skinned_, (size_t)r->skinned_capacity_ * 3u * sizeof(float));
    const sw_allocator a = r->alloc_;
    memset(r, 0, sizeof *r);
    r->alloc_ = a;
}

sw_xform sw_raster_look_at(sw_vec3 eye, sw_vec3 target) {
    const sw_vec3 z = sw_vec3_normalize(sw_vec3_sub(eye, target)); /* camera +Z points back */
    const sw_vec3 x = sw_vec3_normalize(sw_vec3_cross(sw_vec3_make(0, 1, 0), z));
    const sw_vec3 y = sw_vec3_cross(z, x);
    sw_mat4 m = sw_mat4_identity();
    m.m[0] = x.x, m.m[1] = x.y, m.m[2] = x.z;
    m.m[4] = y.x, m.m[5] = y.y, m.m[6] = y.z;
    m.m[8] = z.x, m.m[9] = z.y, m.m[10] = z.z;
    sw_xform v = sw_xform_identity();
    v.t = eye;
    v.r = sw_quat_from_mat4(&m);
    return v;
}

/* Pixels per unit of tan(angle) (the focal length in pixels). */
static float sw__focal(const sw_raster* r, const sw_raster_camera* cam) {
    return 0.5f * (float)r->height / tanf(0.5f * cam->fov_y);
}

static float sw__near(const sw_raster_camera* cam) {
    return cam->near_plane > 0.0f ? cam->near_plane : 0.05f;
}

bool sw_raster_project(const sw_raster* r, const sw_raster_camera* cam, sw_vec3 p, float* x,
                       float* y, float* depth) {
    const sw_vec3 c = sw_quat_rotate(sw_quat_conjugate(cam->view.r), sw_vec3_sub(p, cam->view.t));
    const float d = -c.z;
    if (!(d >= sw__near(cam))) return false;
    const float f = sw__focal(r, cam);
    *x = 0.5f * (float)r->width + c.x / d * f;
    *y = 0.5f * (float)r->height - c.y / d * f;
    *depth = d;
    return true;
}

void sw_raster_clear(sw_raster* r, const sw_raster_camera* cam) {
    if (!r || !cam || !r->pixels) return;
    const float f = sw__focal(r, cam);
    const sw_vec3 eye = cam->view.t;
    for (uint32_t py = 0; py < r->height; ++py) {
        for (uint32_t px = 0; px < r->width; ++px) {
            const size_t i = (size_t)py * r->width + px;
            r->pixels[i] = SW__RASTER_SKY;
            r->depth[i] = 0.0f;
            const sw_vec3 dc =
                sw_vec3_make(((float)px + 0.5f - 0.5f * (float)r->width) / f,
                             -((float)py + 0.5f - 0.5f * (float)r->height) / f, -1.0f);
            const sw_vec3 dw = sw_quat_rotate(cam->view.r, dc);
            if (!(dw.y < 0.0f) || !(eye.y > 0.0f)) continue;
            const float t = -eye.y / dw.y; /* distance along the view axis (dc.z = -1) */
            if (t > SW__RASTER_FAR) continue;
            const float hx = eye.x + dw.x * t, hz = eye.z + dw.z * t;
            /* Half a line width in metres: about one pixel at that distance,
             * widened where the plane is seen at a grazing angle. */
            const float foot = t / f * sqrtf(sw_vec3_dot(dw, dw)) / fmaxf(-dw.y, 0.05f);
            const float w = fminf(0.6f * foot, 0.2f);
            const float fx = hx - floorf(hx), fz = hz - floorf(hz);
            /* Where 1 m spans fewer than 4 pixels lines would only alias: leave them out. */
            const bool line = foot < 0.25f &&
                              (fminf(fx, 1.0f - fx) < w * 0.5f || fminf(fz, 1.0f - fz) < w * 0.5f);
            r->pixels[i] = line ? SW__RASTER_GRID : SW__RASTER_GROUND;
            r->depth[i] = 1.0f / t;
        }
    }
}

static float sw__edge(float ax, float ay, float bx, float by, float px, float py) {
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

static void sw__triangle(sw_raster* r, const float sx[3], const float sy[3], const float iz[3],
                         uint8_t color) {
    const float area = sw__edge(sx[0], sy[0], sx[1], sy[1], sx[2], sy[2]);
    if (!(fabsf(area) > 1e-12f)) return;
    float minx = fminf(sx[0], fminf(sx[1], sx[2])), maxx = fmaxf(sx[0], fmaxf(sx[1], sx[2]));
    float miny = fminf(sy[0], fminf(sy[1], sy[2])), maxy = fmaxf(sy[0], fmaxf(sy[1], sy[2]));
    if (maxx < 0.0f || maxy < 0.0f || minx > (float)r->width || miny > (float)r->height) return;
    const int x0 = (int)fmaxf(floorf(minx), 0.0f);
    const int y0 = (int)fmaxf(floorf(miny), 0.0f);
    const int x1 = (int)fminf(ceilf(maxx), (float)r->width - 1.0f);
    const int y1 = (int)fminf(ceilf(maxy), (float)r->height - 1.0f);
    const float inv = 1.0f / area;
    for (int y = y0; y <= y1; ++y) {
        const float py = (float)y + 0.5f;
        for (int x = x0; x <= x1; ++x) {
            const float px = (float)x + 0.5f;
            const float b0 = sw__edge(sx[1], sy[1], sx[2], sy[2], px, py) * inv;
            const float b1 = sw__edge(sx[2], sy[2], sx[0], sy[0], px, py) * inv;
            const float b2 = 1.0f - b0 - b1;
            if (b0 < 0.0f || b1 < 0.0f || b2 < 0.0f) continue;
            const float z =
                b0 * iz[0] + b1 * iz[1] + b2 * iz[2]; /* 1 / depth is affine on screen */
            const size_t i = (size_t)y * r->width + (size_t)x;
            if (z > r->depth[i]) {
                r->depth[i] = z;
                r->pixels[i] = color;
            }
        }
    }
}

static bool sw__raster_args_ok(const sw_raster* r, const sw_raster_camera* cam, const sw_mesh* mesh,
                               uint32_t m) {
    return r && cam && mesh && r->pixels && m < SW_RASTER_MATERIALS && cam->fov_y > 0.0f &&
           cam->fov_y < 3.14159265f;
}

sw_result sw_raster_draw_positions(sw_raster* r, const sw_raster_camera* cam, const sw_mesh* mesh,
                                   const float* positions, uint32_t m) {
    if (!sw__raster_args_ok(r, cam, mesh, m) || !positions) return SW_RESULT_INVALID_ARGUMENT;
    const sw_vec3 light = sw_vec3_normalize(sw_vec3_make(0.4f, 1.0f, 0.3f));
    const uint32_t* idx = sw_mesh_indices(mesh);
    for (uint32_t t = 0; t + 2 < mesh->indices_count; t += 3) {
        sw_vec3 pts[3];
        for (int k = 0; k < 3; ++k) {
            const float* p = &positions[3u * idx[t + (uint32_t)k]];
            pts[k] = sw_vec3_make(p[0], p[1], p[2]);
        }
        float sx[3], sy[3], iz[3], d;
        bool visible = true;
        for (int k = 0; k < 3 && visible; ++k) {
            visible = sw_raster_project(r, cam, pts[k], &sx[k], &sy[k], &d);
            iz[k] = visible ? 1.0f / d : 0.0f;
        }
        if (!visible) continue;
        const sw_vec3 nrm = sw_vec3_normalize(
            sw_vec3_cross(sw_vec3_sub(pts[1], pts[0]), sw_vec3_sub(pts[2], pts[0])));
        const float lambert = fabsf(sw_vec3_dot(nrm, light)); /* two-sided */
        const float shade = 0.3f + 0.7f * lambert;
        uint32_t s = (uint32_t)(shade * (float)(SW_RASTER_SHADES - 1) + 0.5f);
        if (s >= SW_RASTER_SHADES) s = SW_RASTER_SHADES - 1;
        sw__triangle(r, sx, sy, iz, sw_raster_material_index(m, s));
    }
    return SW_RESULT_OK;
}

sw_result sw_raster_draw_mesh(sw_raster* r, const sw_raster_camera* cam, const sw_mesh* mesh,
                              const sw_mat4* palette, uint32_t m) {
    if (!sw__raster_args_ok(r, cam, mesh, m) || !palette) return SW_RESULT_INVALID_ARGUMENT;
    const uint32_t n = mesh->vertices_count;
    if (n > r->skinned_capacity_) {
        float* p = (float*)sw_alloc(&r->alloc_, (size_t)n * 3u * sizeof(float), 16);
        if (!p) return SW_RESULT_OUT_OF_MEMORY;
        sw_free(&r->alloc_, r->skinned_, (size_t)r->skinned_capacity_ * 3u * sizeof(float));
        r->skinned_ = p;
        r->skinned_capacity_ = n;
    }
    const sw_skin_job job = {.mesh = mesh,
                             .palette = palette,
                             .palette_count = mesh->palette_count,
                             .out_positions = r->skinned_,
                             .out_count = n};
    const sw_result res = sw_skin_job_run(&job);
    if (res != SW_RESULT_OK) return res;
    return sw_raster_draw_positions(r, cam, mesh, r->skinned_, m);
}

/* ---- text ---- */

/* A 5 x 7 font drawn for sinew: rows top to bottom, bit 4 the leftmost
 * cell; characters ' ' to '_' (lower case is drawn as upper case). */
static const uint8_t sw__glyphs[64][SW_RASTER_GLYPH_H] = {
    ['!' - 32] = {0x04, 0x04, 0x04, 0x04, 0x04, 0x00, 0x04},
    ['%' - 32] = {0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03},
    ['\'' - 32] = {0x04, 0x04, 0x08, 0x00, 0x00, 0x00, 0x00},
    ['(' - 32] = {0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02},
    [')' - 32] = {0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08},
    ['+' - 32] = {0x00, 0x04, 0x04, 0x1F, 0x04, 0x04, 0x00},
    [',' - 32] = {0x00, 0x00, 0x00, 0x00, 0x0C, 0x04, 0x08},
    ['-' - 32] = {0x00, 0x00, 0x00, 0x1F, 0x00, 0x00, 0x00},
    ['.' - 32] = {0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C},
    ['/' - 32] = {0x01, 0x01, 0x02, 0x04, 0x08, 0x10, 0x10},
    ['0' - 32] = {0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E},
    ['1' - 32] = {0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E},
    ['2' - 32] = {0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F},
    ['3' - 32] = {0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E},
    ['4' - 32] = {0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02},
    ['5' - 32] = {0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E},
    ['6' - 32] = {0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E},
    ['7' - 32] = {0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08},
    ['8' - 32] = {0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E},
    ['9' - 32] = {0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C},
    [':' - 32] = {0x00, 0x0C, 0x0C, 0x00, 0x0C, 0x0C, 0x00},
    ['=' - 32] = {0x00, 0x00, 0x1F, 0x00, 0x1F, 0x00, 0x00},
    ['?' - 32] = {0x0E, 0x11, 0x01, 0x02, 0x04, 0x00, 0x04},
    ['A' - 32] = {0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11},
    ['B' - 32] = {0x1E, 0x11, 0x11, 0x1E, 0x11, 0x11, 0x1E},
    ['C' - 32] = {0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E},
    ['D' - 32] = {0x1C, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1C},
    ['E' - 32] = {0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F},
    ['F' - 32] = {0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10},
    ['G' - 32] = {0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F},
    ['H' - 32] = {0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11},
    ['I' - 32] = {0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E},
    ['J' - 32] = {0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C},
    ['K' - 32] = {0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11},
    ['L' - 32] = {0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F},
    ['M' - 32] = {0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11},
    ['N' - 32] = {0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11},
    ['O' - 32] = {0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E},
    ['P' - 32] = {0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10},
    ['Q' - 32] = {0x0E, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0D},
    ['R' - 32] = {0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11},
    ['S' - 32] = {0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E},
    ['T' - 32] = {0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04},
    ['U' - 32] = {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E},
    ['V' - 32] = {0x11, 0x11, 0x11, 0x11, 0x11, 0x0A, 0x04},
    ['W' - 32] = {0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0A},
    ['X' - 32] = {0x11, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x11},
    ['Y' - 32] = {0x11, 0x11, 0x11, 0x0A, 0x04, 0x04, 0x04},
    ['Z' - 32] = {0x1F, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1F},
    ['_' - 32] = {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1F},
};

/* The glyph of c: its capital, '?' for one without a glyph; ' ' is blank. */
static const uint8_t* sw__glyph(char c) {
    if (c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
    const uint8_t* g = c >= ' ' && c <= '_' ? sw__glyphs[c - ' '] : NULL;
    bool blank = true;
    for (int row = 0; g && row < SW_RASTER_GLYPH_H; ++row)
        blank = blank && g[row] == 0;
    return c == ' ' || (g && !blank) ? g : sw__glyphs['?' - ' '];
}

uint32_t sw_raster_text_width(const char* text, uint32_t scale) {
    const size_t n = text ? strlen(text) : 0u;
    return n ? (uint32_t)(n * (SW_RASTER_GLYPH_W + 1u) - 1u) * scale : 0u;
}

uint32_t sw_raster_text(sw_raster* r, int32_t x, int32_t y, const char* text, uint32_t scale,
                        uint8_t index) {
    if (!r || !r->pixels || !text || scale == 0) return 0;
    const int64_t step = (int64_t)(SW_RASTER_GLYPH_W + 1) * scale;
    for (size_t k = 0; text[k]; ++k) {
        const uint8_t* g = sw__glyph(text[k]);
        for (int64_t py = 0; py < (int64_t)SW_RASTER_GLYPH_H * scale; ++py) {
            const int64_t yy = (int64_t)y + py;
            if (yy < 0 || yy >= (int64_t)r->height) continue;
            const uint8_t bits = g[py / scale];
            for (int64_t px = 0; px < (int64_t)SW_RASTER_GLYPH_W * scale; ++px) {
                const int64_t xx = (int64_t)x + (int64_t)k * step + px;
                if (xx < 0 || xx >= (int64_t)r->width) continue;
                if (bits & (0x10u >> (px / scale))) r->pixels[yy * (int64_t)r->width + xx] = index;
            }
        }
    }
    return sw_raster_text_width(text, scale);
}

sw_result sw_raster_write_png(const sw_raster* r, const char* path) {
    if (!r) return SW_RESULT_INVALID_ARGUMENT;
    const sw_png_image img = {.width = r->width,
                              .height = r->height,
                              .format = SW_PNG_FORMAT_INDEXED,
                              .pixels = r->pixels,
                              .palette = r->palette,
                              .palette_count = SW_RASTER_PALETTE_COUNT};
    return sw_png_write_file(&img, path);
}
