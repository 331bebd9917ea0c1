/* 50_mirror: a character's clips mirrored left for right, checked.
 *
 *     example_50_mirror [FILE] [--png OUT.png] [--clip NAME] [--time T]
 *
 * Opens FILE (default: ../shared/assets/RobotExpressive.glb, else Debian's
 * CMU 01_01.bvh; neither: prints that it skips and exits 0), builds the
 * mirror data (twins from the joint names, plane from their rest positions)
 * and for every clip at 25 times checks: mirroring twice gives the pose back
 * (1e-5), the mirrored pose's model-space joint positions are the reflection
 * of the original's with twins swapped (1e-4 of the skeleton's height), and
 * the baked mirrored clip samples to the job's pose (1e-4). Prints each check
 * and exits 1 when one fails.
 *
 * --png draws the clip (default Wave, or the first) at T (default 40% of
 * it) with the original on the left and its mirror on the right, with the
 * software rasterizer (docs/img/mirror_robot.png). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/retarget/mirror.h"
#include "sinew/sinew.h"
#include "sinew/tools/builders/mirror_bake.h"
#include "sinew/tools/readers/asset.h"
#include "sinew/tools/writers/raster.h"

static int failures = 0;

static void check(bool ok, const char* what, double value, double limit) {
    printf("  %-58s %.3g (limit %.3g) %s\n", what, value, limit, ok ? "ok" : "FAIL");
    if (!ok) ++failures;
}

static sw_xform4* new_pose(uint32_t packets) {
    sw_xform4* p = (sw_xform4*)aligned_alloc(16, sizeof(sw_xform4) * packets);
    if (!p) exit(1);
    for (uint32_t i = 0; i < packets; ++i)
        sw_xform4_identity(&p[i]);
    return p;
}

static void to_model(const sw_skeleton* s, const sw_xform4* pose, const sw_mat4* root,
                     sw_mat4* out) {
    sw_local_to_model_job j = {.skeleton = s,
                               .local = pose,
                               .local_count = s->packets_count,
                               .root_transform = root,
                               .out = out,
                               .out_count = s->joints_count};
    if (sw_local_to_model_job_run(&j) != SW_RESULT_OK) exit(1);
}

static void sample(const sw_skeleton* s, const sw_clip* c, float t, sw_xform4* out) {
    sw_sample_job j = {
        .clip = c, .skeleton = s, .time = t, .out = out, .out_count = s->packets_count};
    if (sw_sample_job_run(&j) != SW_RESULT_OK) exit(1);
}

static float qdist(sw_quat a, sw_quat b) {
    float d = 0.0f, n = 0.0f;
    const float* pa = &a.x;
    const float* pb = &b.x;
    for (int i = 0; i < 4; ++i) {
        d += (pa[i] - pb[i]) * (pa[i] - pb[i]);
        n += (pa[i] + pb[i]) * (pa[i] + pb[i]);
    }
    return sqrtf(fminf(d, n));
}

static int picture(const sw_asset* a, const sw_mirror* m, const char* png, const char* clip_name,
                   float time) {
    const sw_skeleton* s = a->skeleton;
    int32_t ci = clip_name ? sw_asset_find_clip(a, clip_name) : sw_asset_find_clip(a, "Wave");
    if (ci < 0) ci = 0;
    if (a->clips_count == 0 || a->meshes_count == 0) {
        fprintf(stderr, "--png needs a clip and a skinned mesh\n");
        return 1;
    }
    const sw_clip* clip = a->clips[ci];
    if (time < 0.0f) time = 0.4f * clip->duration;
    sw_xform4* pose = new_pose(s->packets_count);
    sw_xform4* mir = new_pose(s->packets_count);
    sample(s, clip, time, pose);
    sw_mirror_job job = {.mirror = m,
                         .in = pose,
                         .in_count = s->packets_count,
                         .out = mir,
                         .out_count = s->packets_count};
    if (sw_mirror_job_run(&job) != SW_RESULT_OK) return 1;
    sw_mat4* model = (sw_mat4*)malloc(sizeof(sw_mat4) * s->joints_count);
    sw_mat4* palette = (sw_mat4*)malloc(sizeof(sw_mat4) * 1024);
    if (!model || !palette) return 1;
    /* Height from the rest pose's joints. */
    to_model(s, sw_skeleton_rest_pose(s), NULL, model);
    float top = 0.0f;
    for (uint32_t j = 0; j < s->joints_count; ++j)
        top = fmaxf(top, model[j].m[13]);
    const float h = top > 0.0f ? top : 1.0f;
    sw_raster r;
    if (sw_raster_init(&r, 440, 300, NULL) != SW_RESULT_OK) return 1;
    sw_raster_set_material(&r, 0, 90, 140, 220);
    sw_raster_set_material(&r, 1, 230, 130, 60);
    sw_raster_camera cam = {.view = sw_raster_look_at(sw_vec3_make(0.0f, 0.9f * h, 4.2f * h),
                                                      sw_vec3_make(0.0f, 0.75f * h, 0.0f)),
                            .fov_y = 0.75f};
    sw_raster_clear(&r, &cam);
    for (int side = 0; side < 2; ++side) {
        sw_mat4 root = sw_mat4_from_xform(
            (sw_xform){{side ? 0.8f * h : -0.8f * h, 0, 0}, sw_quat_identity(), {1, 1, 1}});
        to_model(s, side ? mir : pose, &root, model);
        for (uint32_t i = 0; i < a->meshes_count; ++i) {
            const sw_mesh* mesh = a->meshes[i];
            sw_skinning_job sk = {.model = model,
                                  .model_count = s->joints_count,
                                  .joints = sw_mesh_palette(mesh),
                                  .inverse_bind = sw_mesh_inverse_binds(mesh),
                                  .count = mesh->palette_count,
                                  .out = palette,
                                  .out_count = 1024};
            if (sw_skinning_job_run(&sk) != SW_RESULT_OK) return 1;
            if (sw_raster_draw_mesh(&r, &cam, mesh, palette, (uint32_t)side) != SW_RESULT_OK)
                return 1;
        }
    }
    sw_result res = sw_raster_write_png(&r, png);
    printf("%s: %s at %.2f s, original (left) and mirrored (right): %s\n", png, sw_clip_name(clip),
           (double)time, sw_result_str(res));
    sw_raster_free(&r);
    free(model);
    free(palette);
    free(pose);
    free(mir);
    return res == SW_RESULT_OK ? 0 : 1;
}

/* One clip's checks: mirrored twice is the original, model positions
 * reflect the twins', the baked clip samples as the mirror job (printed;
 * failures counted). Buffers: model matrices mo, mm; poses pose, once,
 * twice, baked_pose. Returns 1 when a job fails, else 0. */
static int check_clip(const sw_skeleton* s, const sw_mirror* m, const sw_clip* clip, float height,
                      sw_mat4* mo, sw_mat4* mm, sw_xform4* const poses[4]) {
    sw_xform4* pose = poses[0];
    sw_xform4* once = poses[1];
    sw_xform4* twice = poses[2];
    sw_xform4* baked_pose = poses[3];
    sw_error err = {0};
    const sw_clip* baked = NULL;
    sw_result r = sw_mirror_bake_clip(s, m, clip, NULL, NULL, &baked, &err);
    if (r != SW_RESULT_OK) {
        printf("clip %s: bake failed: %s (%s) FAIL\n", sw_clip_name(clip), sw_result_str(r),
               err.check);
        ++failures;
        return 0;
    }
    float w_twice = 0.0f, w_pos = 0.0f, w_bake = 0.0f;
    for (int i = 0; i <= 24; ++i) {
        const float t = clip->duration * (float)i / 24.0f;
        sample(s, clip, t, pose);
        sw_mirror_job job = {.mirror = m,
                             .in = pose,
                             .in_count = s->packets_count,
                             .out = once,
                             .out_count = s->packets_count};
        if (sw_mirror_job_run(&job) != SW_RESULT_OK) return 1;
        job.in = once;
        job.out = twice;
        if (sw_mirror_job_run(&job) != SW_RESULT_OK) return 1;
        sample(s, baked, t, baked_pose);
        to_model(s, pose, NULL, mo);
        to_model(s, once, NULL, mm);
        for (uint32_t k = 0; k < s->joints_count; ++k) {
            const sw_xform a0 = sw_pose_get(pose, k), a2 = sw_pose_get(twice, k);
            const sw_xform a1 = sw_pose_get(once, k), b1 = sw_pose_get(baked_pose, k);
            const float unit = fmaxf(1.0f, sw_vec3_length(a0.t));
            w_twice = fmaxf(w_twice, sw_vec3_length(sw_vec3_sub(a0.t, a2.t)) / unit);
            w_twice = fmaxf(w_twice, qdist(a0.r, a2.r));
            w_bake = fmaxf(w_bake, sw_vec3_length(sw_vec3_sub(a1.t, b1.t)) / unit);
            w_bake = fmaxf(w_bake, qdist(a1.r, b1.r));
            /* Reflection of the twin's position through the plane. */
            const uint32_t j = sw_mirror_twin(m, k);
            float want[3] = {mo[j].m[12], mo[j].m[13], mo[j].m[14]};
            want[m->axis - 1u] = -want[m->axis - 1u];
            const sw_vec3 d =
                sw_vec3_make(mm[k].m[12] - want[0], mm[k].m[13] - want[1], mm[k].m[14] - want[2]);
            w_pos = fmaxf(w_pos, sw_vec3_length(d));
        }
    }
    printf("clip %s (%.2f s, events %u):\n", sw_clip_name(clip), (double)clip->duration,
           clip->events_count);
    check(w_twice <= 1e-5f, "mirrored twice vs original", w_twice, 1e-5);
    check(w_pos <= 1e-4f * height, "model positions vs reflection of the twins'", w_pos,
          1e-4 * height);
    check(w_bake <= 1e-4f, "baked clip vs mirror job", w_bake, 1e-4);
    sw_clip_destroy(baked, NULL);
    return 0;
}

int main(int argc, char** argv) {
    const char* path = NULL;
    const char* png = NULL;
    const char* clip_name = NULL;
    float time = -1.0f;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--png") == 0 && i + 1 < argc)
            png = argv[++i];
        else if (strcmp(argv[i], "--clip") == 0 && i + 1 < argc)
            clip_name = argv[++i];
        else if (strcmp(argv[i], "--time") == 0 && i + 1 < argc)
            time = strtof(argv[++i], NULL);
        else
            path = argv[i];
    }
    static const char* const defaults[2] = {"../shared/assets/RobotExpressive.glb",
                                            "/usr/share/assimp/models/BVH/01_01.bvh"};
    for (int i = 0; !path && i < 2; ++i) {
        FILE* f = fopen(defaults[i], "rb");
        if (f) {
            fclose(f);
            path = defaults[i];
        }
    }
    if (!path) {
        printf("skipped: neither %s nor %s is here\n", defaults[0], defaults[1]);
        return 0;
    }
    sw_asset a;
    sw_error err = {0};
    sw_result r = sw_asset_open(path, NULL, &a, &err);
    if (r != SW_RESULT_OK) {
        fprintf(stderr, "%s: %s (%s)\n", path, sw_result_str(r), err.check ? err.check : "?");
        return 1;
    }
    const sw_skeleton* s = a.skeleton;
    /* A skinned mesh bound in another pose than the rest pose mirrors as a
     * mesh when the bind pose is the reference. */
    sw_mat4* frames = (sw_mat4*)malloc(sizeof(sw_mat4) * s->joints_count);
    if (!frames) return 1;
    sw_mirror_desc md = {.skeleton = s};
    if (a.meshes_count && sw_mirror_bind_frames(s, a.meshes, a.meshes_count, frames,
                                                s->joints_count) == SW_RESULT_OK) {
        md.frames = frames;
        md.frames_count = s->joints_count;
    }
    const sw_mirror* m = NULL;
    r = sw_mirror_create(&md, NULL, &m, &err);
    free(frames);
    if (r != SW_RESULT_OK) {
        fprintf(stderr, "mirror data: %s (%s)\n", sw_result_str(r), err.check);
        return 1;
    }
    printf("%s: %u joints, %u twin pairs, plane normal %c, reference: %s\n", path, s->joints_count,
           m->pairs_count, "?XYZ"[m->axis & 3u],
           md.frames ? "the meshes' bind pose" : "the rest pose");
    for (uint32_t j = 0, shown = 0; j < s->joints_count && shown < 6; ++j) {
        if (sw_mirror_twin(m, j) > j) {
            printf("  twins: %s <-> %s\n", sw_skeleton_joint_name(s, j),
                   sw_skeleton_joint_name(s, sw_mirror_twin(m, j)));
            ++shown;
        }
    }
    if (png) {
        int rc = picture(&a, m, png, clip_name, time);
        sw_mirror_destroy(m, NULL);
        sw_asset_free(&a);
        return rc;
    }
    sw_mat4* mo = (sw_mat4*)malloc(sizeof(sw_mat4) * s->joints_count);
    sw_mat4* mm = (sw_mat4*)malloc(sizeof(sw_mat4) * s->joints_count);
    sw_xform4* pose = new_pose(s->packets_count);
    sw_xform4* once = new_pose(s->packets_count);
    sw_xform4* twice = new_pose(s->packets_count);
    sw_xform4* baked_pose = new_pose(s->packets_count);
    if (!mo || !mm) return 1;
    to_model(s, sw_skeleton_rest_pose(s), NULL, mo);
    float height = 0.0f;
    for (uint32_t j = 0; j < s->joints_count; ++j)
        height = fmaxf(height, fabsf(mo[j].m[13]));
    if (!(height > 0.0f)) height = 1.0f;
    sw_xform4* const poses[4] = {pose, once, twice, baked_pose};
    for (uint32_t c = 0; c < a.clips_count; ++c) {
        if (check_clip(s, m, a.clips[c], height, mo, mm, poses)) return 1;
    }
    free(mo);
    free(mm);
    free(pose);
    free(once);
    free(twice);
    free(baked_pose);
    sw_mirror_destroy(m, NULL);
    sw_asset_free(&a);
    printf("%s\n", failures ? "FAILED" : "all checks passed");
    return failures ? 1 : 0;
}
