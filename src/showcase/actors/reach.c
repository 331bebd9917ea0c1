/* "reach" (sinew/showcase/scene.h): a humanoid playing its idle with one
 * foot on the step (foot placement), its head following the camera through
 * a spring (look-at) and its right hand reaching for the floating orb
 * (two-bone IK with a weight fading in and out). */
#include "showcase/actor.h"

typedef struct sw__reach {
    uint32_t* cursors;
    sw_sample_cache cache;
    sw_foot_state feet;
    sw_spring_vec3 look;
    sw_vec3 spot;
    sw_showcase_metrics m; /* its figures */
    float foot_gap;
} sw__reach;

static sw_result sw__reach_create(sw__sc_ctx* ctx, sw__sc_actor* view, void** state,
                                  sw_error* err) {
    (void)err;
    sw__reach* st = (sw__reach*)sw__sc_alloc(&ctx->mem, sizeof *st);
    *state = st;
    if (!st) return SW_RESULT_OUT_OF_MEMORY;
    const sw__sc_cast* sc = &ctx->cast;
    const sw_clip* idle = sc->clip_idle;
    st->cursors = (uint32_t*)sw__sc_alloc(&ctx->mem, (idle->tracks_count + 1u) * sizeof(uint32_t));
    if (!st->cursors) return SW_RESULT_OUT_OF_MEMORY;
    sw_sample_cache_init(&st->cache, st->cursors, idle->tracks_count);
    if (sc->hum.legs) st->m.features |= SW_SHOWCASE_FEATURE_FOOT_IK;
    if (sc->hum.reach) st->m.features |= SW_SHOWCASE_FEATURE_REACH;
    if (sc->hum.head >= 0) st->m.features |= SW_SHOWCASE_FEATURE_LOOK;
    /* Without legs to place, stand beside the step rather than in it. */
    st->spot =
        sw_vec3_make(SW__SC_REACH_X - (sc->hum.legs ? 0.0f : -0.85f), sc->hum.lift, SW__SC_REACH_Z);
    return sw__sc_view_init(&ctx->mem, view, sc->chr->skeleton, sc->chr->meshes,
                            sc->chr->meshes_count);
}

static sw_result sw__reach_update(void* state, sw__sc_ctx* ctx, sw__sc_actor* a, float dt) {
    sw__reach* st = (sw__reach*)state;
    const sw__sc_cast* sc = &ctx->cast;
    const sw__sc_human* h = &sc->hum;
    const float t = (float)ctx->time;
    const float k = h->scale;
    a->world = sw__sc_world(st->spot, 0.0f, k);
    const float dur = sc->clip_idle->duration;
    const sw_sample_job sample = {.clip = sc->clip_idle,
                                  .skeleton = a->skel,
                                  .time = dur > 0.0f ? fmodf(t, dur) : 0.0f,
                                  .cache = &st->cache,
                                  .out = a->local,
                                  .out_count = a->skel->packets_count};
    sw_result r = sw_sample_job_run(&sample);
    if (r != SW_RESULT_OK) return r;
    sw__sc_view_models(a);
    if (h->legs && !ctx->in.no_foot_placement) {
        const sw_foot_leg legs[2] = {
            {.hip = (uint32_t)h->l_upleg, .knee = (uint32_t)h->l_leg, .ankle = (uint32_t)h->l_foot},
            {.hip = (uint32_t)h->r_upleg,
             .knee = (uint32_t)h->r_leg,
             .ankle = (uint32_t)h->r_foot}};
        const sw_foot_job foot = {.skeleton = a->skel,
                                  .model = a->model,
                                  .model_count = a->skel->joints_count,
                                  .root_transform = &a->world,
                                  .pelvis = (uint32_t)h->hips,
                                  .legs = legs,
                                  .legs_count = 2,
                                  .ray = sw__sc_ray,
                                  .floor_height = h->lift,
                                  .dt = dt,
                                  .weight = 1.0f,
                                  .state = &st->feet,
                                  .pose = a->local,
                                  .pose_count = a->skel->packets_count};
        r = sw_foot_job_run(&foot);
        if (r != SW_RESULT_OK) return r;
    }
    /* Head: a spring follows the camera (or the given point); look-at within 60 degrees. */
    const sw_vec3 goal = ctx->in.has_look_target ? ctx->in.look_target : ctx->camera.view.t;
    if (st->look.value.x == 0.0f && st->look.value.y == 0.0f && st->look.value.z == 0.0f)
        st->look.value = goal;
    sw_spring_vec3_update(&st->look, goal, 0.3f, dt);
    if (h->head >= 0) {
        sw_ik_look_at_joint chain[3];
        uint32_t n = 0;
        const int32_t js[3] = {h->spine1, h->neck, h->head};
        const float shares[3] = {0.25f, 0.5f, 1.0f};
        int32_t last = -1;
        for (uint32_t i = 0; i < 3; ++i) {
            if (js[i] < 0 || (last >= 0 && !sw__sc_is_ancestor(a->skel, last, js[i]))) continue;
            chain[n++] = (sw_ik_look_at_joint){(uint32_t)js[i], shares[i]};
            last = js[i];
        }
        chain[n - 1].share = 1.0f;
        const sw_ik_look_at_job look = {.skeleton = a->skel,
                                        .model = a->model,
                                        .model_count = a->skel->joints_count,
                                        .root_transform = &a->world,
                                        .joints = chain,
                                        .joints_count = n,
                                        .forward = h->head_forward,
                                        .target = st->look.value,
                                        .limit_angle = 1.05f,
                                        .weight = 1.0f,
                                        .pose = a->local,
                                        .pose_count = a->skel->packets_count};
        r = sw_ik_look_at_job_run(&look);
        if (r != SW_RESULT_OK) return r;
        sw__sc_view_models(a);
    }
    /* Reach: the orb floats in front of the right hand; the weight fades in and out. */
    const sw_vec3 spot = st->spot;
    ctx->orb = sw_vec3_add(spot, sw_vec3_scale(sw_vec3_make(-0.38f + 0.1f * sinf(0.6f * t),
                                                            1.3f + 0.12f * sinf(0.9f * t),
                                                            0.4f + 0.12f * cosf(0.7f * t)),
                                               k));
    const sw_vec3 target = ctx->in.has_reach_target ? ctx->in.reach_target : ctx->orb;
    const float ph = fmodf(t, 6.0f);
    const float w = sw__sc_smoothstep(1.0f, 1.8f, ph) * (1.0f - sw__sc_smoothstep(4.0f, 4.8f, ph));
    if (h->reach) {
        const sw_ik_two_bone_job ik = {.skeleton = a->skel,
                                       .model = a->model,
                                       .model_count = a->skel->joints_count,
                                       .root_transform = &a->world,
                                       .start_joint = (uint32_t)h->r_arm,
                                       .mid_joint = (uint32_t)h->r_forearm,
                                       .end_joint = (uint32_t)h->r_hand,
                                       .target = target,
                                       .pole_mode = SW_IK_POLE_MODE_DIRECTION,
                                       .pole = sw_vec3_make(-0.6f, -1.0f, -0.2f),
                                       .weight = w,
                                       .pose = a->local,
                                       .pose_count = a->skel->packets_count};
        r = sw_ik_two_bone_job_run(&ik);
        if (r != SW_RESULT_OK) return r;
        sw__sc_view_models(a);
        const sw_vec3 sh = sw__sc_pos(&a->model[h->r_arm]);
        const sw_vec3 el = sw__sc_pos(&a->model[h->r_forearm]);
        const sw_vec3 ha = sw__sc_pos(&a->model[h->r_hand]);
        const float reach =
            sw_vec3_length(sw_vec3_sub(el, sh)) + sw_vec3_length(sw_vec3_sub(ha, el));
        if (w >= 0.999f && sw_vec3_length(sw_vec3_sub(target, sh)) < 0.98f * reach)
            st->m.reach_error_max =
                fmaxf(st->m.reach_error_max, sw_vec3_length(sw_vec3_sub(ha, target)));
    }
    sw__sc_cast_penetration(sc, a->model, &st->m.foot_penetration_max);
    if (h->legs) {
        const sw_vec3 p = sw__sc_pos(&a->model[h->l_foot]);
        const float sole = p.y - h->lift - h->ankle_height * h->scale;
        st->foot_gap = sole - sw__sc_ground(p.x, p.z, NULL);
    }
    return SW_RESULT_OK;
}

static void sw__reach_metrics(const void* state, sw_showcase_metrics* m, sw_showcase_status* st) {
    const sw__reach* r = (const sw__reach*)state;
    m->features |= r->m.features;
    m->reach_error_max = r->m.reach_error_max;
    m->foot_penetration_max = fmaxf(m->foot_penetration_max, r->m.foot_penetration_max);
    st->reach_foot_gap = r->foot_gap;
}

const sw__sc_actor_class sw__sc_reach = {.name = "reach",
                                         .material = SW_SHOWCASE_MATERIAL_SKIN,
                                         .create = sw__reach_create,
                                         .update = sw__reach_update,
                                         .metrics = sw__reach_metrics};
