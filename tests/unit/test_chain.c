/* Chains: follow-the-leader against a naive double implementation and path
 * properties, aim against exact target positions, jiggle properties (lengths,
 * rest on the pose, colliders, frame-rate independence, huge dt), validity
 * tables. */
#include "test_util.h"

#include "runtime/core/internal.h"
#include "sinew/procedural/chain.h"
#include "sinew/tools/readers/asset.h"
#include "sinew/tools/readers/bvh.h"

/* ---- a small rig ----
 * 0 base, 1 a, 2 a_twist (between a and b, not in the chain), 3 b, 4 c, 5 d,
 * 6 side (a sibling of a). Chain: base, a, b, c, d. */
enum { RIG_JOINTS = 7, RIG_CHAIN = 5 };
static const uint32_t rig_chain[RIG_CHAIN] = {0, 1, 3, 4, 5};

typedef struct rig {
    const sw_skeleton* skel;
    sw_xform4* pose;
    sw_mat4 model[RIG_JOINTS];
} rig;

static rig rig_make(void) {
    const sw_vec3 one = {1, 1, 1};
    const sw_skeleton_joint joints[RIG_JOINTS] = {
        {"base", -1, {{0, 1, 0}, {0, 0, 0, 1}, one}},
        {"a", 0, {{0.25f, 0, 0}, sw_quat_from_axis_angle(sw_vec3_make(0, 0, 1), 0.2f), one}},
        {"a_twist", 1, {{0.1f, 0, 0}, sw_quat_from_axis_angle(sw_vec3_make(1, 0, 0), 0.7f), one}},
        {"b", 2, {{0.15f, 0, 0}, sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), -0.3f), one}},
        {"c", 3, {{0.25f, 0, 0}, sw_quat_from_axis_angle(sw_vec3_make(0, 0, 1), -0.25f), one}},
        {"d", 4, {{0.2f, 0.05f, 0}, sw_quat_identity(), one}},
        {"side", 0, {{0, 0.3f, 0}, sw_quat_identity(), one}},
    };
    const sw_skeleton_desc desc = {joints, RIG_JOINTS};
    rig r = {0};
    assert_int_equal(sw_skeleton_create(&desc, NULL, &r.skel, NULL), SW_RESULT_OK);
    r.pose = aligned_alloc(16, sizeof(sw_xform4) * r.skel->packets_count);
    memcpy(r.pose, sw_skeleton_rest_pose(r.skel), sizeof(sw_xform4) * r.skel->packets_count);
    return r;
}

static void rig_free(rig* r) {
    free(r->pose);
    sw_skeleton_destroy(r->skel, NULL);
}

static void rig_model(rig* r, const sw_mat4* root) {
    const sw_local_to_model_job job = {
        .skeleton = r->skel,
        .local = r->pose,
        .local_count = r->skel->packets_count,
        .root_transform = root,
        .out = r->model,
        .out_count = RIG_JOINTS,
    };
    assert_int_equal(sw_local_to_model_job_run(&job), SW_RESULT_OK);
}

static sw_vec3 rig_pos(const rig* r, uint32_t joint) {
    return sw_vec3_make(r->model[joint].m[12], r->model[joint].m[13], r->model[joint].m[14]);
}

static double dist(sw_vec3 a, sw_vec3 b) {
    double dx = (double)a.x - b.x, dy = (double)a.y - b.y, dz = (double)a.z - b.z;
    return sqrt(dx * dx + dy * dy + dz * dz);
}

/* ---- follow-the-leader ---- */

/* Naive follow-the-leader in double, written independently. */
static void naive_follow(double (*p)[3], int n, const double* len, const double head[3]) {
    for (int c = 0; c < 3; ++c)
        p[0][c] = head[c];
    for (int i = 1; i < n; ++i) {
        double d[3], l = 0;
        for (int c = 0; c < 3; ++c) {
            d[c] = p[i][c] - p[i - 1][c];
            l += d[c] * d[c];
        }
        l = sqrt(l);
        for (int c = 0; c < 3; ++c)
            p[i][c] = p[i - 1][c] + d[c] * len[i - 1] / l;
    }
}

static void test_follow_straight_path(void** state) {
    (void)state;
    enum { N = 6 };
    const float lengths[N - 1] = {0.3f, 0.2f, 0.2f, 0.1f, 0.4f};
    sw_vec3 pts[N];
    float x = 0.0f;
    for (int i = 0; i < N; ++i) {
        pts[i] = sw_vec3_make(x, 0, 0);
        if (i < N - 1) x -= lengths[i];
    }
    /* A head moving along +X drags the chain along the line, exactly behind it. */
    for (int step = 1; step <= 100; ++step) {
        const sw_chain_follow_job job = {
            .head = sw_vec3_make(0.037f * (float)step, 0, 0),
            .lengths = lengths,
            .lengths_count = N - 1,
            .points = pts,
            .points_count = N,
        };
        assert_int_equal(sw_chain_follow_job_run(&job), SW_RESULT_OK);
        float behind = 0.0f;
        for (int i = 1; i < N; ++i) {
            behind += lengths[i - 1];
            sw_test_vec3_near(pts[i], sw_vec3_make(job.head.x - behind, 0, 0), 1e-5f);
        }
    }
}

/* A head going round a circle of radius R: in the limit of small steps each
 * follower's velocity points along its link, so in the steady state the link
 * is tangent to the follower's circle and r_i^2 = r_(i-1)^2 - l_i^2: the tail
 * circles at sqrt(R^2 - sum l_i^2). */
static void test_follow_circle_closed_form(void** state) {
    (void)state;
    enum { N = 12, PER_LOOP = 16000 };
    float lengths[N - 1];
    sw_vec3 pts[N];
    double sum_l2 = 0;
    for (int i = 0; i < N - 1; ++i) {
        lengths[i] = 0.08f + 0.005f * (float)i;
        sum_l2 += (double)lengths[i] * lengths[i];
    }
    for (int i = 0; i < N; ++i)
        pts[i] = sw_vec3_make(1.0f, 0, -0.1f * (float)i);
    double worst_len = 0, r_min = 1e9, r_max = 0;
    for (int s = 1; s <= 5 * PER_LOOP; ++s) {
        const double t = 2.0 * 3.14159265358979 * s / PER_LOOP;
        const sw_chain_follow_job job = {
            .head = sw_vec3_make((float)cos(t), 0.0f, (float)sin(t)),
            .lengths = lengths,
            .lengths_count = N - 1,
            .points = pts,
            .points_count = N,
        };
        assert_int_equal(sw_chain_follow_job_run(&job), SW_RESULT_OK);
        for (int i = 1; i < N; ++i)
            worst_len = fmax(worst_len, fabs(dist(pts[i], pts[i - 1]) - lengths[i - 1]));
        if (s > 4 * PER_LOOP) { /* the last loop: steady state */
            const double r = hypot(pts[N - 1].x, pts[N - 1].z);
            r_min = fmin(r_min, r);
            r_max = fmax(r_max, r);
        }
    }
    const double expect = sqrt(1.0 - sum_l2);
    print_message("circle: tail radius %.6f..%.6f, closed form %.6f, length error %.3g\n", r_min,
                  r_max, expect, worst_len);
    assert_true(worst_len <= 1e-5);
    assert_near(r_min, expect, 5e-4);
    assert_near(r_max, expect, 5e-4);
}

/* A figure-eight head path (the docs' picture): lengths exact, the same as a
 * naive double implementation, and the tail settles onto a closed loop that
 * repeats with the head's period. */
static void test_follow_figure_eight(void** state) {
    (void)state;
    enum { N = 12, PER_LOOP = 500, LOOPS = 6 };
    float lengths[N - 1];
    double dlen[N - 1];
    sw_vec3 pts[N];
    double ref[N][3];
    for (int i = 0; i < N - 1; ++i)
        dlen[i] = lengths[i] = 0.08f;
    for (int i = 0; i < N; ++i) {
        pts[i] = sw_vec3_make(0, -0.08f * (float)i, 0);
        ref[i][0] = 0, ref[i][1] = -0.08 * i, ref[i][2] = 0;
    }
    static sw_vec3 tail[LOOPS * PER_LOOP + 1];
    double worst_len = 0, worst_ref = 0, worst_period = 0;
    for (int s = 1; s <= LOOPS * PER_LOOP; ++s) {
        const double t = 2.0 * 3.14159265358979 * s / PER_LOOP;
        const double head[3] = {1.0 * sin(t), 0.5 * sin(2.0 * t), 0.0};
        const sw_chain_follow_job job = {
            .head = sw_vec3_make((float)head[0], (float)head[1], 0.0f),
            .lengths = lengths,
            .lengths_count = N - 1,
            .points = pts,
            .points_count = N,
        };
        assert_int_equal(sw_chain_follow_job_run(&job), SW_RESULT_OK);
        naive_follow(ref, N, dlen, head);
        for (int i = 1; i < N; ++i) {
            worst_len = fmax(worst_len, fabs(dist(pts[i], pts[i - 1]) - lengths[i - 1]));
            sw_vec3 r3 = {(float)ref[i][0], (float)ref[i][1], (float)ref[i][2]};
            worst_ref = fmax(worst_ref, dist(pts[i], r3));
        }
        tail[s] = pts[N - 1];
        if (s > (LOOPS - 1) * PER_LOOP)
            worst_period = fmax(worst_period, dist(tail[s], tail[s - PER_LOOP]));
    }
    print_message("figure eight: length error %.3g, vs naive %.3g, tail loop-to-loop %.3g m\n",
                  worst_len, worst_ref, worst_period);
    assert_true(worst_len <= 1e-5);
    assert_true(worst_ref <= 1e-4);
    assert_true(worst_period <= 1e-3);
}

static void test_follow_coincident_points(void** state) {
    (void)state;
    /* The head moves onto point 1, which then sits on point 2: point 1 hangs
     * below the head, point 2 continues that segment. */
    const float lengths[2] = {0.5f, 0.25f};
    sw_vec3 pts[3] = {{0, 0, 0}, {1, 0, 0}, {1, -0.5f, 0}};
    const sw_chain_follow_job job = {
        .head = sw_vec3_make(1, 0, 0),
        .lengths = lengths,
        .lengths_count = 2,
        .points = pts,
        .points_count = 3,
    };
    assert_int_equal(sw_chain_follow_job_run(&job), SW_RESULT_OK);
    sw_test_vec3_near(pts[1], sw_vec3_make(1, -0.5f, 0), 1e-6f);
    sw_test_vec3_near(pts[2], sw_vec3_make(1, -0.75f, 0), 1e-6f);
    /* A single point is just the head. */
    sw_vec3 one = {0, 0, 0};
    const sw_chain_follow_job j1 = {.head = {3, 4, 5}, .points = &one, .points_count = 1};
    assert_int_equal(sw_chain_follow_job_run(&j1), SW_RESULT_OK);
    sw_test_vec3_near(one, sw_vec3_make(3, 4, 5), 0);
}

static void test_follow_validity(void** state) {
    (void)state;
    float lengths[3] = {0.1f, 0.1f, 0.1f};
    sw_vec3 pts[4] = {{0, 0, 0}, {0, -0.1f, 0}, {0, -0.2f, 0}, {0, -0.3f, 0}};
    const sw_chain_follow_job valid = {
        .head = {0, 0, 0},
        .lengths = lengths,
        .lengths_count = 3,
        .points = pts,
        .points_count = 4,
    };
    assert_int_equal(sw_chain_follow_job_validate(&valid), SW_RESULT_OK);
    const sw_chain_follow_job zero = {0};
    assert_int_equal(sw_chain_follow_job_validate(&zero), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_chain_follow_job_run(&zero), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_chain_follow_job_validate(NULL), SW_RESULT_INVALID_ARGUMENT);
    struct {
        sw_chain_follow_job job;
        sw_result expect;
    } cases[8];
    for (int i = 0; i < 8; ++i)
        cases[i].job = valid;
    cases[0].job.points = NULL, cases[0].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[1].job.points_count = 0, cases[1].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[2].job.lengths = NULL, cases[2].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[3].job.head.y = NAN, cases[3].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[4].job.lengths_count = 2, cases[4].expect = SW_RESULT_BUFFER_TOO_SMALL;
    cases[5].job.lengths = (const float*)(const void*)&pts[1], cases[5].expect = SW_RESULT_OVERLAP;
    cases[6].job.head.x = INFINITY, cases[6].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[7].job.lengths_count = 3, cases[7].expect = SW_RESULT_INVALID_ARGUMENT;
    float bad_lengths[3] = {0.1f, -0.1f, 0.1f};
    cases[7].job.lengths = bad_lengths;
    for (int i = 0; i < 8; ++i) {
        sw_vec3 before[4];
        memcpy(before, pts, sizeof pts);
        sw_chain_follow_job job = cases[i].job;
        if (job.points) job.head.z += 5.0f; /* a run that would move the points */
        assert_int_equal(sw_chain_follow_job_validate(&cases[i].job), cases[i].expect);
        assert_int_equal(sw_chain_follow_job_run(&job), cases[i].expect);
        assert_memory_equal(before, pts, sizeof pts);
    }
}

/* ---- aim ---- */

static void test_aim_reaches_points(void** state) {
    (void)state;
    uint32_t rng = 17u;
    for (int trial = 0; trial < 50; ++trial) {
        rig r = rig_make();
        sw_mat4 root = sw_mat4_identity();
        const bool with_root = (trial & 1) != 0;
        if (with_root) {
            sw_xform rx = {{1, 2, 3}, sw_test_rand_quat(&rng), {1, 1, 1}};
            root = sw_mat4_from_xform(rx);
        }
        rig_model(&r, with_root ? &root : NULL);
        sw_vec3 pts[RIG_CHAIN];
        float len[RIG_CHAIN - 1];
        assert_int_equal(
            sw_chain_points_from_model(r.model, RIG_JOINTS, rig_chain, RIG_CHAIN, pts, len),
            SW_RESULT_OK);
        /* Targets with the chain's own lengths, in random directions. */
        for (int i = 1; i < RIG_CHAIN; ++i) {
            sw_vec3 d = sw_vec3_normalize(sw_vec3_make(
                sw_test_rand(&rng, -1, 1), sw_test_rand(&rng, -1, 1), sw_test_rand(&rng, -1, 1)));
            pts[i] = sw_vec3_add(pts[i - 1], sw_vec3_scale(d, len[i - 1]));
        }
        const sw_vec3 base_before = rig_pos(&r, 0);
        const double side_len = dist(rig_pos(&r, 6), base_before);
        const sw_chain_aim_job job = {
            .skeleton = r.skel,
            .model = r.model,
            .model_count = RIG_JOINTS,
            .root_transform = with_root ? &root : NULL,
            .joints = rig_chain,
            .joints_count = RIG_CHAIN,
            .points = pts,
            .points_count = RIG_CHAIN,
            .weight = 1.0f,
            .pose = r.pose,
            .pose_count = r.skel->packets_count,
        };
        assert_int_equal(sw_chain_aim_job_run(&job), SW_RESULT_OK);
        rig_model(&r, with_root ? &root : NULL);
        for (int i = 0; i < RIG_CHAIN; ++i)
            sw_test_vec3_near(rig_pos(&r, rig_chain[i]), pts[i], 2e-5f);
        /* The root turned in place, carrying its other child rigidly. */
        sw_test_vec3_near(rig_pos(&r, 0), base_before, 1e-6f);
        assert_near(dist(rig_pos(&r, 6), rig_pos(&r, 0)), side_len, 1e-5);
        rig_free(&r);
    }
}

static void test_aim_weight(void** state) {
    (void)state;
    rig r = rig_make();
    rig_model(&r, NULL);
    sw_vec3 pts[RIG_CHAIN];
    float len[RIG_CHAIN - 1];
    sw_chain_points_from_model(r.model, RIG_JOINTS, rig_chain, RIG_CHAIN, pts, len);
    const sw_vec3 old_dir = sw_vec3_normalize(sw_vec3_sub(pts[1], pts[0]));
    const sw_vec3 new_dir = sw_vec3_normalize(sw_vec3_make(0.2f, -1.0f, 0.4f));
    const float full = acosf(sw_vec3_dot(old_dir, new_dir));
    pts[1] = sw_vec3_add(pts[0], sw_vec3_scale(new_dir, len[0]));
    /* Only the first bone is asked to move (the rest follow rigidly). */
    sw_chain_aim_job job = {
        .skeleton = r.skel,
        .model = r.model,
        .model_count = RIG_JOINTS,
        .joints = rig_chain,
        .joints_count = 2,
        .points = pts,
        .points_count = RIG_CHAIN,
        .weight = 0.0f,
        .pose = r.pose,
        .pose_count = r.skel->packets_count,
    };
    sw_xform4 before[2];
    memcpy(before, r.pose, sizeof before);
    assert_int_equal(sw_chain_aim_job_run(&job), SW_RESULT_OK);
    assert_memory_equal(before, r.pose, sizeof before); /* weight 0: bit-identical */
    job.weight = 0.3f;
    assert_int_equal(sw_chain_aim_job_run(&job), SW_RESULT_OK);
    rig_model(&r, NULL);
    const sw_vec3 got = sw_vec3_normalize(sw_vec3_sub(rig_pos(&r, 1), rig_pos(&r, 0)));
    assert_near(acosf(fminf(1.0f, sw_vec3_dot(got, old_dir))), 0.3f * full, 1e-4);
    assert_near(acosf(fminf(1.0f, sw_vec3_dot(got, new_dir))), 0.7f * full, 1e-4);
    rig_free(&r);
}

static void test_aim_validity(void** state) {
    (void)state;
    rig r = rig_make();
    rig_model(&r, NULL);
    sw_vec3 pts[RIG_CHAIN];
    sw_chain_points_from_model(r.model, RIG_JOINTS, rig_chain, RIG_CHAIN, pts, NULL);
    pts[RIG_CHAIN - 1].y += 0.1f;
    const uint32_t not_ancestors[2] = {6, 1};
    const uint32_t out_of_range[2] = {0, 7};
    static uint32_t too_long[SW_CHAIN_MAX_JOINTS + 1];
    sw_vec3 bad_pts[RIG_CHAIN];
    memcpy(bad_pts, pts, sizeof pts);
    bad_pts[2].x = NAN;
    const sw_chain_aim_job valid = {
        .skeleton = r.skel,
        .model = r.model,
        .model_count = RIG_JOINTS,
        .joints = rig_chain,
        .joints_count = RIG_CHAIN,
        .points = pts,
        .points_count = RIG_CHAIN,
        .weight = 1.0f,
        .pose = r.pose,
        .pose_count = r.skel->packets_count,
    };
    assert_int_equal(sw_chain_aim_job_validate(&valid), SW_RESULT_OK);
    const sw_chain_aim_job zero = {0};
    assert_int_equal(sw_chain_aim_job_validate(&zero), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_chain_aim_job_run(&zero), SW_RESULT_INVALID_ARGUMENT);
    enum { CASES = 17 };
    struct {
        sw_chain_aim_job job;
        sw_result expect;
    } c[CASES];
    for (int i = 0; i < CASES; ++i)
        c[i].job = valid;
    c[0].job.skeleton = NULL, c[0].expect = SW_RESULT_INVALID_ARGUMENT;
    c[1].job.model = NULL, c[1].expect = SW_RESULT_INVALID_ARGUMENT;
    c[2].job.joints = NULL, c[2].expect = SW_RESULT_INVALID_ARGUMENT;
    c[3].job.points = NULL, c[3].expect = SW_RESULT_INVALID_ARGUMENT;
    c[4].job.pose = NULL, c[4].expect = SW_RESULT_INVALID_ARGUMENT;
    c[5].job.joints_count = 1, c[5].expect = SW_RESULT_INVALID_ARGUMENT;
    c[6].job.joints = not_ancestors, c[6].job.joints_count = 2,
    c[6].expect = SW_RESULT_INVALID_ARGUMENT;
    c[7].job.joints = out_of_range, c[7].job.joints_count = 2,
    c[7].expect = SW_RESULT_INVALID_ARGUMENT;
    c[8].job.points = bad_pts, c[8].expect = SW_RESULT_INVALID_ARGUMENT;
    c[9].job.weight = 1.5f, c[9].expect = SW_RESULT_INVALID_ARGUMENT;
    c[10].job.weight = NAN, c[10].expect = SW_RESULT_INVALID_ARGUMENT;
    c[11].job.joints = too_long, c[11].job.joints_count = SW_CHAIN_MAX_JOINTS + 1,
    c[11].expect = SW_RESULT_LIMIT;
    c[12].job.model_count = RIG_JOINTS - 1, c[12].expect = SW_RESULT_BUFFER_TOO_SMALL;
    c[13].job.points_count = RIG_CHAIN - 1, c[13].expect = SW_RESULT_BUFFER_TOO_SMALL;
    c[14].job.pose_count = 1, c[14].expect = SW_RESULT_BUFFER_TOO_SMALL;
    c[15].job.points = (const sw_vec3*)(const void*)r.pose, c[15].expect = SW_RESULT_OVERLAP;
    c[16].job.weight = -0.1f, c[16].expect = SW_RESULT_INVALID_ARGUMENT;
    for (int i = 0; i < CASES; ++i) {
        sw_xform4 before[2];
        memcpy(before, r.pose, sizeof before);
        assert_int_equal(sw_chain_aim_job_validate(&c[i].job), c[i].expect);
        assert_int_equal(sw_chain_aim_job_run(&c[i].job), c[i].expect);
        assert_memory_equal(before, r.pose, sizeof before);
    }
    /* Misaligned pose. */
    char* raw = aligned_alloc(16, sizeof(sw_xform4) * 3);
    sw_chain_aim_job mis = valid;
    mis.pose = (sw_xform4*)(void*)(raw + 4);
    assert_int_equal(sw_chain_aim_job_validate(&mis), SW_RESULT_MISALIGNED);
    free(raw);
    rig_free(&r);
}

/* ---- jiggle ---- */

typedef struct jiggle_run {
    rig r;
    sw_jiggle_point pts[RIG_CHAIN];
    sw_jiggle_state st;
    sw_xform4 animated[2]; /* the animated local pose, copied into r.pose each frame */
} jiggle_run;

static void jiggle_init(jiggle_run* j) {
    memset(j, 0, sizeof *j);
    j->r = rig_make();
    memcpy(j->animated, j->r.pose, sizeof j->animated);
    j->st.points = j->pts;
    j->st.points_count = RIG_CHAIN;
}

/* One frame: animated pose -> model (with root) -> jiggle -> model of the result. */
static sw_result jiggle_frame(jiggle_run* j, sw_jiggle_job job, const sw_mat4* root, float dt) {
    memcpy(j->r.pose, j->animated, sizeof j->animated);
    rig_model(&j->r, root);
    job.skeleton = j->r.skel;
    job.model = j->r.model;
    job.model_count = RIG_JOINTS;
    job.root_transform = root;
    job.joints = rig_chain;
    job.joints_count = RIG_CHAIN;
    job.dt = dt;
    job.state = &j->st;
    job.pose = j->r.pose;
    job.pose_count = j->r.skel->packets_count;
    sw_result res = sw_jiggle_job_run(&job);
    if (res == SW_RESULT_OK) rig_model(&j->r, root);
    return res;
}

static sw_mat4 moving_root(double t) {
    sw_xform x = {{(float)(0.3 * sin(2.0 * 3.14159265 * 0.7 * t)), 0.0f,
                   (float)(0.2 * sin(2.0 * 3.14159265 * 0.4 * t))},
                  sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), (float)(0.5 * sin(1.3 * t))),
                  {1, 1, 1}};
    return sw_mat4_from_xform(x);
}

static double max_length_error(const jiggle_run* j) {
    double worst = 0;
    for (int i = 1; i < RIG_CHAIN; ++i) {
        double want = dist(rig_pos(&j->r, rig_chain[i]), rig_pos(&j->r, rig_chain[i - 1]));
        worst = fmax(worst, fabs(dist(j->pts[i].position, j->pts[i - 1].position) - want));
    }
    return worst;
}

static void test_jiggle_lengths_and_rest(void** state) {
    (void)state;
    jiggle_run j;
    jiggle_init(&j);
    const sw_jiggle_job job = {
        .stiffness = 60.0f,
        .damping = 3.0f,
        .gravity = {0, -9.81f, 0},
        .weight = 1.0f,
    };
    double worst = 0;
    for (int f = 0; f < 180; ++f) {
        const sw_mat4 root = moving_root(f / 60.0);
        assert_int_equal(jiggle_frame(&j, job, &root, 1.0f / 60.0f), SW_RESULT_OK);
        worst = fmax(worst, max_length_error(&j));
        /* The written pose keeps the skeleton's bone lengths (rotations only). */
        for (int i = 0; i < RIG_CHAIN; ++i)
            assert_true(isfinite(j.r.model[rig_chain[i]].m[12]));
    }
    print_message("jiggle: worst segment length error %.3g m\n", worst);
    assert_true(worst <= 1e-5);

    /* Zero gravity, still root, a new animated pose: comes to rest on it. */
    sw_jiggle_job calm = job;
    calm.gravity = sw_vec3_make(0, 0, 0);
    calm.damping = 8.0f;
    j.animated[0] = sw_skeleton_rest_pose(j.r.skel)[0];
    sw_xform a = sw_pose_get(j.animated, 1);
    a.r = sw_quat_mul(sw_quat_from_axis_angle(sw_vec3_make(0, 0, 1), -0.6f), a.r);
    sw_pose_set(j.animated, 1, a);
    for (int f = 0; f < 600; ++f)
        assert_int_equal(jiggle_frame(&j, calm, NULL, 1.0f / 60.0f), SW_RESULT_OK);
    for (int i = 0; i < RIG_CHAIN; ++i) {
        sw_test_vec3_near(j.pts[i].position, rig_pos(&j.r, rig_chain[i]), 1e-5f);
        const sw_xform got = sw_pose_get(j.r.pose, rig_chain[i]);
        const sw_xform want = sw_pose_get(j.animated, rig_chain[i]);
        sw_test_quat_near(got.r, want.r, 1e-4f);
    }
    rig_free(&j.r);
}

static void test_jiggle_colliders(void** state) {
    (void)state;
    /* A sphere under the chain and a capsule across it; gravity, no stiffness. */
    const sw_jiggle_collider colliders[2] = {
        {{0.55f, 0.55f, 0.0f}, {0.55f, 0.55f, 0.0f}, 0.3f},
        {{0.8f, 0.7f, -1.0f}, {0.8f, 0.7f, 1.0f}, 0.12f},
    };
    jiggle_run j;
    jiggle_init(&j);
    const sw_jiggle_job job = {
        .damping = 1.0f,
        .gravity = {0, -9.81f, 0},
        .weight = 1.0f,
        .colliders = colliders,
        .colliders_count = 2,
    };
    double deepest = 0, worst_len = 0, closest = 1e9;
    for (int f = 0; f < 240; ++f) {
        assert_int_equal(jiggle_frame(&j, job, NULL, 1.0f / 60.0f), SW_RESULT_OK);
        for (int i = 1; i < RIG_CHAIN; ++i) {
            const sw_vec3 p = j.pts[i].position;
            deepest = fmax(deepest, colliders[0].radius - dist(p, colliders[0].a));
            closest = fmin(closest, dist(p, colliders[0].a) - colliders[0].radius);
            const sw_vec3 on_axis = {0.8f, 0.7f, fmaxf(-1.0f, fminf(1.0f, p.z))};
            deepest = fmax(deepest, colliders[1].radius - dist(p, on_axis));
        }
        worst_len = fmax(worst_len, max_length_error(&j));
    }
    print_message("colliders: deepest penetration %.3g m, length error %.3g m\n", deepest,
                  worst_len);
    assert_true(deepest <= 1e-5);
    assert_true(worst_len <= 1e-3);
    /* It did fall onto the sphere (the test is not vacuous). */
    assert_true(j.pts[RIG_CHAIN - 1].position.y < 0.9f);
    assert_true(closest <= 1e-4);
    rig_free(&j.r);
}

static void test_jiggle_frame_rate(void** state) {
    (void)state;
    const sw_jiggle_job job = {
        .stiffness = 40.0f,
        .damping = 2.0f,
        .gravity = {0, -9.81f, 0},
        .weight = 1.0f,
    };
    /* Static pose: 30 and 240 fps take the same sub-steps, same state. */
    jiggle_run a, b;
    jiggle_init(&a);
    jiggle_init(&b);
    for (int f = 0; f < 60; ++f)
        jiggle_frame(&a, job, NULL, 1.0f / 30.0f);
    for (int f = 0; f < 480; ++f)
        jiggle_frame(&b, job, NULL, 1.0f / 240.0f);
    for (int i = 0; i < RIG_CHAIN; ++i) {
        sw_test_vec3_near(a.pts[i].position, b.pts[i].position, 1e-5f);
        sw_test_vec3_near(rig_pos(&a.r, rig_chain[i]), rig_pos(&b.r, rig_chain[i]), 1e-5f);
    }
    rig_free(&a.r);
    rig_free(&b.r);
    /* A root swinging the chain around: the goal is interpolated between frames,
     * so they differ by that interpolation only. */
    jiggle_init(&a);
    jiggle_init(&b);
    const sw_mat4 root0 = moving_root(0.0); /* both start on the pose at t = 0 */
    jiggle_frame(&a, job, &root0, 0.0f);
    jiggle_frame(&b, job, &root0, 0.0f);
    double worst = 0;
    for (int f = 1; f <= 90; ++f) {
        const sw_mat4 root = moving_root(f / 30.0);
        jiggle_frame(&a, job, &root, 1.0f / 30.0f);
        for (int k = 1; k <= 8; ++k) {
            const sw_mat4 rootb = moving_root((f - 1) / 30.0 + k / 240.0);
            jiggle_frame(&b, job, &rootb, 1.0f / 240.0f);
        }
        for (int i = 0; i < RIG_CHAIN; ++i)
            worst = fmax(worst, dist(rig_pos(&a.r, rig_chain[i]), rig_pos(&b.r, rig_chain[i])));
    }
    print_message("jiggle 30 vs 240 fps, moving root: worst joint distance %.3g m\n", worst);
    /* 120 and 240 fps land on the same sub-step grid with the same goals: identical. */
    jiggle_run c;
    jiggle_init(&c);
    jiggle_frame(&c, job, &root0, 0.0f);
    for (int f = 1; f <= 360; ++f) {
        const sw_mat4 root = moving_root(f / 120.0);
        jiggle_frame(&c, job, &root, 1.0f / 120.0f);
    }
    for (int i = 0; i < RIG_CHAIN; ++i)
        sw_test_vec3_near(c.pts[i].position, b.pts[i].position, 1e-6f);
    rig_free(&c.r);
    assert_true(worst <= 5e-3);
    rig_free(&a.r);
    rig_free(&b.r);
}

static void test_jiggle_huge_dt_and_weight(void** state) {
    (void)state;
    jiggle_run j;
    jiggle_init(&j);
    const sw_jiggle_job job = {
        .stiffness = 1e6f,
        .damping = 0.0f,
        .gravity = {0, -1000.0f, 0},
        .weight = 1.0f,
    };
    const float dts[] = {1e6f, 1e30f, 3.4e38f, 0.0f, 1.0f};
    for (int k = 0; k < 5; ++k) {
        const sw_mat4 root = moving_root(k * 0.37);
        assert_int_equal(jiggle_frame(&j, job, &root, dts[k]), SW_RESULT_OK);
        for (int i = 0; i < RIG_CHAIN; ++i) {
            assert_true(isfinite(j.pts[i].position.x) && isfinite(j.pts[i].position.y) &&
                        isfinite(j.pts[i].position.z));
            for (int e = 0; e < 16; ++e)
                assert_true(isfinite(j.r.model[rig_chain[i]].m[e]));
        }
        assert_true(j.st.time >= 0.0f && j.st.time < SW_JIGGLE_DEFAULT_STEP);
    }
    /* An infinite dt is refused and changes nothing. */
    const sw_jiggle_state st_before = j.st;
    sw_jiggle_point pts_before[RIG_CHAIN];
    memcpy(pts_before, j.pts, sizeof pts_before);
    assert_int_equal(jiggle_frame(&j, job, NULL, INFINITY), SW_RESULT_INVALID_ARGUMENT);
    assert_memory_equal(pts_before, j.pts, sizeof pts_before);
    assert_true(st_before.time == j.st.time);
    /* Weight 0: the pose stays bit-identical while the simulation advances. */
    sw_jiggle_job off = job;
    off.weight = 0.0f;
    off.stiffness = 10.0f;
    assert_int_equal(jiggle_frame(&j, off, NULL, 0.1f), SW_RESULT_OK);
    assert_memory_equal(j.r.pose, j.animated, sizeof j.animated);
    assert_true(memcmp(pts_before, j.pts, sizeof pts_before) != 0);
    rig_free(&j.r);
}

static void test_jiggle_validity(void** state) {
    (void)state;
    rig r = rig_make();
    rig_model(&r, NULL);
    sw_jiggle_point pts[RIG_CHAIN];
    sw_jiggle_state st = {.points = pts, .points_count = RIG_CHAIN};
    sw_jiggle_state st_small = {.points = pts, .points_count = RIG_CHAIN - 1};
    sw_jiggle_state st_null = {.points = NULL, .points_count = RIG_CHAIN};
    const sw_jiggle_collider good = {{0, 0, 0}, {0, 1, 0}, 0.1f};
    const sw_jiggle_collider bad_radius = {{0, 0, 0}, {0, 1, 0}, -0.1f};
    const sw_jiggle_collider bad_end = {{0, NAN, 0}, {0, 1, 0}, 0.1f};
    const uint32_t not_ancestors[2] = {6, 1};
    static uint32_t too_long[SW_CHAIN_MAX_JOINTS + 1];
    const sw_jiggle_job valid = {
        .skeleton = r.skel,
        .model = r.model,
        .model_count = RIG_JOINTS,
        .joints = rig_chain,
        .joints_count = RIG_CHAIN,
        .dt = 1.0f / 60.0f,
        .stiffness = 10.0f,
        .damping = 1.0f,
        .gravity = {0, -9.81f, 0},
        .colliders = &good,
        .colliders_count = 1,
        .weight = 1.0f,
        .state = &st,
        .pose = r.pose,
        .pose_count = r.skel->packets_count,
    };
    assert_int_equal(sw_jiggle_job_validate(&valid), SW_RESULT_OK);
    const sw_jiggle_job zero = {0};
    assert_int_equal(sw_jiggle_job_validate(&zero), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_jiggle_job_run(&zero), SW_RESULT_INVALID_ARGUMENT);
    enum { CASES = 26 };
    struct {
        sw_jiggle_job job;
        sw_result expect;
    } c[CASES];
    for (int i = 0; i < CASES; ++i)
        c[i].job = valid, c[i].expect = SW_RESULT_INVALID_ARGUMENT;
    c[0].job.skeleton = NULL;
    c[1].job.model = NULL;
    c[2].job.joints = NULL;
    c[3].job.state = NULL;
    c[4].job.state = &st_null;
    c[5].job.pose = NULL;
    c[6].job.joints_count = 1;
    c[7].job.joints = not_ancestors, c[7].job.joints_count = 2;
    c[8].job.dt = -0.1f;
    c[9].job.dt = INFINITY;
    c[10].job.stiffness = -1.0f;
    c[11].job.damping = NAN;
    c[12].job.gravity.y = INFINITY;
    c[13].job.step = 2.0f;
    c[14].job.weight = 2.0f;
    c[15].job.colliders = NULL;
    c[16].job.colliders = &bad_radius;
    c[17].job.colliders = &bad_end;
    c[18].job.joints = too_long, c[18].job.joints_count = SW_CHAIN_MAX_JOINTS + 1,
    c[18].expect = SW_RESULT_LIMIT;
    c[19].job.model_count = 2, c[19].expect = SW_RESULT_BUFFER_TOO_SMALL;
    c[20].job.state = &st_small, c[20].expect = SW_RESULT_BUFFER_TOO_SMALL;
    c[21].job.pose_count = 1, c[21].expect = SW_RESULT_BUFFER_TOO_SMALL;
    c[22].job.colliders = (const sw_jiggle_collider*)(const void*)pts,
    c[22].expect = SW_RESULT_OVERLAP;
    c[23].job.model = (const sw_mat4*)(const void*)r.pose, c[23].expect = SW_RESULT_OVERLAP;
    c[24].job.step = -0.01f;
    c[25].job.stiffness = INFINITY;
    for (int i = 0; i < CASES; ++i) {
        sw_xform4 before[2];
        memcpy(before, r.pose, sizeof before);
        memset(pts, 0x5a, sizeof pts);
        sw_jiggle_point pts_before[RIG_CHAIN];
        memcpy(pts_before, pts, sizeof pts);
        st.started = false;
        assert_int_equal(sw_jiggle_job_validate(&c[i].job), c[i].expect);
        assert_int_equal(sw_jiggle_job_run(&c[i].job), c[i].expect);
        assert_memory_equal(before, r.pose, sizeof before);
        assert_memory_equal(pts_before, pts, sizeof pts);
        assert_false(st.started);
    }
    rig_free(&r);
}

/* ---- real data: the CMU capture 01_01 ---- */

static bool read_cmu(sw_bvh_result* bvh) {
    char path[512];
    if (!sw_test_model_path(path, sizeof path, "BVH/01_01.bvh")) return false;
    size_t size = 0;
    char* text = sw_test_read_file(path, &size);
    assert_non_null(text);
    const sw_bvh_options opts = {.scale = 0.056444f}; /* CMU units to metres */
    assert_int_equal(sw_bvh_read(text, size, &opts, NULL, bvh, NULL), SW_RESULT_OK);
    free(text);
    return true;
}

static uint32_t cmu_chain(const sw_skeleton* s, const char* root, const char* tip, uint32_t* out) {
    uint16_t idx[SW_CHAIN_MAX_JOINTS];
    uint32_t n = 0;
    assert_int_equal(sw_skeleton_find_chain(s, root, tip, idx, SW_CHAIN_MAX_JOINTS, &n),
                     SW_RESULT_OK);
    for (uint32_t i = 0; i < n; ++i)
        out[i] = idx[i];
    return n;
}

/* Over 3 s of a clip from t0: a chain aimed at points with its own lengths
 * lands on them; a jiggle chain (no gravity, stiff, damped) keeps its
 * lengths, stays near the animation and touches no joint outside the chain.
 * Tolerances are relative to the chains' lengths. */
static void real_data_chains(const char* what, const sw_skeleton* s, const sw_clip* clip, float t0,
                             const char* aim_root, const char* aim_tip, const char* jiggle_root,
                             const char* jiggle_tip, double follow_fraction) {
    const uint32_t joints = s->joints_count, packets = s->packets_count;
    sw_xform4* animated = aligned_alloc(16, sizeof(sw_xform4) * packets);
    sw_xform4* pose = aligned_alloc(16, sizeof(sw_xform4) * packets);
    sw_mat4* model = malloc(sizeof(sw_mat4) * joints);
    uint32_t spine[SW_CHAIN_MAX_JOINTS], arm[SW_CHAIN_MAX_JOINTS];
    const uint32_t ns = cmu_chain(s, aim_root, aim_tip, spine);
    const uint32_t na = cmu_chain(s, jiggle_root, jiggle_tip, arm);
    assert_true(ns >= 3 && na >= 3);
    sw_jiggle_point jp[SW_CHAIN_MAX_JOINTS];
    sw_jiggle_state st = {.points = jp, .points_count = na};
    uint32_t rng = 23u;
    double worst_reach = 0, worst_len = 0, worst_follow = 0, spine_len = 0, arm_len = 0;
    const float dt = 1.0f / 60.0f;
    for (int f = 0; f < 180; ++f) {
        const sw_sample_job sample = {
            .clip = clip,
            .skeleton = s,
            .time = t0 + (float)f * dt,
            .out = animated,
            .out_count = packets,
        };
        assert_int_equal(sw_sample_job_run(&sample), SW_RESULT_OK);
        const sw_local_to_model_job l2m = {
            .skeleton = s,
            .local = pose,
            .local_count = packets,
            .out = model,
            .out_count = joints,
        };
        /* Aim. */
        memcpy(pose, animated, sizeof(sw_xform4) * packets);
        assert_int_equal(sw_local_to_model_job_run(&l2m), SW_RESULT_OK);
        sw_vec3 pts[SW_CHAIN_MAX_JOINTS];
        float len[SW_CHAIN_MAX_JOINTS];
        sw_chain_points_from_model(model, joints, spine, ns, pts, len);
        if (f == 0)
            for (uint32_t i = 0; i + 1 < ns; ++i)
                spine_len += len[i];
        for (uint32_t i = 1; i < ns; ++i) {
            const sw_vec3 d = {sw_test_rand(&rng, -1, 1), sw_test_rand(&rng, 0, 1),
                               sw_test_rand(&rng, -1, 1)};
            pts[i] = sw_vec3_add(pts[i - 1], sw_vec3_scale(sw_vec3_normalize(d), len[i - 1]));
        }
        const sw_chain_aim_job aim = {
            .skeleton = s,
            .model = model,
            .model_count = joints,
            .joints = spine,
            .joints_count = ns,
            .points = pts,
            .points_count = ns,
            .weight = 1.0f,
            .pose = pose,
            .pose_count = packets,
        };
        assert_int_equal(sw_chain_aim_job_run(&aim), SW_RESULT_OK);
        assert_int_equal(sw_local_to_model_job_run(&l2m), SW_RESULT_OK);
        for (uint32_t i = 0; i < ns; ++i) {
            const sw_vec3 p = {model[spine[i]].m[12], model[spine[i]].m[13], model[spine[i]].m[14]};
            worst_reach = fmax(worst_reach, dist(p, pts[i]));
        }
        /* Jiggle. */
        memcpy(pose, animated, sizeof(sw_xform4) * packets);
        assert_int_equal(sw_local_to_model_job_run(&l2m), SW_RESULT_OK);
        const sw_jiggle_job jig = {
            .skeleton = s,
            .model = model,
            .model_count = joints,
            .joints = arm,
            .joints_count = na,
            .dt = dt,
            .stiffness = 2000.0f,
            .damping = 60.0f,
            .weight = 1.0f,
            .state = &st,
            .pose = pose,
            .pose_count = packets,
        };
        assert_int_equal(sw_jiggle_job_run(&jig), SW_RESULT_OK);
        sw_vec3 goal[SW_CHAIN_MAX_JOINTS];
        sw_chain_points_from_model(model, joints, arm, na, goal, len);
        if (f == 0)
            for (uint32_t i = 0; i + 1 < na; ++i)
                arm_len += len[i];
        for (uint32_t i = 1; i < na; ++i) {
            worst_len =
                fmax(worst_len, fabs(dist(jp[i].position, jp[i - 1].position) - len[i - 1]));
            worst_follow = fmax(worst_follow, dist(jp[i].position, goal[i]));
        }
        /* Only the jiggle chain's joints (all but its last) changed. */
        for (uint32_t j = 0; j < joints; ++j) {
            bool in_chain = false;
            for (uint32_t i = 0; i + 1 < na; ++i)
                in_chain = in_chain || arm[i] == j;
            if (in_chain) continue;
            const sw_xform a = sw_pose_get(pose, j), b = sw_pose_get(animated, j);
            assert_memory_equal(&a, &b, sizeof a);
        }
    }
    print_message("%s: %s..%s (%.3g long) aimed, off by %.3g; jiggle %s..%s (%.3g long): "
                  "length error %.3g, off the animation by %.3g\n",
                  what, aim_root, aim_tip, spine_len, worst_reach, jiggle_root, jiggle_tip, arm_len,
                  worst_len, worst_follow);
    assert_true(worst_reach <= 1e-5 * spine_len);
    assert_true(worst_len <= 1e-5 * arm_len);
    assert_true(worst_follow <= follow_fraction * arm_len);
    free(animated);
    free(pose);
    free(model);
}

/* CMU 01_01 from 0.5 s (its first frame is a jump away from the rest); the
 * spine has a zero-length Spine1 -> Neck segment. */
static void test_chain_cmu(void** state) {
    (void)state;
    sw_bvh_result bvh = {0};
    if (!read_cmu(&bvh)) return;
    real_data_chains("CMU 01_01", bvh.skeleton, bvh.clip, 0.5f, "Spine", "Head", "LeftShoulder",
                     "LFingers", 0.05); /* measured 0.029 of the arm */
    sw_bvh_result_free(&bvh, NULL);
}

/* RobotExpressive (glTF, scaled nodes above the armature): every clip. The
 * jiggle arm lags more here: in the fast clips the fingertips move at up to
 * 44 units/s (ten body heights a second), and the lag is up to 22% of the arm
 * (0.2% in the slow ones). */
static void test_chain_robot(void** state) {
    (void)state;
    char path[512];
    if (!sw_test_asset_path(path, sizeof path, "RobotExpressive.glb")) return;
    sw_asset asset;
    sw_error err = {0};
    assert_int_equal(sw_asset_open(path, NULL, &asset, &err), SW_RESULT_OK);
    for (uint32_t c = 0; c < asset.clips_count; ++c) {
        char what[64];
        snprintf(what, sizeof what, "RobotExpressive clip %u", c);
        real_data_chains(what, asset.skeleton, asset.clips[c], 0.0f, "Hips", "Head", "ShoulderL",
                         "Middle2L", 0.3);
    }
    sw_asset_free(&asset);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_follow_straight_path),
        cmocka_unit_test(test_follow_circle_closed_form),
        cmocka_unit_test(test_follow_figure_eight),
        cmocka_unit_test(test_follow_coincident_points),
        cmocka_unit_test(test_follow_validity),
        cmocka_unit_test(test_aim_reaches_points),
        cmocka_unit_test(test_aim_weight),
        cmocka_unit_test(test_aim_validity),
        cmocka_unit_test(test_jiggle_lengths_and_rest),
        cmocka_unit_test(test_jiggle_colliders),
        cmocka_unit_test(test_jiggle_frame_rate),
        cmocka_unit_test(test_jiggle_huge_dt_and_weight),
        cmocka_unit_test(test_jiggle_validity),
        cmocka_unit_test(test_chain_cmu),
        cmocka_unit_test(test_chain_robot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
