/* Readers' memory budgets (sinew/tools/readers/budget.h, issue #18): the
 * counting allocator against sums done here, the refusal and its message,
 * and sw_asset_open under a budget: a glTF of two hundred thousand numbers
 * stopped by a small one, real files loading with room to spare under the
 * default (the least budget each needs, found by bisection, is at most half
 * the default). */
#include "test_util.h"

#include "sinew/tools/readers/asset.h"
#include "sinew/tools/readers/budget.h"

static void test_counts_live_and_peak(void** state) {
    (void)state;
    sw_budget b;
    sw_budget_init(&b, 1000, 0);
    assert_false(b.fixed);
    assert_true(b.limit == SW_BUDGET_FLOOR + 16000u);
    void* p = sw_alloc(&b.allocator, 100, 16);
    void* q = sw_alloc(&b.allocator, 200, 64);
    assert_non_null(p);
    assert_non_null(q);
    assert_true(((uintptr_t)q & 63u) == 0);
    sw_free(&b.allocator, p, 100);
    assert_true(b.used == 200 && b.peak == 300);
    sw_free(&b.allocator, q, 200);
    assert_true(b.used == 0 && b.peak == 300);
    assert_false(b.exceeded);
    sw_error err = SW_ERROR_INIT;
    assert_int_equal(sw_budget_fail(&b, SW_RESULT_BAD_DATA, &err), SW_RESULT_BAD_DATA);
    assert_null(err.check);
}

static void test_refuses_past_the_limit(void** state) {
    (void)state;
    sw_budget b;
    sw_budget_init(&b, 10, 1024);
    assert_true(b.fixed && b.limit == 1024);
    void* p = sw_alloc(&b.allocator, 1000, 16);
    assert_non_null(p);
    assert_null(sw_alloc(&b.allocator, 25, 16));
    assert_true(b.exceeded && b.used == 1000);
    void* q = sw_alloc(&b.allocator, 24, 8);
    assert_non_null(q);
    sw_free(&b.allocator, q, 24);
    sw_error err = SW_ERROR_INIT;
    assert_int_equal(sw_budget_fail(&b, SW_RESULT_OUT_OF_MEMORY, &err), SW_RESULT_LIMIT);
    assert_string_equal(err.check, "memory budget");
    assert_string_equal(err.detail, "reading needs more than 1024 bytes of memory for 10 bytes "
                                    "of input (the limit given)");
    sw_free(&b.allocator, p, 1000);
}

static void test_input_raises_the_default(void** state) {
    (void)state;
    sw_budget b;
    sw_budget_init(&b, 0, 0);
    assert_true(b.limit == SW_BUDGET_FLOOR);
    sw_budget_add_input(&b, 1u << 20, true);
    assert_true(b.limit == SW_BUDGET_FLOOR + 16u * (1u << 20));
    assert_true(b.used == (1u << 20) && b.peak == (1u << 20));
    sw_budget_add_input(&b, 5, false);
    assert_true(b.input == (1u << 20) + 5u && b.used == (1u << 20));
    sw_budget fixed;
    sw_budget_init(&fixed, 0, 4096);
    sw_budget_add_input(&fixed, 1u << 20, false);
    assert_true(fixed.limit == 4096);
    assert_true(sw_budget_default_limit(UINT64_MAX / 4) == UINT64_MAX);
}

/* {"asset":...,"extras":[0,0,...]}: `count` numbers, about 2 bytes each. */
static const char* write_numbers(const char* path, uint32_t count) {
    FILE* f = fopen(path, "wb");
    assert_non_null(f);
    fputs("{\"asset\":{\"version\":\"2.0\"},\"extras\":[", f);
    for (uint32_t i = 0; i + 1 < count; ++i)
        fputs("0,", f);
    fputs("0]}", f);
    fclose(f);
    return path;
}

static void test_asset_under_budget(void** state) {
    (void)state;
    const char* path = write_numbers("test_budget_numbers.gltf", 200000);
    sw_asset_options opt;
    memset(&opt, 0, sizeof opt);
    opt.max_memory = 1u << 20;
    sw_asset a;
    sw_error err = SW_ERROR_INIT;
    assert_int_equal(sw_asset_open(path, &opt, &a, &err), SW_RESULT_LIMIT);
    assert_string_equal(err.check, "memory budget");
    opt.max_memory = 0; /* default: the numbers fit, the file has no skin */
    assert_int_equal(sw_asset_open(path, &opt, &a, &err), SW_RESULT_NOT_FOUND);
    remove(path);
}

/* The least budget (to 1/64 of it) under which `path` opens. */
static uint64_t least_budget(const char* path) {
    uint64_t lo = 0, hi = (uint64_t)4 << 30;
    while (hi - lo > hi / 64u) {
        const uint64_t mid = lo + (hi - lo) / 2u;
        sw_asset_options opt;
        memset(&opt, 0, sizeof opt);
        opt.max_memory = mid;
        sw_asset a;
        sw_error err = SW_ERROR_INIT;
        const sw_result r = sw_asset_open(path, &opt, &a, &err);
        if (r == SW_RESULT_OK) {
            sw_asset_free(&a);
            hi = mid;
        } else {
            assert_int_equal(r, SW_RESULT_LIMIT);
            lo = mid;
        }
    }
    return hi;
}

static void test_real_files_have_room(void** state) {
    (void)state;
    const char* files[] = {SINEW_TEST_ASSETS "/RobotExpressive.glb",
                           SINEW_TEST_MODELS "/BVH/01_03.bvh",
                           SINEW_TEST_MODELS "/glTF2/simple_skin/simple_skin.gltf"};
    uint32_t checked = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i) {
        FILE* f = fopen(files[i], "rb");
        if (!f) {
            printf("skip %s: absent\n", files[i]);
            continue;
        }
        fseek(f, 0, SEEK_END);
        const uint64_t size = (uint64_t)ftell(f);
        fclose(f);
        const uint64_t need = least_budget(files[i]);
        const uint64_t limit = sw_budget_default_limit(size);
        printf("%s: %llu bytes, needs %.2f MiB (%.1f x), default %.1f MiB\n", files[i],
               (unsigned long long)size, (double)need / 1048576.0, (double)need / (double)size,
               (double)limit / 1048576.0);
        assert_true(2u * need <= limit);
        ++checked;
    }
    if (checked == 0) skip();
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts_live_and_peak),
        cmocka_unit_test(test_refuses_past_the_limit),
        cmocka_unit_test(test_input_raises_the_default),
        cmocka_unit_test(test_asset_under_budget),
        cmocka_unit_test(test_real_files_have_room),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
