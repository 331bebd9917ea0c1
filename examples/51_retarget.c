/* 51_retarget: a CMU capture carried onto a differently built character, checked.
 *
 *     example_51_retarget [FILE.bvh]
 *
 * Opens FILE (default: Debian's CMU 01_01.bvh, in metres; absent: prints
 * that it skips and exits 0) and builds, in code, a Mixamo-named target
 * ("mixamorig:Hips", "mixamorig:LeftUpLeg", ...) that differs from the
 * capture's skeleton in every way the retargeter must absorb: 15% longer
 * legs, shorter spine, arms resting in an A-pose, and each joint's rest
 * orientation rolled by its own angle (so no local axis agrees with the
 * source's). Then it checks, printing each figure:
 * 1. the automatic map pairs every joint of the target by name;
 * 2. the capture onto its own skeleton is the identity (1e-5 m);
 * 3. without IK, every mapped bone of the target (parent to joint) turns
 *    from its own rest direction by exactly the model-space turn of its
 *    source parent from that joint's rest (0.05 degree): rolls and the
 *    A-pose do not twist or bend anything;
 * 4. with foot IK, no ankle goes more than 1 cm below its standing height,
 *    and the target's ankles follow the source's scaled ankles within 1 mm
 *    wherever the legs can reach;
 * 5. the baked clip samples to the job's pose at its keys (1e-4 m).
 * Exits 1 when a check fails. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/retarget/retarget.h"
#include "sinew/sinew.h"
#include "sinew/tools/builders/retarget_map.h"
#include "sinew/tools/readers/asset.h"

static int failures = 0;

static void check(bool ok, const char* what) {
    printf("%s %s\n", ok ? "ok  " : "FAIL", what);
    if (!ok) ++failures;
}

/* The target: names, parents, model rest positions (metres, +Y up, facing +Z). */
#define TJ 22
static const char* const tnames[TJ] = {
    "mixamorig:Hips",         "mixamorig:Spine",         "mixamorig:Spine1",
    "mixamorig:Spine2",       "mixamorig:Neck",          "mixamorig:Head",
    "mixamorig:LeftShoulder", "mixamorig:LeftArm",       "mixamorig:LeftForeArm",
    "mixamorig:LeftHand",     "mixamorig:RightShoulder", "mixamorig:RightArm",
    "mixamorig:RightForeArm", "mixamorig:RightHand",     "mixamorig:LeftUpLeg",
    "mixamorig:LeftLeg",      "mixamorig:LeftFoot",      "mixamorig:LeftToeBase",
    "mixamorig:RightUpLeg",   "mixamorig:RightLeg",      "mixamorig:RightFoot",
    "mixamorig:RightToeBase",
};
static const int32_t tparents[TJ] = {-1, 0,  1,  2, 3,  4,  3,  6, 7,  8,  3,
                                     10, 11, 12, 0, 14, 15, 16, 0, 18, 19, 20};
static const float tpos[TJ][3] = {
    {0, 1.05f, 0},      {0, 1.14f, 0},        {0, 1.23f, 0},      {0, 1.32f, 0},
    {0, 1.45f, 0},      {0, 1.55f, 0},        {0.04f, 1.40f, 0},  {0.16f, 1.39f, 0},
    {0.35f, 1.20f, 0},  {0.52f, 1.03f, 0},    {-0.04f, 1.40f, 0}, {-0.16f, 1.39f, 0},
    {-0.35f, 1.20f, 0}, {-0.52f, 1.03f, 0},   {0.1f, 1.0f, 0},    {0.1f, 0.54f, 0.01f},
    {0.1f, 0.08f, 0},   {0.1f, 0.0f, 0.13f},  {-0.1f, 1.0f, 0},   {-0.1f, 0.54f, 0.01f},
    {-0.1f, 0.08f, 0},  {-0.1f, 0.0f, 0.13f},
};

static const sw_skeleton* build_target(void) {
    sw_skeleton_joint joints[TJ];
    sw_quat model[TJ];
    for (uint32_t j = 0; j < TJ; ++j) {
        /* each joint's rest frame rolled by its own angle about a tilted axis */
        model[j] = sw_quat_from_axis_angle(sw_vec3_normalize(sw_vec3_make(0.3f, 1.0f, 0.2f)),
                                           0.37f * (float)j - 1.5f);
        const int32_t p = tparents[j];
        const sw_vec3 pos = sw_vec3_make(tpos[j][0], tpos[j][1], tpos[j][2]);
        joints[j].name = tnames[j];
        joints[j].parent = p;
        joints[j].rest = sw_xform_identity();
        if (p < 0) {
            joints[j].rest.t = pos;
            joints[j].rest.r = model[j];
        } else {
            const sw_vec3 pp = sw_vec3_make(tpos[p][0], tpos[p][1], tpos[p][2]);
            const sw_quat inv = sw_quat_conjugate(model[p]);
            joints[j].rest.t = sw_quat_rotate(inv, sw_vec3_sub(pos, pp));
            joints[j].rest.r = sw_quat_normalize(sw_quat_mul(inv, model[j]));
        }
    }
    const sw_skeleton_desc desc = {.joints = joints, .joints_count = TJ};
    const sw_skeleton* s = NULL;
    return sw_skeleton_create(&desc, NULL, &s, NULL) == SW_RESULT_OK ? s : NULL;
}

static sw_vec3 pos_of(const sw_mat4* m) {
    return sw_vec3_make(m->m[12], m->m[13], m->m[14]);
}

/* The example's poses and model matrices. */
typedef struct work {
    const sw_skeleton* src;
    const sw_skeleton* tgt;
    const sw_clip* clip;
    sw_retarget_map* map;  /* capture -> target, two leg limbs */
    sw_retarget_map* self; /* capture -> capture */
    void* scratch;
    size_t scratch_size;
    sw_xform4 *in, *same, *fk, *ik, *baked_pose;
    sw_mat4 *ms, *m2, *mt, *mi;
} work;

/* 1. the map: w->map from the automatic joint map (printed and checked),
 * w->self the capture onto itself. Returns 0, or 1 when a step fails. */
static int prepare_maps(work* w) {
    const sw_skeleton* src = w->src;
    const sw_skeleton* tgt = w->tgt;
    sw_retarget_map* map = w->map;
    sw_error err = {0};
    sw_retarget_joint_map* jm = malloc(sizeof *jm);
    sw_retarget_pair* pairs = malloc(SW_SKELETON_MAX_JOINTS * sizeof *pairs);
    if (!jm || !pairs) return 1;
    sw_retarget_joint_map_auto(src, tgt, jm);
    printf("map (source=target):\n");
    for (uint32_t t = 0; t < TJ; ++t)
        printf("  %s=%s\n",
               jm->source_of[t] >= 0 ? sw_skeleton_joint_name(src, (uint32_t)jm->source_of[t]) : "",
               tnames[t]);
    char line[160];
    snprintf(line, sizeof line, "automatic map pairs %u of %u target joints",
             sw_retarget_joint_map_count(jm), TJ);
    check(sw_retarget_joint_map_count(jm) == TJ, line);
    sw_retarget_limb limbs[SW_RETARGET_MAX_LIMBS];
    sw_retarget_map_desc desc;
    sw_result r = sw_retarget_joint_map_desc(jm, true, pairs, limbs, &desc);
    if (r == SW_RESULT_OK) r = sw_retarget_map_init(&desc, map, &err);
    float ground = 0.0f;
    if (r == SW_RESULT_OK) r = sw_retarget_fit_ground(map, src, w->clip, tgt, &ground);
    map->source_ground = ground;
    check(r == SW_RESULT_OK && map->limbs_count == 2, "map prepared with two leg limbs");
    if (r != SW_RESULT_OK) return 1;
    printf("     scale %.4f (leg ratio), source ground %.4f m\n", (double)map->root_scale,
           (double)ground);
    sw_retarget_joint_map_auto(src, src, jm);
    r = sw_retarget_joint_map_desc(jm, false, pairs, NULL, &desc);
    if (r == SW_RESULT_OK) r = sw_retarget_map_init(&desc, w->self, &err);
    free(jm);
    free(pairs);
    return r == SW_RESULT_OK ? 0 : 1;
}

/* The scratch and the pose and matrix buffers; false when one is missing. */
static bool alloc_work(work* w) {
    const sw_skeleton* src = w->src;
    const sw_skeleton* tgt = w->tgt;
    w->scratch_size = (sw_retarget_scratch_size(w->map) > sw_retarget_scratch_size(w->self)
                           ? sw_retarget_scratch_size(w->map)
                           : sw_retarget_scratch_size(w->self)) +
                      16u;
    w->scratch = aligned_alloc(16, (w->scratch_size + 15u) & ~(size_t)15u);
    w->in = aligned_alloc(16, src->packets_count * sizeof(sw_xform4));
    w->same = aligned_alloc(16, src->packets_count * sizeof(sw_xform4));
    w->fk = aligned_alloc(16, tgt->packets_count * sizeof(sw_xform4));
    w->ik = aligned_alloc(16, tgt->packets_count * sizeof(sw_xform4));
    w->baked_pose = aligned_alloc(16, tgt->packets_count * sizeof(sw_xform4));
    w->ms = malloc(src->joints_count * sizeof(sw_mat4));
    w->m2 = malloc(src->joints_count * sizeof(sw_mat4));
    w->mt = malloc(TJ * sizeof(sw_mat4));
    w->mi = malloc(TJ * sizeof(sw_mat4));
    return w->scratch && w->in && w->same && w->fk && w->ik && w->baked_pose && w->ms && w->m2 &&
           w->mt && w->mi;
}

/* The figures of checks 2 to 4, gathered over the clip at 30 Hz. */
typedef struct figures {
    float identity_err, worst_angle, sink, follow;
    uint32_t reached, frames;
} figures;

/* One frame at time t: the capture onto itself, onto the target without
 * and with IK, and their model matrices, folded into f. Returns 0, or 1
 * when a job fails. */
static int run_frame(work* w, float t, const float stand[2], figures* f) {
    const sw_skeleton* src = w->src;
    const sw_skeleton* tgt = w->tgt;
    const sw_retarget_map* map = w->map;
    const uint32_t feet_t[2] = {16, 20};
    const uint32_t hips_t[2] = {14, 18};
    const sw_sample_job sample = {
        .clip = w->clip, .skeleton = src, .time = t, .out = w->in, .out_count = src->packets_count};
    if (sw_sample_job_run(&sample) != SW_RESULT_OK) return 1;
    sw_retarget_job job = {.map = w->self,
                           .source = src,
                           .target = src,
                           .source_pose = w->in,
                           .source_pose_count = src->packets_count,
                           .scratch = w->scratch,
                           .scratch_size = w->scratch_size,
                           .out = w->same,
                           .out_count = src->packets_count};
    if (sw_retarget_job_run(&job) != SW_RESULT_OK) return 1;
    job.map = map;
    job.target = tgt;
    job.out = w->fk;
    job.out_count = tgt->packets_count;
    if (sw_retarget_job_run(&job) != SW_RESULT_OK) return 1;
    job.ik_weight = 1.0f;
    job.out = w->ik;
    if (sw_retarget_job_run(&job) != SW_RESULT_OK) return 1;
    sw_local_to_model_job l2m = {.skeleton = src,
                                 .local = w->in,
                                 .local_count = src->packets_count,
                                 .out = w->ms,
                                 .out_count = src->joints_count};
    if (sw_local_to_model_job_run(&l2m) != SW_RESULT_OK) return 1;
    l2m.local = w->same;
    l2m.out = w->m2;
    if (sw_local_to_model_job_run(&l2m) != SW_RESULT_OK) return 1;
    l2m.skeleton = tgt;
    l2m.local = w->fk;
    l2m.local_count = tgt->packets_count;
    l2m.out = w->mt;
    l2m.out_count = TJ;
    if (sw_local_to_model_job_run(&l2m) != SW_RESULT_OK) return 1;
    l2m.local = w->ik;
    l2m.out = w->mi;
    if (sw_local_to_model_job_run(&l2m) != SW_RESULT_OK) return 1;
    const sw_mat4 *ms = w->ms, *mt = w->mt, *mi = w->mi;
    for (uint32_t j = 0; j < src->joints_count; ++j) {
        const float d = sw_vec3_length(sw_vec3_sub(pos_of(&ms[j]), pos_of(&w->m2[j])));
        if (d > f->identity_err) f->identity_err = d;
    }
    /* each mapped bone (parent p -> joint j) turns from its own rest
     * direction by the source parent's model-space turn from its rest */
    for (uint32_t j = 1; j < TJ; ++j) {
        const int32_t p = tparents[j];
        const int32_t sp = map->source_of[p];
        if (sp < 0 || map->source_of[j] < 0) continue;
        const sw_quat qs = sw_quat_from_mat4(&ms[sp]);
        const sw_quat d = sw_quat_mul(qs, sw_quat_conjugate(map->source_rest_model[sp]));
        const sw_vec3 rest_dir = sw_vec3_sub(sw_vec3_make(tpos[j][0], tpos[j][1], tpos[j][2]),
                                             sw_vec3_make(tpos[p][0], tpos[p][1], tpos[p][2]));
        const sw_vec3 want = sw_vec3_normalize(sw_quat_rotate(d, rest_dir));
        const sw_vec3 got = sw_vec3_normalize(sw_vec3_sub(pos_of(&mt[j]), pos_of(&mt[p])));
        const float angle = acosf(fminf(1.0f, fmaxf(-1.0f, sw_vec3_dot(want, got))));
        if (angle > f->worst_angle) f->worst_angle = angle;
    }
    for (int side = 0; side < 2; ++side) {
        const sw_vec3 ankle = pos_of(&mi[feet_t[side]]);
        if (stand[side] - ankle.y > f->sink) f->sink = stand[side] - ankle.y;
        sw_vec3 goal = pos_of(&ms[map->limbs[side].source_end]);
        goal.y -= map->source_ground;
        goal = sw_vec3_scale(goal, map->root_scale);
        const float reach = sw_vec3_length(sw_vec3_sub(pos_of(&mi[hips_t[side]]), goal));
        const float leg = 0.92f * 0.999f;
        if (reach < leg - 1e-3f) {
            ++f->reached;
            const float d = sw_vec3_length(sw_vec3_sub(ankle, goal));
            if (d > f->follow) f->follow = d;
        }
    }
    return 0;
}

/* Checks 2 to 4 over the clip. Returns 0, or 1 when a job fails. */
static int check_frames(work* w) {
    const sw_skeleton* tgt = w->tgt;
    figures f = {.sink = -1e9f};
    float stand[2];
    {
        memcpy(w->fk, sw_skeleton_rest_pose(tgt), tgt->packets_count * sizeof(sw_xform4));
        const sw_local_to_model_job l2m = {.skeleton = tgt,
                                           .local = w->fk,
                                           .local_count = tgt->packets_count,
                                           .out = w->mt,
                                           .out_count = TJ};
        if (sw_local_to_model_job_run(&l2m) != SW_RESULT_OK) return 1;
        stand[0] = w->mt[16].m[13];
        stand[1] = w->mt[20].m[13];
    }
    for (float t = 0.0f; t <= w->clip->duration; t += 1.0f / 30.0f, ++f.frames) {
        if (run_frame(w, t, stand, &f)) return 1;
    }
    char line[160];
    snprintf(line, sizeof line, "the capture onto its own skeleton: identity within %.2g m",
             (double)f.identity_err);
    check(f.identity_err < 1e-5f, line);
    snprintf(line, sizeof line,
             "without IK every mapped bone turns from its rest by its source's turn (worst "
             "%.3g degrees)",
             (double)(f.worst_angle * 57.29578f));
    check(f.worst_angle * 57.29578f < 0.05f, line);
    snprintf(line, sizeof line,
             "foot IK: no ankle more than 1 cm below its standing height (lowest: %.2f cm "
             "above it)",
             (double)(-100.0f * f.sink));
    check(f.sink < 0.01f, line);
    snprintf(line, sizeof line,
             "foot IK: ankles on the source's scaled ankles within %.3g mm (%u of %u reachable)",
             (double)(1000.0f * f.follow), f.reached, 2 * f.frames);
    check(f.follow < 1e-3f && f.reached > f.frames, line);
    return 0;
}

/* 5. the bake: the baked clip sampled at every 7th key against the job.
 * Returns 0, or 1 when a job fails. */
static int check_bake(work* w) {
    const sw_skeleton* src = w->src;
    const sw_skeleton* tgt = w->tgt;
    sw_error err = {0};
    const sw_retarget_bake_options bopt = {.rate = 30.0f, .ik_weight = 1.0f};
    const sw_clip* baked = NULL;
    sw_result r = sw_retarget_bake(w->map, src, w->clip, tgt, &bopt, NULL, &baked, &err);
    float bake_err = 0.0f;
    const sw_clip_track* key_track = r == SW_RESULT_OK ? &sw_clip_tracks(baked)[0] : NULL;
    for (uint32_t k = 0; r == SW_RESULT_OK && k < key_track->keys_count; k += 7) {
        const float t = sw_clip_track_key_time(baked, key_track, k);
        const sw_sample_job s1 = {.clip = w->clip,
                                  .skeleton = src,
                                  .time = t,
                                  .out = w->in,
                                  .out_count = src->packets_count};
        const sw_sample_job s2 = {.clip = baked,
                                  .skeleton = tgt,
                                  .time = t,
                                  .out = w->baked_pose,
                                  .out_count = tgt->packets_count};
        const sw_retarget_job job = {.map = w->map,
                                     .source = src,
                                     .target = tgt,
                                     .source_pose = w->in,
                                     .source_pose_count = src->packets_count,
                                     .ik_weight = 1.0f,
                                     .scratch = w->scratch,
                                     .scratch_size = w->scratch_size,
                                     .out = w->ik,
                                     .out_count = tgt->packets_count};
        if (sw_sample_job_run(&s1) != SW_RESULT_OK || sw_sample_job_run(&s2) != SW_RESULT_OK ||
            sw_retarget_job_run(&job) != SW_RESULT_OK)
            return 1;
        sw_local_to_model_job l2m = {.skeleton = tgt,
                                     .local = w->ik,
                                     .local_count = tgt->packets_count,
                                     .out = w->mi,
                                     .out_count = TJ};
        if (sw_local_to_model_job_run(&l2m) != SW_RESULT_OK) return 1;
        l2m.local = w->baked_pose;
        l2m.out = w->mt;
        if (sw_local_to_model_job_run(&l2m) != SW_RESULT_OK) return 1;
        for (uint32_t j = 0; j < TJ; ++j) {
            const float d = sw_vec3_length(sw_vec3_sub(pos_of(&w->mi[j]), pos_of(&w->mt[j])));
            if (d > bake_err) bake_err = d;
        }
    }
    char line[160];
    snprintf(line, sizeof line, "baked clip (%u tracks) equals the job at its keys within %.2g m",
             baked ? baked->tracks_count : 0u, (double)bake_err);
    check(r == SW_RESULT_OK && bake_err < 1e-4f, line);
    sw_clip_destroy(baked, NULL);
    return 0;
}

int main(int argc, char** argv) {
    const char* path = argc > 1 ? argv[1] : "/usr/share/assimp/models/BVH/01_01.bvh";
    FILE* probe = fopen(path, "rb");
    if (!probe) {
        printf("skipped: %s not found (install Debian's assimp-testmodels)\n", path);
        return 0;
    }
    fclose(probe);
    sw_asset cmu;
    sw_error err = {0};
    const sw_asset_options opt = {.scale = 0.056444f};
    if (sw_asset_open(path, &opt, &cmu, &err) != SW_RESULT_OK || cmu.clips_count == 0) {
        printf("FAIL cannot open %s (%s)\n", path, err.check ? err.check : "no clips");
        return 1;
    }
    work w = {.src = cmu.skeleton, .tgt = build_target(), .clip = cmu.clips[0]};
    if (!w.tgt) return 1;
    w.map = malloc(sizeof *w.map);
    w.self = malloc(sizeof *w.self);
    if (!w.map || !w.self || prepare_maps(&w)) return 1;
    if (!alloc_work(&w) || check_frames(&w) || check_bake(&w)) return 1;

    free(w.scratch);
    free(w.in);
    free(w.same);
    free(w.fk);
    free(w.ik);
    free(w.baked_pose);
    free(w.ms);
    free(w.m2);
    free(w.mt);
    free(w.mi);
    free(w.map);
    free(w.self);
    sw_skeleton_destroy(w.tgt, NULL);
    sw_asset_free(&cmu);
    printf("%s\n", failures ? "some checks failed" : "all checks passed");
    return failures ? 1 : 0;
}
