/* "idle" (sinew/showcase/scene.h): a humanoid whose idle is varied by the
 * animator's randomized idle controller (energy, tempo, where it looks),
 * its head turned by look-at, its feet held by the contact model (contact.c)
 * while the energy blends toward walk. */
#include "showcase/actor.h"

typedef struct sw__idle {
    sw__sc_anim anim;
    sw_animator_idle ctl;
    sw__sc_contacts contacts;
    float foot_penetration_max;
} sw__idle;

static sw_result sw__idle_create(sw__sc_ctx* ctx, sw__sc_actor* view, void** state, sw_error* err) {
    sw__idle* st = (sw__idle*)sw__sc_alloc(&ctx->mem, sizeof *st);
    *state = st;
    if (!st) return SW_RESULT_OUT_OF_MEMORY;
    const sw__sc_cast* sc = &ctx->cast;
    sw__sc_contacts_init(&st->contacts, &sc->hum, sc->chr->skeleton);
    const sw_animator_param_desc params[4] = {{.name = "energy"},
                                              {.name = "tempo", .value = 1.0f},
                                              {.name = "look_x"},
                                              {.name = "look_y"}};
    sw_animator_member_desc members[2] = {{sw_clip_name(sc->clip_idle), 0.0f, 0.0f},
                                          {sw_clip_name(sc->clip_walk), 1.0f, 0.0f}};
    const sw_animator_blend_space_desc space = {.name = "mix",
                                                .param_x = "energy",
                                                .members = members,
                                                .members_count =
                                                    sc->clip_walk != sc->clip_idle ? 2u : 1u};
    const sw_animator_state_desc idle = {.name = "Idle",
                                         .motion = SW_ANIMATOR_MOTION_BLEND_SPACE,
                                         .target = "mix",
                                         .speed_param = "tempo"};
    const sw_animator_machine_desc machine = {.name = "Idle", .states = &idle, .states_count = 1};
    sw_animator_layer_desc layer;
    const sw_animator_desc desc =
        sw__sc_one_layer(&machine, params, 4, &space,
                         sw_skeleton_joint_name(sc->chr->skeleton, (uint32_t)sc->hum.hips), &layer);
    sw_result r = sw__sc_anim_create(&ctx->mem, &desc, sc->chr->skeleton, sc->chr->clips,
                                     sc->chr->clips_count, &st->anim, err);
    if (r != SW_RESULT_OK) return r;
    const sw_animator_idle_channel ch[4] = {
        {.param = 0,
         .min = 0.0f,
         .max = 0.3f,
         .min_speed = 0.05f,
         .max_speed = 0.2f,
         .min_hold = 0.5f,
         .max_hold = 2.5f},
        {.param = 1,
         .min = 0.75f,
         .max = 1.25f,
         .min_speed = 0.05f,
         .max_speed = 0.15f,
         .min_hold = 1.0f,
         .max_hold = 3.0f},
        {.param = 2,
         .min = -1.0f,
         .max = 1.0f,
         .min_speed = 0.3f,
         .max_speed = 1.0f,
         .min_hold = 0.4f,
         .max_hold = 2.0f},
        {.param = 3,
         .min = -0.35f,
         .max = 0.25f,
         .min_speed = 0.2f,
         .max_speed = 0.6f,
         .min_hold = 0.5f,
         .max_hold = 2.0f},
    };
    r = sw_animator_idle_init(&st->ctl, ch, 4, 0x51DE0000ull + ctx->seed);
    if (r != SW_RESULT_OK) return r;
    return sw__sc_view_init(&ctx->mem, view, sc->chr->skeleton, sc->chr->meshes,
                            sc->chr->meshes_count);
}

static sw_result sw__idle_update(void* state, sw__sc_ctx* ctx, sw__sc_actor* a, float dt) {
    sw__idle* st = (sw__idle*)state;
    const sw__sc_cast* sc = &ctx->cast;
    const float yaw = 0.45f;
    a->world =
        sw__sc_world(sw_vec3_make(SW__SC_IDLE_X, sc->hum.lift, SW__SC_IDLE_Z), yaw, sc->hum.scale);
    sw_result r = sw_animator_idle_update(&st->ctl, st->anim.params, st->anim.params_count, dt);
    if (r != SW_RESULT_OK) return r;
    uint32_t ne = 0;
    r = sw_animator_update(st->anim.inst, st->anim.bound, st->anim.params, st->anim.params_count,
                           dt, NULL, 0, &ne, NULL);
    if (r != SW_RESULT_OK) return r;
    r = sw_animator_evaluate(st->anim.inst, st->anim.bound, st->anim.scratch, st->anim.scratch_size,
                             a->local, a->skel->packets_count);
    if (r != SW_RESULT_OK) return r;
    sw__sc_view_models(a);
    const sw__sc_human* h = &sc->hum;
    if (h->feet) {
        r = sw__sc_contacts_run(&st->contacts, a, ctx->in.no_foot_placement, dt);
        if (r != SW_RESULT_OK) return r;
    }
    r = sw__sc_arms_above_ground(h, a);
    if (r != SW_RESULT_OK) return r;
    if (h->head >= 0) {
        const float lx = st->anim.params[2], ly = st->anim.params[3];
        const sw_vec3 head = sw__sc_pos(&a->model[h->head]);
        const sw_vec3 dir = sw_vec3_make(sinf(yaw + 0.9f * lx), ly, cosf(yaw + 0.9f * lx));
        sw_ik_look_at_joint chain[2];
        uint32_t n = 0;
        if (h->neck >= 0 && sw__sc_is_ancestor(a->skel, h->neck, h->head))
            chain[n++] = (sw_ik_look_at_joint){(uint32_t)h->neck, 0.4f};
        chain[n++] = (sw_ik_look_at_joint){(uint32_t)h->head, 1.0f};
        const sw_ik_look_at_job look = {.skeleton = a->skel,
                                        .model = a->model,
                                        .model_count = a->skel->joints_count,
                                        .root_transform = &a->world,
                                        .joints = chain,
                                        .joints_count = n,
                                        .forward = h->head_forward,
                                        .target = sw_vec3_add(head, sw_vec3_scale(dir, 2.0f)),
                                        .limit_angle = 1.2f,
                                        .weight = 1.0f,
                                        .pose = a->local,
                                        .pose_count = a->skel->packets_count};
        r = sw_ik_look_at_job_run(&look);
        if (r != SW_RESULT_OK) return r;
        sw__sc_view_models(a);
    }
    sw__sc_cast_penetration(sc, a->model, &st->foot_penetration_max);
    return SW_RESULT_OK;
}

static void sw__idle_metrics(const void* state, sw_showcase_metrics* m, sw_showcase_status* st) {
    (void)st;
    const sw__idle* i = (const sw__idle*)state;
    m->foot_penetration_max = fmaxf(m->foot_penetration_max, i->foot_penetration_max);
}

const sw__sc_actor_class sw__sc_idle = {.name = "idle",
                                        .material = SW_SHOWCASE_MATERIAL_DEFAULT,
                                        .create = sw__idle_create,
                                        .update = sw__idle_update,
                                        .metrics = sw__idle_metrics};
