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

int main(void) {
    sw_scene scene;
    sw_error err;
    memset(&err, 0, sizeof err);
    float speeds[SW_SHOWCASE_HUMANOID_CLIPS];
    if (sw_showcase_humanoid(NULL, &scene, speeds, &err) != SW_RESULT_OK) return 1;
    const sw_skeleton* skel = scene.skeleton;
    const sw_clip* walk = scene.clips[1];
    const uint32_t packets = skel->packets_count;

    /* Description from the skeleton's names, world, ragdoll. */
    sw_ragdoll_humanoid_joints joints;
    sw_ragdoll_desc desc;
    sw_ragdoll_part parts[SW_RAGDOLL_MAX_BODIES];
    if (sw_ragdoll_humanoid_find(skel, &joints, &err) != SW_RESULT_OK ||
        sw_ragdoll_desc_humanoid(skel, &joints, NULL, &desc, parts, &err) != SW_RESULT_OK) {
        fprintf(stderr, "ragdoll description: %s\n", err.check);
        return 1;
    }
    const sw_ode_world_desc wd = {.step = 1.0f / 120.0f};
    sw_ode_world* world = NULL;
    if (sw_ode_world_create(&wd, NULL, &world, &err) != SW_RESULT_OK) return 1;
    const sw_physics physics = sw_ode_world_physics(world);
    sw_ragdoll* rd = NULL;
    if (sw_ragdoll_create(&desc, skel, &physics, NULL, &rd, &err) != SW_RESULT_OK) return 1;

    sw_xform4* anim = aligned_alloc(16, sizeof(sw_xform4) * packets);
    sw_xform4* phys = aligned_alloc(16, sizeof(sw_xform4) * packets);
    sw_xform4* out = aligned_alloc(16, sizeof(sw_xform4) * packets);
    if (!anim || !phys || !out) return 1;

    /* Root motion: the walk moves its hips along +Z; each loop moves the
     * character's root by one cycle. */
    const float cycle = speeds[1] * walk->duration;
    float time = 0.0f;
    sw_xform root = sw_xform_identity();
    sw_sample_job sample = {
        .clip = walk, .skeleton = skel, .time = 0.0f, .out = anim, .out_count = packets};
    sw_sample_job_run(&sample);
    sw_ragdoll_spawn(rd, anim, packets, root, 1, &err);
    sw_ragdoll_set_all(rd, SW_RAGDOLL_MODE_DYNAMIC, 1.0f, 1.0f);
    sw_ragdoll_set_mode(rd, 0, SW_RAGDOLL_MODE_KINEMATIC);

    const uint32_t arm = (uint32_t)(SW_RAGDOLL_PART_LEFT_FOREARM - 1);
    const uint32_t chest = (uint32_t)(SW_RAGDOLL_PART_CHEST - 1);
    sw_ragdoll_stepper stepper = {.step = wd.step};
    float arm_error = 0.0f, knocked_at = -1.0f, settled_at = -1.0f;
    bool finite = true;
    for (int frame = 0; frame < 60 * 10 && settled_at < 0.0f; ++frame) {
        const float dt = 1.0f / 60.0f;
        float alpha = 0.0f;
        const uint32_t n = sw_ragdoll_stepper_advance(&stepper, dt, &alpha);
        for (uint32_t i = 0; i < n; ++i) {
            time += stepper.step;
            const float loops = floorf(time / walk->duration);
            sample.time = time - loops * walk->duration;
            sw_sample_job_run(&sample);
            root.t.z = loops * cycle;
            const sw_ragdoll_drive_desc drive = {anim, packets, root, stepper.step};
            sw_ragdoll_drive(rd, &drive, NULL);
            if (sw_ode_world_step(world) != SW_RESULT_OK) finite = false;
            sw_ragdoll_capture(rd, stepper.step);
        }
        const float t = (float)(frame + 1) * dt;
        sw_ragdoll_read(rd, alpha, root, anim, packets, phys, packets);
        sw_ragdoll_blend(rd, anim, phys, out, packets);
        for (uint32_t j = 0; j < skel->joints_count; ++j) {
            sw_xform x = sw_pose_get(out, j);
            finite = finite && isfinite(x.t.x + x.t.y + x.t.z + x.r.x + x.r.y + x.r.z + x.r.w);
        }
        if (t < 1.0f && t > 0.5f) {
            /* Powered tracking of the left hand before the hit. */
            const uint32_t hand = (uint32_t)joints.hand[0];
            float e = sw_vec3_length(sw_vec3_sub(joint_world(skel, anim, root, hand),
                                                 joint_world(skel, phys, root, hand)));
            arm_error = e > arm_error ? e : arm_error;
        }
        if (frame == 59) {
            /* A hit on the left forearm: it swings, then the motors bring it back. */
            sw_physics_body_state s = sw_ragdoll_body_state(rd, arm);
            sw_ragdoll_apply_impulse(rd, arm, sw_vec3_make(0.0f, 4.0f, -6.0f), s.transform.t);
            printf("t = 1.00 s: hit on the left forearm\n");
        }
        if (frame == 119) {
            /* The knock-down: limp, fully physical, a shove on the chest. */
            sw_ragdoll_set_all(rd, SW_RAGDOLL_MODE_DYNAMIC, 0.0f, 1.0f);
            sw_physics_body_state s = sw_ragdoll_body_state(rd, chest);
            sw_ragdoll_apply_impulse(rd, chest, sw_vec3_make(0.0f, 0.0f, -60.0f), s.transform.t);
            knocked_at = t;
            printf("t = 2.00 s: knocked down\n");
        }
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

    /* Getting up: the root that puts a get-up clip's first pose where the
     * body lies. Without get-up clips here, the knock-down pose itself read
     * in the body's own frame stands in for the clip's first pose. */
    sw_ragdoll_read(rd, 1.0f, root, anim, packets, phys, packets);
    sw_xform aligned;
    if (sw_ragdoll_align_root(rd, phys, packets, 0.0f, &aligned, &err) != SW_RESULT_OK) return 1;
    sw_ragdoll_read(rd, 1.0f, aligned, anim, packets, out, packets);
    const sw_vec3 a = joint_world(skel, out, aligned, (uint32_t)joints.hips);
    const sw_vec3 b = joint_world(skel, phys, root, (uint32_t)joints.hips);
    printf("aligned root: (%.2f, %.2f, %.2f), hips (%.2f, %.2f) vs ragdoll (%.2f, %.2f)\n",
           (double)aligned.t.x, (double)aligned.t.y, (double)aligned.t.z, (double)a.x, (double)a.z,
           (double)b.x, (double)b.z);
    check(fabsf(a.x - b.x) < 1e-3f && fabsf(a.z - b.z) < 1e-3f,
          "aligned root puts the hips over the ragdoll's");

    sw_ragdoll_destroy(rd, NULL);
    sw_ode_world_destroy(world, NULL);
    free(anim);
    free(phys);
    free(out);
    sw_scene_free(&scene, NULL);
    return failures ? 1 : 0;
}
