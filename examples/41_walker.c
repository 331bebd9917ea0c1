/* 41_walker: an eight-legged spider over bumpy ground, ducking under a beam.
 *
 *     example_41_walker [--plot]
 *
 * The spider (legs in two alternating groups, body 25 cm high, 12 cm stride)
 * walks 20 s at 60 frames per second over an analytic bumpy terrain: 9 s
 * straight ahead under a beam whose underside is 24 cm above the ground,
 * 7 s along a curve, then it stands. Each leg is a chain of four joints
 * (coxa, femur, tibia, tip) on a skeleton built here, bent by
 * sw_walker_pose_job with FABRIK every frame.
 *
 * It checks and prints: planted feet never move (not a bit), partners (the
 * neighbours along a side and across) are never in the air together,
 * planted feet stand on the terrain, the body stays between its minimum and
 * full height above the ground, keeps its clearance under the beam, every
 * leg tip reaches its foot (FABRIK, 1 mm), and a second run gives the same
 * bits. Exit status 1 when a check fails.
 *
 * --plot prints one line per frame instead (time, one 0/1 airborne column per
 * leg, body height above the ground, its allowed height, the ground under
 * the body, 1 under the beam); docs/plots/walker_plots.sh draws
 * docs/img/walker_gait.png and docs/img/walker_height.png from it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/procedural/walker.h"
#include "sinew/sinew.h"

#define LEGS 8
#define BEAM_Z0 4.0f
#define BEAM_Z1 4.3f
#define BEAM_BOTTOM 0.24f
#define BEAM_TOP 0.4f

/* ---- the world ---- */

static float terrain(float x, float z) {
    return 0.05f * sinf(1.3f * x + 0.4f) + 0.04f * cosf(0.9f * z + 0.5f * x) +
           0.015f * sinf(3.1f * z);
}

static bool world_ray(void* user, sw_vec3 from, sw_vec3 dir, float max_distance, sw_vec3* point,
                      sw_vec3* normal) {
    (void)user;
    const bool beam = from.z >= BEAM_Z0 && from.z <= BEAM_Z1;
    *normal = sw_vec3_make(0, dir.y < 0.0f ? 1.0f : -1.0f, 0);
    if (dir.y < 0.0f) { /* down: the beam's top (or at once from inside it), else the ground */
        float hit = terrain(from.x, from.z);
        if (beam && from.y >= BEAM_BOTTOM) hit = fminf(from.y, BEAM_TOP);
        if (hit > from.y || from.y - hit > max_distance) return false;
        *point = sw_vec3_make(from.x, hit, from.z);
        return true;
    }
    if (!beam || from.y > BEAM_BOTTOM || BEAM_BOTTOM - from.y > max_distance) return false;
    *point = sw_vec3_make(from.x, BEAM_BOTTOM, from.z);
    return true;
}

/* ---- the spider ---- */

static sw_walker_leg legs[LEGS];

static sw_walker_desc spider(void) {
    for (uint32_t i = 0; i < 4; ++i) {
        const float z = 0.3f - 0.2f * (float)i;
        legs[i] = (sw_walker_leg){.rest = {-0.35f, 0, z}, .group = i & 1u};           /* left */
        legs[4 + i] = (sw_walker_leg){.rest = {0.35f, 0, z}, .group = (i + 1u) & 1u}; /* right */
    }
    return (sw_walker_desc){.legs = legs,
                            .legs_count = LEGS,
                            .height = 0.25f,
                            .min_height = 0.1f,
                            .clearance = 0.03f,
                            .stride = 0.12f,
                            .step_duration = 0.2f,
                            .step_height = 0.06f,
                            .move_dip = 0.02f,
                            .ray_up = 0.1f,
                            .ray_down = 0.5f,
                            .ray = world_ray};
}

static bool partners(uint32_t a, uint32_t b) {
    if (a / 4 != b / 4) return a % 4 == b % 4;
    return a + 1 == b || b + 1 == a;
}

static void steer(float t, sw_vec3* v, float* turn) {
    const float a = t < 9.0f ? 0.0f : 0.4f * (fminf(t, 16.0f) - 9.0f);
    const float speed = t < 16.0f ? 0.5f : 0.0f;
    *v = sw_vec3_make(speed * sinf(a), 0, speed * cosf(a));
    *turn = (t >= 9.0f && t < 16.0f) ? 0.4f : 0.0f;
}

/* A skeleton: body, then per leg coxa -> femur -> tibia -> tip, pointing out
 * to its side. Chains go into chain_joints. */
static const sw_skeleton* make_skeleton(uint32_t chain_joints[LEGS][4]) {
    sw_skeleton_joint js[1 + 4 * LEGS];
    static char names[1 + 4 * LEGS][16];
    static const char* const parts[4] = {"coxa", "femur", "tibia", "tip"};
    js[0] = (sw_skeleton_joint){
        .name = "body", .parent = -1, .rest = {{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}}};
    for (uint32_t i = 0; i < LEGS; ++i) {
        const float side = legs[i].rest.x < 0.0f ? -1.0f : 1.0f;
        const sw_vec3 t[4] = {{0.08f * side, 0.0f, legs[i].rest.z * 0.6f},
                              {0.1f * side, 0.12f, 0.0f},
                              {0.2f * side, -0.02f, 0.0f},
                              {0.08f * side, -0.3f, 0.0f}};
        for (uint32_t k = 0; k < 4; ++k) {
            const uint32_t j = 1 + 4 * i + k;
            snprintf(names[j], sizeof(names[j]), "%s_%u", parts[k], i);
            js[j] = (sw_skeleton_joint){.name = names[j],
                                        .parent = k == 0 ? 0 : (int32_t)(j - 1),
                                        .rest = {t[k], {0, 0, 0, 1}, {1, 1, 1}}};
            chain_joints[i][k] = j;
        }
    }
    const sw_skeleton_desc desc = {.joints = js, .joints_count = 1 + 4 * LEGS};
    const sw_skeleton* s = NULL;
    return sw_skeleton_create(&desc, NULL, &s, NULL) == SW_RESULT_OK ? s : NULL;
}

typedef struct stats {
    uint32_t slides, partner_faults, off_ground, height_faults, beam_faults, frames_under_beam;
    uint32_t steps;
    float lowest_under_beam, worst_tip, max_drift;
} stats;

/* Runs the 20 s walk; prints the plot table when asked. Returns false on an
 * API failure. */
static bool run(bool plot, const sw_skeleton* skel, uint32_t chain_joints[LEGS][4],
                sw_walker_state* out, stats* s) {
    const sw_walker_desc d = spider();
    sw_walker_state st;
    if (sw_walker_init(&d, sw_vec3_make(0, 0, 0), 0.0f, &st) != SW_RESULT_OK) return false;
    memset(s, 0, sizeof(*s));
    s->lowest_under_beam = INFINITY;
    sw_walker_chain chains[LEGS];
    for (uint32_t i = 0; i < LEGS; ++i)
        chains[i] = (sw_walker_chain){.joints = chain_joints[i],
                                      .joints_count = 4,
                                      .solver = SW_WALKER_SOLVER_FABRIK,
                                      .pole = {0, 1, 0}};
    sw_xform4* pose = aligned_alloc(16, sizeof(sw_xform4) * skel->packets_count);
    sw_mat4* model = aligned_alloc(16, sizeof(sw_mat4) * skel->joints_count);
    if (!pose || !model) return false;
    bool ok = true;
    const float dt = 1.0f / 60.0f;
    if (plot) printf("# t air0..air7 height limit ground beam\n");
    for (int f = 0; f < 1200 && ok; ++f) {
        const sw_walker_state prev = st;
        sw_walker_job job = {.desc = &d, .state = &st, .dt = dt};
        steer((float)f * dt, &job.velocity, &job.turn_rate);
        ok = sw_walker_job_run(&job) == SW_RESULT_OK;
        for (uint32_t i = 0; i < LEGS; ++i) {
            const sw_walker_foot* a = &prev.feet[i];
            const sw_walker_foot* b = &st.feet[i];
            if (!a->airborne && !b->airborne && a->steps == b->steps &&
                memcmp(&a->position, &b->position, sizeof(sw_vec3)) != 0)
                s->slides++;
            if (!b->airborne) {
                if (fabsf(b->position.y - terrain(b->position.x, b->position.z)) > 1e-5f)
                    s->off_ground++;
                s->max_drift = fmaxf(
                    s->max_drift, hypotf(b->position.x - b->ideal.x, b->position.z - b->ideal.z));
            }
            for (uint32_t j = i + 1; j < LEGS; ++j)
                if (partners(i, j) && b->airborne && st.feet[j].airborne) s->partner_faults++;
        }
        const float rel = st.position.y - st.ground.value;
        if (rel < d.min_height - 1e-5f || rel > d.height + 1e-5f) s->height_faults++;
        const bool beam = st.position.z >= BEAM_Z0 && st.position.z <= BEAM_Z1;
        if (beam) {
            s->frames_under_beam++;
            s->lowest_under_beam = fminf(s->lowest_under_beam, rel);
            if (st.position.y > BEAM_BOTTOM - d.clearance + 2e-3f) s->beam_faults++;
        }
        /* the legs on the skeleton, in the walker's world */
        const sw_mat4 body = sw_walker_body_matrix(&st);
        memcpy(pose, sw_skeleton_rest_pose(skel), sizeof(sw_xform4) * skel->packets_count);
        const sw_local_to_model_job l2m = {.skeleton = skel,
                                           .local = pose,
                                           .local_count = skel->packets_count,
                                           .root_transform = &body,
                                           .out = model,
                                           .out_count = skel->joints_count};
        const sw_walker_pose_job pj = {.skeleton = skel,
                                       .model = model,
                                       .model_count = skel->joints_count,
                                       .root_transform = &body,
                                       .state = &st,
                                       .chains = chains,
                                       .chains_count = LEGS,
                                       .iterations = 20,
                                       .weight = 1.0f,
                                       .pose = pose,
                                       .pose_count = skel->packets_count};
        ok = ok && sw_local_to_model_job_run(&l2m) == SW_RESULT_OK &&
             sw_walker_pose_job_run(&pj) == SW_RESULT_OK &&
             sw_local_to_model_job_run(&l2m) == SW_RESULT_OK;
        for (uint32_t i = 0; i < LEGS && ok; ++i) {
            const sw_mat4* m = &model[chain_joints[i][3]];
            const sw_vec3 tip = sw_vec3_make(m->m[12], m->m[13], m->m[14]);
            s->worst_tip =
                fmaxf(s->worst_tip, sw_vec3_length(sw_vec3_sub(tip, st.feet[i].position)));
        }
        if (plot) {
            printf("%.4f", (double)((float)(f + 1) * dt));
            for (uint32_t i = 0; i < LEGS; ++i)
                printf(" %d", st.feet[i].airborne ? 1 : 0);
            printf(" %.5f %.5f %.5f %d\n", (double)rel, (double)st.height_limit,
                   (double)st.ground.value, beam ? 1 : 0);
        }
    }
    for (uint32_t i = 0; i < LEGS; ++i)
        s->steps += st.feet[i].steps;
    *out = st;
    free(pose);
    free(model);
    return ok;
}

static int check(bool ok, const char* what) {
    printf("  %-58s %s\n", what, ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}

int main(int argc, char** argv) {
    const bool plot = argc > 1 && strcmp(argv[1], "--plot") == 0;
    (void)spider(); /* fills legs[] for the skeleton */
    uint32_t chain_joints[LEGS][4];
    const sw_skeleton* skel = make_skeleton(chain_joints);
    if (!skel) {
        fprintf(stderr, "skeleton refused\n");
        return 1;
    }
    sw_walker_state a, b;
    stats s, s2;
    if (!run(plot, skel, chain_joints, &a, &s)) {
        fprintf(stderr, "a job failed\n");
        return 1;
    }
    int failures = 0;
    if (!plot) {
        const bool again = run(false, skel, chain_joints, &b, &s2);
        printf("spider, 8 legs in 2 groups, 20 s at 60 fps over bumps and under a beam\n");
        printf("  %u steps, ends at (%.2f, %.2f) heading %.2f rad, largest planted drift %.3f m\n",
               s.steps, (double)a.position.x, (double)a.position.z, (double)a.heading,
               (double)s.max_drift);
        printf("  %u frames under the beam, body down to %.3f m above the ground (of 0.25)\n",
               s.frames_under_beam, (double)s.lowest_under_beam);
        printf("  leg tips within %.2e m of their feet (FABRIK, 20 iterations)\n",
               (double)s.worst_tip);
        failures += check(s.slides == 0, "planted feet never move");
        failures += check(s.partner_faults == 0, "partners never both airborne");
        failures += check(s.off_ground == 0, "planted feet on the terrain (1e-5 m)");
        failures += check(s.height_faults == 0, "body height within [0.10, 0.25] m of the ground");
        failures +=
            check(s.frames_under_beam > 0 && s.beam_faults == 0, "body keeps 3 cm below the beam");
        failures += check(s.worst_tip < 1e-3f, "leg tips on their feet (1 mm)");
        failures +=
            check(again && memcmp(&a, &b, sizeof(a)) == 0, "a second run gives the same bits");
        printf("%s\n", failures ? "FAILED" : "all checks passed");
    }
    sw_skeleton_destroy(skel, NULL);
    return failures ? 1 : 0;
}
