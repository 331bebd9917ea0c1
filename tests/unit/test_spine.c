/* Spine wander: the offset stays in its range, is smooth, differs between
 * seeds and repeats for a seed; on the CMU spine (LowerBack .. Head) the head
 * lands on the wandering target (FABRIK and CCD) and so stays within its
 * range of the FK position, at weight 0.5 too; weight 0 returns the input
 * exactly; validity table. */
#include "ik_fixture.h"

#include "sinew/procedural/spine.h"

#define PI_F 3.14159265f

static void test_offset_properties(void** state) {
    (void)state;
    const sw_vec3 range = {0.05f, 0.02f, 0.04f};
    const float f = 0.8f;
    const float dt = 1.0f / 240.0f;
    /* |d offset / dt| <= range * 2 pi f * (0.5 + 0.3 * 2.3 + 0.2 * 3.9) */
    const float rate = 2.0f * PI_F * f * (0.5f + 0.3f * 2.3f + 0.2f * 3.9f);
    for (uint32_t seed = 0; seed < 20; ++seed) {
        sw_vec3 peak = {0, 0, 0};
        sw_vec3 prev = sw_spine_wander_offset(range, f, seed, 0.0f);
        for (int k = 1; k <= 240 * 20; ++k) {
            const float t = (float)k * dt;
            const sw_vec3 o = sw_spine_wander_offset(range, f, seed, t);
            assert_true(fabsf(o.x) <= range.x && fabsf(o.y) <= range.y && fabsf(o.z) <= range.z);
            assert_true(fabsf(o.x - prev.x) <= range.x * rate * dt * 1.001f + 1e-7f);
            assert_true(fabsf(o.y - prev.y) <= range.y * rate * dt * 1.001f + 1e-7f);
            assert_true(fabsf(o.z - prev.z) <= range.z * rate * dt * 1.001f + 1e-7f);
            peak.x = fmaxf(peak.x, fabsf(o.x));
            peak.y = fmaxf(peak.y, fabsf(o.y));
            peak.z = fmaxf(peak.z, fabsf(o.z));
            prev = o;
        }
        /* it really wanders: over 20 s each axis gets past half its range */
        assert_true(peak.x > 0.5f * range.x && peak.y > 0.5f * range.y && peak.z > 0.5f * range.z);
    }
    /* same seed, same bits; other seeds differ somewhere within a second */
    for (uint32_t seed = 0; seed < 20; ++seed) {
        float most = 0.0f;
        for (int k = 0; k < 60; ++k) {
            const float t = (float)k / 60.0f;
            const sw_vec3 a = sw_spine_wander_offset(range, f, seed, t);
            const sw_vec3 b = sw_spine_wander_offset(range, f, seed, t);
            assert_memory_equal(&a, &b, sizeof(a));
            const sw_vec3 c = sw_spine_wander_offset(range, f, seed + 1u, t);
            most = fmaxf(most, sw_vec3_length(sw_vec3_sub(a, c)));
        }
        assert_true(most > 0.1f * sw_vec3_length(range));
    }
    /* zero range, non-finite time, default frequency */
    const sw_vec3 z = sw_spine_wander_offset(sw_vec3_make(0, 0, 0), f, 3, 1.3f);
    assert_true(z.x == 0.0f && z.y == 0.0f && z.z == 0.0f);
    const sw_vec3 n = sw_spine_wander_offset(range, f, 3, NAN);
    assert_true(n.x == 0.0f && n.y == 0.0f && n.z == 0.0f);
    const sw_vec3 d0 = sw_spine_wander_offset(range, 0.0f, 3, 1.3f);
    const sw_vec3 d1 = sw_spine_wander_offset(range, SW_SPINE_DEFAULT_FREQUENCY, 3, 1.3f);
    assert_memory_equal(&d0, &d1, sizeof(d0));
}

typedef struct spine_rig {
    sw_bvh_result bvh;
    ik_rig rig;
    uint32_t chain[8];
    uint32_t count;
} spine_rig;

static bool spine_open(spine_rig* s) {
    memset(s, 0, sizeof(*s));
    if (!ik_read_cmu(&s->bvh)) return false;
    ik_rig_init(&s->rig, s->bvh.skeleton);
    /* Neck sits on Spine1 (zero offset): it follows its parent, off the chain. */
    static const char* const names[5] = {"LowerBack", "Spine", "Spine1", "Neck1", "Head"};
    s->count = 5;
    for (uint32_t i = 0; i < s->count; ++i) {
        const int32_t j = sw_skeleton_find_joint(s->bvh.skeleton, names[i]);
        assert_true(j >= 0);
        s->chain[i] = (uint32_t)j;
    }
    return true;
}

static void test_cmu_spine(void** state) {
    (void)state;
    spine_rig s;
    if (!spine_open(&s)) return;
    ik_rig* r = &s.rig;
    const uint32_t head = s.chain[s.count - 1];
    const sw_vec3 range = {0.04f, 0.03f, 0.04f};
    const sw_spine_solver solvers[2] = {SW_SPINE_SOLVER_DEFAULT, SW_SPINE_SOLVER_CCD};
    SINEW_ALIGN16 sw_xform4 fk_pose[8];
    float worst_target = 0.0f;
    uint32_t unreachable = 0;
    for (int sv = 0; sv < 2; ++sv) {
        for (int k = 0; k < 40; ++k) {
            const float clip_t = 0.1f * (float)k;
            ik_rig_sample(r, s.bvh.clip, clip_t);
            memcpy(fk_pose, r->pose, sizeof(sw_xform4) * r->packets);
            const sw_vec3 fk = ik_pos(r, head);
            const sw_vec3 root = ik_pos(r, s.chain[0]);
            sw_vec3 target = {0, 0, 0};
            const sw_spine_wander_job job = {.skeleton = r->skel,
                                             .model = r->model,
                                             .model_count = r->joints,
                                             .joints = s.chain,
                                             .joints_count = s.count,
                                             .range = range,
                                             .seed = (uint32_t)k,
                                             .time = 0.37f * (float)k,
                                             .solver = solvers[sv],
                                             .iterations = sv == 0 ? 40u : 200u,
                                             .weight = 1.0f,
                                             .pose = r->pose,
                                             .pose_count = r->packets,
                                             .target = &target};
            assert_int_equal(sw_spine_wander_job_run(&job), SW_RESULT_OK);
            /* the target is the FK position plus the documented offset */
            const sw_vec3 want =
                sw_vec3_add(fk, sw_spine_wander_offset(range, 0.0f, job.seed, job.time));
            sw_test_vec3_near(target, want, 0.0f);
            ik_rig_model(r);
            const sw_vec3 tip = ik_pos(r, head);
            if (ik_dist(target, root) < 0.99f * ik_dist(fk, root) + 1e-3f)
                worst_target = fmaxf(worst_target, ik_dist(tip, target));
            /* reached, or (the spine being nearly straight, a target above it
             * is out of reach) as close as the chain's length allows */
            float length = 0.0f;
            for (uint32_t i = 1; i < s.count; ++i)
                length += ik_dist(ik_pos(r, s.chain[i]), ik_pos(r, s.chain[i - 1]));
            const float beyond = ik_dist(target, root) - length;
            if (beyond > 0.0f) unreachable++;
            if (!(ik_dist(tip, target) < fmaxf(1e-3f, beyond + 2e-3f)))
                fail_msg("solver %d frame %d: head %.5f m from the target, %.4f from FK, target "
                         "%.4f from FK",
                         sv, k, (double)ik_dist(tip, target), (double)ik_dist(tip, fk),
                         (double)ik_dist(target, fk));
            assert_true(fabsf(tip.x - fk.x) <= range.x + 1e-3f);
            assert_true(fabsf(tip.y - fk.y) <= range.y + 1e-3f);
            assert_true(fabsf(tip.z - fk.z) <= range.z + 1e-3f);
            /* the chain root stays */
            sw_test_vec3_near(ik_pos(r, s.chain[0]), root, 1e-5f);

            /* weight 0.5: still within the range of FK */
            memcpy(r->pose, fk_pose, sizeof(sw_xform4) * r->packets);
            ik_rig_model(r);
            sw_spine_wander_job half = job;
            half.weight = 0.5f;
            half.target = NULL;
            assert_int_equal(sw_spine_wander_job_run(&half), SW_RESULT_OK);
            ik_rig_model(r);
            const float moved = ik_dist(ik_pos(r, head), fk);
            assert_true(moved <= sw_vec3_length(range) + 1e-3f);

            /* weight 0: the input exactly */
            memcpy(r->pose, fk_pose, sizeof(sw_xform4) * r->packets);
            ik_rig_model(r);
            sw_spine_wander_job none = job;
            none.weight = 0.0f;
            assert_int_equal(sw_spine_wander_job_run(&none), SW_RESULT_OK);
            assert_memory_equal(r->pose, fk_pose, sizeof(sw_xform4) * r->packets);
        }
    }
    print_message("CMU spine: head within %.2e m of reachable wandering targets; %u of 80 "
                  "targets above the straight spine, out of reach\n",
                  (double)worst_target, unreachable);

    /* same seed and time: same pose bits; another seed: another pose */
    ik_rig_sample(r, s.bvh.clip, 1.0f);
    memcpy(fk_pose, r->pose, sizeof(sw_xform4) * r->packets);
    SINEW_ALIGN16 sw_xform4 a[8], b[8], c[8];
    sw_spine_wander_job job = {.skeleton = r->skel,
                               .model = r->model,
                               .model_count = r->joints,
                               .joints = s.chain,
                               .joints_count = s.count,
                               .range = range,
                               .seed = 7,
                               .time = 0.8f,
                               .weight = 1.0f,
                               .pose = r->pose,
                               .pose_count = r->packets};
    assert_int_equal(sw_spine_wander_job_run(&job), SW_RESULT_OK);
    memcpy(a, r->pose, sizeof(a));
    memcpy(r->pose, fk_pose, sizeof(a));
    assert_int_equal(sw_spine_wander_job_run(&job), SW_RESULT_OK);
    memcpy(b, r->pose, sizeof(b));
    memcpy(r->pose, fk_pose, sizeof(a));
    job.seed = 8;
    assert_int_equal(sw_spine_wander_job_run(&job), SW_RESULT_OK);
    memcpy(c, r->pose, sizeof(c));
    assert_memory_equal(a, b, sizeof(a));
    assert_memory_not_equal(a, c, sizeof(a));
    ik_rig_free(r);
    sw_bvh_result_free(&s.bvh, NULL);
}

static void test_validity(void** state) {
    (void)state;
    const sw_skeleton* skel = ik_make_chain(5);
    ik_rig r;
    ik_rig_init(&r, skel);
    const uint32_t chain[CHAIN_JOINTS + 1] = {0, 1, 2, 3, 4, 5, 6, 7};
    sw_vec3 target;
    const sw_spine_wander_job valid = {.skeleton = skel,
                                       .model = r.model,
                                       .model_count = r.joints,
                                       .joints = chain,
                                       .joints_count = CHAIN_JOINTS + 1,
                                       .range = {0.02f, 0.02f, 0.02f},
                                       .time = 1.0f,
                                       .weight = 1.0f,
                                       .pose = r.pose,
                                       .pose_count = r.packets,
                                       .target = &target};
    assert_int_equal(sw_spine_wander_job_validate(&valid), SW_RESULT_OK);
    const sw_spine_wander_job zero = {0};
    assert_int_equal(sw_spine_wander_job_validate(&zero), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_spine_wander_job_run(&zero), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_spine_wander_job_validate(NULL), SW_RESULT_INVALID_ARGUMENT);
    const uint32_t bad_order[3] = {2, 1, 3};
    const sw_ik_limit bad_limit[CHAIN_JOINTS + 1] = {{.type = (sw_ik_limit_type)9}};
    sw_mat4 short_bone[CHAIN_JOINTS + 2];
    memcpy(short_bone, r.model, sizeof(short_bone));
    short_bone[2] = short_bone[1];
    SINEW_ALIGN16 sw_xform4 buf[4];
    enum { CASES = 28 };
    struct {
        sw_spine_wander_job job;
        sw_result expect;
    } cases[CASES];
    uint32_t n = 0;
    for (uint32_t i = 0; i < CASES; ++i)
        cases[i].job = valid;
    cases[n].job.skeleton = NULL, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.model = NULL, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.joints = NULL, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.pose = NULL, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.range.x = -0.01f, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.range.y = NAN, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.range.z = INFINITY, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.frequency = -1.0f, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.frequency = INFINITY, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.time = NAN, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.solver = (sw_spine_solver)3, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.joints_count = 1, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.joints_count = SW_IK_MAX_CHAIN + 1, cases[n++].expect = SW_RESULT_LIMIT;
    cases[n].job.joints = bad_order, cases[n].job.joints_count = 3,
    cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.limits = bad_limit, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.weight = 1.5f, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.weight = NAN, cases[n].job.solver = SW_SPINE_SOLVER_CCD,
    cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.tolerance = -1.0f, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.model_count = r.joints - 1, cases[n++].expect = SW_RESULT_BUFFER_TOO_SMALL;
    cases[n].job.pose_count = r.packets - 1, cases[n++].expect = SW_RESULT_BUFFER_TOO_SMALL;
    cases[n].job.pose = (sw_xform4*)(void*)((char*)buf + 4),
    cases[n++].expect = SW_RESULT_MISALIGNED;
    cases[n].job.model = (const sw_mat4*)(const void*)r.pose, cases[n++].expect = SW_RESULT_OVERLAP;
    cases[n].job.target = (sw_vec3*)(void*)r.pose, cases[n++].expect = SW_RESULT_OVERLAP;
    cases[n].job.target = (sw_vec3*)(void*)&r.model[3], cases[n++].expect = SW_RESULT_OVERLAP;
    cases[n].job.model = short_bone, cases[n++].expect = SW_RESULT_BAD_DATA;
    assert_true(n <= CASES);
    SINEW_ALIGN16 sw_xform4 pose0[4];
    memcpy(pose0, r.pose, sizeof(sw_xform4) * r.packets);
    sw_mat4 model0[CHAIN_JOINTS + 2];
    memcpy(model0, r.model, sizeof(model0));
    for (uint32_t i = 0; i < n; ++i) {
        target = sw_vec3_make(9, 9, 9);
        const sw_result v = sw_spine_wander_job_validate(&cases[i].job);
        if (v != cases[i].expect)
            fail_msg("case %u: validate gave %s, expected %s", i, sw_result_str(v),
                     sw_result_str(cases[i].expect));
        assert_int_equal(sw_spine_wander_job_run(&cases[i].job), cases[i].expect);
        assert_memory_equal(pose0, r.pose, sizeof(sw_xform4) * r.packets);
        assert_memory_equal(model0, r.model, sizeof(model0));
        assert_true(target.x == 9.0f && target.y == 9.0f && target.z == 9.0f);
    }
    assert_int_equal(sw_spine_wander_job_run(&valid), SW_RESULT_OK);
    ik_rig_free(&r);
    sw_skeleton_destroy(skel, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_offset_properties),
        cmocka_unit_test(test_cmu_spine),
        cmocka_unit_test(test_validity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
