/* The built-in humanoid's get-up clips: they start lying (face up or face
 * down), stay above the ground, move at human speeds, and end exactly in
 * the idle clip's first pose with a velocity that joins idle's. */
#include "test_util.h"

#include "sinew/showcase/character.h"

#define JOINTS_MAX 64
#define PACKETS_MAX 16

typedef struct posed {
    _Alignas(16) sw_xform4 local[PACKETS_MAX];
    sw_mat4 model[JOINTS_MAX];
} posed;

typedef struct fixture {
    sw_scene humanoid;
    const sw_clip* getup[SW_SHOWCASE_GETUP_CLIPS];
} fixture;

static int setup(void** state) {
    fixture* f = (fixture*)calloc(1, sizeof *f);
    if (!f) return -1;
    if (sw_showcase_humanoid(NULL, &f->humanoid, NULL, NULL) != SW_RESULT_OK) return -1;
    if (sw_showcase_humanoid_getup(&f->humanoid, NULL, f->getup, NULL) != SW_RESULT_OK) return -1;
    *state = f;
    return 0;
}

static int teardown(void** state) {
    fixture* f = (fixture*)*state;
    for (uint32_t c = 0; c < SW_SHOWCASE_GETUP_CLIPS; ++c)
        sw_clip_destroy(f->getup[c], NULL);
    sw_scene_free(&f->humanoid, NULL);
    free(f);
    return 0;
}

static void pose_at(const sw_skeleton* skel, const sw_clip* c, float t, posed* p) {
    const sw_sample_job sample = {
        .clip = c, .skeleton = skel, .time = t, .out = p->local, .out_count = PACKETS_MAX};
    assert_int_equal(sw_sample_job_run(&sample), SW_RESULT_OK);
    const sw_local_to_model_job l2m = {.skeleton = skel,
                                       .local = p->local,
                                       .local_count = PACKETS_MAX,
                                       .out = p->model,
                                       .out_count = JOINTS_MAX};
    assert_int_equal(sw_local_to_model_job_run(&l2m), SW_RESULT_OK);
}

static sw_vec3 pos(const posed* p, int32_t j) {
    return sw_vec3_make(p->model[j].m[12], p->model[j].m[13], p->model[j].m[14]);
}

/* Model-space velocity of every joint at t (central difference over h). */
static void velocities(const sw_skeleton* skel, const sw_clip* c, float t, float h, sw_vec3* v) {
    posed a, b;
    pose_at(skel, c, t - h, &a);
    pose_at(skel, c, t + h, &b);
    const float span = (t + h > c->duration ? c->duration : t + h) - (t - h < 0.0f ? 0.0f : t - h);
    for (uint32_t j = 0; j < skel->joints_count; ++j)
        v[j] = sw_vec3_scale(sw_vec3_sub(pos(&b, (int32_t)j), pos(&a, (int32_t)j)), 1.0f / span);
}

static void test_names_and_end_pose(void** state) {
    const fixture* f = (const fixture*)*state;
    const sw_skeleton* skel = f->humanoid.skeleton;
    const sw_clip* idle = f->humanoid.clips[0];
    assert_string_equal(sw_clip_name(idle), "idle");
    assert_string_equal(sw_clip_name(f->getup[0]), "getup_face_up");
    assert_string_equal(sw_clip_name(f->getup[1]), "getup_face_down");
    posed end, start;
    pose_at(skel, idle, 0.0f, &start);
    for (uint32_t c = 0; c < SW_SHOWCASE_GETUP_CLIPS; ++c) {
        const sw_clip* g = f->getup[c];
        assert_true(g->duration > 1.0f && g->duration < 4.0f);
        assert_int_equal(g->joints_count, skel->joints_count);
        pose_at(skel, g, g->duration, &end);
        for (uint32_t j = 0; j < skel->joints_count; ++j) {
            const sw_xform a = sw_pose_get(end.local, j), b = sw_pose_get(start.local, j);
            sw_test_quat_near(a.r, b.r, 1e-6f);
            sw_test_vec3_near(a.t, b.t, 1e-6f);
        }
    }
}

/* Face up: the character's forward (+Z of the hips) points up and the head
 * lies on -Z of the hips; face down: forward points down, head on +Z. */
static void test_starts_lying(void** state) {
    const fixture* f = (const fixture*)*state;
    const sw_skeleton* skel = f->humanoid.skeleton;
    const int32_t hips = sw_skeleton_find_joint(skel, "Hips");
    const int32_t head = sw_skeleton_find_joint(skel, "Head");
    assert_true(hips >= 0 && head >= 0);
    for (uint32_t c = 0; c < SW_SHOWCASE_GETUP_CLIPS; ++c) {
        posed p;
        pose_at(skel, f->getup[c], 0.0f, &p);
        const sw_vec3 forward = sw_mat4_vector(&p.model[hips], sw_vec3_make(0, 0, 1));
        const float up = c == 0 ? 1.0f : -1.0f;
        assert_true(forward.y * up > 0.95f);
        for (uint32_t j = 0; j < skel->joints_count; ++j)
            assert_true(p.model[j].m[13] < 0.3f); /* everything near the ground */
        const sw_vec3 d = sw_vec3_sub(pos(&p, head), pos(&p, hips));
        assert_true(-d.z * up > 0.5f); /* the head 0.5 m or more away along the body */
        assert_true(fabsf(d.y) < 0.15f);
    }
}

/* Every frame (at 120 Hz): joint centres above the ground, ankles no more
 * than 3 cm under their resting height (sole in the ground), the head 5 cm
 * up; joints faster than 6 m/s nowhere (a person getting up). */
static void test_ground_and_speed(void** state) {
    const fixture* f = (const fixture*)*state;
    const sw_skeleton* skel = f->humanoid.skeleton;
    const int32_t lf = sw_skeleton_find_joint(skel, "LeftFoot");
    const int32_t rf = sw_skeleton_find_joint(skel, "RightFoot");
    const int32_t head = sw_skeleton_find_joint(skel, "Head");
    for (uint32_t c = 0; c < SW_SHOWCASE_GETUP_CLIPS; ++c) {
        const sw_clip* g = f->getup[c];
        float lowest = INFINITY, fastest = 0.0f, lowest_t = 0.0f;
        uint32_t lowest_j = 0;
        for (float t = 0.0f; t <= g->duration; t += 1.0f / 120.0f) {
            posed p;
            pose_at(skel, g, t, &p);
            for (uint32_t j = 0; j < skel->joints_count; ++j) {
                float y = p.model[j].m[13];
                if ((int32_t)j == lf || (int32_t)j == rf) y -= 0.07f - 0.03f;
                if ((int32_t)j == head) y -= 0.05f;
                if (y < lowest) lowest = y, lowest_j = j, lowest_t = t;
            }
            sw_vec3 v[JOINTS_MAX];
            velocities(skel, g, t, 1.0f / 240.0f, v);
            for (uint32_t j = 0; j < skel->joints_count; ++j)
                if (sw_vec3_length(v[j]) > fastest) fastest = sw_vec3_length(v[j]);
        }
        print_message("%s: lowest margin %.3f m (%s at %.2f s), fastest joint %.2f m/s\n",
                      sw_clip_name(g), (double)lowest, sw_skeleton_joint_name(skel, lowest_j),
                      (double)lowest_t, (double)fastest);
        assert_true(lowest >= 0.0f);
        assert_true(fastest < 6.0f);
    }
}

/* The hand-over to idle: the get-up's last velocity and idle's first differ
 * by less than the largest velocity change between two 30 Hz frames inside
 * the get-up (its own noise), and the feet barely move over the last half
 * second (they are down where idle stands). */
static void test_joins_idle(void** state) {
    const fixture* f = (const fixture*)*state;
    const sw_skeleton* skel = f->humanoid.skeleton;
    const sw_clip* idle = f->humanoid.clips[0];
    const float dt = 1.0f / 30.0f;
    const int32_t feet[2] = {sw_skeleton_find_joint(skel, "LeftFoot"),
                             sw_skeleton_find_joint(skel, "RightFoot")};
    for (uint32_t c = 0; c < SW_SHOWCASE_GETUP_CLIPS; ++c) {
        const sw_clip* g = f->getup[c];
        /* velocities of consecutive frames: (p(t) - p(t - dt)) / dt */
        float noise = 0.0f;
        posed prev, cur, next;
        pose_at(skel, g, 0.0f, &prev);
        pose_at(skel, g, dt, &cur);
        for (float t = 2.0f * dt; t <= g->duration + 1e-4f; t += dt) {
            pose_at(skel, g, t, &next);
            for (uint32_t j = 0; j < skel->joints_count; ++j) {
                const sw_vec3 v0 = sw_vec3_sub(pos(&cur, (int32_t)j), pos(&prev, (int32_t)j));
                const sw_vec3 v1 = sw_vec3_sub(pos(&next, (int32_t)j), pos(&cur, (int32_t)j));
                const float jump = sw_vec3_length(sw_vec3_sub(v1, v0)) / dt;
                if (jump > noise) noise = jump;
            }
            prev = cur;
            cur = next;
        }
        /* across the hand-over: the get-up's last frame step, then idle's first */
        posed g_prev, g_end, i_next;
        pose_at(skel, g, g->duration - dt, &g_prev);
        pose_at(skel, g, g->duration, &g_end);
        pose_at(skel, idle, dt, &i_next);
        float handover = 0.0f;
        for (uint32_t j = 0; j < skel->joints_count; ++j) {
            const sw_vec3 v0 = sw_vec3_sub(pos(&g_end, (int32_t)j), pos(&g_prev, (int32_t)j));
            const sw_vec3 v1 = sw_vec3_sub(pos(&i_next, (int32_t)j), pos(&g_end, (int32_t)j));
            const float jump = sw_vec3_length(sw_vec3_sub(v1, v0)) / dt;
            if (jump > handover) handover = jump;
        }
        print_message("%s: hand-over velocity jump %.3f m/s, clip noise %.3f m/s\n",
                      sw_clip_name(g), (double)handover, (double)noise);
        assert_true(handover < noise);
        posed a, b;
        pose_at(skel, g, g->duration - 0.5f, &a);
        pose_at(skel, g, g->duration, &b);
        for (int k = 0; k < 2; ++k) {
            const sw_vec3 d = sw_vec3_sub(pos(&b, feet[k]), pos(&a, feet[k]));
            assert_true(sqrtf(d.x * d.x + d.z * d.z) < 0.05f);
        }
    }
}

static void test_invalid_arguments(void** state) {
    const fixture* f = (const fixture*)*state;
    const sw_clip* out[SW_SHOWCASE_GETUP_CLIPS] = {f->getup[0], f->getup[1]};
    assert_int_equal(sw_showcase_humanoid_getup(NULL, NULL, out, NULL), SW_RESULT_INVALID_ARGUMENT);
    assert_null(out[0]);
    assert_null(out[1]);
    assert_int_equal(sw_showcase_humanoid_getup(&f->humanoid, NULL, NULL, NULL),
                     SW_RESULT_INVALID_ARGUMENT);
    sw_scene spider;
    assert_int_equal(sw_showcase_spider(NULL, &spider, NULL), SW_RESULT_OK);
    assert_int_equal(sw_showcase_humanoid_getup(&spider, NULL, out, NULL),
                     SW_RESULT_INVALID_ARGUMENT);
    sw_scene_free(&spider, NULL);
}

/* Allocation failures at every index fail cleanly with nothing left over. */
typedef struct counting {
    int64_t fail_at, calls, live;
} counting;
static void* count_alloc(void* user, size_t size, size_t align) {
    counting* c = (counting*)user;
    if (c->calls++ == c->fail_at) return NULL;
    void* p = aligned_alloc(align, (size + align - 1) / align * align);
    if (p) c->live++;
    return p;
}
static void count_free(void* user, void* ptr, size_t size) {
    (void)size;
    counting* c = (counting*)user;
    if (ptr) c->live--;
    free(ptr);
}

static void test_allocation_failures(void** state) {
    const fixture* f = (const fixture*)*state;
    counting c = {-1, 0, 0};
    const sw_allocator a = {count_alloc, count_free, &c};
    const sw_clip* out[SW_SHOWCASE_GETUP_CLIPS];
    assert_int_equal(sw_showcase_humanoid_getup(&f->humanoid, &a, out, NULL), SW_RESULT_OK);
    for (uint32_t k = 0; k < SW_SHOWCASE_GETUP_CLIPS; ++k)
        sw_clip_destroy(out[k], &a);
    assert_int_equal(c.live, 0);
    for (int64_t i = 0; i < c.calls; ++i) {
        counting fc = {i, 0, 0};
        const sw_allocator fa = {count_alloc, count_free, &fc};
        sw_error err;
        assert_int_equal(sw_showcase_humanoid_getup(&f->humanoid, &fa, out, &err),
                         SW_RESULT_OUT_OF_MEMORY);
        assert_null(out[0]);
        assert_null(out[1]);
        assert_int_equal(fc.live, 0);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_and_end_pose), cmocka_unit_test(test_starts_lying),
        cmocka_unit_test(test_ground_and_speed),   cmocka_unit_test(test_joins_idle),
        cmocka_unit_test(test_invalid_arguments),  cmocka_unit_test(test_allocation_failures),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
