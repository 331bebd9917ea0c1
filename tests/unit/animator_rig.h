/* A running animator for the animator and crowd tests (test_animator,
 * test_animator_hits, test_crowd_skip, the cache tests): definition, bound object, instance,
 * scratch, pose and parameters over a caller's skeleton and clips. */
#ifndef SINEW_TEST_ANIMATOR_RIG_H
#define SINEW_TEST_ANIMATOR_RIG_H

#include "test_util.h"

#include "sinew/animator/animator.h"

/* A running animator: definition, bound, instance, scratch, params. */
typedef struct rig {
    const sw_animator* def;
    const sw_animator_bound* bound;
    void* bound_mem;
    sw_animator_instance* inst;
    void* inst_mem;
    void* scratch;
    size_t scratch_size;
    sw_xform4* pose;
    float params[SW_ANIMATOR_MAX_PARAMS];
} rig;

/* Opens r over skel and clips (bound with their shared tables, NULL:
 * none), its instance keeping `keep`. */
static inline void rig_open_tables(rig* r, const sw_animator_desc* d, const sw_skeleton* skel,
                                   const sw_clip* const* clips, const uint32_t* const* tables,
                                   uint32_t clips_count, sw_animator_keep keep) {
    memset(r, 0, sizeof *r);
    sw_error err;
    sw_result res = sw_animator_create(d, NULL, &r->def, &err);
    if (res != SW_RESULT_OK) fail_msg("create: %s (%s)", sw_result_str(res), err.check);
    size_t bs = sw_animator_bound_size(r->def, skel);
    r->bound_mem = aligned_alloc(16, (bs + 15u) & ~(size_t)15u);
    res = sw_animator_bind_tables(r->def, skel, clips, tables, clips_count, r->bound_mem, bs,
                                  &r->bound, &err);
    if (res != SW_RESULT_OK) fail_msg("bind: %s (%s)", sw_result_str(res), err.check);
    size_t is = sw_animator_instance_size_keeping(r->bound, keep);
    r->inst_mem = aligned_alloc(16, (is + 15u) & ~(size_t)15u);
    assert_int_equal(sw_animator_instance_init_keeping(r->inst_mem, is, r->bound, keep, &r->inst),
                     SW_RESULT_OK);
    r->scratch_size = sw_animator_scratch_size(r->bound);
    r->scratch = aligned_alloc(16, (r->scratch_size + 15u) & ~(size_t)15u);
    r->pose = (sw_xform4*)aligned_alloc(16, sizeof(sw_xform4) * skel->packets_count);
    assert_int_equal(sw_animator_params_reset(r->def, r->params, SW_ANIMATOR_MAX_PARAMS),
                     SW_RESULT_OK);
}

/* Opens r over skel and clips, its instance keeping `keep`. */
static inline void rig_open_keeping(rig* r, const sw_animator_desc* d, const sw_skeleton* skel,
                                    const sw_clip* const* clips, uint32_t clips_count,
                                    sw_animator_keep keep) {
    rig_open_tables(r, d, skel, clips, NULL, clips_count, keep);
}

static inline void rig_open_with(rig* r, const sw_animator_desc* d, const sw_skeleton* skel,
                                 const sw_clip* const* clips, uint32_t clips_count) {
    rig_open_keeping(r, d, skel, clips, clips_count, SW_ANIMATOR_KEEP_CURSORS);
}

static inline void rig_close(rig* r) {
    free(r->pose);
    free(r->scratch);
    free(r->inst_mem);
    free(r->bound_mem);
    sw_animator_destroy(r->def, NULL);
}

static inline uint32_t rig_update(rig* r, float dt, sw_animator_event* ev, uint32_t cap,
                                  sw_animator_root_motion* rm) {
    uint32_t n = 0;
    sw_result res = sw_animator_update(r->inst, r->bound, r->params, SW_ANIMATOR_MAX_PARAMS, dt, ev,
                                       cap, &n, rm);
    assert_int_equal(res, SW_RESULT_OK);
    return n;
}

static inline void rig_eval(rig* r) {
    const uint32_t packets = sw_animator_bound_skeleton(r->bound)->packets_count;
    assert_int_equal(
        sw_animator_evaluate(r->inst, r->bound, r->scratch, r->scratch_size, r->pose, packets),
        SW_RESULT_OK);
}

#endif
