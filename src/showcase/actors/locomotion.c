/* "locomotion" (sinew/showcase/scene.h): a humanoid walking round a circle
 * (or where the inputs steer it),
 * its speed from a spring, an animator blend space following it (with its
 * inertialized and unsynchronized twins run side by side), root motion
 * along the circle and the foot contact model (contact.c) holding planted
 * heels and balls. */
#include "showcase/actor.h"

typedef struct sw__loco {
    /* the default animator (synchronized blend space, crossfades), its
     * inertialized twin (when it has transitions) and the unsynchronized
     * one (clips on layers); all updated every frame */
    sw__sc_anim anim;
    sw__sc_anim inert;
    sw__sc_anim free;
    bool has_inert, has_free;
    sw_spring_float speed;
    sw_vec3 pos;
    float heading;
    sw__sc_plant feet[2]; /* after the contact model */
    sw__sc_plant raw[2];  /* the animation alone */
    sw__sc_contacts contacts;
    double slide_sum, raw_slide_sum;
    sw__sc_velocity vel;
    sw_showcase_metrics m; /* its figures */
    float lock_weight_max, phase_spread;
} sw__loco;

static bool sw__has_event(const sw_clip* c, const char* name) {
    for (uint32_t e = 0; e < c->events_count; ++e)
        if (strcmp(sw_clip_event_name(c, e), name) == 0) return true;
    return false;
}

/* The unsynchronized locomotion: idle on the base layer, walk and jog on
 * override layers weighted by parameters (sw__free_weights), each clip at its
 * own rate; events only from a clip with at least half the pose. */
static sw_result sw__loco_free_setup(sw__loco* st, const sw__sc_cast* sc, sw__sc_mem* mem,
                                     sw_error* err) {
    const bool two_moves = sc->clip_walk != sc->clip_jog;
    const sw_animator_param_desc params[2] = {{.name = "w_walk"}, {.name = "w_jog"}};
    const sw_animator_state_desc states[3] = {
        {.name = "Idle", .motion = SW_ANIMATOR_MOTION_CLIP, .target = sw_clip_name(sc->clip_idle)},
        {.name = "Walk", .motion = SW_ANIMATOR_MOTION_CLIP, .target = sw_clip_name(sc->clip_walk)},
        {.name = "Jog", .motion = SW_ANIMATOR_MOTION_CLIP, .target = sw_clip_name(sc->clip_jog)},
    };
    const sw_animator_machine_desc machines[3] = {
        {.name = "IdleM", .states = &states[0], .states_count = 1},
        {.name = "WalkM", .states = &states[1], .states_count = 1},
        {.name = "JogM", .states = &states[2], .states_count = 1},
    };
    const sw_animator_layer_desc layers[3] = {
        {.name = "Base", .machine = "IdleM"},
        {.name = "Walk", .machine = "WalkM", .weight_param = "w_walk"},
        {.name = "Jog", .machine = "JogM", .weight_param = "w_jog"},
    };
    const uint32_t n = two_moves ? 3u : 2u;
    const sw_animator_desc desc = {
        .params = params,
        .params_count = 2,
        .machines = machines,
        .machines_count = n,
        .layers = layers,
        .layers_count = n,
        .root_motion_joint = sw_skeleton_joint_name(sc->chr->skeleton, (uint32_t)sc->hum.hips),
        .event_weight_threshold = 0.5f};
    const sw_result r = sw__sc_anim_create(mem, &desc, sc->chr->skeleton, sc->chr->clips,
                                           sc->chr->clips_count, &st->free, err);
    st->has_free = r == SW_RESULT_OK;
    return r;
}

/* Layer weights of the unsynchronized locomotion giving the blend space's
 * weights (idle, walk, jog at speeds 0, walk, jog; linear between neighbours):
 * lerp(lerp(idle, walk, a), jog, b). */
static void sw__free_weights(const sw__sc_cast* sc, float speed, float* a, float* b) {
    const bool two_moves = sc->clip_walk != sc->clip_jog;
    float wi = 0.0f, ww = 0.0f, wj = 0.0f;
    if (speed <= 0.0f) {
        wi = 1.0f;
    } else if (speed < sc->speed_walk) {
        ww = speed / sc->speed_walk;
        wi = 1.0f - ww;
    } else if (two_moves && speed < sc->speed_jog) {
        wj = (speed - sc->speed_walk) / (sc->speed_jog - sc->speed_walk);
        ww = 1.0f - wj;
    } else if (two_moves) {
        wj = 1.0f;
    } else {
        ww = 1.0f;
    }
    *a = wi + ww > 0.0f ? ww / (wi + ww) : 1.0f;
    *b = wj;
}

static sw_result sw__loco_create(sw__sc_ctx* ctx, sw__sc_actor* view, void** state, sw_error* err) {
    sw__loco* st = (sw__loco*)sw__sc_alloc(&ctx->mem, sizeof *st);
    *state = st;
    if (!st) return SW_RESULT_OUT_OF_MEMORY;
    const sw__sc_cast* sc = &ctx->cast;
    static const char* const markers[2] = {"LeftFootDown", "RightFootDown"};
    const bool move_sync =
        sw__has_event(sc->clip_walk, markers[0]) && sw__has_event(sc->clip_walk, markers[1]) &&
        sw__has_event(sc->clip_jog, markers[0]) && sw__has_event(sc->clip_jog, markers[1]);
    const bool idle_sync = move_sync && sw__has_event(sc->clip_idle, markers[0]) &&
                           sw__has_event(sc->clip_idle, markers[1]);
    const bool two_moves = sc->clip_walk != sc->clip_jog;
    const sw_animator_param_desc params[1] = {{.name = "speed"}};
    sw_animator_member_desc members[3];
    uint32_t mc = 0;
    if (idle_sync || !move_sync)
        members[mc++] = (sw_animator_member_desc){sw_clip_name(sc->clip_idle), 0.0f, 0.0f};
    if (sc->clip_walk != sc->clip_idle)
        members[mc++] =
            (sw_animator_member_desc){sw_clip_name(sc->clip_walk), sc->speed_walk, 0.0f};
    if (two_moves && sc->clip_jog != sc->clip_idle)
        members[mc++] = (sw_animator_member_desc){sw_clip_name(sc->clip_jog), sc->speed_jog, 0.0f};
    const sw_animator_blend_space_desc space = {.name = "move",
                                                .param_x = "speed",
                                                .members = members,
                                                .members_count = mc,
                                                .sync_markers = move_sync ? markers : NULL,
                                                .sync_markers_count = move_sync ? 2u : 0u};
    /* Idle as its own state when it lacks the markers: crossfades by speed. */
    const bool split = move_sync && !idle_sync;
    const sw_animator_state_desc states[2] = {
        {.name = "Move", .motion = SW_ANIMATOR_MOTION_BLEND_SPACE, .target = "move"},
        {.name = "Idle", .motion = SW_ANIMATOR_MOTION_CLIP, .target = sw_clip_name(sc->clip_idle)},
    };
    const sw_animator_condition_desc go = {
        .param = "speed", .op = SW_ANIMATOR_OP_GREATER, .value = 0.25f * sc->speed_walk};
    const sw_animator_condition_desc stop = {
        .param = "speed", .op = SW_ANIMATOR_OP_LESS, .value = 0.15f * sc->speed_walk};
    sw_animator_transition_desc tr[2] = {
        {.from = "Idle", .to = "Move", .conditions = &go, .conditions_count = 1, .duration = 0.3f},
        {.from = "Move",
         .to = "Idle",
         .conditions = &stop,
         .conditions_count = 1,
         .duration = 0.3f},
    };
    const sw_animator_machine_desc machine = {.name = "Locomotion",
                                              .states = states,
                                              .states_count = split ? 2u : 1u,
                                              .transitions = split ? tr : NULL,
                                              .transitions_count = split ? 2u : 0u,
                                              .entry = split ? "Idle" : "Move"};
    sw_animator_layer_desc layer;
    const sw_animator_desc desc =
        sw__sc_one_layer(&machine, params, 1, &space,
                         sw_skeleton_joint_name(sc->chr->skeleton, (uint32_t)sc->hum.hips), &layer);
    if (move_sync) st->m.features |= SW_SHOWCASE_FEATURE_SYNC;
    if (move_sync && sc->hum.legs) st->m.features |= SW_SHOWCASE_FEATURE_FOOT_TRACK;
    st->pos = sw_vec3_make(SW__SC_LOCO_X - SW__SC_LOCO_R, sc->hum.lift, SW__SC_LOCO_Z);
    st->heading = 0.0f;
    const sw_skeleton* s = sc->chr->skeleton;
    sw__sc_contacts_init(&st->contacts, &sc->hum, s);
    if (sw__sc_velocity_init(&ctx->mem, &st->vel, s->joints_count) != SW_RESULT_OK)
        return sw__fail_first(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    sw_result r = sw__sc_anim_create(&ctx->mem, &desc, s, sc->chr->clips, sc->chr->clips_count,
                                     &st->anim, err);
    if (r == SW_RESULT_OK && split) {
        tr[0].mode = tr[1].mode = SW_ANIMATOR_TRANSITION_MODE_INERTIALIZE;
        r = sw__sc_anim_create(&ctx->mem, &desc, s, sc->chr->clips, sc->chr->clips_count,
                               &st->inert, err);
        st->has_inert = r == SW_RESULT_OK;
    }
    if (r == SW_RESULT_OK && sc->clip_walk != sc->clip_idle)
        r = sw__loco_free_setup(st, sc, &ctx->mem, err);
    if (r == SW_RESULT_OK)
        r = sw__sc_view_init(&ctx->mem, view, s, sc->chr->meshes, sc->chr->meshes_count);
    return r;
}

/* A foot is planted from its down event to its up event (or, for clips
 * without up events, the other foot's down event); per plant the largest
 * horizontal drift of its ankle from where it landed. */
static void sw__track_feet(const sw__sc_cast* sc, const sw__sc_actor* a, const bool down[2],
                           const bool up[2], sw__sc_plant plants[2], uint32_t* steps, float* max,
                           double* sum) {
    const int32_t feet[2] = {sc->hum.l_foot, sc->hum.r_foot};
    for (uint32_t f = 0; f < 2; ++f) {
        sw__sc_plant* p = &plants[f];
        const sw_vec3 pos = sw__sc_pos(&a->model[feet[f]]);
        if (p->planted) {
            if (up[f] || down[1 - f])
                sw__sc_close_step(p, steps, max, sum);
            else
                p->drift = fmaxf(p->drift, sw__sc_hdist(pos, p->anchor));
        }
        if (down[f]) {
            sw__sc_close_step(p, steps, max, sum);
            *p = (sw__sc_plant){true, pos, 0.0f};
        }
    }
}

/* Phase spread of the shown animator's walk and jog while each weighs more
 * than 5% of the pose (sw_showcase_status.locomotion_phase_spread). */
static float sw__phase_spread(const sw__loco* st, const sw__sc_cast* sc, const sw__sc_anim* shown) {
    sw_animator_contribution con[8];
    const uint32_t nc = sw_animator_contributions(shown->inst, shown->bound, con, 8);
    float lw[3] = {1.0f, 1.0f, 1.0f};
    if (shown == &st->free) {
        const float la = st->free.params[0], lb = st->free.params[1];
        lw[0] = (1.0f - la) * (1.0f - lb), lw[1] = la * (1.0f - lb), lw[2] = lb;
    }
    float spread = 0.0f;
    for (uint32_t i = 0; i < nc && i < 8; ++i)
        for (uint32_t j = i + 1; j < nc && j < 8; ++j) {
            const float wi = con[i].weight * (con[i].layer < 3 ? lw[con[i].layer] : 0.0f);
            const float wj = con[j].weight * (con[j].layer < 3 ? lw[con[j].layer] : 0.0f);
            const sw_clip* ci = sw_animator_bound_clip(shown->bound, con[i].clip);
            const sw_clip* cj = sw_animator_bound_clip(shown->bound, con[j].clip);
            if (wi <= 0.05f || wj <= 0.05f || ci == cj || ci == sc->clip_idle ||
                cj == sc->clip_idle)
                continue;
            const float d = fabsf(con[i].phase - con[j].phase);
            spread = fmaxf(spread, fminf(d, 1.0f - d));
        }
    return spread;
}

static sw_result sw__loco_update(void* state, sw__sc_ctx* ctx, sw__sc_actor* a, float dt) {
    sw__loco* st = (sw__loco*)state;
    const sw__sc_cast* sc = &ctx->cast;
    const float t = (float)ctx->time;
    float goal = 0.0f;
    const bool steer = ctx->in.has_steer;
    if (steer) {
        goal = fmaxf(ctx->in.steer_forward, 0.0f) * sc->speed_walk;
    } else if (ctx->in.has_speed) {
        goal = ctx->in.speed;
    } else {
        const float p = fmodf(t, 14.0f);
        goal = p < 2.0f    ? 0.0f
               : p < 5.5f  ? sc->speed_walk
               : p < 9.0f  ? sc->speed_jog
               : p < 11.5f ? sc->speed_walk
                           : 0.0f;
    }
    sw_spring_float_update(&st->speed, goal, 0.5f, dt);
    st->anim.params[0] = fmaxf(st->speed.value, 0.0f);
    sw_animator_event events[16], ev_alt[16];
    uint32_t ne = 0, ne_alt = 0;
    sw_animator_root_motion rm = {{0, 0, 0}, 0}, rm_alt = {{0, 0, 0}, 0};
    sw_result r = sw_animator_update(st->anim.inst, st->anim.bound, st->anim.params,
                                     st->anim.params_count, dt, events, 16, &ne, &rm);
    if (r != SW_RESULT_OK) return r;
    /* The variants run side by side; the shown one gives the pose and the
     * events, the synchronized one (of the chosen transition mode) the root motion. */
    const bool inert = ctx->in.transitions == SW_SHOWCASE_TRANSITIONS_INERTIALIZE;
    const sw__sc_anim* shown = &st->anim;
    if (st->has_inert) {
        st->inert.params[0] = st->anim.params[0];
        r = sw_animator_update(st->inert.inst, st->inert.bound, st->inert.params,
                               st->inert.params_count, dt, inert ? events : ev_alt, 16,
                               inert ? &ne : &ne_alt, inert ? &rm : &rm_alt);
        if (r != SW_RESULT_OK) return r;
        /* evaluated every frame: inertialization needs the previous outputs */
        r = sw_animator_evaluate(st->inert.inst, st->inert.bound, st->inert.scratch,
                                 st->inert.scratch_size, a->local, a->skel->packets_count);
        if (r != SW_RESULT_OK) return r;
        if (inert) shown = &st->inert;
    }
    if (st->has_free) {
        sw__free_weights(sc, st->anim.params[0], &st->free.params[0], &st->free.params[1]);
        r = sw_animator_update(st->free.inst, st->free.bound, st->free.params,
                               st->free.params_count, dt, ctx->in.no_sync ? events : ev_alt, 16,
                               ctx->in.no_sync ? &ne : &ne_alt, NULL);
        if (r != SW_RESULT_OK) return r;
        if (ctx->in.no_sync) shown = &st->free;
    }
    r = sw_animator_evaluate(shown->inst, shown->bound, shown->scratch, shown->scratch_size,
                             a->local, a->skel->packets_count);
    if (r != SW_RESULT_OK) return r;
    st->phase_spread = sw__phase_spread(st, sc, shown);
    sw_vec3 d = sw_vec3_scale(rm.translation, sc->hum.scale);
    if (sc->in_place) d = sw_vec3_make(0.0f, 0.0f, st->anim.params[0] * dt);
    const sw_quat yaw = sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), st->heading);
    st->pos = sw_vec3_add(st->pos, sw_quat_rotate(yaw, d));
    /* Round the circle, or steered: the clips' turn and the steering's. */
    st->heading += rm.yaw + (steer ? ctx->in.steer_turn * dt : d.z / SW__SC_LOCO_R);
    a->world = sw__sc_world(st->pos, st->heading, sc->hum.scale);
    sw__sc_view_models(a);
    /* Planted feet: from the foot-down event until the other foot's, or the ankle lifting. */
    bool down[2] = {false, false}, up[2] = {false, false}, enter = false;
    for (uint32_t e = 0; e < ne && e < 16; ++e) {
        if (events[e].kind == SW_ANIMATOR_EVENT_KIND_ENTER) enter = true;
        if (events[e].kind != SW_ANIMATOR_EVENT_KIND_CLIP) continue;
        if (strcmp(events[e].name, "LeftFootDown") == 0) down[0] = true;
        if (strcmp(events[e].name, "RightFootDown") == 0) down[1] = true;
        if (strcmp(events[e].name, "LeftFootUp") == 0) up[0] = true;
        if (strcmp(events[e].name, "RightFootUp") == 0) up[1] = true;
    }
    sw_showcase_metrics* m = &st->m;
    if (m->features & SW_SHOWCASE_FEATURE_FOOT_TRACK) {
        /* The animation alone: drift of each planted ankle (turning along the
         * circle while the clips walk straight makes the feet slide). */
        sw__track_feet(sc, a, down, up, st->raw, &m->locomotion_unlocked_steps,
                       &m->locomotion_unlocked_slide_max, &st->raw_slide_sum);
        m->locomotion_unlocked_slide_mean =
            m->locomotion_unlocked_steps ? (float)(st->raw_slide_sum / m->locomotion_unlocked_steps)
                                         : 0.0f;
    }
    if (sc->hum.feet) {
        r = sw__sc_contacts_run(&st->contacts, a, ctx->in.no_foot_placement, dt);
        if (r != SW_RESULT_OK) return r;
        st->lock_weight_max = fmaxf(st->contacts.feet[0].weight, st->contacts.feet[1].weight);
    }
    r = sw__sc_arms_above_ground(&sc->hum, a);
    if (r != SW_RESULT_OK) return r;
    if (m->features & SW_SHOWCASE_FEATURE_FOOT_TRACK) {
        sw__track_feet(sc, a, down, up, st->feet, &m->locomotion_steps, &m->locomotion_slide_max,
                       &st->slide_sum);
        m->locomotion_slide_mean =
            m->locomotion_steps ? (float)(st->slide_sum / m->locomotion_steps) : 0.0f;
    }
    const float jump = sw__sc_velocity_jump(&st->vel, a, dt);
    if (enter) {
        ++m->transitions;
        m->transition_velocity_jump_max = fmaxf(m->transition_velocity_jump_max, jump);
    }
    sw__sc_cast_penetration(sc, a->model, &m->foot_penetration_max);
    return SW_RESULT_OK;
}

static void sw__loco_metrics(const void* state, sw_showcase_metrics* m, sw_showcase_status* st) {
    const sw__loco* l = (const sw__loco*)state;
    m->features |= l->m.features;
    m->locomotion_steps = l->m.locomotion_steps;
    m->locomotion_slide_max = l->m.locomotion_slide_max;
    m->locomotion_slide_mean = l->m.locomotion_slide_mean;
    m->locomotion_unlocked_steps = l->m.locomotion_unlocked_steps;
    m->locomotion_unlocked_slide_max = l->m.locomotion_unlocked_slide_max;
    m->locomotion_unlocked_slide_mean = l->m.locomotion_unlocked_slide_mean;
    m->transitions = l->m.transitions;
    m->transition_velocity_jump_max = l->m.transition_velocity_jump_max;
    m->foot_penetration_max = fmaxf(m->foot_penetration_max, l->m.foot_penetration_max);
    st->locomotion_lock_weight = l->lock_weight_max;
    st->locomotion_phase_spread = l->phase_spread;
}

const sw__sc_actor_class sw__sc_locomotion = {.name = "locomotion",
                                              .material = SW_SHOWCASE_MATERIAL_SKIN,
                                              .create = sw__loco_create,
                                              .update = sw__loco_update,
                                              .metrics = sw__loco_metrics};
