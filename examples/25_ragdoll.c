/* 25_ragdoll: a powered ragdoll on the built-in humanoid, knocked down.
 *
 *     example_25_ragdoll
 *
 * The humanoid walks; its ragdoll (sinew_ode) follows the walk with the hips
 * kinematic and every other body powered at strength 1, and its left arm
 * takes a hit at 1 s (the arm swings, the walk goes on). At 2 s a shove on
 * the chest knocks it down: every body dynamic and limp, the output pose
 * fully physical. When it has settled the example picks the get-up side from
 * the facing, aligns the character's root to where the body lies and reads
 * the ragdoll's pose in that root's space (the pose a get-up clip would
 * cross-fade from). Frames run drive -> step -> read -> blend at 60 frames
 * per second over 120 Hz physics steps.
 * Checks: the powered arm tracks the walk within 5 cm before the hit, the
 * body lies (hips below 0.4 m) and settles within 6 s of the shove, the
 * aligned root puts the pose's hips over the ragdoll's hips, every output
 * pose is finite. Exit code 0 when every check passes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/backends/ode.h"
#include "sinew/showcase/character.h"
#include "sinew/sinew.h"
#include "sinew/tools/builders/ragdoll.h"

static int failures = 0;

static void check(int ok, const char* what) {
    printf("%s: %s\n", ok ? "ok" : "FAILED", what);
    if (!ok) ++failures;
}

/* World position of joint j in a local pose under root. */
static sw_vec3 joint_world(const sw_skeleton* s, const sw_xform4* pose, sw_xform root, uint32_t j) {
    const int16_t* parents = sw_skeleton_parents(s);
    sw_xform m = sw_pose_get(pose, j);
    for (int32_t p = parents[j]; p >= 0; p = parents[p])
        m = sw_xform_mul(sw_pose_get(pose, (uint32_t)p), m);
    return sw_xform_point(root, m.t);
}

/* The ragdoll of the humanoid (description from its joint names) in a new
 * ODE world stepping at `step`; 0 on success. */
static int ragdoll_setup(const sw_skeleton* skel, float step, sw_ragdoll_humanoid_joints* joints,
                         sw_ode_world** world, sw_ragdoll** rd) {
    sw_error err;
    memset(&err, 0, sizeof err);
    sw_ragdoll_desc desc;
    sw_ragdoll_part parts[SW_RAGDOLL_MAX_BODIES];
    if (sw_ragdoll_humanoid_find(skel, joints, &err) != SW_RESULT_OK ||
        sw_ragdoll_desc_humanoid(skel, joints, NULL, &desc, parts, &err) != SW_RESULT_OK) {
        fprintf(stderr, "ragdoll description: %s\n", err.check);
        return 1;
    }
    const sw_ode_world_desc wd = {.step = step};
    if (sw_ode_world_create(&wd, NULL, world, &err) != SW_RESULT_OK) return 1;
    const sw_physics physics = sw_ode_world_physics(*world);
    if (sw_ragdoll_create(&desc, skel, &physics, NULL, rd, &err) != SW_RESULT_OK) return 1;
    return 0;
}

/* The walk driving the ragdoll: the clip sampled into `sample`'s pose, the
 * root moved one cycle per loop. */
typedef struct walk_drive {
    sw_sample_job sample;
    const sw_clip* walk;
    float cycle; /* root motion of one loop along +Z */
    float time;
    sw_xform root;
} walk_drive;

/* n physics steps: the walk sampled and driven into the ragdoll, the world
 * stepped, the bodies captured; false when a step failed. */
static bool physics_steps(walk_drive* w, sw_ragdoll* rd, sw_ode_world* world, float step,
                          uint32_t n) {
    bool ok = true;
    for (uint32_t i = 0; i < n; ++i) {
        w->time += step;
        const float loops = floorf(w->time / w->walk->duration);
        w->sample.time = w->time - loops * w->walk->duration;
        sw_sample_job_run(&w->sample);
        w->root.t.z = loops * w->cycle;
        const sw_ragdoll_drive_desc drive = {w->sample.out, w->sample.out_count, w->root, step};
        sw_ragdoll_drive(rd, &drive, NULL);
        if (sw_ode_world_step(world) != SW_RESULT_OK) ok = false;
        sw_ragdoll_capture(rd, step);
    }
    return ok;
}

/* The scripted events: a hit on the left forearm at 1 s (it swings, then
 * the motors bring it back); the knock-down at 2 s (limp, fully physical, a
 * shove on the chest), whose time goes to *knocked_at. */
static void script(sw_ragdoll* rd, int frame, float t, float* knocked_at) {
    if (frame == 59) {
        const uint32_t arm = (uint32_t)(SW_RAGDOLL_PART_LEFT_FOREARM - 1);
        sw_physics_body_state s = sw_ragdoll_body_state(rd, arm);
        sw_ragdoll_apply_impulse(rd, arm, sw_vec3_make(0.0f, 4.0f, -6.0f), s.transform.t);
        printf("t = 1.00 s: hit on the left forearm\n");
    }
    if (frame == 119) {
        const uint32_t chest = (uint32_t)(SW_RAGDOLL_PART_CHEST - 1);
        sw_ragdoll_set_all(rd, SW_RAGDOLL_MODE_DYNAMIC, 0.0f, 1.0f);
        sw_physics_body_state s = sw_ragdoll_body_state(rd, chest);
        sw_ragdoll_apply_impulse(rd, chest, sw_vec3_make(0.0f, 0.0f, -60.0f), s.transform.t);
        *knocked_at = t;
        printf("t = 2.00 s: knocked down\n");
    }
}

/* Getting up: the root that puts a get-up clip's first pose where the body
 * lies. Without get-up clips here, the knock-down pose itself read in the
 * body's own frame stands in for the clip's first pose. 0 on success. */
static int check_get_up(sw_ragdoll* rd, const sw_skeleton* skel, uint32_t hips_joint, sw_xform root,
                        sw_xform4* anim, sw_xform4* phys, sw_xform4* out) {
    const uint32_t packets = skel->packets_count;
    sw_error err;
    memset(&err, 0, sizeof err);
    sw_ragdoll_read(rd, 1.0f, root, anim, packets, phys, packets);
    sw_xform aligned;
    if (sw_ragdoll_align_root(rd, phys, packets, 0.0f, &aligned, &err) != SW_RESULT_OK) return 1;
    sw_ragdoll_read(rd, 1.0f, aligned, anim, packets, out, packets);
    const sw_vec3 a = joint_world(skel, out, aligned, hips_joint);
    const sw_vec3 b = joint_world(skel, phys, root, hips_joint);
    printf("aligned root: (%.2f, %.2f, %.2f), hips (%.2f, %.2f) vs ragdoll (%.2f, %.2f)\n",
           (double)aligned.t.x, (double)aligned.t.y, (double)aligned.t.z, (double)a.x, (double)a.z,
           (double)b.x, (double)b.z);
    check(fabsf(a.x - b.x) < 1e-3f && fabsf(a.z - b.z) < 1e-3f,
          "aligned root puts the hips over the ragdoll's");
    return 0;
}

int main(void) {
    sw_scene scene;
    sw_error err;
    memset(&err, 0, sizeof err);
    float speeds[SW_SHOWCASE_HUMANOID_CLIPS];
    if (sw_showcase_humanoid(NULL, &scene, speeds, &err) != SW_RESULT_OK) return 1;
    const sw_skeleton* skel = scene.skeleton;
    const uint32_t packets = skel->packets_count;
    const float step = 1.0f / 120.0f;
    sw_ragdoll_humanoid_joints joints;
    sw_ode_world* world = NULL;
    sw_ragdoll* rd = NULL;
    if (ragdoll_setup(skel, step, &joints, &world, &rd) != 0) return 1;

    sw_xform4* anim = aligned_alloc(16, sizeof(sw_xform4) * packets);
    sw_xform4* phys = aligned_alloc(16, sizeof(sw_xform4) * packets);
    sw_xform4* out = aligned_alloc(16, sizeof(sw_xform4) * packets);
    if (!anim || !phys || !out) return 1;

    /* Root motion: the walk moves its hips along +Z; each loop moves the
     * character's root by one cycle. */
    walk_drive w = {
        .sample = {.clip = scene.clips[1], .skeleton = skel, .out = anim, .out_count = packets},
        .walk = scene.clips[1],
        .cycle = speeds[1] * scene.clips[1]->duration,
        .root = sw_xform_identity(),
    };
    sw_sample_job_run(&w.sample);
    sw_ragdoll_spawn(rd, anim, packets, w.root, 1, &err);
    sw_ragdoll_set_all(rd, SW_RAGDOLL_MODE_DYNAMIC, 1.0f, 1.0f);
    sw_ragdoll_set_mode(rd, 0, SW_RAGDOLL_MODE_KINEMATIC);

    sw_ragdoll_stepper stepper = {.step = step};
    float arm_error = 0.0f, knocked_at = -1.0f, settled_at = -1.0f;
    bool finite = true;
    for (int frame = 0; frame < 60 * 10 && settled_at < 0.0f; ++frame) {
        const float dt = 1.0f / 60.0f;
        float alpha = 0.0f;
        const uint32_t n = sw_ragdoll_stepper_advance(&stepper, dt, &alpha);
        if (!physics_steps(&w, rd, world, stepper.step, n)) finite = false;
        const float t = (float)(frame + 1) * dt;
        sw_ragdoll_read(rd, alpha, w.root, anim, packets, phys, packets);
        sw_ragdoll_blend(rd, anim, phys, out, packets);
        for (uint32_t j = 0; j < skel->joints_count; ++j) {
            sw_xform x = sw_pose_get(out, j);
            finite = finite && isfinite(x.t.x + x.t.y + x.t.z + x.r.x + x.r.y + x.r.z + x.r.w);
        }
        if (t < 1.0f && t > 0.5f) {
            /* Powered tracking of the left hand before the hit. */
            const uint32_t hand = (uint32_t)joints.hand[0];
            float e = sw_vec3_length(sw_vec3_sub(joint_world(skel, anim, w.root, hand),
                                                 joint_world(skel, phys, w.root, hand)));
            arm_error = e > arm_error ? e : arm_error;
        }
        script(rd, frame, t, &knocked_at);
        sw_ragdoll_status st;
        sw_ragdoll_status_get(rd, &st);
        if (knocked_at > 0.0f && st.settled) settled_at = t;
    }
    printf("left hand tracking error before the hit: %.3f m\n", (double)arm_error);
    check(arm_error < 0.05f, "powered arm follows the walk within 5 cm");
    check(finite, "every pose and body state finite");
    check(settled_at > 0.0f && settled_at - knocked_at < 6.0f,
          "settled within 6 s of the knock-down");

    sw_ragdoll_status st;
    sw_ragdoll_status_get(rd, &st);
    const sw_physics_body_state hips = sw_ragdoll_body_state(rd, 0);
    printf("settled after %.2f s, lying face %s (forward . up = %.2f), hips at %.2f m\n",
           (double)(settled_at - knocked_at), st.facing == SW_RAGDOLL_FACING_UP ? "up" : "down",
           (double)st.facing_dot, (double)hips.transform.t.y);
    check(hips.transform.t.y < 0.4f, "lying on the ground");
    if (check_get_up(rd, skel, (uint32_t)joints.hips, w.root, anim, phys, out) != 0) return 1;

    sw_ragdoll_destroy(rd, NULL);
    sw_ode_world_destroy(world, NULL);
    free(anim);
    free(phys);
    free(out);
    sw_scene_free(&scene, NULL);
    return failures ? 1 : 0;
}
