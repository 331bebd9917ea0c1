/* Animator sampling caches on raw clips: evaluate keeps a sampling cache
 * per clip a layer may play in the instance (clips with explicit key times:
 * key cursors). Poses must be bit-identical to sampling every clip from a
 * cold seek: checked against a reference evaluation (contributions sampled
 * without a cache and blended with the blend job), and between instances
 * evaluated every frame and every seventh frame, over clips whose key
 * times are irregular (so the key search cannot guess them), through
 * loops, crossfades (a clip playing twice at once among them), more clips
 * than caches and large steps. test_animator_keys runs the same on
 * quantized clips keeping their keys. */
#include "animator_cache_rig.h"

static int setup(void** state) {
    (void)state;
    cache_rig_setup();
    return 0;
}

static int teardown(void** state) {
    (void)state;
    cache_rig_teardown();
    return 0;
}

static const clip_set k_raw = {g_clips, SW_ANIMATOR_KEEP_CURSORS, NULL};

/* Uniform keys are found from the time alone: an instance over them holds
 * no cursors, whatever it keeps. Over explicit times it holds one per track
 * for each clip the layer may play (walk, run and wave: 3), not one per
 * playing clip (the base machine: 2 members x 4 fading states). An unknown
 * mode is refused. */
static void test_cache_memory_only_for_key_searches(void** state) {
    (void)state;
    sw_animator_desc d = desc_of(1);
    rig explicit_times, uniform;
    rig_open(&explicit_times, &d, g_clips, SW_ANIMATOR_KEEP_CURSORS);
    rig_open(&uniform, &d, g_uniform, SW_ANIMATOR_KEEP_KEYS);
    const size_t with = sw_animator_instance_size(explicit_times.bound);
    const size_t without = sw_animator_instance_size(uniform.bound);
    const size_t cursors = sizeof(uint32_t) * JOINTS;
    assert_true(with >= without + 3u * cursors);
    assert_true(with < without + 2u * SW_ANIMATOR_MAX_FADES * cursors);
    assert_int_equal(sw_animator_instance_size_keeping(uniform.bound, SW_ANIMATOR_KEEP_KEYS),
                     without);
    assert_int_equal(sw_animator_instance_size_keeping(uniform.bound, SW_ANIMATOR_KEEP_COUNT), 0);
    void* mem = aligned_alloc(16, without);
    sw_animator_instance* inst = NULL;
    assert_int_equal(sw_animator_instance_init_keeping(mem, without, uniform.bound,
                                                       SW_ANIMATOR_KEEP_COUNT, &inst),
                     SW_RESULT_INVALID_ARGUMENT);
    free(mem);
    rig_close(&uniform);
    rig_close(&explicit_times);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        ON_CLIPS(test_cached_equals_cold_reference, "raw", k_raw),
        ON_CLIPS(test_cached_every_frame_equals_sparse, "raw", k_raw),
        ON_CLIPS(test_caches_change_clips, "raw", k_raw),
        cmocka_unit_test(test_cache_memory_only_for_key_searches),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
