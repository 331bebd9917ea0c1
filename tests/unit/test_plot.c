/* Plot writer: nice steps against their closed form, a diagonal line drawn
 * through the area's corners as the header's mapping puts them, a curve's
 * peak at its data point, the legend and labels in ink, bad input. */
#include "sinew/tools/writers/plot.h"

#include "test_util.h"

static uint8_t pixel(const sw_raster* r, int32_t x, int32_t y) {
    return r->pixels[(size_t)y * r->width + (size_t)x];
}

static void test_nice_step(void** state) {
    (void)state;
    /* span / ticks rounded up to 1, 2 or 5 times a power of ten */
    assert_float_equal(sw_plot_nice_step(1.0f, 5), 0.2f, 1e-7f);
    assert_float_equal(sw_plot_nice_step(0.0123f, 5), 0.005f, 1e-9f);
    assert_float_equal(sw_plot_nice_step(7.0f, 7), 1.0f, 1e-7f);
    assert_float_equal(sw_plot_nice_step(12.0f, 6), 2.0f, 1e-7f);
    assert_float_equal(sw_plot_nice_step(3400.0f, 5), 1000.0f, 1e-3f);
    assert_true(sw_plot_nice_step(0.0f, 5) == 0.0f);
    assert_true(sw_plot_nice_step(-1.0f, 5) == 0.0f);
    assert_true(sw_plot_nice_step(1.0f, 0) == 0.0f);
    assert_true(sw_plot_nice_step(INFINITY, 5) == 0.0f);
}

static void test_mapping(void** state) {
    (void)state;
    sw_raster r;
    assert_int_equal(sw_plot_init(&r, 640, 400, NULL), SW_RESULT_OK);
    /* a diagonal from (0, 0) to (2, 1) and a peak at (1.5, 0.75) */
    const float dx[2] = {0.0f, 2.0f}, dy[2] = {0.0f, 1.0f};
    const float px[3] = {1.0f, 1.5f, 2.0f}, py[3] = {0.1f, 0.75f, 0.1f};
    const sw_plot_series s[2] = {
        {.name = "peak", .x = px, .y = py, .count = 3, .index = sw_plot_color(1), .width = 1},
        {.name = "diagonal", .x = dx, .y = dy, .count = 2, .index = sw_plot_color(0), .width = 1}};
    const sw_plot_desc d = {.title = "title",
                            .x_label = "x",
                            .y_label = "y",
                            .x_min = 0.0f,
                            .x_max = 2.0f,
                            .y_min = 0.0f,
                            .y_max = 1.0f,
                            .series = s,
                            .series_count = 2};
    sw_plot_area a;
    assert_int_equal(sw_plot_draw(&r, &d, &a), SW_RESULT_OK);
    assert_true(a.x0 > 0 && a.x1 < 640 && a.y0 > 0 && a.y1 < 400);
    assert_true(a.x1 - a.x0 >= 80 && a.y1 - a.y0 >= 60);
    /* the diagonal's middle, (1, 0.5): x0 + (x1 - x0) / 2, y1 - (y1 - y0) / 2 */
    const int32_t mx = (a.x0 + a.x1 + 1) / 2, my = (a.y0 + a.y1 + 1) / 2;
    bool found = false;
    for (int32_t y = my - 1; y <= my + 1; ++y)
        for (int32_t x = mx - 1; x <= mx + 1; ++x)
            found = found || pixel(&r, x, y) == sw_plot_color(0);
    assert_true(found);
    /* the peak (1.5, 0.75) on top (the first series is drawn last) */
    const int32_t kx = (int32_t)lround(a.x0 + 0.75 * (a.x1 - a.x0));
    const int32_t ky = (int32_t)lround(a.y1 - 0.75 * (a.y1 - a.y0));
    assert_int_equal(pixel(&r, kx, ky), sw_plot_color(1));
    for (int32_t y = a.y0 + 1; y < ky; ++y) /* nothing of it above the peak */
        for (int32_t x = a.x0 + 1; x < a.x1; ++x)
            assert_true(pixel(&r, x, y) != sw_plot_color(1));
    /* ink: the frame's corners, labels left of and under the area, the legend */
    assert_int_equal(pixel(&r, a.x0, a.y0), SW_RASTER_INK);
    assert_int_equal(pixel(&r, a.x1, a.y1), SW_RASTER_INK);
    uint32_t left = 0, below = 0, legend = 0;
    for (int32_t y = 0; y < 400; ++y)
        for (int32_t x = 0; x < 640; ++x) {
            const bool ink = pixel(&r, x, y) == SW_RASTER_INK;
            left += ink && x < a.x0 - 1 && y > a.y0 && y < a.y1;
            below += ink && y > a.y1 + 1;
            legend += ink && x > a.x1 + 1;
        }
    assert_true(left > 50 && below > 50 && legend > 50);
    sw_raster_free(&r);
}

static void test_bad_input(void** state) {
    (void)state;
    sw_raster r;
    assert_int_equal(sw_plot_init(&r, 640, 400, NULL), SW_RESULT_OK);
    const float x[2] = {0.0f, 1.0f};
    sw_plot_series s = {.x = x, .y = x, .count = 2, .index = sw_plot_color(0), .width = 1};
    sw_plot_desc d = {.x_max = 1.0f, .y_max = 1.0f, .series = &s, .series_count = 1};
    assert_int_equal(sw_plot_draw(NULL, &d, NULL), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_plot_draw(&r, NULL, NULL), SW_RESULT_INVALID_ARGUMENT);
    d.y_max = 0.0f; /* max <= min */
    assert_int_equal(sw_plot_draw(&r, &d, NULL), SW_RESULT_INVALID_ARGUMENT);
    d.y_max = NAN;
    assert_int_equal(sw_plot_draw(&r, &d, NULL), SW_RESULT_INVALID_ARGUMENT);
    d.y_max = 1.0f;
    s.width = 4;
    assert_int_equal(sw_plot_draw(&r, &d, NULL), SW_RESULT_INVALID_ARGUMENT);
    s.width = 1;
    s.count = 0;
    assert_int_equal(sw_plot_draw(&r, &d, NULL), SW_RESULT_INVALID_ARGUMENT);
    s.count = 2;
    d.series = NULL;
    assert_int_equal(sw_plot_draw(&r, &d, NULL), SW_RESULT_INVALID_ARGUMENT);
    sw_raster_free(&r);
    /* too small for the labels */
    assert_int_equal(sw_plot_init(&r, 90, 60, NULL), SW_RESULT_OK);
    d.series = &s;
    assert_int_equal(sw_plot_draw(&r, &d, NULL), SW_RESULT_LIMIT);
    sw_raster_free(&r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nice_step),
        cmocka_unit_test(test_mapping),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
