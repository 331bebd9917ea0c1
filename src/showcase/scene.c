/* The showcase scene (sinew/showcase/scene.h): a table of actors (actor.h,
 * one file each in actors/) scheduled in order, the shared physics step for
 * the ragdoll actors, the camera, and the public view of it all. */
#include "showcase/actor.h"

#define SW__SC_STEP (1.0f / 30.0f) /* longest step an update is split into */

/* The actors in the order of sw_showcase_get_actor and of their updates;
 * physics actors only with options->physics (they come last). */
static const sw__sc_actor_class* const sw__sc_table[] = {
    &sw__sc_locomotion, &sw__sc_reach,   &sw__sc_caterpillar, &sw__sc_arm,
    &sw__sc_spider,     &sw__sc_hit,     &sw__sc_idle,        &sw__sc_props,
    &sw__sc_targets,    &sw__sc_powered, &sw__sc_knockdown,
};
#define SW__SC_TABLE_COUNT (sizeof sw__sc_table / sizeof sw__sc_table[0])

struct sw_showcase {
    sw__sc_ctx ctx;
    sw_showcase_metrics metrics;
    sw_showcase_status status;
    uint32_t actors_count;
    const sw__sc_actor_class* classes[SW__SC_TABLE_COUNT];
    void* states[SW__SC_TABLE_COUNT];
    sw__sc_actor views[SW__SC_TABLE_COUNT];
};

/* The camera: the inputs' or the scene's slow orbit, with the hit's shake
 * and field-of-view pulse on top. */
static void sw__camera_update(sw__sc_ctx* sc, float t) {
    sw_vec3 eye, at;
    if (sc->in.has_camera) {
        eye = sc->in.camera;
        at = sc->in.camera_target;
    } else {
        const float ang = 0.25f * sinf(0.08f * t);
        eye = sw_vec3_make(8.2f * sinf(ang), 3.6f, 8.2f * cosf(ang));
        at = sw_vec3_make(0.0f, 0.45f, -0.4f);
    }
    sw_xform view = sw_xform_identity();
    view.t = eye;
    const sw_vec3 z = sw_vec3_normalize(sw_vec3_sub(eye, at));
    if (sw_vec3_length(sw_vec3_sub(eye, at)) > 1e-6f && fabsf(z.y) < 0.999f) {
        const sw_vec3 x = sw_vec3_normalize(sw_vec3_cross(sw_vec3_make(0, 1, 0), z));
        const sw_vec3 y = sw_vec3_cross(z, x);
        sw_mat4 m = sw_mat4_identity();
        m.m[0] = x.x, m.m[1] = x.y, m.m[2] = x.z;
        m.m[4] = y.x, m.m[5] = y.y, m.m[6] = y.z;
        m.m[8] = z.x, m.m[9] = z.y, m.m[10] = z.z;
        view.r = sw_quat_from_mat4(&m);
    }
    float fov = 0.95f;
    const sw__sc_camera_fx* fx = &sc->camera_fx;
    if (fx->since >= 0.0f) {
        const sw_shake_sample s = sw_shake_eval(&fx->shake, fx->since);
        view = sw_shake_apply(view, &s);
        fov += s.fov + sw_fov_pulse_eval(&fx->pulse, fx->since);
    }
    sc->camera.view = view;
    sc->camera.fov_y = fov;
}

/* The shared physics step: the stepper's fixed steps, each driving every
 * ragdoll, stepping the engine once and capturing every ragdoll; *alpha
 * receives the stepper's interpolation factor. */
static sw_result sw__physics_step(sw__sc_ctx* ctx, float dt, float* alpha) {
    const uint32_t steps = sw_ragdoll_stepper_advance(&ctx->stepper, dt, alpha);
    const float h = ctx->stepper.step;
    sw_result r = SW_RESULT_OK;
    for (uint32_t i = 0; i < steps && r == SW_RESULT_OK; ++i) {
        for (uint32_t k = 0; k < ctx->ragdolls_count && r == SW_RESULT_OK; ++k) {
            const sw__sc_ragdoll* g = &ctx->ragdolls[k];
            const sw_ragdoll_drive_desc d = {
                .pose = g->pose, .pose_count = g->pose_count, .root = *g->root, .step = h};
            r = sw_ragdoll_drive(g->rd, &d, NULL);
        }
        if (r == SW_RESULT_OK) r = ctx->physics_step(ctx->physics_user);
        for (uint32_t k = 0; k < ctx->ragdolls_count && r == SW_RESULT_OK; ++k)
            r = sw_ragdoll_capture(ctx->ragdolls[k].rd, h);
    }
    return r;
}

/* Metrics and status from every actor's figures. */
static void sw__collect(sw_showcase* sc) {
    const uint32_t updates = sc->metrics.updates;
    memset(&sc->metrics, 0, sizeof sc->metrics);
    memset(&sc->status, 0, sizeof sc->status);
    sc->metrics.updates = updates;
    for (uint32_t i = 0; i < sc->actors_count; ++i)
        if (sc->classes[i]->metrics)
            sc->classes[i]->metrics(sc->states[i], &sc->metrics, &sc->status);
}

static sw_result sw__step(sw_showcase* sc, float dt) {
    sw__sc_ctx* ctx = &sc->ctx;
    ctx->time += (double)dt;
    if (ctx->camera_fx.since >= 0.0f) ctx->camera_fx.since += dt;
    sw__camera_update(ctx, (float)ctx->time);
    sw_result r = SW_RESULT_OK;
    for (uint32_t i = 0; i < sc->actors_count && r == SW_RESULT_OK; ++i)
        if (sc->classes[i]->update)
            r = sc->classes[i]->update(sc->states[i], ctx, &sc->views[i], dt);
    if (r == SW_RESULT_OK && ctx->ragdolls_count > 0) {
        float alpha = 0.0f;
        r = sw__physics_step(ctx, dt, &alpha);
        for (uint32_t i = 0; i < sc->actors_count && r == SW_RESULT_OK; ++i)
            if (sc->classes[i]->after_physics)
                r = sc->classes[i]->after_physics(sc->states[i], ctx, &sc->views[i], dt, alpha);
    }
    for (uint32_t i = 0; i < sc->actors_count && r == SW_RESULT_OK; ++i)
        r = sw__sc_view_palettes(&sc->views[i]);
    ++sc->metrics.updates;
    sw__collect(sc);
    return r;
}

static sw_result sw__check_options(const sw_showcase_options* o, sw_error* err) {
    if (o && o->character && (!o->character->skeleton || o->character->clips_count == 0))
        return sw__fail_first(err, SW_RESULT_INVALID_ARGUMENT, "character has a skeleton and clips",
                              0, -1);
    if (o && o->physics &&
        (!o->physics_step || !isfinite(o->physics_step_size) || o->physics_step_size < 0.0f))
        return sw__fail_first(err, SW_RESULT_INVALID_ARGUMENT, "physics with a step", 0, -1);
    bool known = !o || !o->only_actor;
    for (uint32_t i = 0; i < SW__SC_TABLE_COUNT && !known; ++i)
        known = strcmp(sw__sc_table[i]->name, o->only_actor) == 0;
    if (!known) return sw__fail_first(err, SW_RESULT_NOT_FOUND, "only_actor names an actor", 0, -1);
    return SW_RESULT_OK;
}

/* Whether the options make actor class c: physics actors need an engine;
 * with only_actor, that actor and the props it walks on. */
static bool sw__wanted(const sw_showcase_options* o, const sw__sc_actor_class* c,
                       const sw__sc_ctx* ctx) {
    if (c->physics && !ctx->physics) return false;
    if (!o || !o->only_actor) return true;
    return strcmp(c->name, o->only_actor) == 0 || c == &sw__sc_props;
}

sw_result sw_showcase_create(const sw_showcase_options* options, sw_showcase** out, sw_error* err) {
    if (err) *err = (sw_error)SW_ERROR_INIT;
    if (!out) return SW_RESULT_INVALID_ARGUMENT;
    *out = NULL;
    sw_result r = sw__check_options(options, err);
    if (r != SW_RESULT_OK) return r;
    const sw_allocator* alloc = options ? options->alloc : NULL;
    sw_showcase* sc = (sw_showcase*)sw_alloc(alloc, sizeof *sc, 16);
    if (!sc) return sw__fail_first(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    memset(sc, 0, sizeof *sc);
    sw__sc_ctx* ctx = &sc->ctx;
    if (alloc) ctx->mem.alloc = *alloc;
    ctx->seed = options ? options->seed : 0u;
    ctx->camera_fx.since = -1.0f;
    if (options && options->physics) {
        ctx->physics = options->physics;
        ctx->physics_step = options->physics_step;
        ctx->physics_user = options->physics_user;
        ctx->stepper.step = options->physics_step_size;
    }
    r = sw__sc_cast_init(&ctx->cast, &ctx->mem, options, err);
    for (uint32_t i = 0; i < SW__SC_TABLE_COUNT && r == SW_RESULT_OK; ++i) {
        const sw__sc_actor_class* c = sw__sc_table[i];
        if (!sw__wanted(options, c, ctx)) continue;
        const uint32_t k = sc->actors_count++;
        sc->classes[k] = c;
        sc->views[k].name = c->name;
        sc->views[k].material = c->material;
        r = c->create(ctx, &sc->views[k], &sc->states[k], err);
    }
    if (r == SW_RESULT_OK) {
        r = sw_showcase_update(sc, 0.0f, NULL);
        if (r != SW_RESULT_OK)
            sw__fail_first(err, r, "first update (a job refused the character)", 0, -1);
    }
    if (r != SW_RESULT_OK) {
        sw__fail_first(err, r, r == SW_RESULT_OUT_OF_MEMORY ? "allocation" : "showcase setup", 0,
                       -1);
        sw_showcase_destroy(sc);
        return r;
    }
    *out = sc;
    return SW_RESULT_OK;
}

void sw_showcase_destroy(sw_showcase* s) {
    if (!s) return;
    for (uint32_t i = 0; i < s->actors_count; ++i)
        if (s->classes[i]->destroy && s->states[i]) s->classes[i]->destroy(s->states[i]);
    sw__sc_mem m = s->ctx.mem;
    sw__sc_cast_free(&s->ctx.cast, &m.alloc);
    sw__sc_mem_free(&m);
    const sw_allocator a = m.alloc;
    sw_free(&a, s, sizeof *s);
}

static bool sw__finite3(sw_vec3 v) {
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

sw_result sw_showcase_update(sw_showcase* s, float dt, const sw_showcase_inputs* in) {
    if (!s || !(dt >= 0.0f) || !isfinite(dt)) return SW_RESULT_INVALID_ARGUMENT;
    if (in) {
        if (!sw__finite3(in->camera) || !sw__finite3(in->camera_target) ||
            !sw__finite3(in->look_target) || !sw__finite3(in->reach_target) ||
            !isfinite(in->speed) || !isfinite(in->steer_forward) || !isfinite(in->steer_strafe) ||
            !isfinite(in->steer_turn) ||
            (unsigned)in->transitions > SW_SHOWCASE_TRANSITIONS_INERTIALIZE)
            return SW_RESULT_INVALID_ARGUMENT;
        s->ctx.in = *in;
    } else {
        memset(&s->ctx.in, 0, sizeof s->ctx.in);
    }
    const uint32_t n = dt > SW__SC_STEP ? (uint32_t)ceilf(dt / (SW__SC_STEP)) : 1u;
    const float step = dt / (float)n;
    for (uint32_t i = 0; i < n; ++i) {
        const sw_result r = sw__step(s, step);
        if (r != SW_RESULT_OK) return r;
    }
    return SW_RESULT_OK;
}

double sw_showcase_time(const sw_showcase* s) {
    return s ? s->ctx.time : 0.0;
}

uint32_t sw_showcase_actors_count(const sw_showcase* s) {
    return s ? s->actors_count : 0u;
}

sw_showcase_actor sw_showcase_get_actor(const sw_showcase* s, uint32_t i) {
    sw_showcase_actor v;
    memset(&v, 0, sizeof v);
    if (!s || i >= s->actors_count) return v;
    const sw__sc_actor* a = &s->views[i];
    v.name = a->name;
    v.skeleton = a->skel;
    v.meshes = a->meshes;
    v.meshes_count = a->meshes_count;
    v.material = a->material;
    v.world = a->world;
    v.local = a->local;
    v.model = a->model;
    v.palettes = a->palettes_view;
    return v;
}

sw_showcase_camera sw_showcase_get_camera(const sw_showcase* s) {
    sw_showcase_camera c = {sw_xform_identity(), 0.8f};
    return s ? s->ctx.camera : c;
}

const sw_showcase_metrics* sw_showcase_get_metrics(const sw_showcase* s) {
    return s ? &s->metrics : NULL;
}

uint32_t sw_showcase_character_bones(const sw_showcase* s) {
    return s ? s->ctx.cast.bones_count : 0u;
}

sw_showcase_status sw_showcase_get_status(const sw_showcase* s) {
    sw_showcase_status st;
    memset(&st, 0, sizeof st);
    return s ? s->status : st;
}
