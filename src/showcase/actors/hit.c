/* "hit" (sinew/showcase/scene.h): a blocking humanoid taking a hit every
 * 1.8 s from an attacker walking around it (135 degrees further each time):
 * an instant cut to a hit state blending front, left, back and right flinch
 * clips by the hit's direction (sw_animator_apply_hit; its inertialized twin
 * run side by side), an additive pose shake, a hit pause, spine wander, and
 * on the scene's camera a shake and a field-of-view pulse (ctx->camera_fx);
 * the foot contact model (contact.c) holds its feet where they stand. */
#include "showcase/actor.h"

typedef struct sw__hit {
    /* crossfaded (default) and inertialized animators, side by side */
    sw__sc_anim anim;
    sw__sc_anim inert;
    sw_xform4* alt_local; /* the variant not shown */
    sw_mat4* alt_model;
    sw_hit_pause pause;
    double next_hit;
    float since_hit; /* actor time */
    sw__sc_velocity vel;
    sw__sc_contacts contacts; /* the guard's feet held where they stand */
    uint32_t shake_joints[8];
    uint32_t shake_joints_count;
    uint32_t spine_chain[4];
    uint32_t spine_count;
    sw_showcase_metrics m; /* its figures */
    uint32_t hit_states, hit_crossfade_updates;
    float hit_offset;
} sw__hit;

#define SW__HIT_YAW -0.35f /* the guard's heading about +Y */

/* The directional hit clips: a hit from the front, the left, the back and
 * the right (the character's frame: +Z forward, +X its left). */
static const struct {
    const char* name;
    float x, z;
} sw__hit_sides[4] = {{"sinew_hit_front", 0.0f, 1.0f},
                      {"sinew_hit_left", 1.0f, 0.0f},
                      {"sinew_hit_back", 0.0f, -1.0f},
                      {"sinew_hit_right", -1.0f, 0.0f}};

/* Hit clip `side`: the idle pose at time 0 held, the spine and neck flinching
 * away from the hit and recovering over 0.45 s, the hips pushed away. */
static sw_result sw__hit_clip(const sw__sc_cast* sc, sw__sc_mem* mem, uint32_t side,
                              const sw_clip** out, sw_error* err) {
    const sw_skeleton* s = sc->chr->skeleton;
    sw_xform4* local = (sw_xform4*)sw__sc_alloc(mem, s->packets_count * sizeof(sw_xform4));
    const uint32_t n = s->joints_count;
    sw_clip_track_desc* tracks =
        (sw_clip_track_desc*)sw__sc_alloc(mem, 3u * n * sizeof(sw_clip_track_desc));
    float* values = (float*)sw__sc_alloc(mem, (size_t)n * (3 + 4 * 4 + 3) * sizeof(float));
    if (!local || !tracks || !values)
        return sw__fail_first(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    sw__sc_sample(s, sc->clip_idle, 0.0f, local);
    sw_mat4* model = (sw_mat4*)sw__sc_alloc(mem, s->joints_count * sizeof(sw_mat4));
    if (!model) return sw__fail_first(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    sw__sc_models(s, local, model);
    /* the hips' shove, 6 cm away from the hit in the character's frame, in
     * the hips' parent's space (a rig may turn or scale it: RobotExpressive's
     * armature is Z-up at scale 100) */
    sw_vec3 shove = sw_vec3_make(0, 0, 0);
    if (sc->hum.hips >= 0) {
        const int16_t up = sw_skeleton_parents(s)[sc->hum.hips];
        sw_xform parent = sw_xform_identity();
        if (up >= 0) sw_mat4_decompose(&model[up], &parent);
        const float d = -0.06f / sc->hum.scale;
        const sw_vec3 v = sw_quat_rotate(
            sw_quat_conjugate(parent.r),
            sw_vec3_make(d * sw__hit_sides[side].x, 0.0f, d * sw__hit_sides[side].z));
        shove = sw_vec3_make(v.x / parent.s.x, v.y / parent.s.y, v.z / parent.s.z);
    }
    static const float times[4] = {0.0f, 0.07f, 0.2f, 0.45f};
    static const float bend[4] = {0.0f, 1.0f, 0.55f, 0.0f};
    const float hx = sw__hit_sides[side].x, hz = sw__hit_sides[side].z;
    /* Y x (hx, 0, hz): bends away, about this axis of the character's frame */
    const sw_vec3 axis = sw_vec3_make(hz, 0.0f, -hx);
    uint32_t tc = 0;
    float* v = values;
    for (uint32_t j = 0; j < n; ++j) {
        const sw_xform x = sw_pose_get(local, j);
        const bool flinch = (int32_t)j == sc->hum.spine || (int32_t)j == sc->hum.spine1 ||
                            (int32_t)j == sc->hum.neck;
        const bool push = (int32_t)j == sc->hum.hips;
        v[0] = x.t.x, v[1] = x.t.y, v[2] = x.t.z;
        tracks[tc++] = (sw_clip_track_desc){.joint = j,
                                            .kind = SW_TRACK_KIND_TRANSLATION,
                                            .keys_count = 1,
                                            .times = times,
                                            .values = v};
        v += 3;
        if (push) {
            /* replace the single key by four: pushed away 6 cm */
            tracks[tc - 1].keys_count = 4;
            v -= 3;
            for (uint32_t k = 0; k < 4; ++k) {
                v[3 * k] = x.t.x + bend[k] * shove.x;
                v[3 * k + 1] = x.t.y + bend[k] * shove.y;
                v[3 * k + 2] = x.t.z + bend[k] * shove.z;
            }
            v += 12;
        }
        const uint32_t keys = flinch ? 4u : 1u;
        /* the axis in the joint's own space (its frame turned as the rig
         * has it), so each joint bends about the character's axis */
        const sw_vec3 own = sw_quat_rotate(sw_quat_conjugate(sw__sc_rotation(&model[j])), axis);
        for (uint32_t k = 0; k < keys; ++k) {
            const sw_quat q =
                sw_quat_normalize(sw_quat_mul(x.r, sw_quat_from_axis_angle(own, -0.32f * bend[k])));
            v[4 * k] = q.x, v[4 * k + 1] = q.y, v[4 * k + 2] = q.z, v[4 * k + 3] = q.w;
        }
        tracks[tc++] = (sw_clip_track_desc){.joint = j,
                                            .kind = SW_TRACK_KIND_ROTATION,
                                            .keys_count = keys,
                                            .times = times,
                                            .values = v};
        v += 4 * keys;
        v[0] = x.s.x, v[1] = x.s.y, v[2] = x.s.z;
        tracks[tc++] = (sw_clip_track_desc){
            .joint = j, .kind = SW_TRACK_KIND_SCALE, .keys_count = 1, .times = times, .values = v};
        v += 3;
    }
    const sw_clip_desc desc = {.name = sw__hit_sides[side].name,
                               .duration = times[3],
                               .joints_count = n,
                               .tracks = tracks,
                               .tracks_count = tc};
    const sw_result r = sw_clip_create(&desc, &mem->alloc, out, err);
    return r == SW_RESULT_OK ? sw__sc_own_clip(mem, *out) : r;
}

/* The crossfaded animator and its inertialized twin: Guard (idle) and Hit
 * (a directional blend space of the four hit clips over hit_x, hit_y, which
 * sw_animator_apply_hit writes with the trigger). */
static sw_result sw__hit_animators(const sw__sc_cast* sc, sw__sc_mem* mem, sw__hit* st,
                                   sw_error* err) {
    const uint32_t clips_count = sc->chr->clips_count + 4u;
    const sw_clip** clips = (const sw_clip**)sw__sc_alloc(mem, clips_count * sizeof(void*));
    if (!clips) return SW_RESULT_OUT_OF_MEMORY;
    memcpy((void*)clips, (const void*)sc->chr->clips, sc->chr->clips_count * sizeof(void*));
    sw_animator_member_desc members[4];
    for (uint32_t i = 0; i < 4; ++i) {
        sw_result r = sw__hit_clip(sc, mem, i, &clips[sc->chr->clips_count + i], err);
        if (r != SW_RESULT_OK) return r;
        members[i] = (sw_animator_member_desc){sw__hit_sides[i].name, sw__hit_sides[i].x,
                                               sw__hit_sides[i].z};
    }
    const sw_animator_param_desc params[3] = {
        {.name = "hit_x"},
        {.name = "hit_y"},
        {.name = "hit", .type = SW_ANIMATOR_PARAM_TYPE_TRIGGER}};
    const sw_animator_blend_space_desc space = {.name = "hits",
                                                .param_x = "hit_x",
                                                .param_y = "hit_y",
                                                .members = members,
                                                .members_count = 4,
                                                .directional = true};
    const sw_animator_state_desc states[2] = {
        {.name = "Guard", .motion = SW_ANIMATOR_MOTION_CLIP, .target = sw_clip_name(sc->clip_idle)},
        {.name = "Hit", .motion = SW_ANIMATOR_MOTION_BLEND_SPACE, .target = "hits", .once = true},
    };
    const sw_animator_condition_desc cond = {.param = "hit", .op = SW_ANIMATOR_OP_TRIGGER};
    sw_animator_transition_desc tr[2] = {
        {.from = NULL,
         .to = "Hit",
         .conditions = &cond,
         .conditions_count = 1,
         .duration = 0.0f,
         .to_self = true},
        {.from = "Hit", .to = "Guard", .has_exit_time = true, .exit_time = 1.0f, .duration = 0.25f},
    };
    const sw_animator_machine_desc machine = {.name = "Block",
                                              .states = states,
                                              .states_count = 2,
                                              .transitions = tr,
                                              .transitions_count = 2};
    sw_animator_layer_desc layer;
    sw_animator_desc desc = sw__sc_one_layer(&machine, params, 3, &space, NULL, &layer);
    desc.hit = (sw_animator_hit_desc){.param_x = "hit_x", .param_y = "hit_y", .trigger = "hit"};
    sw_result r =
        sw__sc_anim_create(mem, &desc, sc->chr->skeleton, clips, clips_count, &st->anim, err);
    if (r != SW_RESULT_OK) return r;
    /* The inertialized twin: the cut to "Hit" blended out over 0.15 s. */
    tr[0].mode = tr[1].mode = SW_ANIMATOR_TRANSITION_MODE_INERTIALIZE;
    tr[0].duration = 0.15f;
    return sw__sc_anim_create(mem, &desc, sc->chr->skeleton, clips, clips_count, &st->inert, err);
}

static sw_result sw__hit_create(sw__sc_ctx* ctx, sw__sc_actor* view, void** state, sw_error* err) {
    sw__hit* st = (sw__hit*)sw__sc_alloc(&ctx->mem, sizeof *st);
    *state = st;
    if (!st) return SW_RESULT_OUT_OF_MEMORY;
    const sw__sc_cast* sc = &ctx->cast;
    sw__sc_mem* mem = &ctx->mem;
    sw_result r = sw__hit_animators(sc, mem, st, err);
    if (r != SW_RESULT_OK) return r;
    st->alt_local =
        (sw_xform4*)sw__sc_alloc(mem, sc->chr->skeleton->packets_count * sizeof(sw_xform4));
    st->alt_model = (sw_mat4*)sw__sc_alloc(mem, sc->chr->skeleton->joints_count * sizeof(sw_mat4));
    if (!st->alt_local || !st->alt_model)
        return sw__fail_first(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    const int32_t shake[6] = {sc->hum.spine1, sc->hum.neck,      sc->hum.head,
                              sc->hum.r_arm,  sc->hum.r_forearm, sc->hum.spine};
    for (uint32_t k = 0; k < 6; ++k)
        if (shake[k] >= 0) st->shake_joints[st->shake_joints_count++] = (uint32_t)shake[k];
    /* The wander chain: joints in ancestor order, skipping one that sits on
     * the joint before it (CMU's Neck on Spine1): FABRIK needs bones. */
    const sw_skeleton* hs = sc->chr->skeleton;
    sw_xform4* local = (sw_xform4*)sw__sc_alloc(mem, hs->packets_count * sizeof(sw_xform4));
    sw_mat4* model = (sw_mat4*)sw__sc_alloc(mem, hs->joints_count * sizeof(sw_mat4));
    if (!local || !model) return sw__fail_first(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    sw__sc_sample(hs, sc->clip_idle, 0.0f, local);
    sw__sc_models(hs, local, model);
    const int32_t chain[4] = {sc->hum.spine, sc->hum.spine1, sc->hum.neck, sc->hum.head};
    int32_t last = -1;
    for (uint32_t k = 0; k < 4; ++k) {
        if (chain[k] < 0 || (last >= 0 && !sw__sc_is_ancestor(hs, last, chain[k]))) continue;
        if (last >= 0 && sw_vec3_length(sw_vec3_sub(sw__sc_pos(&model[chain[k]]),
                                                    sw__sc_pos(&model[last]))) < 1e-4f)
            continue;
        st->spine_chain[st->spine_count++] = (uint32_t)chain[k];
        last = chain[k];
    }
    if (st->spine_count >= 2) st->m.features |= SW_SHOWCASE_FEATURE_WANDER;
    sw__sc_contacts_init(&st->contacts, &sc->hum, hs);
    st->next_hit = 1.2;
    st->since_hit = 100.0f;
    if (sw__sc_velocity_init(mem, &st->vel, hs->joints_count) != SW_RESULT_OK)
        return sw__fail_first(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    return sw__sc_view_init(mem, view, hs, sc->chr->meshes, sc->chr->meshes_count);
}

/* A hit lands: both animators take it (sw_animator_apply_hit), the hit
 * pause, the camera's shake and field-of-view pulse start. */
static sw_result sw__hit_start(sw__hit* st, sw__sc_ctx* ctx) {
    st->next_hit += 1.8;
    ++st->m.hits;
    /* The attacker comes round by 135 degrees from hit to hit; the blow
     * travels from it into the guard, in the world. */
    const float from = 2.35619449f * (float)(st->m.hits - 1u);
    const sw_quat facing = sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), SW__HIT_YAW);
    const sw_animator_hit blow = {
        sw_quat_rotate(facing, sw_vec3_make(-sinf(from), 0.0f, -cosf(from))), 1.0f};
    sw__sc_anim* both[2] = {&st->anim, &st->inert};
    for (uint32_t i = 0; i < 2; ++i) {
        sw_result r = sw_animator_apply_hit(sw_animator_bound_definition(both[i]->bound), facing,
                                            &blow, both[i]->params, both[i]->params_count);
        if (r != SW_RESULT_OK) return r;
    }
    sw_hit_pause_start(&st->pause, 0.09f, 0.0f);
    ctx->camera_fx.since = 0.0f;
    st->since_hit = 0.0f;
    ctx->camera_fx.shake =
        (sw_shake_desc){.position_amplitude = sw_vec3_make(0.05f, 0.04f, 0.0f),
                        .position_frequency = 14.0f,
                        .rotation_amplitude = sw_vec3_make(0.012f, 0.012f, 0.02f),
                        .rotation_frequency = 11.0f,
                        .fov_amplitude = 0.01f,
                        .fade_in = 0.01f,
                        .hold = 0.06f,
                        .fade_out = 0.35f,
                        .seed = ctx->seed * 31u + st->m.hits};
    ctx->camera_fx.pulse =
        (sw_fov_pulse_desc){.amount = 0.06f, .attack = 0.04f, .hold = 0.05f, .release = 0.3f};
    return SW_RESULT_OK;
}

static sw_result sw__hit_update(void* state, sw__sc_ctx* ctx, sw__sc_actor* a, float dt) {
    sw__hit* st = (sw__hit*)state;
    const sw__sc_cast* sc = &ctx->cast;
    const float k = sc->hum.scale;
    a->world = sw__sc_world(sw_vec3_make(SW__SC_HIT_X, sc->hum.lift, SW__SC_HIT_Z), SW__HIT_YAW, k);
    if (ctx->time >= st->next_hit) {
        sw_result r = sw__hit_start(st, ctx);
        if (r != SW_RESULT_OK) return r;
    }
    const float adt = sw_hit_pause_scale_dt(&st->pause, dt);
    st->since_hit += adt;
    sw_animator_event events[8], ev_alt[8];
    uint32_t ne = 0, ne_alt = 0;
    const bool inert = ctx->in.transitions == SW_SHOWCASE_TRANSITIONS_INERTIALIZE;
    sw_result r =
        sw_animator_update(st->anim.inst, st->anim.bound, st->anim.params, st->anim.params_count,
                           adt, inert ? ev_alt : events, 8, inert ? &ne_alt : &ne, NULL);
    if (r != SW_RESULT_OK) return r;
    r = sw_animator_update(st->inert.inst, st->inert.bound, st->inert.params,
                           st->inert.params_count, adt, inert ? events : ev_alt, 8,
                           inert ? &ne : &ne_alt, NULL);
    if (r != SW_RESULT_OK) return r;
    /* Both evaluated every frame (inertialization needs the previous
     * outputs); the other variant goes to alt_local. */
    const sw__sc_anim* shown = inert ? &st->inert : &st->anim;
    const sw__sc_anim* other = inert ? &st->anim : &st->inert;
    r = sw_animator_evaluate(other->inst, other->bound, other->scratch, other->scratch_size,
                             st->alt_local, a->skel->packets_count);
    if (r != SW_RESULT_OK) return r;
    r = sw_animator_evaluate(shown->inst, shown->bound, shown->scratch, shown->scratch_size,
                             a->local, a->skel->packets_count);
    if (r != SW_RESULT_OK) return r;
    sw_animator_state_info states[SW_ANIMATOR_MAX_FADES];
    st->hit_states = sw_animator_states(shown->inst, shown->bound, states, SW_ANIMATOR_MAX_FADES);
    if (st->hit_states > 1) ++st->hit_crossfade_updates;
    st->hit_offset = 0.0f;
    if (inert) {
        /* The offset: the inertialized pose against the crossfaded one. */
        sw__sc_view_models(a);
        const sw_local_to_model_job fk = {.skeleton = a->skel,
                                          .local = st->alt_local,
                                          .local_count = a->skel->packets_count,
                                          .root_transform = &a->world,
                                          .out = st->alt_model,
                                          .out_count = a->skel->joints_count};
        r = sw_local_to_model_job_run(&fk);
        if (r != SW_RESULT_OK) return r;
        for (uint32_t j = 0; j < a->skel->joints_count; ++j)
            st->hit_offset =
                fmaxf(st->hit_offset, sw_vec3_length(sw_vec3_sub(sw__sc_pos(&a->model[j]),
                                                                 sw__sc_pos(&st->alt_model[j]))));
    }
    if (st->shake_joints_count > 0 && st->m.hits > 0) {
        const sw_pose_shake_job shake = {.joints = st->shake_joints,
                                         .joints_count = st->shake_joints_count,
                                         .amplitude = 0.14f,
                                         .frequency = 9.0f,
                                         .half_life = 0.12f,
                                         .time = st->since_hit,
                                         .seed = st->m.hits,
                                         .pose = a->local,
                                         .pose_count = a->skel->packets_count};
        r = sw_pose_shake_job_run(&shake);
        if (r != SW_RESULT_OK) return r;
    }
    sw__sc_view_models(a);
    if (st->spine_count >= 2) {
        const sw_spine_wander_job wander = {.skeleton = a->skel,
                                            .model = a->model,
                                            .model_count = a->skel->joints_count,
                                            .root_transform = &a->world,
                                            .joints = st->spine_chain,
                                            .joints_count = st->spine_count,
                                            .range = sw_vec3_make(0.05f * k, 0.02f * k, 0.05f * k),
                                            .seed = st->m.hits,
                                            .time = st->since_hit,
                                            .weight = 0.35f + 0.65f * expf(-st->since_hit / 0.8f),
                                            .pose = a->local,
                                            .pose_count = a->skel->packets_count};
        r = sw_spine_wander_job_run(&wander);
        if (r != SW_RESULT_OK) return r;
        sw__sc_view_models(a);
    }
    if (sc->hum.feet) {
        /* the hips' push and the flinch would drag the feet: hold them */
        r = sw__sc_contacts_run(&st->contacts, a, ctx->in.no_foot_placement, dt);
        if (r != SW_RESULT_OK) return r;
    }
    r = sw__sc_arms_above_ground(&sc->hum, a);
    if (r != SW_RESULT_OK) return r;
    bool enter = false;
    for (uint32_t e = 0; e < ne && e < 8; ++e)
        if (events[e].kind == SW_ANIMATOR_EVENT_KIND_ENTER) enter = true;
    const float jump = sw__sc_velocity_jump(&st->vel, a, dt);
    if (enter) st->m.hit_velocity_jump_max = fmaxf(st->m.hit_velocity_jump_max, jump);
    sw__sc_cast_penetration(sc, a->model, &st->m.foot_penetration_max);
    return SW_RESULT_OK;
}

static void sw__hit_metrics(const void* state, sw_showcase_metrics* m, sw_showcase_status* st) {
    const sw__hit* h = (const sw__hit*)state;
    m->features |= h->m.features;
    m->hits = h->m.hits;
    m->hit_velocity_jump_max = h->m.hit_velocity_jump_max;
    m->foot_penetration_max = fmaxf(m->foot_penetration_max, h->m.foot_penetration_max);
    st->hit_states = h->hit_states;
    st->hit_crossfade_updates = h->hit_crossfade_updates;
    st->hit_offset = h->hit_offset;
}

const sw__sc_actor_class sw__sc_hit = {.name = "hit",
                                       .material = SW_SHOWCASE_MATERIAL_HIT,
                                       .create = sw__hit_create,
                                       .update = sw__hit_update,
                                       .metrics = sw__hit_metrics};
