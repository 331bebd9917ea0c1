/* Software rasterizer: projection against the pinhole closed form, a box
 * drawn where it projects, the z-buffer keeping the nearer of two boxes,
 * skinning through the palette, the ground grid, shades, validity. */
#include "sinew/tools/writers/raster.h"

#include "test_util.h"

/* An axis-aligned box of half size h at c, one joint, 24 vertices. */
static const sw_mesh* make_box(sw_vec3 c, float h) {
    float pos[24 * 3];
    uint16_t joints[24 * 4] = {0};
    float weights[24 * 4] = {0};
    uint32_t idx[36];
    static const int faces[6][4][3] = {{{1, -1, -1}, {1, 1, -1}, {1, 1, 1}, {1, -1, 1}},
                                       {{-1, -1, -1}, {-1, 1, -1}, {-1, 1, 1}, {-1, -1, 1}},
                                       {{-1, 1, -1}, {1, 1, -1}, {1, 1, 1}, {-1, 1, 1}},
                                       {{-1, -1, -1}, {1, -1, -1}, {1, -1, 1}, {-1, -1, 1}},
                                       {{-1, -1, 1}, {1, -1, 1}, {1, 1, 1}, {-1, 1, 1}},
                                       {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1}}};
    for (int f = 0; f < 6; ++f) {
        for (int k = 0; k < 4; ++k) {
            const int v = f * 4 + k;
            pos[3 * v] = c.x + h * (float)faces[f][k][0];
            pos[3 * v + 1] = c.y + h * (float)faces[f][k][1];
            pos[3 * v + 2] = c.z + h * (float)faces[f][k][2];
            weights[4 * v] = 1.0f;
        }
        const uint32_t b = (uint32_t)f * 4;
        const uint32_t t[6] = {b, b + 1, b + 2, b, b + 2, b + 3};
        memcpy(idx + 6 * f, t, sizeof t);
    }
    const uint16_t palette[1] = {0};
    const sw_mat4 ib[1] = {sw_mat4_identity()};
    const sw_mesh_desc d = {.vertices_count = 24,
                            .positions = pos,
                            .joints = joints,
                            .weights = weights,
                            .indices = idx,
                            .indices_count = 36,
                            .palette = palette,
                            .inverse_binds = ib,
                            .palette_count = 1,
                            .skeleton_joints_count = 1};
    const sw_mesh* m = NULL;
    assert_int_equal(sw_mesh_create(&d, NULL, &m, NULL), SW_RESULT_OK);
    return m;
}

static bool is_material(uint8_t p, uint32_t m) {
    return p >= sw_raster_material_index(m, 0) &&
           p <= sw_raster_material_index(m, SW_RASTER_SHADES - 1);
}

static void test_project(void** state) {
    (void)state;
    sw_raster r;
    assert_int_equal(sw_raster_init(&r, 200, 100, NULL), SW_RESULT_OK);
    const sw_raster_camera cam = {
        .view = sw_raster_look_at(sw_vec3_make(1, 2, 10), sw_vec3_make(1, 2, 0)), .fov_y = 1.0f};
    float x, y, d;
    /* On the view axis: the centre, at its distance. */
    assert_true(sw_raster_project(&r, &cam, sw_vec3_make(1, 2, 4), &x, &y, &d));
    assert_near(x, 100.0, 1e-3);
    assert_near(y, 50.0, 1e-3);
    assert_near(d, 6.0, 1e-5);
    /* Pinhole: a point 1 m up at 6 m is tan^-1 away: 50 / tan(0.5) * 1 / 6 pixels above. */
    assert_true(sw_raster_project(&r, &cam, sw_vec3_make(2, 3, 4), &x, &y, &d));
    const double f = 50.0 / tan(0.5);
    assert_near(x, 100.0 + f / 6.0, 1e-3);
    assert_near(y, 50.0 - f / 6.0, 1e-3);
    /* Behind the camera or inside the near plane: not projected. */
    assert_false(sw_raster_project(&r, &cam, sw_vec3_make(1, 2, 11), &x, &y, &d));
    assert_false(sw_raster_project(&r, &cam, sw_vec3_make(1, 2, 9.99f), &x, &y, &d));
    sw_raster_free(&r);
}

static void test_draw(void** state) {
    (void)state;
    sw_raster r;
    assert_int_equal(sw_raster_init(&r, 160, 120, NULL), SW_RESULT_OK);
    sw_raster_set_material(&r, 2, 255, 0, 0);
    sw_raster_set_material(&r, 5, 0, 0, 255);
    /* Shades of a material run from 25% to 100% of its colour. */
    assert_int_equal(r.palette[3 * sw_raster_material_index(2, SW_RASTER_SHADES - 1)], 255);
    assert_int_equal(r.palette[3 * sw_raster_material_index(2, 0)], 64);
    const sw_raster_camera cam = {
        .view = sw_raster_look_at(sw_vec3_make(0, 3, 8), sw_vec3_make(0, 0.5f, 0)), .fov_y = 0.8f};
    sw_raster_clear(&r, &cam);
    /* Top rows are sky, bottom rows ground or grid. */
    assert_int_equal(r.pixels[5], 0);
    assert_true(r.pixels[119 * 160 + 80] == 1 || r.pixels[119 * 160 + 80] == 2);
    uint32_t grid = 0;
    for (uint32_t i = 0; i < 160 * 120; ++i)
        grid += r.pixels[i] == 2;
    assert_true(grid > 50);
    /* A box at the origin projects around its centre. */
    const sw_mesh* near_box = make_box(sw_vec3_make(0, 0.5f, 0), 0.5f);
    const sw_mesh* far_box = make_box(sw_vec3_make(0, 0.5f, -3), 1.0f);
    const sw_mat4 pal = sw_mat4_identity();
    assert_int_equal(sw_raster_draw_mesh(&r, &cam, far_box, &pal, 5), SW_RESULT_OK);
    assert_int_equal(sw_raster_draw_mesh(&r, &cam, near_box, &pal, 2), SW_RESULT_OK);
    float x, y, d;
    assert_true(sw_raster_project(&r, &cam, sw_vec3_make(0, 0.5f, 0.5f), &x, &y, &d));
    assert_true(is_material(r.pixels[(uint32_t)y * 160 + (uint32_t)x], 2)); /* near wins */
    assert_true(sw_raster_project(&r, &cam, sw_vec3_make(0.9f, 1.4f, -2.0f), &x, &y, &d));
    assert_true(
        is_material(r.pixels[(uint32_t)y * 160 + (uint32_t)x], 5)); /* far box shows above */
    /* Drawing the far box again after the near one changes nothing (z-buffer). */
    uint8_t* copy = (uint8_t*)malloc(160 * 120);
    memcpy(copy, r.pixels, 160 * 120);
    assert_int_equal(sw_raster_draw_mesh(&r, &cam, far_box, &pal, 5), SW_RESULT_OK);
    assert_memory_equal(copy, r.pixels, 160 * 120);
    /* The palette moves the mesh: translated 2 m right, it covers what it did not. */
    sw_mat4 moved = sw_mat4_identity();
    moved.m[12] = 2.0f;
    sw_raster_clear(&r, &cam);
    assert_int_equal(sw_raster_draw_mesh(&r, &cam, near_box, &moved, 2), SW_RESULT_OK);
    assert_true(sw_raster_project(&r, &cam, sw_vec3_make(2, 0.5f, 0.5f), &x, &y, &d));
    assert_true(is_material(r.pixels[(uint32_t)y * 160 + (uint32_t)x], 2));
    assert_true(sw_raster_project(&r, &cam, sw_vec3_make(0, 0.5f, 0.5f), &x, &y, &d));
    assert_false(is_material(r.pixels[(uint32_t)y * 160 + (uint32_t)x], 2));
    free(copy);
    /* Validity. */
    assert_int_equal(sw_raster_draw_mesh(NULL, &cam, near_box, &pal, 2),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_raster_draw_mesh(&r, NULL, near_box, &pal, 2), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_raster_draw_mesh(&r, &cam, NULL, &pal, 2), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_raster_draw_mesh(&r, &cam, near_box, NULL, 2), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_raster_draw_mesh(&r, &cam, near_box, &pal, SW_RASTER_MATERIALS),
                     SW_RESULT_INVALID_ARGUMENT);
    sw_raster_camera bad = cam;
    bad.fov_y = 0.0f;
    assert_int_equal(sw_raster_draw_mesh(&r, &bad, near_box, &pal, 2), SW_RESULT_INVALID_ARGUMENT);
    bad.fov_y = 3.2f;
    assert_int_equal(sw_raster_draw_mesh(&r, &bad, near_box, &pal, 2), SW_RESULT_INVALID_ARGUMENT);
    sw_mesh_destroy(near_box, NULL);
    sw_mesh_destroy(far_box, NULL);
    sw_raster_free(&r);
    sw_raster z;
    assert_int_equal(sw_raster_init(&z, 0, 10, NULL), SW_RESULT_LIMIT);
    assert_int_equal(sw_raster_init(&z, 10, SW_RASTER_MAX_SIDE + 1, NULL), SW_RESULT_LIMIT);
    assert_int_equal(sw_raster_init(NULL, 10, 10, NULL), SW_RESULT_INVALID_ARGUMENT);
    sw_raster_free(&z);
    sw_raster_free(NULL);
}

/* Text: "Hi?#" at scale 2 against the glyphs drawn here as pictures ('#'
 * has no glyph: it is drawn as '?'); widths; clipping at the edges. */
static void test_text(void** state) {
    (void)state;
    static const char* const art[SW_RASTER_GLYPH_H] = {
        "X...X.XXX..XXX..XXX.", /* H, I (lower case i drawn as I), ?, ? */
        "X...X..X..X...XX...X", "X...X..X......X....X", "XXXXX..X.....X....X.",
        "X...X..X....X....X..", "X...X..X............", "X...X.XXX...X....X..",
    };
    sw_raster r;
    assert_int_equal(sw_raster_init(&r, 60, 20, NULL), SW_RESULT_OK);
    const uint32_t w = sw_raster_text(&r, 3, 2, "Hi?#", 2, SW_RASTER_INK);
    assert_int_equal(w, (4u * 6u - 1u) * 2u);
    assert_int_equal(sw_raster_text_width("Hi?#", 2), w);
    for (uint32_t y = 0; y < 20; ++y) {
        for (uint32_t x = 0; x < 60; ++x) {
            const int32_t cx = ((int32_t)x - 3) / 2, cy = ((int32_t)y - 2) / 2;
            const bool in = x >= 3 && y >= 2 && cy < SW_RASTER_GLYPH_H && cx < 23 &&
                            (cx % 6) < SW_RASTER_GLYPH_W;
            const bool ink = in && art[cy][cx - cx / 6] == 'X';
            if ((r.pixels[y * 60 + x] == SW_RASTER_INK) != ink)
                fail_msg("pixel (%u, %u): ink %d, expected %d", x, y, !ink, ink);
        }
    }
    /* Partly or wholly outside: drawn where it lands, nothing else touched. */
    memset(r.pixels, 0, 60 * 20);
    assert_int_equal(sw_raster_text(&r, -4, -6, "H", 2, 7), 10u);
    assert_int_equal(r.pixels[0], 7); /* cell (2, 3) of H: its crossbar */
    assert_int_equal(sw_raster_text(&r, 58, 18, "HH", 1, 7), 11u);
    assert_int_equal(r.pixels[18 * 60 + 58], 7);
    assert_int_equal(sw_raster_text(&r, 1000, -1000, "H", 3, 7), 15u);
    assert_int_equal(sw_raster_text(NULL, 0, 0, "H", 1, 7), 0u);
    assert_int_equal(sw_raster_text(&r, 0, 0, NULL, 1, 7), 0u);
    assert_int_equal(sw_raster_text(&r, 0, 0, "H", 0, 7), 0u);
    assert_int_equal(sw_raster_text_width("", 3), 0u);
    sw_raster_free(&r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_project),
        cmocka_unit_test(test_draw),
        cmocka_unit_test(test_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
