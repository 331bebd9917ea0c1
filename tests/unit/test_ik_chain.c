/* FABRIK and CCD: validity tables, convergence on reachable targets, bone
 * lengths, fixed root, unreachable targets, hinge and cone limits checked on
 * the recomputed model matrices, per-step limits, pole side, weight 0, and
 * the CMU arms, legs and spine. */
#include "ik_fixture.h"

enum { SOLVER_FABRIK, SOLVER_CCD };

typedef struct chain_solve {
    int solver;
    const uint32_t* joints;
    uint32_t count;
    const sw_ik_limit* limits;
    sw_vec3 target;
    bool use_pole;
    sw_vec3 pole;
    float weight;
    uint32_t iterations;
    float tolerance;
} chain_solve;

/* Runs the solver on the rig (model matrices copied first, so the job reads
 * the input pose's), recomputes model matrices, returns the result and the
 * reported distance. */
static sw_result run_chain(ik_rig* r, const chain_solve* cs, float* distance) {
    sw_mat4* old = malloc(sizeof(sw_mat4) * r->joints);
    memcpy(old, r->model, sizeof(sw_mat4) * r->joints);
    sw_result res;
    if (cs->solver == SOLVER_FABRIK) {
        const sw_ik_fabrik_job job = {.skeleton = r->skel,
                                      .model = old,
                                      .model_count = r->joints,
                                      .joints = cs->joints,
                                      .joints_count = cs->count,
                                      .limits = cs->limits,
                                      .target = cs->target,
                                      .use_pole = cs->use_pole,
                                      .pole = cs->pole,
                                      .weight = cs->weight,
                                      .iterations = cs->iterations,
                                      .tolerance = cs->tolerance,
                                      .pose = r->pose,
                                      .pose_count = r->packets,
                                      .distance = distance};
        res = sw_ik_fabrik_job_run(&job);
    } else {
        const sw_ik_ccd_job job = {.skeleton = r->skel,
                                   .model = old,
                                   .model_count = r->joints,
                                   .joints = cs->joints,
                                   .joints_count = cs->count,
                                   .limits = cs->limits,
                                   .target = cs->target,
                                   .weight = cs->weight,
                                   .iterations = cs->iterations,
                                   .tolerance = cs->tolerance,
                                   .pose = r->pose,
                                   .pose_count = r->packets,
                                   .distance = distance};
        res = sw_ik_ccd_job_run(&job);
    }
    free(old);
    ik_rig_model(r);
    return res;
}

static const uint32_t k_chain[CHAIN_JOINTS] = {1, 2, 3, 4, 5, 6, 7};

/* Tip position of the chain under other random rotations of the chain's
 * joints (the base, hence the chain's root position, stays): reachable. */
static sw_vec3 reachable_target(ik_rig* r, uint32_t* rng) {
    SINEW_ALIGN16 sw_xform4 keep[3];
    memcpy(keep, r->pose, sizeof(keep));
    for (uint32_t j = 1; j <= CHAIN_JOINTS; ++j) {
        sw_xform x = sw_pose_get(r->pose, j);
        x.r = sw_quat_mul(x.r, sw_test_rand_quat(rng));
        sw_pose_set(r->pose, j, x);
    }
    ik_rig_model(r);
    const sw_vec3 t = ik_pos(r, CHAIN_JOINTS);
    memcpy(r->pose, keep, sizeof(keep));
    ik_rig_model(r);
    return t;
}

static void test_chain_validity(void** state) {
    (void)state;
    const sw_skeleton* s = ik_make_chain(1);
    ik_rig r;
    ik_rig_init(&r, s);
    float dist = -1.0f;
    sw_ik_limit limits[CHAIN_JOINTS] = {{0}};
    limits[2] = (sw_ik_limit){
        .type = SW_IK_LIMIT_TYPE_HINGE, .axis = {1, 0, 0}, .min_angle = -1.0f, .max_angle = 1.0f};
    limits[3] = (sw_ik_limit){.type = SW_IK_LIMIT_TYPE_CONE, .cone_angle = 0.5f};
    const sw_ik_fabrik_job valid = {.skeleton = s,
                                    .model = r.model,
                                    .model_count = r.joints,
                                    .joints = k_chain,
                                    .joints_count = CHAIN_JOINTS,
                                    .limits = limits,
                                    .target = {0.1f, 0.9f, 0.2f},
                                    .weight = 1.0f,
                                    .pose = r.pose,
                                    .pose_count = r.packets,
                                    .distance = &dist};
    assert_int_equal(sw_ik_fabrik_job_validate(&valid), SW_RESULT_OK);
    /* Iterations capped at SW_IK_MAX_ITERATIONS (UINT32_MAX ran ~40 minutes). */
    sw_ik_fabrik_job many = valid;
    sw_ik_ccd_job many_ccd = {.skeleton = s,
                              .model = r.model,
                              .model_count = r.joints,
                              .joints = k_chain,
                              .joints_count = CHAIN_JOINTS,
                              .target = valid.target,
                              .weight = 1.0f,
                              .pose = r.pose,
                              .pose_count = r.packets};
    const uint32_t counts[3] = {SW_IK_MAX_ITERATIONS, SW_IK_MAX_ITERATIONS + 1u, UINT32_MAX};
    for (int k = 0; k < 3; ++k) {
        many.iterations = many_ccd.iterations = counts[k];
        const sw_result want = k == 0 ? SW_RESULT_OK : SW_RESULT_LIMIT;
        assert_int_equal(sw_ik_fabrik_job_validate(&many), want);
        assert_int_equal(sw_ik_ccd_job_validate(&many_ccd), want);
    }
    const sw_ik_fabrik_job zero = {0};
    assert_int_equal(sw_ik_fabrik_job_validate(&zero), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_ik_fabrik_job_run(&zero), SW_RESULT_INVALID_ARGUMENT);
    const sw_ik_ccd_job zero_ccd = {0};
    assert_int_equal(sw_ik_ccd_job_validate(&zero_ccd), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_ik_ccd_job_run(&zero_ccd), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_ik_fabrik_job_run(NULL), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_ik_ccd_job_run(NULL), SW_RESULT_INVALID_ARGUMENT);

    const uint32_t bad_order[3] = {1, 3, 2};
    const uint32_t branch[3] = {0, 1, CHAIN_JOINTS + 1};
    const uint32_t out_of_range[2] = {1, 99};
    static uint32_t long_chain[SW_IK_MAX_CHAIN + 1];
    sw_mat4 flat[CHAIN_JOINTS + 2];
    memcpy(flat, r.model, sizeof(flat));
    memcpy(&flat[4].m[12], &flat[3].m[12], 3 * sizeof(float));
    sw_ik_limit bad_limits[9][CHAIN_JOINTS];
    for (int i = 0; i < 9; ++i)
        memcpy(bad_limits[i], limits, sizeof(limits));
    bad_limits[0][1].type = (sw_ik_limit_type)9;
    bad_limits[1][2].axis = sw_vec3_make(0, 0, 0);
    bad_limits[2][2].axis.x = NAN;
    bad_limits[3][2].min_angle = 2.0f; /* > max */
    bad_limits[4][2].max_angle = 4.0f; /* > pi */
    bad_limits[5][2].min_angle = -4.0f;
    bad_limits[6][3].cone_angle = -0.1f;
    bad_limits[7][3].cone_angle = 3.5f;
    bad_limits[8][0].max_step_angle = -1.0f;
    SINEW_ALIGN16 sw_xform4 buf[4];

#define NCASES 40
    sw_ik_fabrik_job cases[NCASES];
    sw_result expect[NCASES];
    bool fabrik_only[NCASES] = {false};
    uint32_t n = 0;
    for (uint32_t i = 0; i < NCASES; ++i)
        cases[i] = valid;
#define CASE(stmt, res) (cases[n].stmt, expect[n++] = (res))
    CASE(skeleton = NULL, SW_RESULT_INVALID_ARGUMENT);
    CASE(model = NULL, SW_RESULT_INVALID_ARGUMENT);
    CASE(pose = NULL, SW_RESULT_INVALID_ARGUMENT);
    CASE(joints = NULL, SW_RESULT_INVALID_ARGUMENT);
    CASE(joints_count = 1, SW_RESULT_INVALID_ARGUMENT);
    CASE(joints_count = 0, SW_RESULT_INVALID_ARGUMENT);
    CASE(joints = bad_order, SW_RESULT_INVALID_ARGUMENT);
    cases[n - 1].joints_count = 3;
    CASE(joints = branch, SW_RESULT_INVALID_ARGUMENT);
    cases[n - 1].joints_count = 3;
    CASE(joints = out_of_range, SW_RESULT_INVALID_ARGUMENT);
    cases[n - 1].joints_count = 2;
    CASE(joints = long_chain, SW_RESULT_LIMIT);
    cases[n - 1].joints_count = SW_IK_MAX_CHAIN + 1;
    CASE(target.y = NAN, SW_RESULT_INVALID_ARGUMENT);
    CASE(weight = -0.5f, SW_RESULT_INVALID_ARGUMENT);
    CASE(weight = NAN, SW_RESULT_INVALID_ARGUMENT);
    CASE(tolerance = -1.0f, SW_RESULT_INVALID_ARGUMENT);
    CASE(tolerance = INFINITY, SW_RESULT_INVALID_ARGUMENT);
    for (int i = 0; i < 9; ++i)
        CASE(limits = bad_limits[i], SW_RESULT_INVALID_ARGUMENT);
    CASE(model_count = 3, SW_RESULT_BUFFER_TOO_SMALL);
    CASE(pose_count = 2, SW_RESULT_BUFFER_TOO_SMALL);
    CASE(pose = (sw_xform4*)(void*)((char*)buf + 4), SW_RESULT_MISALIGNED);
    CASE(model = (const sw_mat4*)(const void*)r.pose, SW_RESULT_OVERLAP);
    CASE(distance = (float*)(void*)&r.pose[1], SW_RESULT_OVERLAP);
    CASE(distance = (float*)(void*)&r.model[1], SW_RESULT_OVERLAP);
    CASE(distance = (float*)(void*)&limits[1], SW_RESULT_OVERLAP);
    CASE(limits = (const sw_ik_limit*)(const void*)r.pose, SW_RESULT_OVERLAP);
    CASE(model = flat, SW_RESULT_BAD_DATA);
    fabrik_only[n] = true;
    CASE(use_pole = true, SW_RESULT_INVALID_ARGUMENT); /* zero pole */
    fabrik_only[n] = true;
    CASE(pole.z = NAN, SW_RESULT_INVALID_ARGUMENT);
#undef CASE
    assert_true(n <= NCASES);
    for (uint32_t i = 0; i < n; ++i) {
        SINEW_ALIGN16 sw_xform4 before[3];
        memcpy(before, r.pose, sizeof(before));
        dist = -1.0f;
        const sw_ik_fabrik_job* f = &cases[i];
        sw_result v = sw_ik_fabrik_job_validate(f);
        if (v != expect[i]) fail_msg("fabrik case %u: validate gave %s", i, sw_result_str(v));
        assert_int_equal(sw_ik_fabrik_job_run(f), expect[i]);
        const sw_ik_ccd_job c = {.skeleton = f->skeleton,
                                 .model = f->model,
                                 .model_count = f->model_count,
                                 .joints = f->joints,
                                 .joints_count = f->joints_count,
                                 .limits = f->limits,
                                 .target = f->target,
                                 .weight = f->weight,
                                 .iterations = f->iterations,
                                 .tolerance = f->tolerance,
                                 .pose = f->pose,
                                 .pose_count = f->pose_count,
                                 .distance = f->distance};
        const sw_result ce = fabrik_only[i] ? SW_RESULT_OK : expect[i];
        if (!fabrik_only[i]) {
            v = sw_ik_ccd_job_validate(&c);
            if (v != ce) fail_msg("ccd case %u: validate gave %s", i, sw_result_str(v));
            assert_int_equal(sw_ik_ccd_job_run(&c), ce);
        }
        assert_memory_equal(before, r.pose, sizeof(before));
        assert_true(dist == -1.0f);
    }
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

/* Bone lengths, fixed root, joints outside the chain untouched. */
static void check_chain_shape(const ik_rig* r, const sw_mat4* before, const uint32_t* joints,
                              uint32_t count) {
    sw_test_vec3_near(
        ik_pos(r, joints[0]),
        sw_vec3_make(before[joints[0]].m[12], before[joints[0]].m[13], before[joints[0]].m[14]),
        1e-6f);
    for (uint32_t i = 0; i + 1 < count; ++i) {
        const sw_vec3 a = {before[joints[i]].m[12], before[joints[i]].m[13],
                           before[joints[i]].m[14]};
        const sw_vec3 b = {before[joints[i + 1]].m[12], before[joints[i + 1]].m[13],
                           before[joints[i + 1]].m[14]};
        assert_near(ik_dist(ik_pos(r, joints[i]), ik_pos(r, joints[i + 1])), ik_dist(a, b), 1e-5);
    }
}

static void converge(int solver, uint32_t iterations, float tolerance) {
    const sw_skeleton* s = ik_make_chain(2);
    ik_rig r;
    ik_rig_init(&r, s);
    uint32_t rng = 11;
    int converged = 0, total = 0;
    for (int iter = 0; iter < 200; ++iter) {
        ik_rig_random_pose(&r, &rng, 0.8f);
        const sw_vec3 target = reachable_target(&r, &rng);
        sw_mat4 before[CHAIN_JOINTS + 2];
        memcpy(before, r.model, sizeof(before));
        const chain_solve cs = {.solver = solver,
                                .joints = k_chain,
                                .count = CHAIN_JOINTS,
                                .target = target,
                                .weight = 1.0f,
                                .iterations = iterations,
                                .tolerance = tolerance};
        float dist = -1.0f;
        assert_int_equal(run_chain(&r, &cs, &dist), SW_RESULT_OK);
        check_chain_shape(&r, before, k_chain, CHAIN_JOINTS);
        sw_test_mat4_near(&r.model[CHAIN_JOINTS + 1], &before[CHAIN_JOINTS + 1], 0.0f);
        /* The reported distance is the one the pose gives. */
        const float measured = ik_dist(ik_pos(&r, CHAIN_JOINTS), target);
        assert_near(measured, dist, 2e-5);
        ++total;
        if (measured <= tolerance + 2e-5f) ++converged;
    }
    print_message("%s: %d of %d reachable targets within %g after at most %u iterations\n",
                  solver == SOLVER_FABRIK ? "FABRIK" : "CCD", converged, total, (double)tolerance,
                  iterations);
    assert_int_equal(converged, total);
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

static void test_fabrik_converges(void** state) {
    (void)state;
    converge(SOLVER_FABRIK, 200, 1e-4f);
}

static void test_ccd_converges(void** state) {
    (void)state;
    converge(SOLVER_CCD, 500, 1e-4f);
}

/* Default iterations and tolerance: FABRIK's 10 iterations get close. */
static void test_fabrik_defaults(void** state) {
    (void)state;
    const sw_skeleton* s = ik_make_chain(3);
    ik_rig r;
    ik_rig_init(&r, s);
    uint32_t rng = 12;
    float worst = 0.0f;
    for (int iter = 0; iter < 100; ++iter) {
        ik_rig_random_pose(&r, &rng, 0.8f);
        const chain_solve cs = {.solver = SOLVER_FABRIK,
                                .joints = k_chain,
                                .count = CHAIN_JOINTS,
                                .target = reachable_target(&r, &rng),
                                .weight = 1.0f};
        float dist = 0.0f;
        assert_int_equal(run_chain(&r, &cs, &dist), SW_RESULT_OK);
        if (dist > worst) worst = dist;
    }
    print_message("FABRIK, 10 iterations: worst tip distance %g m over 100 targets\n",
                  (double)worst);
    assert_true(worst < 1e-3f);
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

/* Out of reach: a straight line from the root towards the target. */
static void test_chain_unreachable(void** state) {
    (void)state;
    const sw_skeleton* s = ik_make_chain(4);
    ik_rig r;
    ik_rig_init(&r, s);
    uint32_t rng = 13;
    for (int solver = SOLVER_FABRIK; solver <= SOLVER_CCD; ++solver) {
        for (int iter = 0; iter < 50; ++iter) {
            ik_rig_random_pose(&r, &rng, 0.8f);
            sw_mat4 before[CHAIN_JOINTS + 2];
            memcpy(before, r.model, sizeof(before));
            float total = 0.0f;
            for (uint32_t i = 1; i < CHAIN_JOINTS; ++i)
                total += ik_dist(ik_pos(&r, i), ik_pos(&r, i + 1));
            const sw_vec3 root = ik_pos(&r, 1);
            const sw_vec3 dir = sw_vec3_normalize(sw_vec3_make(
                sw_test_rand(&rng, -1, 1), sw_test_rand(&rng, -1, 1), sw_test_rand(&rng, -1, 1)));
            const sw_vec3 target =
                sw_vec3_add(root, sw_vec3_scale(dir, total * sw_test_rand(&rng, 1.01f, 2.0f)));
            const chain_solve cs = {.solver = solver,
                                    .joints = k_chain,
                                    .count = CHAIN_JOINTS,
                                    .target = target,
                                    .weight = 1.0f,
                                    .iterations = solver == SOLVER_FABRIK ? 1u : 1000u};
            float dist = 0.0f;
            assert_int_equal(run_chain(&r, &cs, &dist), SW_RESULT_OK);
            check_chain_shape(&r, before, k_chain, CHAIN_JOINTS);
            float along = 0.0f;
            for (uint32_t i = 1; i <= CHAIN_JOINTS; ++i) {
                const sw_vec3 expect = sw_vec3_add(root, sw_vec3_scale(dir, along));
                /* CCD approaches the line iteratively; FABRIK places it. */
                sw_test_vec3_near(ik_pos(&r, i), expect, solver == SOLVER_FABRIK ? 1e-5f : 1e-3f);
                if (i < CHAIN_JOINTS)
                    along +=
                        ik_dist(sw_vec3_make(before[i].m[12], before[i].m[13], before[i].m[14]),
                                sw_vec3_make(before[i + 1].m[12], before[i + 1].m[13],
                                             before[i + 1].m[14]));
            }
            assert_near(dist, ik_dist(target, ik_pos(&r, CHAIN_JOINTS)), 2e-5);
        }
    }
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

/* Checks every limit on the recomputed model matrices: the reference is the
 * previous bone (or the parent-to-joint direction for the first joint), the
 * hinge axis the parent's model rotation applied to the limit's axis. */
static void check_limits(const ik_rig* r, const uint32_t* joints, uint32_t count,
                         const sw_ik_limit* limits, double tol) {
    const int16_t* parents = sw_skeleton_parents(r->skel);
    for (uint32_t i = 0; i + 1 < count; ++i) {
        const sw_vec3 p = ik_pos(r, joints[i]);
        const sw_vec3 bone = sw_vec3_normalize(sw_vec3_sub(ik_pos(r, joints[i + 1]), p));
        const int32_t parent = parents[joints[i]];
        const sw_ik_limit* l = &limits[i];
        if (parent < 0) {
            /* A root: its reference is the input bone; the hinge plane is fixed. */
            if (l->type == SW_IK_LIMIT_TYPE_HINGE)
                assert_near(sw_vec3_dot(bone, sw_vec3_normalize(l->axis)), 0.0, tol);
            continue;
        }
        const sw_vec3 ref = sw_vec3_normalize(
            sw_vec3_sub(p, i > 0 ? ik_pos(r, joints[i - 1]) : ik_pos(r, (uint32_t)parent)));
        if (l->type == SW_IK_LIMIT_TYPE_CONE) {
            const double a = ik_vec_angle(bone, ref);
            if (a > l->cone_angle + tol)
                fail_msg("joint %u: cone %g > %g", i, a, (double)l->cone_angle);
        } else if (l->type == SW_IK_LIMIT_TYPE_HINGE) {
            const sw_vec3 axis =
                sw_vec3_normalize(sw_quat_rotate(sw_quat_from_mat4(&r->model[parent]), l->axis));
            assert_near(sw_vec3_dot(bone, axis), 0.0, tol);
            const sw_vec3 rp = sw_vec3_sub(ref, sw_vec3_scale(axis, sw_vec3_dot(ref, axis)));
            const double a = atan2((double)sw_vec3_dot(sw_vec3_cross(rp, bone), axis),
                                   (double)sw_vec3_dot(rp, bone));
            if (a < l->min_angle - tol || a > l->max_angle + tol)
                fail_msg("joint %u: hinge angle %g outside [%g, %g]", i, a, (double)l->min_angle,
                         (double)l->max_angle);
        }
    }
}

static void limits_respected(int solver) {
    const sw_skeleton* s = ik_make_chain(5);
    ik_rig r;
    ik_rig_init(&r, s);
    uint32_t rng = 14;
    for (int iter = 0; iter < 200; ++iter) {
        ik_rig_random_pose(&r, &rng, 1.0f);
        sw_ik_limit limits[CHAIN_JOINTS];
        for (uint32_t i = 0; i < CHAIN_JOINTS; ++i) {
            if ((iter + (int)i) % 2) {
                const float lo = sw_test_rand(&rng, -1.5f, 0.5f);
                limits[i] = (sw_ik_limit){
                    .type = SW_IK_LIMIT_TYPE_HINGE,
                    .axis = {sw_test_rand(&rng, -1, 1), sw_test_rand(&rng, -1, 1), 0.5f},
                    .min_angle = lo,
                    .max_angle = lo + sw_test_rand(&rng, 0.0f, 1.5f)};
            } else {
                limits[i] = (sw_ik_limit){.type = SW_IK_LIMIT_TYPE_CONE,
                                          .cone_angle = sw_test_rand(&rng, 0.0f, 1.0f)};
            }
        }
        sw_mat4 before[CHAIN_JOINTS + 2];
        memcpy(before, r.model, sizeof(before));
        const chain_solve cs = {.solver = solver,
                                .joints = k_chain,
                                .count = CHAIN_JOINTS,
                                .limits = limits,
                                .target = reachable_target(&r, &rng),
                                .weight = 1.0f,
                                .iterations = 30};
        assert_int_equal(run_chain(&r, &cs, NULL), SW_RESULT_OK);
        check_chain_shape(&r, before, k_chain, CHAIN_JOINTS);
        check_limits(&r, k_chain, CHAIN_JOINTS, limits, 2e-4);
    }
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

static void test_fabrik_limits(void** state) {
    (void)state;
    limits_respected(SOLVER_FABRIK);
}

static void test_ccd_limits(void** state) {
    (void)state;
    limits_respected(SOLVER_CCD);
}

/* Limits loose enough to allow the target: still converges, within them. */
static void test_limits_allow_reach(void** state) {
    (void)state;
    const sw_skeleton* s = ik_make_chain(6);
    ik_rig r;
    ik_rig_init(&r, s);
    uint32_t rng = 15;
    for (int solver = SOLVER_FABRIK; solver <= SOLVER_CCD; ++solver) {
        int reached = 0;
        for (int iter = 0; iter < 50; ++iter) {
            /* Target: the tip of a pose whose bones all bend <= 0.5 rad from
             * the previous one; the cones allow 1.0 rad. */
            ik_rig_random_pose(&r, &rng, 0.25f);
            const sw_vec3 target = ik_pos(&r, CHAIN_JOINTS);
            ik_rig_random_pose(&r, &rng, 0.25f);
            sw_ik_limit limits[CHAIN_JOINTS];
            for (uint32_t i = 0; i < CHAIN_JOINTS; ++i)
                limits[i] = (sw_ik_limit){.type = SW_IK_LIMIT_TYPE_CONE, .cone_angle = 1.2f};
            const chain_solve cs = {.solver = solver,
                                    .joints = k_chain,
                                    .count = CHAIN_JOINTS,
                                    .limits = limits,
                                    .target = target,
                                    .weight = 1.0f,
                                    .iterations = 200};
            float dist = 0.0f;
            assert_int_equal(run_chain(&r, &cs, &dist), SW_RESULT_OK);
            check_limits(&r, k_chain, CHAIN_JOINTS, limits, 2e-4);
            if (dist <= 1e-3f) ++reached;
        }
        print_message("%s with cone limits: %d of 50 targets within 1 mm\n",
                      solver == SOLVER_FABRIK ? "FABRIK" : "CCD", reached);
        assert_true(reached >= 45);
    }
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

/* CCD's max_step_angle bounds each joint's turn per iteration. */
static void test_ccd_max_step(void** state) {
    (void)state;
    const sw_skeleton* s = ik_make_chain(7);
    ik_rig r;
    ik_rig_init(&r, s);
    uint32_t rng = 16;
    for (int iter = 0; iter < 100; ++iter) {
        ik_rig_random_pose(&r, &rng, 0.8f);
        const uint32_t iterations = 1u + (uint32_t)iter % 3u;
        sw_ik_limit limits[CHAIN_JOINTS];
        for (uint32_t i = 0; i < CHAIN_JOINTS; ++i)
            limits[i] = (sw_ik_limit){.max_step_angle = sw_test_rand(&rng, 0.01f, 0.2f)};
        SINEW_ALIGN16 sw_xform4 before[3];
        memcpy(before, r.pose, sizeof(before));
        const chain_solve cs = {.solver = SOLVER_CCD,
                                .joints = k_chain,
                                .count = CHAIN_JOINTS,
                                .limits = limits,
                                .target = reachable_target(&r, &rng),
                                .weight = 1.0f,
                                .iterations = iterations,
                                .tolerance = 1e-6f};
        assert_int_equal(run_chain(&r, &cs, NULL), SW_RESULT_OK);
        for (uint32_t i = 0; i + 1 < CHAIN_JOINTS; ++i) {
            const float a =
                ik_quat_angle(sw_pose_get(before, k_chain[i]).r, sw_pose_get(r.pose, k_chain[i]).r);
            assert_true(a <= (float)iterations * limits[i].max_step_angle + 1e-5f);
        }
    }
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

/* Weight 0 leaves the pose bit for bit; FABRIK's pole puts the middle joint
 * of a 3-joint chain on the pole's side. */
static void test_chain_weight_and_pole(void** state) {
    (void)state;
    const sw_skeleton* s = ik_make_chain(8);
    ik_rig r;
    ik_rig_init(&r, s);
    uint32_t rng = 17;
    for (int solver = SOLVER_FABRIK; solver <= SOLVER_CCD; ++solver) {
        ik_rig_random_pose(&r, &rng, 0.8f);
        SINEW_ALIGN16 sw_xform4 before[3];
        memcpy(before, r.pose, sizeof(before));
        const chain_solve cs = {.solver = solver,
                                .joints = k_chain,
                                .count = CHAIN_JOINTS,
                                .target = reachable_target(&r, &rng),
                                .weight = 0.0f,
                                .use_pole = true,
                                .pole = {0, 0, 1}};
        float dist = -1.0f;
        assert_int_equal(run_chain(&r, &cs, &dist), SW_RESULT_OK);
        assert_memory_equal(before, r.pose, sizeof(before));
        assert_true(dist >= 0.0f);
    }
    /* Weight w turns each joint by w times its full turn (the local change
     * is conj(P) * T^w * P). */
    for (int solver = SOLVER_FABRIK; solver <= SOLVER_CCD; ++solver) {
        ik_rig_random_pose(&r, &rng, 0.8f);
        SINEW_ALIGN16 sw_xform4 before[3], full[3];
        memcpy(before, r.pose, sizeof(before));
        sw_mat4 model[CHAIN_JOINTS + 2];
        memcpy(model, r.model, sizeof(model));
        chain_solve cs = {.solver = solver,
                          .joints = k_chain,
                          .count = CHAIN_JOINTS,
                          .target = reachable_target(&r, &rng),
                          .weight = 1.0f,
                          .iterations = 50};
        assert_int_equal(run_chain(&r, &cs, NULL), SW_RESULT_OK);
        memcpy(full, r.pose, sizeof(full));
        for (int k = 1; k < 4; ++k) {
            memcpy(r.pose, before, sizeof(before));
            memcpy(r.model, model, sizeof(model));
            cs.weight = 0.25f * (float)k;
            assert_int_equal(run_chain(&r, &cs, NULL), SW_RESULT_OK);
            for (uint32_t i = 0; i + 1 < CHAIN_JOINTS; ++i) {
                const uint32_t j = k_chain[i];
                const float a_full =
                    ik_quat_angle(sw_pose_get(before, j).r, sw_pose_get(full, j).r);
                const float a_w = ik_quat_angle(sw_pose_get(before, j).r, sw_pose_get(r.pose, j).r);
                assert_near(a_w, cs.weight * a_full, 1e-4);
            }
        }
    }
    const uint32_t three[3] = {2, 4, 6};
    for (int iter = 0; iter < 100; ++iter) {
        ik_rig_random_pose(&r, &rng, 0.8f);
        const sw_vec3 a = ik_pos(&r, 2), b = ik_pos(&r, 4), c = ik_pos(&r, 6);
        const float l1 = ik_dist(a, b), l2 = ik_dist(b, c);
        const sw_vec3 dir = sw_vec3_normalize(sw_vec3_make(
            sw_test_rand(&rng, -1, 1), sw_test_rand(&rng, -1, 1), sw_test_rand(&rng, -1, 1)));
        const sw_vec3 target = sw_vec3_add(
            a, sw_vec3_scale(dir, sw_test_rand(&rng, fabsf(l1 - l2) + 0.02f, l1 + l2 - 0.02f)));
        const sw_vec3 pole = sw_vec3_make(sw_test_rand(&rng, -1, 1), sw_test_rand(&rng, -1, 1),
                                          sw_test_rand(&rng, -1, 1));
        const chain_solve cs = {.solver = SOLVER_FABRIK,
                                .joints = three,
                                .count = 3,
                                .target = target,
                                .use_pole = true,
                                .pole = pole,
                                .weight = 1.0f,
                                .iterations = 100};
        float dist = 0.0f;
        assert_int_equal(run_chain(&r, &cs, &dist), SW_RESULT_OK);
        assert_true(dist <= 1e-4f);
        const sw_vec3 pp = sw_vec3_sub(pole, sw_vec3_scale(dir, sw_vec3_dot(pole, dir)));
        const sw_vec3 ab = sw_vec3_sub(ik_pos(&r, 4), a);
        const sw_vec3 off = sw_vec3_sub(ab, sw_vec3_scale(dir, sw_vec3_dot(ab, dir)));
        if (sw_vec3_length(pp) > 0.1f * sw_vec3_length(pole))
            assert_true(ik_vec_angle(off, pp) < 1e-2);
    }
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

/* CMU: shoulder-to-hand, hip-to-toe and spine-to-head chains reach targets
 * near their current tips, with both solvers. */
static void test_chain_cmu(void** state) {
    (void)state;
    sw_bvh_result bvh = {0};
    if (!ik_read_cmu(&bvh)) return;
    ik_rig r;
    ik_rig_init(&r, bvh.skeleton);
    const char* chains[3][2] = {
        {"LeftShoulder", "LeftHand"}, {"RightUpLeg", "RightToeBase"}, {"LowerBack", "Head"}};
    uint32_t rng = 18;
    int reached[2] = {0, 0}, tried[2] = {0, 0};
    for (int f = 0; f < 20; ++f) {
        for (int c = 0; c < 3; ++c) {
            uint16_t idx16[16];
            uint32_t count = 0, idx[16];
            assert_int_equal(
                sw_skeleton_find_chain(bvh.skeleton, chains[c][0], chains[c][1], idx16, 16, &count),
                SW_RESULT_OK);
            for (uint32_t i = 0; i < count; ++i)
                idx[i] = idx16[i];
            for (int solver = SOLVER_FABRIK; solver <= SOLVER_CCD; ++solver) {
                ik_rig_sample(&r, bvh.clip, bvh.clip->duration * (float)f / 20.0f);
                /* Skip joints sitting on their chain parent (LowerBack, hip joints). */
                uint32_t chain[16], n = 0;
                for (uint32_t i = 0; i < count; ++i)
                    if (n == 0 || ik_dist(ik_pos(&r, chain[n - 1]), ik_pos(&r, idx[i])) > 1e-4f)
                        chain[n++] = idx[i];
                sw_mat4* before = malloc(sizeof(sw_mat4) * r.joints);
                memcpy(before, r.model, sizeof(sw_mat4) * r.joints);
                const sw_vec3 tip = ik_pos(&r, chain[n - 1]);
                const sw_vec3 target =
                    sw_vec3_add(tip, sw_vec3_make(0.05f * (float)(f % 3) - 0.05f, -0.05f, 0.04f));
                (void)rng;
                const chain_solve cs = {.solver = solver,
                                        .joints = chain,
                                        .count = n,
                                        .target = target,
                                        .weight = 1.0f,
                                        .iterations = 200};
                float dist = 0.0f;
                assert_int_equal(run_chain(&r, &cs, &dist), SW_RESULT_OK);
                check_chain_shape(&r, before, chain, n);
                float reach = 0.0f;
                for (uint32_t i = 0; i + 1 < n; ++i)
                    reach += ik_dist(ik_pos(&r, chain[i]), ik_pos(&r, chain[i + 1]));
                const float to_root = ik_dist(target, ik_pos(&r, chain[0]));
                if (to_root < reach - 1e-3f) {
                    ++tried[solver];
                    if (dist <= 1e-4f) ++reached[solver];
                } else {
                    /* Out of reach: as close as a straight chain gets. */
                    assert_near(dist, to_root - reach, solver == SOLVER_FABRIK ? 1e-4 : 1e-3);
                }
                free(before);
            }
        }
    }
    print_message("CMU chains: FABRIK reached %d of %d, CCD %d of %d reachable targets (1e-4 m)\n",
                  reached[0], tried[0], reached[1], tried[1]);
    assert_true(tried[SOLVER_FABRIK] > 50);
    assert_int_equal(reached[SOLVER_FABRIK], tried[SOLVER_FABRIK]);
    assert_int_equal(reached[SOLVER_CCD], tried[SOLVER_CCD]);
    ik_rig_free(&r);
    sw_bvh_result_free(&bvh, NULL);
}

/* A planar arm with hinges about +Z (folds 0..40 degrees one way, the root
 * free): both solvers keep every joint in the plane, even for a target off
 * it, and keep the folds in range; CCD reaches in-plane targets the folds
 * allow, FABRIK those on the side it starts bent towards. */
static void test_planar_hinges(void** state) {
    (void)state;
    sw_skeleton_joint js[7];
    const char* names[7] = {"j0", "j1", "j2", "j3", "j4", "j5", "tip"};
    for (uint32_t j = 0; j < 7; ++j)
        js[j] = (sw_skeleton_joint){
            .name = names[j],
            .parent = (int32_t)j - 1,
            .rest = {.t = j == 0 ? sw_vec3_make(0, 0, 0) : sw_vec3_make(0.2f, 0, 0),
                     .r = sw_quat_from_axis_angle(sw_vec3_make(0, 0, 1), j == 0 ? 0.0f : 0.21f),
                     .s = {1, 1, 1}}};
    const sw_skeleton_desc desc = {.joints = js, .joints_count = 7};
    const sw_skeleton* s = NULL;
    assert_int_equal(sw_skeleton_create(&desc, NULL, &s, NULL), SW_RESULT_OK);
    ik_rig r;
    ik_rig_init(&r, s);
    const uint32_t chain[7] = {0, 1, 2, 3, 4, 5, 6};
    sw_ik_limit limits[7];
    for (uint32_t j = 0; j < 7; ++j)
        limits[j] = (sw_ik_limit){.type = SW_IK_LIMIT_TYPE_HINGE,
                                  .axis = {0, 0, 1},
                                  .min_angle = 0.0f,
                                  .max_angle = 0.698f};
    limits[0].min_angle = -3.14159f;
    limits[0].max_angle = 3.14159f;
    const sw_vec3 targets[4] = {
        {0.35f, 0.7f, 0}, {0.2f, -0.8f, 0}, {-0.3f, 0.3f, 0.2f}, {0.6f, 0.6f, 0}};
    SINEW_ALIGN16 sw_xform4 rest[2];
    memcpy(rest, r.pose, sizeof(rest));
    for (int solver = SOLVER_FABRIK; solver <= SOLVER_CCD; ++solver) {
        for (int t = 0; t < 4; ++t) {
            memcpy(r.pose, rest, sizeof(rest));
            ik_rig_model(&r);
            const chain_solve cs = {.solver = solver,
                                    .joints = chain,
                                    .count = 7,
                                    .limits = limits,
                                    .target = targets[t],
                                    .weight = 1.0f,
                                    .iterations = 100,
                                    .tolerance = 1e-5f};
            float dist = 0.0f;
            assert_int_equal(run_chain(&r, &cs, &dist), SW_RESULT_OK);
            for (uint32_t j = 0; j < 7; ++j)
                assert_near(ik_pos(&r, j).z, 0.0, 1e-5);
            check_limits(&r, chain, 7, limits, 2e-4);
            if (targets[t].z == 0.0f && (solver == SOLVER_CCD || t != 1))
                if (dist > 1e-4f) fail_msg("solver %d target %d: %g left", solver, t, (double)dist);
        }
    }
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

/* A straight chain with the target on its own line (closer than its
 * length, or behind the root): FABRIK unfolds it, towards the pole when
 * there is one. */
static void test_fabrik_straight_chain(void** state) {
    (void)state;
    sw_skeleton_joint js[5];
    const char* names[5] = {"j0", "j1", "j2", "j3", "tip"};
    for (uint32_t j = 0; j < 5; ++j)
        js[j] = (sw_skeleton_joint){
            .name = names[j],
            .parent = (int32_t)j - 1,
            .rest = {.t = j == 0 ? sw_vec3_make(0, 1, 0) : sw_vec3_make(0.25f, 0, 0),
                     .r = {0, 0, 0, 1},
                     .s = {1, 1, 1}}};
    const sw_skeleton_desc desc = {.joints = js, .joints_count = 5};
    const sw_skeleton* s = NULL;
    assert_int_equal(sw_skeleton_create(&desc, NULL, &s, NULL), SW_RESULT_OK);
    ik_rig r;
    ik_rig_init(&r, s);
    const uint32_t chain[5] = {0, 1, 2, 3, 4};
    const sw_vec3 targets[3] = {{0.6f, 1, 0}, {0.2f, 1, 0}, {-0.5f, 1, 0}};
    SINEW_ALIGN16 sw_xform4 rest[2];
    memcpy(rest, r.pose, sizeof(rest));
    for (int t = 0; t < 3; ++t) {
        for (int pole = 0; pole < 2; ++pole) {
            memcpy(r.pose, rest, sizeof(rest));
            ik_rig_model(&r);
            const chain_solve cs = {.solver = SOLVER_FABRIK,
                                    .joints = chain,
                                    .count = 5,
                                    .target = targets[t],
                                    .use_pole = pole != 0,
                                    .pole = {0, 0, 1},
                                    .weight = 1.0f,
                                    .iterations = 100};
            float dist = 0.0f;
            assert_int_equal(run_chain(&r, &cs, &dist), SW_RESULT_OK);
            if (dist > 1e-4f) fail_msg("target %d pole %d: %g left", t, pole, (double)dist);
            for (uint32_t i = 0; i < 4; ++i)
                assert_near(ik_dist(ik_pos(&r, i), ik_pos(&r, i + 1)), 0.25, 1e-5);
            if (pole && t < 2) {
                /* (Behind the root it folds back almost flat: any side.) */
                float zmax = 0.0f;
                for (uint32_t i = 1; i < 4; ++i)
                    zmax = fmaxf(zmax, ik_pos(&r, i).z);
                assert_true(zmax > 0.05f); /* bent towards +Z */
            }
        }
    }
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chain_validity),
        cmocka_unit_test(test_fabrik_converges),
        cmocka_unit_test(test_ccd_converges),
        cmocka_unit_test(test_fabrik_defaults),
        cmocka_unit_test(test_chain_unreachable),
        cmocka_unit_test(test_fabrik_limits),
        cmocka_unit_test(test_ccd_limits),
        cmocka_unit_test(test_limits_allow_reach),
        cmocka_unit_test(test_ccd_max_step),
        cmocka_unit_test(test_chain_weight_and_pole),
        cmocka_unit_test(test_chain_cmu),
        cmocka_unit_test(test_planar_hinges),
        cmocka_unit_test(test_fabrik_straight_chain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
