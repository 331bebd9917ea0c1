/* Renders docs/img/character_mesh.png: the default humanoid's skinned mesh
 * at five phases of the walk and one of the run, and the spider, with the
 * software rasterizer (sinew/tools/writers/raster.h). Writes the PNG to argv[1]. */
#include <stdio.h>
#include <string.h>

#include "sinew/showcase/character.h"
#include "sinew/sinew.h"
#include "sinew/tools/writers/raster.h"

static _Alignas(16) sw_xform4 local[16];
static sw_mat4 model[64], palette[64];

static int draw(sw_raster* r, const sw_raster_camera* cam, const sw_scene* s, const sw_clip* c,
                float t, float shift_x, float shift_z, uint32_t material) {
    if (c) {
        const sw_sample_job sample = {
            .clip = c, .skeleton = s->skeleton, .time = t, .out = local, .out_count = 16};
        if (sw_sample_job_run(&sample) != SW_RESULT_OK) return 1;
    } else {
        memcpy(local, sw_skeleton_rest_pose(s->skeleton),
               sizeof(sw_xform4) * s->skeleton->packets_count);
    }
    sw_mat4 root = sw_mat4_identity();
    root.m[12] = shift_x;
    root.m[14] = shift_z;
    const sw_local_to_model_job l2m = {.skeleton = s->skeleton,
                                       .local = local,
                                       .local_count = 16,
                                       .root_transform = &root,
                                       .out = model,
                                       .out_count = 64};
    const sw_mesh* m = s->meshes[0];
    const sw_skinning_job skin = {.model = model,
                                  .model_count = s->skeleton->joints_count,
                                  .joints = sw_mesh_palette(m),
                                  .inverse_bind = sw_mesh_inverse_binds(m),
                                  .count = m->palette_count,
                                  .out = palette,
                                  .out_count = 64};
    if (sw_local_to_model_job_run(&l2m) != SW_RESULT_OK ||
        sw_skinning_job_run(&skin) != SW_RESULT_OK)
        return 1;
    return sw_raster_draw_mesh(r, cam, m, palette, material) != SW_RESULT_OK;
}

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    sw_scene human, spider;
    if (sw_showcase_humanoid(NULL, &human, NULL, NULL) != SW_RESULT_OK) return 1;
    if (sw_showcase_spider(NULL, &spider, NULL) != SW_RESULT_OK) return 1;
    sw_raster r;
    if (sw_raster_init(&r, 960, 300, NULL) != SW_RESULT_OK) return 1;
    sw_raster_set_material(&r, 0, 110, 160, 210);
    sw_raster_set_material(&r, 1, 220, 120, 80);
    sw_raster_set_material(&r, 2, 120, 190, 120);
    const sw_raster_camera cam = {
        .view = sw_raster_look_at(sw_vec3_make(6.5f, 2.2f, 1.5f), sw_vec3_make(0.0f, 0.75f, 1.5f)),
        .fov_y = 0.62f};
    sw_raster_clear(&r, &cam);
    const sw_clip* walk = human.clips[1];
    const sw_clip* run = human.clips[3];
    int fail = 0;
    /* walkers spread along +Z (to the left of the picture), the root
     * motion taken out so that they stand in a row */
    for (int k = 0; k < 5; ++k) {
        const float t = walk->duration * (float)k / 5.0f;
        fail |= draw(&r, &cam, &human, walk, t, 0.0f, -1.4f * t - 0.9f * (float)k + 4.4f, 0);
    }
    fail |= draw(&r, &cam, &human, run, 0.2f * run->duration, 0.0f,
                 -5.0f * 0.2f * run->duration - 1.3f, 1);
    fail |= draw(&r, &cam, &spider, NULL, 0.0f, 0.3f, -2.4f, 2);
    fail |= sw_raster_write_png(&r, argv[1]) != SW_RESULT_OK;
    sw_raster_free(&r);
    sw_scene_free(&human, NULL);
    sw_scene_free(&spider, NULL);
    return fail;
}
