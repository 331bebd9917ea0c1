/* sinew/tools/writers/raster.h: a tiny software rasterizer for pictures of skinned meshes.
 *
 * Enough to see what the library does without a GPU (`sinew demo` writes a
 * film strip with it): a perspective camera, a ground plane at y = 0 with a
 * 1 m grid, and skinned meshes (sinew/core/mesh.h, skinned on the CPU with a
 * palette from sw_skinning_job) drawn as flat-shaded triangles (Lambert,
 * two-sided, one directional light) with a z-buffer. The picture is an
 * indexed image (one palette index per pixel) so that it makes a small PNG
 * (sinew/tools/writers/png.h): index 0 is the sky, 1 the ground, 2 the grid lines,
 * and material m (0..SW_RASTER_MATERIALS - 1) uses the
 * SW_RASTER_SHADES indices from sw_raster_material_index(m, 0) (darkest) up.
 * Triangles with a vertex behind the near plane are not drawn (no clipping).
 */
#ifndef SINEW_TOOLS_RASTER_H
#define SINEW_TOOLS_RASTER_H

#include "sinew/core/mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SW_RASTER_MATERIALS 8
#define SW_RASTER_SHADES 30
#define SW_RASTER_FIRST_MATERIAL 4 /* palette index of material 0's darkest shade */
#define SW_RASTER_PALETTE_COUNT (SW_RASTER_FIRST_MATERIAL + SW_RASTER_MATERIALS * SW_RASTER_SHADES)
#define SW_RASTER_MAX_SIDE 8192u
#define SW_RASTER_INK 3     /* palette index of black, for text */
#define SW_RASTER_GLYPH_W 5 /* text cells per glyph, across and down */
#define SW_RASTER_GLYPH_H 7

/* A camera: `view` places it in the world (it looks down its -Z axis, +Y
 * up), fov_y is the vertical field of view in radians (0, pi). */
typedef struct sw_raster_camera {
    sw_xform view;
    float fov_y;
    float near_plane; /* metres; 0 = 0.05 */
} sw_raster_camera;

typedef struct sw_raster {
    uint32_t width, height;
    uint8_t* pixels;          /* width * height palette indices, rows top to bottom */
    float* depth;             /* width * height: 1 / distance along the view axis (0: nothing) */
    uint8_t palette[3 * 256]; /* RGB of each index (SW_RASTER_PALETTE_COUNT used) */
    /* owned */
    float* skinned_; /* vertex scratch: 3 floats per vertex */
    uint32_t skinned_capacity_;
    sw_allocator alloc_;
} sw_raster;

/* Palette index of shade s (0..SW_RASTER_SHADES - 1) of material m. */
static inline uint8_t sw_raster_material_index(uint32_t m, uint32_t s) {
    return (uint8_t)(SW_RASTER_FIRST_MATERIAL + m * SW_RASTER_SHADES + s);
}

/* Allocates a width x height picture (1..SW_RASTER_MAX_SIDE each) with the
 * default palette (sky, ground, grid, grey materials), cleared.
 * Memory: free with sw_raster_free (same allocator).
 * Fails: INVALID_ARGUMENT (NULL out), LIMIT (sides), OUT_OF_MEMORY. */
SINEW_API sw_result sw_raster_init(sw_raster* r, uint32_t width, uint32_t height,
                                   const sw_allocator* alloc);
SINEW_API void sw_raster_free(sw_raster* r);

/* Sets the colour of material m (shades run from 25% to 100% of it). */
SINEW_API void sw_raster_set_material(sw_raster* r, uint32_t m, uint8_t red, uint8_t green,
                                      uint8_t blue);

/* A camera at `eye` looking at `target` with +Y up (target != eye, not
 * straight up or down). */
SINEW_API sw_xform sw_raster_look_at(sw_vec3 eye, sw_vec3 target);

/* Clears to the sky, then draws the ground plane y = 0 with grid lines every
 * metre out to 60 m. */
SINEW_API void sw_raster_clear(sw_raster* r, const sw_raster_camera* cam);

/* Projects a world point: pixel coordinates (x right, y down) and the
 * distance along the view axis; false when it is behind the near plane. */
SINEW_API bool sw_raster_project(const sw_raster* r, const sw_raster_camera* cam, sw_vec3 p,
                                 float* x, float* y, float* depth);

/* Skins the mesh's vertices with `palette` (palette_count model-to-world
 * matrices, as sw_skinning_job writes) by linear blend (sw_skin_job,
 * sinew/core/skin.h) and draws its triangles in material m.
 * Fails: INVALID_ARGUMENT (NULL arguments, m out of range, a camera field
 * of view outside (0, pi)); OUT_OF_MEMORY (vertex scratch); what
 * sw_skin_job_run reports (BAD_DATA for a non-finite palette matrix). */
SINEW_API sw_result sw_raster_draw_mesh(sw_raster* r, const sw_raster_camera* cam,
                                        const sw_mesh* mesh, const sw_mat4* palette, uint32_t m);

/* Draws the mesh's triangles in material m at `positions` (3 floats per
 * vertex, world space: a skin job's output, e.g. sw_dq_skin_job's).
 * Fails: INVALID_ARGUMENT as sw_raster_draw_mesh, or NULL positions. */
SINEW_API sw_result sw_raster_draw_positions(sw_raster* r, const sw_raster_camera* cam,
                                             const sw_mesh* mesh, const float* positions,
                                             uint32_t m);

/* Writes the picture as an indexed PNG (sw_png_write_file, its palette's
 * SW_RASTER_PALETTE_COUNT entries) to `path`. Fails: as sw_png_write_file. */
SINEW_API sw_result sw_raster_write_png(const sw_raster* r, const char* path);

/* Draws `text` (ASCII; letters as capitals, a character without a glyph
 * as '?') with the top-left corner of its first glyph at pixel (x, y):
 * each glyph SW_RASTER_GLYPH_W x SW_RASTER_GLYPH_H cells of scale x scale
 * pixels, glyphs one cell apart, in palette index `index` (e.g.
 * SW_RASTER_INK); depth is left as it is, pixels outside the picture are
 * skipped. Returns the width of the text in pixels (what
 * sw_raster_text_width returns); 0 for NULL arguments or scale 0. */
SINEW_API uint32_t sw_raster_text(sw_raster* r, int32_t x, int32_t y, const char* text,
                                  uint32_t scale, uint8_t index);
/* Width in pixels of `text` drawn by sw_raster_text at `scale`. */
SINEW_API uint32_t sw_raster_text_width(const char* text, uint32_t scale);

#ifdef __cplusplus
}
#endif

#endif
