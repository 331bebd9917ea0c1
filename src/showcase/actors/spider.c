/* "spider" (sinew/showcase/scene.h): the built-in eight-legged creature
 * stepping with the walker round a circle over the bumps and ducking under
 * the beam (the stage's rays), or where the inputs steer it. */
#include <stdio.h>

#include "showcase/actor.h"
#include "sinew/showcase/character.h"

#define SW__SPIDER_LEGS_MAX 8

typedef struct sw__spider {
    sw_allocator alloc;
    sw_scene spider;
    sw_walker_leg legs[SW__SPIDER_LEGS_MAX];
    sw_walker_desc walker;
    sw_walker_state walker_state;
    uint32_t chain_joints[SW__SPIDER_LEGS_MAX][4];
    sw_walker_chain chains[SW__SPIDER_LEGS_MAX];
    uint32_t tips[SW__SPIDER_LEGS_MAX];
    sw__sc_plant feet[SW__SPIDER_LEGS_MAX];
    uint32_t count;
    double slide_sum;
    sw_showcase_metrics m; /* its figures */
} sw__spider;

static sw_result sw__spider_create(sw__sc_ctx* ctx, sw__sc_actor* view, void** state,
                                   sw_error* err) {
    sw__spider* sc = (sw__spider*)sw__sc_alloc(&ctx->mem, sizeof *sc);
    *state = sc;
    if (!sc) return SW_RESULT_OUT_OF_MEMORY;
    sc->alloc = ctx->mem.alloc;
    sw_result r = sw_showcase_spider(&ctx->mem.alloc, &sc->spider, err);
    if (r != SW_RESULT_OK) return r;
    const sw_skeleton* s = sc->spider.skeleton;
    sw_mat4* model = (sw_mat4*)sw__sc_alloc(&ctx->mem, s->joints_count * sizeof(sw_mat4));
    if (!model) return sw__fail_first(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    sw__sc_models(s, sw_skeleton_rest_pose(s), model);
    const int32_t body = sw_skeleton_find_joint(s, "Body");
    if (body < 0) return sw__fail_first(err, SW_RESULT_NOT_FOUND, "spider joint Body", 0, -1);
    const float body_y = model[body].m[13];
    uint32_t legs = 0;
    for (uint32_t i = 0; i < SW__SPIDER_LEGS_MAX; ++i) {
        static const char* const parts[4] = {"Coxa", "Femur", "Tibia", "Tip"};
        char name[32];
        bool ok = true;
        for (uint32_t k = 0; k < 4 && ok; ++k) {
            snprintf(name, sizeof name, "Leg%u_%s", (unsigned)i, parts[k]);
            const int32_t j = sw_skeleton_find_joint(s, name);
            ok = j >= 0;
            if (ok) sc->chain_joints[legs][k] = (uint32_t)j;
        }
        if (!ok) break;
        const sw_vec3 tip = sw__sc_pos(&model[sc->chain_joints[legs][3]]);
        const uint32_t pair = i / 2u;
        sc->legs[legs] = (sw_walker_leg){.rest = sw_vec3_make(tip.x, 0.0f, tip.z),
                                         .group = (pair + (i % 2u)) % 2u};
        sc->chains[legs] = (sw_walker_chain){.joints = sc->chain_joints[legs],
                                             .joints_count = 4,
                                             .solver = SW_WALKER_SOLVER_FABRIK,
                                             .pole = sw_vec3_make(0, 1, 0)};
        sc->tips[legs] = sc->chain_joints[legs][3];
        ++legs;
    }
    if (legs == 0)
        return sw__fail_first(err, SW_RESULT_NOT_FOUND, "spider legs Leg<i>_Coxa..Tip", 0, -1);
    sc->count = legs;
    sc->walker = (sw_walker_desc){.legs = sc->legs,
                                  .legs_count = legs,
                                  .height = body_y,
                                  .min_height = 0.4f * body_y,
                                  .clearance = 0.055f,
                                  .stride = 0.07f,
                                  .step_duration = 0.18f,
                                  .step_height = 0.04f,
                                  .move_dip = 0.008f,
                                  .ray_up = 0.1f,
                                  .ray = sw__sc_ray,
                                  .ray_user = NULL};
    r = sw_walker_init(&sc->walker,
                       sw_vec3_make(SW__SC_SPIDER_X - SW__SC_SPIDER_R, 0.0f, SW__SC_SPIDER_Z), 0.0f,
                       &sc->walker_state);
    if (r != SW_RESULT_OK) return sw__fail_first(err, r, "walker init", 0, -1);
    return sw__sc_view_init(&ctx->mem, view, s, sc->spider.meshes, sc->spider.meshes_count);
}

static sw_result sw__spider_update(void* state, sw__sc_ctx* ctx, sw__sc_actor* a, float dt) {
    sw__spider* sc = (sw__spider*)state;
    const float h = sc->walker_state.heading, c = cosf(h), s = sinf(h);
    /* Round its circle, or steered: forward along the heading (+Z turned
     * by it), strafe to its right (-X turned by it). */
    const float walk = 0.22f; /* m/s */
    float forward = walk, right = 0.0f, turn = walk / SW__SC_SPIDER_R;
    if (ctx->in.has_steer) {
        forward = walk * ctx->in.steer_forward;
        right = walk * ctx->in.steer_strafe;
        turn = ctx->in.steer_turn;
    }
    const sw_walker_job job = {
        .desc = &sc->walker,
        .state = &sc->walker_state,
        .velocity = sw_vec3_make(forward * s - right * c, 0.0f, forward * c + right * s),
        .turn_rate = turn,
        .dt = dt};
    sw_result r = sw_walker_job_run(&job);
    if (r != SW_RESULT_OK) return r;
    a->world = sw_walker_body_matrix(&sc->walker_state);
    memcpy(a->local, sw_skeleton_rest_pose(a->skel), a->skel->packets_count * sizeof(sw_xform4));
    sw_pose_set(a->local, 0, sw_xform_identity()); /* the body joint sits on the body matrix */
    sw__sc_view_models(a);
    const sw_walker_pose_job pose = {.skeleton = a->skel,
                                     .model = a->model,
                                     .model_count = a->skel->joints_count,
                                     .root_transform = &a->world,
                                     .state = &sc->walker_state,
                                     .chains = sc->chains,
                                     .chains_count = sc->count,
                                     .weight = 1.0f,
                                     .pose = a->local,
                                     .pose_count = a->skel->packets_count};
    r = sw_walker_pose_job_run(&pose);
    if (r != SW_RESULT_OK) return r;
    sw__sc_view_models(a);
    sw_showcase_metrics* m = &sc->m;
    for (uint32_t i = 0; i < sc->count; ++i) {
        sw__sc_plant* p = &sc->feet[i];
        const sw_vec3 tip = sw__sc_pos(&a->model[sc->tips[i]]);
        const bool air = sc->walker_state.feet[i].airborne;
        if (air) {
            sw__sc_close_step(p, &m->spider_steps, &m->spider_slide_max, &sc->slide_sum);
        } else {
            if (!p->planted) *p = (sw__sc_plant){true, tip, 0.0f};
            p->drift = fmaxf(p->drift, sw__sc_hdist(tip, p->anchor));
            m->spider_penetration_max =
                fmaxf(m->spider_penetration_max, sw__sc_ground(tip.x, tip.z, NULL) - tip.y);
        }
    }
    m->spider_slide_mean = m->spider_steps ? (float)(sc->slide_sum / m->spider_steps) : 0.0f;
    return SW_RESULT_OK;
}

static void sw__spider_metrics(const void* state, sw_showcase_metrics* m, sw_showcase_status* st) {
    (void)st;
    const sw__spider* s = (const sw__spider*)state;
    m->spider_steps = s->m.spider_steps;
    m->spider_slide_max = s->m.spider_slide_max;
    m->spider_slide_mean = s->m.spider_slide_mean;
    m->spider_penetration_max = s->m.spider_penetration_max;
}

static void sw__spider_destroy(void* state) {
    sw__spider* s = (sw__spider*)state;
    sw_scene_free(&s->spider, &s->alloc);
}

const sw__sc_actor_class sw__sc_spider = {.name = "spider",
                                          .material = SW_SHOWCASE_MATERIAL_CREATURE,
                                          .create = sw__spider_create,
                                          .update = sw__spider_update,
                                          .metrics = sw__spider_metrics,
                                          .destroy = sw__spider_destroy};
