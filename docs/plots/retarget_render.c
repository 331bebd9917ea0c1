/* Renders docs/img/retarget_cmu.png: CMU 01_01 (drawn as bones) beside its
 * retarget onto the built-in humanoid (skinned mesh), and with a third
 * argument also onto RobotExpressive, at four times of the capture, with the
 * software rasterizer.
 *   retarget_render OUT.png CMU.bvh [RobotExpressive.glb]
 * Writes the PNG to OUT.png. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/retarget/retarget.h"
#include "sinew/showcase/character.h"
#include "sinew/sinew.h"
#include "sinew/tools/builders/retarget_map.h"
#include "sinew/tools/readers/asset.h"
#include "sinew/tools/writers/png.h"
#include "sinew/tools/writers/raster.h"

#define CELL_W 300u
#define CELL_H 330u
#define CELLS 4u

typedef struct target {
    const sw_skeleton* skeleton;
    const sw_mesh* const* meshes;
    uint32_t meshes_count;
    sw_retarget_map map;
    void* scratch;
    size_t scratch_size;
    sw_xform4* pose;
    sw_mat4* model;
} target;

static int target_init(target* t, const sw_skeleton* src, const sw_clip* clip) {
    sw_retarget_joint_map jm;
    sw_retarget_pair pairs[SW_SKELETON_MAX_JOINTS];
    sw_retarget_limb limbs[SW_RETARGET_MAX_LIMBS];
    sw_retarget_map_desc desc;
    if (sw_retarget_joint_map_auto(src, t->skeleton, &jm) != SW_RESULT_OK ||
        sw_retarget_joint_map_desc(&jm, true, pairs, limbs, &desc) != SW_RESULT_OK ||
        sw_retarget_map_init(&desc, &t->map, NULL) != SW_RESULT_OK)
        return 1;
    float ground = 0.0f;
    if (sw_retarget_fit_ground(&t->map, src, clip, t->skeleton, &ground) == SW_RESULT_OK)
        t->map.source_ground = ground;
    t->scratch_size = (sw_retarget_scratch_size(&t->map) + 15u) & ~(size_t)15u;
    t->scratch = aligned_alloc(16, t->scratch_size);
    t->pose = aligned_alloc(16, t->skeleton->packets_count * sizeof(sw_xform4));
    t->model = malloc(t->skeleton->joints_count * sizeof(sw_mat4));
    return !t->scratch || !t->pose || !t->model;
}

/* Draws target t retargeted from `in`, its hips moved to (x, z). */
static int target_draw(target* t, sw_raster* r, const sw_raster_camera* cam, const sw_skeleton* src,
                       const sw_xform4* in, float x, float z, uint32_t material) {
    const sw_retarget_job job = {
        .map = &t->map,
        .source = src,
        .target = t->skeleton,
        .source_pose = in,
        .source_pose_count = src->packets_count,
        .ik_weight = 1.0f,
        .scratch = t->scratch,
        .scratch_size = t->scratch_size,
        .out = t->pose,
        .out_count = t->skeleton->packets_count,
    };
    if (sw_retarget_job_run(&job) != SW_RESULT_OK) return 1;
    sw_local_to_model_job l2m = {.skeleton = t->skeleton,
                                 .local = t->pose,
                                 .local_count = t->skeleton->packets_count,
                                 .out = t->model,
                                 .out_count = t->skeleton->joints_count};
    if (sw_local_to_model_job_run(&l2m) != SW_RESULT_OK) return 1;
    const sw_mat4 hips = t->model[t->map.root_target];
    sw_mat4 root = sw_mat4_identity();
    root.m[12] = x - hips.m[12];
    root.m[14] = z - hips.m[14];
    l2m.root_transform = &root;
    if (sw_local_to_model_job_run(&l2m) != SW_RESULT_OK) return 1;
    static sw_mat4 palette[SW_SKELETON_MAX_JOINTS];
    for (uint32_t m = 0; m < t->meshes_count; ++m) {
        const sw_mesh* mesh = t->meshes[m];
        const sw_skinning_job skin = {.model = t->model,
                                      .model_count = t->skeleton->joints_count,
                                      .joints = sw_mesh_palette(mesh),
                                      .inverse_bind = sw_mesh_inverse_binds(mesh),
                                      .count = mesh->palette_count,
                                      .out = palette,
                                      .out_count = SW_SKELETON_MAX_JOINTS};
        if (sw_skinning_job_run(&skin) != SW_RESULT_OK) return 1;
        if (sw_raster_draw_mesh(r, cam, mesh, palette, material) != SW_RESULT_OK) return 1;
    }
    return 0;
}

static void dot(sw_raster* r, int x, int y, uint8_t c) {
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            const int px = x + dx, py = y + dy;
            if (px >= 0 && py >= 0 && px < (int)r->width && py < (int)r->height)
                r->pixels[(uint32_t)py * r->width + (uint32_t)px] = c;
        }
}

/* The source's bones as thick lines, its hips moved to (x, z). */
static void draw_bones(sw_raster* r, const sw_raster_camera* cam, const sw_skeleton* s,
                       const sw_mat4* model, float x, float z, uint8_t c) {
    const int16_t* parents = sw_skeleton_parents(s);
    const float sx = x - model[0].m[12], sz = z - model[0].m[14];
    for (uint32_t j = 1; j < s->joints_count; ++j) {
        const sw_mat4* a = &model[parents[j]];
        const sw_mat4* b = &model[j];
        float ax, ay, bx, by, d;
        if (!sw_raster_project(r, cam, sw_vec3_make(a->m[12] + sx, a->m[13], a->m[14] + sz), &ax,
                               &ay, &d) ||
            !sw_raster_project(r, cam, sw_vec3_make(b->m[12] + sx, b->m[13], b->m[14] + sz), &bx,
                               &by, &d))
            continue;
        const int steps = 1 + (int)(fabsf(bx - ax) + fabsf(by - ay));
        for (int k = 0; k <= steps; ++k) {
            const float u = (float)k / (float)steps;
            dot(r, (int)(ax + (bx - ax) * u), (int)(ay + (by - ay) * u), c);
        }
    }
}

int main(int argc, char** argv) {
    if (argc < 3) return 2;
    sw_asset cmu, robot;
    memset(&robot, 0, sizeof robot);
    const sw_asset_options opt = {.scale = 0.056444f};
    if (sw_asset_open(argv[2], &opt, &cmu, NULL) != SW_RESULT_OK) return 1;
    const bool have_robot = argc > 3 && sw_asset_open(argv[3], NULL, &robot, NULL) == SW_RESULT_OK;
    sw_scene human;
    if (sw_showcase_humanoid(NULL, &human, NULL, NULL) != SW_RESULT_OK) return 1;
    const sw_clip* clip = cmu.clips[0];
    target th = {.skeleton = human.skeleton,
                 .meshes = (const sw_mesh* const*)human.meshes,
                 .meshes_count = human.meshes_count};
    target tr = {0};
    int fail = target_init(&th, cmu.skeleton, clip);
    if (have_robot) {
        tr.skeleton = robot.skeleton;
        tr.meshes = robot.meshes;
        tr.meshes_count = robot.meshes_count;
        fail |= target_init(&tr, cmu.skeleton, clip);
    }
    sw_xform4* in = aligned_alloc(16, cmu.skeleton->packets_count * sizeof(sw_xform4));
    sw_mat4* sm = malloc(cmu.skeleton->joints_count * sizeof(sw_mat4));
    uint8_t* strip = calloc((size_t)CELL_W * CELLS * CELL_H, 1);
    sw_raster r;
    if (fail || !in || !sm || !strip || sw_raster_init(&r, CELL_W, CELL_H, NULL) != SW_RESULT_OK)
        return 1;
    sw_raster_set_material(&r, 0, 220, 120, 80);
    sw_raster_set_material(&r, 1, 110, 160, 210);
    sw_raster_set_material(&r, 2, 60, 60, 60);
    const sw_raster_camera cam = {
        .view = sw_raster_look_at(sw_vec3_make(5.0f, 1.4f, -0.2f), sw_vec3_make(0.0f, 0.9f, -0.2f)),
        .fov_y = 0.62f};
    static const float times[CELLS] = {3.0f, 3.6f, 4.2f, 4.8f};
    for (uint32_t c = 0; c < CELLS && !fail; ++c) {
        sw_raster_clear(&r, &cam);
        const sw_sample_job sample = {.clip = clip,
                                      .skeleton = cmu.skeleton,
                                      .time = times[c],
                                      .out = in,
                                      .out_count = cmu.skeleton->packets_count};
        const sw_local_to_model_job l2m = {.skeleton = cmu.skeleton,
                                           .local = in,
                                           .local_count = cmu.skeleton->packets_count,
                                           .out = sm,
                                           .out_count = cmu.skeleton->joints_count};
        fail |= sw_sample_job_run(&sample) != SW_RESULT_OK;
        fail |= sw_local_to_model_job_run(&l2m) != SW_RESULT_OK;
        if (have_robot) fail |= target_draw(&tr, &r, &cam, cmu.skeleton, in, 0.0f, 1.75f, 0);
        fail |= target_draw(&th, &r, &cam, cmu.skeleton, in, 0.0f, 0.35f, 1);
        /* the source stands on its fitted ground (the humanoid's) */
        for (uint32_t j = 0; j < cmu.skeleton->joints_count; ++j)
            sm[j].m[13] -= th.map.source_ground;
        draw_bones(&r, &cam, cmu.skeleton, sm, 0.0f, -0.75f, sw_raster_material_index(2, 10));
        for (uint32_t y = 0; y < CELL_H; ++y)
            memcpy(strip + (size_t)y * CELL_W * CELLS + (size_t)c * CELL_W,
                   r.pixels + (size_t)y * CELL_W, CELL_W);
    }
    const sw_png_image img = {.width = CELL_W * CELLS,
                              .height = CELL_H,
                              .format = SW_PNG_FORMAT_INDEXED,
                              .pixels = strip,
                              .palette = r.palette,
                              .palette_count = SW_RASTER_PALETTE_COUNT};
    fail |= sw_png_write_file(&img, argv[1]) != SW_RESULT_OK;
    sw_raster_free(&r);
    free(strip);
    free(in);
    free(sm);
    sw_scene_free(&human, NULL);
    if (have_robot) sw_asset_free(&robot);
    sw_asset_free(&cmu);
    return fail;
}
