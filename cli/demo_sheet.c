/* sinew demo's contact sheet (demo_sheet.h). */
#include "demo_sheet.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define DEMO_FOV 0.6f         /* vertical field of view of every picture (radians) */
#define DEMO_FILL 0.75f       /* share of the half-frame the fitted joints may use */
#define DEMO_LABEL 2          /* text scale: glyphs of 10 x 14 pixels */
#define DEMO_CLOSE_PITCH 0.2f /* close-ups look down 11.5 degrees */

/* Props (step, beam, bumps) and targets (orb, arm target) get no close-up
 * and no label: they belong to the actors beside them. */
static bool demo_shown(const sw_showcase_actor* a) {
    return a->meshes_count > 0 && a->material != SW_SHOWCASE_MATERIAL_PROP &&
           a->material != SW_SHOWCASE_MATERIAL_TARGET;
}

static void demo_materials(sw_raster* r) {
    static const uint8_t colors[SW_SHOWCASE_MATERIAL_COUNT][3] = {
        {205, 205, 210}, /* default */
        {226, 178, 140}, /* skin */
        {120, 170, 80},  /* creature */
        {150, 160, 180}, /* metal */
        {150, 120, 90},  /* prop */
        {240, 200, 40},  /* target */
        {200, 90, 80},   /* hit */
    };
    for (uint32_t m = 0; m < SW_SHOWCASE_MATERIAL_COUNT; ++m)
        sw_raster_set_material(r, m, colors[m][0], colors[m][1], colors[m][2]);
}

static sw_vec3 demo_joint(const sw_showcase_actor* a, uint32_t j) {
    return sw_vec3_make(a->model[j].m[12], a->model[j].m[13], a->model[j].m[14]);
}

/* Calls fn on the world position of every joint that moves a mesh of the
 * actor (a skeleton's root may lie far from what it draws). */
static void demo_each_joint(const sw_showcase_actor* a, void (*fn)(void*, sw_vec3), void* user) {
    for (uint32_t k = 0; k < a->meshes_count; ++k) {
        const sw_mesh* m = a->meshes[k];
        for (uint32_t e = 0; e < m->palette_count; ++e)
            fn(user, demo_joint(a, sw_mesh_palette(m)[e]));
    }
}

/* Fitting a camera turned as `rot` to points: their box, then the
 * distance from its centre that holds each within the field of view. */
typedef struct demo_fitting {
    sw_quat rot;
    sw_vec3 lo, hi, centre;
    float tx, ty, distance;
} demo_fitting;

static void demo_fit_box(void* user, sw_vec3 p) {
    demo_fitting* f = (demo_fitting*)user;
    f->lo = sw_vec3_make(fminf(f->lo.x, p.x), fminf(f->lo.y, p.y), fminf(f->lo.z, p.z));
    f->hi = sw_vec3_make(fmaxf(f->hi.x, p.x), fmaxf(f->hi.y, p.y), fmaxf(f->hi.z, p.z));
}

static void demo_fit_distance(void* user, sw_vec3 p) {
    demo_fitting* f = (demo_fitting*)user;
    /* p in the camera's frame about the centre; the camera looks down -z */
    const sw_vec3 q = sw_quat_rotate(sw_quat_conjugate(f->rot), sw_vec3_sub(p, f->centre));
    f->distance = fmaxf(f->distance, q.z + fmaxf(fabsf(q.x) / f->tx, fabsf(q.y) / f->ty));
}

/* A camera turned as rot that holds the drawn joints of actor `only` (or of
 * every shown actor when `only` is UINT32_MAX) within DEMO_FILL of a
 * picture of the given aspect (width / height). */
static sw_raster_camera demo_fit(const sw_showcase* sc, sw_quat rot, uint32_t only, float aspect) {
    demo_fitting f = {.rot = rot,
                      .lo = sw_vec3_make(INFINITY, INFINITY, INFINITY),
                      .hi = sw_vec3_make(-INFINITY, -INFINITY, -INFINITY),
                      .ty = tanf(0.5f * DEMO_FOV) * DEMO_FILL,
                      .distance = 0.5f};
    f.tx = f.ty * aspect;
    for (int pass = 0; pass < 2; ++pass) {
        for (uint32_t i = 0; i < sw_showcase_actors_count(sc); ++i) {
            const sw_showcase_actor a = sw_showcase_get_actor(sc, i);
            if ((only == UINT32_MAX && demo_shown(&a)) || i == only)
                demo_each_joint(&a, pass ? demo_fit_distance : demo_fit_box, &f);
        }
        if (!(f.lo.x <= f.hi.x)) break; /* nothing drawn */
        if (pass == 0) {
            /* room above the highest joint for a head (joints lie inside the mesh) */
            const sw_vec3 e = sw_vec3_sub(f.hi, f.lo);
            f.hi.y += 0.12f * fmaxf(e.y, fmaxf(e.x, e.z));
            f.centre = sw_vec3_scale(sw_vec3_add(f.lo, f.hi), 0.5f);
            demo_fit_distance(&f, sw_vec3_make(f.centre.x, f.hi.y, f.centre.z));
        }
    }
    sw_xform view = sw_xform_identity();
    view.r = rot;
    view.t = sw_vec3_add(f.centre, sw_quat_rotate(rot, sw_vec3_make(0.0f, 0.0f, f.distance)));
    return (sw_raster_camera){.view = view, .fov_y = DEMO_FOV};
}

/* The scene camera's heading turned by `yaw` about +Y, looking down by
 * `pitch` (radians). */
static sw_quat demo_heading(const sw_showcase* sc, float yaw, float pitch) {
    const sw_vec3 ahead =
        sw_quat_rotate(sw_showcase_get_camera(sc).view.r, sw_vec3_make(0.0f, 0.0f, -1.0f));
    const float h = sqrtf(ahead.x * ahead.x + ahead.z * ahead.z);
    if (!(h > 1e-4f)) return sw_showcase_get_camera(sc).view.r; /* looking straight down */
    const float x = ahead.x / h, z = ahead.z / h, c = cosf(yaw), s = sinf(yaw);
    const sw_vec3 dir =
        sw_vec3_make((c * x + s * z) * cosf(pitch), -sinf(pitch), (c * z - s * x) * cosf(pitch));
    return sw_raster_look_at(sw_vec3_make(0, 0, 0), dir).r;
}

/* Clears r and draws the actors as the camera sees them: every one, or
 * actor `only` with the props and targets. */
static bool demo_draw(sw_raster* r, const sw_showcase* sc, const sw_raster_camera* cam,
                      uint32_t only) {
    sw_raster_clear(r, cam);
    for (uint32_t i = 0; i < sw_showcase_actors_count(sc); ++i) {
        const sw_showcase_actor a = sw_showcase_get_actor(sc, i);
        if (only != UINT32_MAX && i != only && demo_shown(&a)) continue;
        for (uint32_t k = 0; k < a.meshes_count; ++k) {
            const sw_result res =
                sw_raster_draw_mesh(r, cam, a.meshes[k], a.palettes[k], (uint32_t)a.material);
            if (res != SW_RESULT_OK) {
                cli_error("demo", "drawing %s: %s", a.name, sw_result_str(res));
                return false;
            }
        }
    }
    return true;
}

/* Text at (x, y), glyph cells of `scale` pixels, on a light box one cell
 * wider all round, so it reads over any background. */
static void demo_label(sw_raster* r, int32_t x, int32_t y, const char* text, int32_t scale) {
    const int32_t w = (int32_t)sw_raster_text_width(text, (uint32_t)scale);
    const int32_t h = SW_RASTER_GLYPH_H * scale;
    for (int32_t py = y - scale; py < y + h + scale; ++py) {
        for (int32_t px = x - scale; px < x + w + scale; ++px) {
            if (px >= 0 && py >= 0 && px < (int32_t)r->width && py < (int32_t)r->height)
                r->pixels[(size_t)py * r->width + (size_t)px] = 0; /* the sky's colour */
        }
    }
    sw_raster_text(r, x, y, text, (uint32_t)scale, SW_RASTER_INK);
}

/* A picture's label in its top-left corner: DEMO_LABEL, or half that when
 * the text would not fit across. */
static void demo_corner_label(sw_raster* r, const char* text) {
    const int32_t scale =
        sw_raster_text_width(text, DEMO_LABEL) + 4u * DEMO_LABEL <= r->width ? DEMO_LABEL : 1;
    demo_label(r, 2 * scale, 2 * scale, text, scale);
}

/* Every shown actor's name centred above its highest joint, moved up
 * past the names already placed that it would cover. */
static void demo_overview_labels(sw_raster* r, const sw_showcase* sc, const sw_raster_camera* cam) {
    enum { MAX_LABELS = 64 };
    int32_t placed[MAX_LABELS][3]; /* x, y, width */
    uint32_t count = 0;
    const int32_t h = (SW_RASTER_GLYPH_H + 2) * DEMO_LABEL + 2;
    for (uint32_t i = 0; i < sw_showcase_actors_count(sc) && count < MAX_LABELS; ++i) {
        const sw_showcase_actor a = sw_showcase_get_actor(sc, i);
        if (!demo_shown(&a)) continue;
        sw_vec3 top = demo_joint(&a, 0);
        for (uint32_t j = 1; j < a.skeleton->joints_count; ++j) {
            const sw_vec3 p = demo_joint(&a, j);
            if (p.y > top.y) top = p;
        }
        float x, y, depth;
        if (!sw_raster_project(r, cam, sw_vec3_add(top, sw_vec3_make(0, 0.15f, 0)), &x, &y, &depth))
            continue;
        const int32_t w = (int32_t)sw_raster_text_width(a.name, DEMO_LABEL) + 2 * DEMO_LABEL;
        int32_t lx = (int32_t)lroundf(x) - w / 2, ly = (int32_t)lroundf(y) - h;
        for (uint32_t k = 0; k < count; ++k) {
            const bool apart = lx + w <= placed[k][0] || placed[k][0] + placed[k][2] <= lx ||
                               ly + h <= placed[k][1] || placed[k][1] + h <= ly;
            if (!apart) {
                ly = placed[k][1] - h;
                k = UINT32_MAX; /* look at them all again from there */
            }
        }
        placed[count][0] = lx, placed[count][1] = ly, placed[count][2] = w;
        ++count;
        demo_label(r, lx + DEMO_LABEL, ly + DEMO_LABEL, a.name, DEMO_LABEL);
    }
}

/* Draws actor i's close-up into s->tile: from the scene camera's heading,
 * or a quarter turn either way when that shows more of the actor (the
 * props may hide it: the spider under its beam). */
static bool demo_closeup(demo_sheet* s, const sw_showcase* sc, uint32_t i) {
    const float aspect = (float)s->tile.width / (float)s->tile.height;
    const uint32_t m = (uint32_t)sw_showcase_get_actor(sc, i).material;
    const float yaws[3] = {0.0f, 1.5707964f, -1.5707964f};
    float best_yaw = 0.0f;
    size_t best = 0;
    for (int k = 0; k < 3; ++k) {
        const sw_raster_camera cam =
            demo_fit(sc, demo_heading(sc, yaws[k], DEMO_CLOSE_PITCH), i, aspect);
        if (!demo_draw(&s->tile, sc, &cam, i)) return false;
        size_t seen = 0;
        for (size_t p = 0; p < (size_t)s->tile.width * s->tile.height; ++p) {
            const uint8_t v = s->tile.pixels[p];
            seen += v >= sw_raster_material_index(m, 0) &&
                    v <= sw_raster_material_index(m, SW_RASTER_SHADES - 1);
        }
        if (seen > best + best / 2u) { /* another heading only when clearly better */
            best = seen;
            best_yaw = yaws[k];
        }
    }
    const sw_raster_camera cam =
        demo_fit(sc, demo_heading(sc, best_yaw, DEMO_CLOSE_PITCH), i, aspect);
    return demo_draw(&s->tile, sc, &cam, i);
}

static void demo_blit(demo_sheet* s, const sw_raster* r, uint32_t x0, uint32_t y0) {
    for (uint32_t y = 0; y < r->height; ++y)
        memcpy(s->pixels + (size_t)(y0 + y) * s->width + x0, r->pixels + (size_t)y * r->width,
               r->width);
}

bool demo_sheet_init(demo_sheet* s, const sw_showcase* sc, uint32_t tile_w, uint32_t tile_h,
                     uint32_t frames) {
    memset(s, 0, sizeof *s);
    const uint32_t n = sw_showcase_actors_count(sc);
    s->tile_actor = (uint32_t*)calloc(n + 1u, sizeof *s->tile_actor);
    s->tile_frame = (uint32_t*)calloc(n + 1u, sizeof *s->tile_frame);
    for (uint32_t i = 0; s->tile_actor && i < n; ++i) {
        const sw_showcase_actor a = sw_showcase_get_actor(sc, i);
        if (demo_shown(&a)) s->tile_actor[s->tiles++] = i;
    }
    /* close-ups spread over the run (the first a little in, once things move) */
    for (uint32_t k = 0; s->tile_frame && k < s->tiles; ++k) {
        const double at = s->tiles > 1 ? 0.08 + 0.92 * k / (s->tiles - 1) : 0.5;
        s->tile_frame[k] = (uint32_t)((double)(frames - 1u) * at + 0.5);
    }
    s->overview_frame = (frames - 1u) / 2u;
    s->width = tile_w * DEMO_SHEET_COLUMNS;
    s->height = tile_h * (1u + (s->tiles + DEMO_SHEET_COLUMNS - 1u) / DEMO_SHEET_COLUMNS);
    s->pixels = (uint8_t*)calloc((size_t)s->width * s->height, 1);
    if (!s->tile_actor || !s->tile_frame || !s->pixels ||
        sw_raster_init(&s->tile, tile_w, tile_h, NULL) != SW_RESULT_OK ||
        sw_raster_init(&s->overview, s->width, tile_h, NULL) != SW_RESULT_OK) {
        cli_error("demo", "out of memory");
        return false;
    }
    demo_materials(&s->tile);
    demo_materials(&s->overview);
    return true;
}

bool demo_sheet_frame(demo_sheet* s, const sw_showcase* sc, uint32_t frame, double time) {
    char text[160];
    if (frame == s->overview_frame) {
        const sw_raster_camera cam = demo_fit(sc, sw_showcase_get_camera(sc).view.r, UINT32_MAX,
                                              (float)s->overview.width / (float)s->overview.height);
        if (!demo_draw(&s->overview, sc, &cam, UINT32_MAX)) return false;
        demo_overview_labels(&s->overview, sc, &cam);
        snprintf(text, sizeof text, "t = %.2f s", time);
        demo_corner_label(&s->overview, text);
        demo_blit(s, &s->overview, 0, 0);
    }
    for (uint32_t k = 0; k < s->tiles; ++k) {
        if (s->tile_frame[k] == frame && !demo_closeup(s, sc, s->tile_actor[k])) return false;
        if (s->tile_frame[k] != frame) continue;
        const uint32_t i = s->tile_actor[k];
        snprintf(text, sizeof text, "%s %.2f s", sw_showcase_get_actor(sc, i).name, time);
        demo_corner_label(&s->tile, text);
        demo_blit(s, &s->tile, (k % DEMO_SHEET_COLUMNS) * s->tile.width,
                  (1u + k / DEMO_SHEET_COLUMNS) * s->tile.height);
    }
    return true;
}

void demo_sheet_free(demo_sheet* s) {
    sw_raster_free(&s->tile);
    sw_raster_free(&s->overview);
    free(s->pixels);
    free(s->tile_actor);
    free(s->tile_frame);
    memset(s, 0, sizeof *s);
}
