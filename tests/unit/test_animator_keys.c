/* Animator instances keeping quantized clips' decoded keys
 * (SW_ANIMATOR_KEEP_KEYS): the tests of test_animator_cache on the uniform
 * clips quantized (8-sample segments), without and with the clips' shared
 * tables (sw_animator_bind_tables), each pose bit-identical to sampling
 * every clip from a cold seek; the caches' memory by mode and with the
 * tables; a table of another clip refused; and a change of bound object,
 * after which the caches must not serve the first bound's keys. Builds
 * whose quantized decoder keeps no keys (no SSE2) run the same tests
 * without caches or tables. */
#include "animator_cache_rig.h"
#include "sinew/tools/builders/compress.h"

static const sw_clip* g_quant[CLIPS];  /* g_uniform quantized */
static const sw_clip* g_quant2[CLIPS]; /* other motion of the same names, sizes and counts */
static uint32_t* g_tables[CLIPS];      /* g_quant's shared tables (NULL: none on this build) */

static const sw_clip* quantize(const sw_clip* raw) {
    sw_compress_options o = {.precision = 0.002f, .segment_samples = 8};
    const sw_clip* out = NULL;
    sw_error err;
    sw_result r = sw_compress_clip(g_skel, raw, &o, NULL, &out, NULL, &err);
    if (r != SW_RESULT_OK)
        fail_msg("compress %s: %s (%s)", sw_clip_name(raw), sw_result_str(r), err.check);
    return out;
}

static int setup(void** state) {
    (void)state;
    cache_rig_setup();
    for (uint32_t i = 0; i < CLIPS; ++i) {
        g_quant[i] = quantize(g_uniform[i]);
        const sw_clip* other =
            make_clip(k_clip_names[i], k_durations[i], k_keys[i], 1.2f - 0.2f * (float)i, true);
        g_quant2[i] = quantize(other);
        sw_clip_destroy(other, NULL);
        const uint32_t words = sw_sample_table_size(g_quant[i]);
        if (words == 0) continue;
        g_tables[i] = (uint32_t*)aligned_alloc(16, ((size_t)words * 4u + 15u) & ~(size_t)15u);
        assert_non_null(g_tables[i]);
        assert_int_equal(sw_sample_table_init(g_quant[i], g_tables[i], words), SW_RESULT_OK);
    }
    return 0;
}

static int teardown(void** state) {
    (void)state;
    for (uint32_t i = 0; i < CLIPS; ++i) {
        sw_clip_destroy(g_quant[i], NULL);
        sw_clip_destroy(g_quant2[i], NULL);
        free(g_tables[i]);
    }
    cache_rig_teardown();
    return 0;
}

static const clip_set k_quant_keys = {g_quant, SW_ANIMATOR_KEEP_KEYS, NULL};
static const clip_set k_quant_tables = {g_quant, SW_ANIMATOR_KEEP_KEYS,
                                        (const uint32_t* const*)g_tables};
static const clip_set k_quant = {g_quant, SW_ANIMATOR_KEEP_CURSORS, NULL}; /* no caches */

/* The largest `size` of the clips desc_of's states play (the first 3). */
static uint32_t largest_of_played(uint32_t (*size)(const sw_clip*)) {
    uint32_t words = 0;
    for (uint32_t i = 0; i < 3; ++i) {
        const uint32_t w = size(g_quant[i]);
        words = w > words ? w : words;
    }
    return words;
}

/* Over quantized clips an instance holds no cache by default; keeping
 * keys, a cache of the largest sw_sample_cache_size words for each clip the
 * layer may play (3), where the decoder keeps keys; bound with the clips'
 * tables, of the largest sw_sample_cache_size_with_table words. */
static void test_keys_memory(void** state) {
    (void)state;
    sw_animator_desc d = desc_of(1);
    rig uniform, quant;
    rig_open(&uniform, &d, g_uniform, SW_ANIMATOR_KEEP_CURSORS);
    rig_open(&quant, &d, g_quant, SW_ANIMATOR_KEEP_KEYS);
    const size_t without = sw_animator_instance_size(uniform.bound);
    const uint32_t words = largest_of_played(sw_sample_cache_size);
    assert_int_equal(sw_animator_instance_size(quant.bound), without);
    const size_t quantized = sw_animator_instance_size_keeping(quant.bound, SW_ANIMATOR_KEEP_KEYS);
    const bool keeps = words > g_quant[0]->tracks_count;
    if (keeps) {
        assert_true(quantized >= without + 3u * sizeof(uint32_t) * words);
        assert_true(quantized < without + 4u * sizeof(uint32_t) * words);
    } else {
        assert_int_equal(quantized, without); /* no key cache on this build */
    }
    void* mem = aligned_alloc(16, quantized);
    sw_animator_instance* inst = NULL;
    assert_int_equal(sw_animator_instance_init_keeping(mem, quantized - 16u, quant.bound,
                                                       SW_ANIMATOR_KEEP_KEYS, &inst),
                     keeps ? SW_RESULT_BUFFER_TOO_SMALL : SW_RESULT_OK);
    free(mem);

    rig shared;
    rig_open_tables(&shared, &d, g_skel, g_quant, (const uint32_t* const*)g_tables, CLIPS,
                    SW_ANIMATOR_KEEP_KEYS);
    const uint32_t fewer = largest_of_played(sw_sample_cache_size_with_table);
    const size_t with_tables =
        sw_animator_instance_size_keeping(shared.bound, SW_ANIMATOR_KEEP_KEYS);
    if (keeps) {
        assert_true(fewer < words);
        assert_true(with_tables >= without + 3u * sizeof(uint32_t) * fewer);
        assert_true(with_tables < without + 4u * sizeof(uint32_t) * fewer);
    } else {
        assert_int_equal(with_tables, without);
    }
    /* The caches do keep keys with the tables: after 60 frames more words
     * of the instance are non-zero than an instance without caches has
     * (295 against its 188 here; 88 when the job is given no table, which
     * leaves caches of this size with cursors only). */
    for (uint32_t f = 0; f < 60; ++f) {
        const float dt = script(f, 45, shared.params);
        rig_step(&shared, dt, true);
    }
    uint32_t written = 0;
    for (size_t w = 0; w < with_tables / 4u; ++w)
        written += ((const uint32_t*)shared.inst_mem)[w] != 0u;
    if (keeps) assert_true(written > without / 4u);
    rig_close(&shared);
    rig_close(&quant);
    rig_close(&uniform);
}

/* sw_animator_bind_tables refuses a table made for another clip, and a
 * table given with a clip that is not quantized, naming the clip's index. */
static void test_tables_refused(void** state) {
    (void)state;
    if (!g_tables[0]) return; /* no tables on this build */
    sw_animator_desc d = desc_of(1);
    const sw_animator* def = NULL;
    assert_int_equal(sw_animator_create(&d, NULL, &def, NULL), SW_RESULT_OK);
    const size_t bs = sw_animator_bound_size(def, g_skel);
    void* mem = aligned_alloc(16, (bs + 15u) & ~(size_t)15u);
    assert_non_null(mem);
    const uint32_t* swapped[CLIPS];
    for (uint32_t i = 0; i < CLIPS; ++i)
        swapped[i] = g_tables[i];
    swapped[1] = g_tables[0]; /* clip 1 given clip 0's table */
    const sw_animator_bound* b = NULL;
    sw_error err;
    assert_int_equal(
        sw_animator_bind_tables(def, g_skel, g_quant, swapped, CLIPS, mem, bs, &b, &err),
        SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(err.index, 1);
    const uint32_t* raw_tables[CLIPS] = {NULL, NULL, g_tables[2], NULL, NULL};
    assert_int_equal(
        sw_animator_bind_tables(def, g_skel, g_uniform, raw_tables, CLIPS, mem, bs, &b, &err),
        SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(err.index, 2);
    assert_int_equal(sw_animator_bind_tables(def, g_skel, g_quant, (const uint32_t* const*)g_tables,
                                             CLIPS, mem, bs, &b, &err),
                     SW_RESULT_OK);
    free(mem);
    sw_animator_destroy(def, NULL);
}

/* One instance evaluated with one bound object, then with another whose
 * slots hold other clips of the same names and sizes (so the instance
 * matches both): after the switch, the caches must not serve the first
 * bound's keys. Each frame against the cold reference. */
static void test_caches_follow_the_bound(void** state) {
    (void)state;
    sw_animator_desc d = desc_of(1);
    rig a, b;
    rig_open(&a, &d, g_quant, SW_ANIMATOR_KEEP_KEYS);
    rig_open(&b, &d, g_quant2, SW_ANIMATOR_KEEP_KEYS);
    assert_int_equal(sw_animator_instance_size_keeping(a.bound, SW_ANIMATOR_KEEP_KEYS),
                     sw_animator_instance_size_keeping(b.bound, SW_ANIMATOR_KEEP_KEYS));
    const sw_animator_bound* own = a.bound;
    for (uint32_t f = 0; f < 240; ++f) {
        a.bound = (f / 20u) % 2u == 0 ? own : b.bound; /* a's instance, b's bound on odd runs */
        const float dt = script(f, 45, a.params);
        rig_step(&a, dt, true);
        expect_cold(&a, "bound switches every 20 frames", f);
    }
    a.bound = own;
    rig_close(&b);
    rig_close(&a);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        ON_CLIPS(test_cached_equals_cold_reference, "quantized, keys", k_quant_keys),
        ON_CLIPS(test_cached_equals_cold_reference, "quantized", k_quant),
        ON_CLIPS(test_cached_every_frame_equals_sparse, "quantized, keys", k_quant_keys),
        ON_CLIPS(test_caches_change_clips, "quantized, keys", k_quant_keys),
        ON_CLIPS(test_cached_equals_cold_reference, "quantized, keys, tables", k_quant_tables),
        ON_CLIPS(test_cached_every_frame_equals_sparse, "quantized, keys, tables", k_quant_tables),
        ON_CLIPS(test_caches_change_clips, "quantized, keys, tables", k_quant_tables),
        cmocka_unit_test(test_keys_memory),
        cmocka_unit_test(test_tables_refused),
        cmocka_unit_test(test_caches_follow_the_bound),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
