/* "powered" (sinew/showcase/scene.h): a powered ragdoll of the built-in
 * humanoid walking round a small circle, its hips carried by the walk
 * (kinematic) and every other body simulated with motors pulling it to the
 * walk, while impulses (random body, direction and strength from the seed,
 * about three a second) knock its limbs about. */
#include "showcase/actors/ragdoll.h"

/* Its spot (x, z), on flat ground behind the other actors. */
#define SW__RAG_WALK_X 0.6f
#define SW__RAG_WALK_Z (-4.6f)
#define SW__RAG_WALK_R 0.8f /* circle radius (m) */
/* An impulse every SW__RAG_IMPULSE_EVERY s of 20..40 N s. */
#define SW__RAG_IMPULSE_EVERY 0.35
#define SW__RAG_IMPULSE_MIN 20.0f
#define SW__RAG_IMPULSE_RANGE 20.0f
/* m above its flat height (over the ground) where the walk's foot starts
 * to hold the shown one: fully held on the ground, free above */
#define SW__RAG_PLANT_ABOVE 0.05f

typedef struct sw__powered {
    sw__sc_rag rag;
    const sw_clip* walk;
    float walk_speed; /* m/s */
    float walk_time, walk_angle;
    uint32_t rng;
    double next_impulse;
    double error_sum;
    uint32_t error_count;
    uint32_t impulses;
    float error_mean, error_max;
    sw__sc_contacts contacts; /* the walk's planted feet held in the world */
    sw__sc_actor walk_view;   /* the walk's pose (rag.anim, rag.anim_model) for them */
} sw__powered;

static uint32_t sw__rag_next(sw__powered* r) {
    uint32_t x = r->rng; /* xorshift32 */
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    r->rng = x;
    return x;
}

static float sw__rag_unit(sw__powered* r) {
    return (float)(sw__rag_next(r) >> 8) * (1.0f / 16777216.0f);
}

/* The walk at walk_time, in place (root motion taken out), and the root on
 * the circle at walk_angle, facing along it. */
static void sw__rag_walk_pose(sw__powered* r) {
    sw__sc_rag* ra = &r->rag;
    const float dur = r->walk->duration;
    const float t = fmodf(r->walk_time, dur);
    sw__sc_sample(ra->skel, r->walk, t, ra->anim);
    sw_xform hips = sw_pose_get(ra->anim, 0);
    hips.t.z -= r->walk_speed * t;
    sw_pose_set(ra->anim, 0, hips);
    const float a = r->walk_angle;
    ra->root = sw_xform_identity();
    ra->root.t = sw_vec3_make(SW__RAG_WALK_X + SW__RAG_WALK_R * sinf(a), 0.0f,
                              SW__RAG_WALK_Z + SW__RAG_WALK_R * cosf(a));
    ra->root.r = sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), a + 1.5707963f);
}

static sw_result sw__powered_create(sw__sc_ctx* ctx, sw__sc_actor* view, void** state,
                                    sw_error* err) {
    sw__powered* r = (sw__powered*)sw__sc_alloc(&ctx->mem, sizeof *r);
    *state = r;
    if (!r) return SW_RESULT_OUT_OF_MEMORY;
    const sw_scene* humanoid = NULL;
    sw_result res = sw__sc_rag_init(ctx, view, &r->rag, &humanoid, err);
    if (res != SW_RESULT_OK) return res;
    const sw_skeleton* s = humanoid->skeleton;
    r->walk = humanoid->clips[1];
    r->rng = (ctx->seed ^ 0x9e3779b9u) | 1u;
    /* the walk's speed from its root motion (the physics pose as scratch) */
    sw__sc_sample(s, r->walk, 0.0f, r->rag.physics);
    const float z0 = sw_pose_get(r->rag.physics, 0).t.z;
    sw__sc_sample(s, r->walk, r->walk->duration, r->rag.physics);
    r->walk_speed = (sw_pose_get(r->rag.physics, 0).t.z - z0) / r->walk->duration;
    /* the contact model on the walk's legs (the circle turns it, so its
     * planted feet would slide): the motors pull the legs to what it holds */
    const sw__sc_rag_limb* legs = r->rag.limbs;
    const sw__sc_human h = {.l_upleg = legs[0].start,
                            .l_leg = legs[0].mid,
                            .l_foot = legs[0].end,
                            .r_upleg = legs[1].start,
                            .r_leg = legs[1].mid,
                            .r_foot = legs[1].end};
    sw__sc_contacts_init(&r->contacts, &h, s);
    r->walk_view = (sw__sc_actor){
        .skel = s, .local = r->rag.anim, .model = r->rag.anim_model, .skin = view->skin};
    /* hips carried by the animation, the rest simulated and pulled to it */
    sw__rag_walk_pose(r);
    res = sw__sc_rag_spawn(ctx, &r->rag, 1u, err);
    if (res == SW_RESULT_OK)
        res = sw_ragdoll_set_all(r->rag.rd, SW_RAGDOLL_MODE_DYNAMIC, 1.0f, 1.0f);
    if (res == SW_RESULT_OK) res = sw_ragdoll_set_mode(r->rag.rd, 0, SW_RAGDOLL_MODE_KINEMATIC);
    r->next_impulse = SW__RAG_IMPULSE_EVERY;
    return res;
}

/* The walk for this update and, when due, an impulse on a random body. */
static sw_result sw__powered_update(void* state, sw__sc_ctx* ctx, sw__sc_actor* view, float dt) {
    (void)view;
    sw__powered* r = (sw__powered*)state;
    r->walk_time += dt;
    r->walk_angle += r->walk_speed * dt / SW__RAG_WALK_R;
    sw__rag_walk_pose(r);
    r->walk_view.world = sw_mat4_from_xform(r->rag.root);
    sw__sc_view_models(&r->walk_view);
    sw_result res = sw__sc_contacts_run(&r->contacts, &r->walk_view, ctx->in.no_foot_placement, dt);
    if (res != SW_RESULT_OK || ctx->time < r->next_impulse) return res;
    r->next_impulse += SW__RAG_IMPULSE_EVERY;
    sw_ragdoll* rd = r->rag.rd;
    const uint32_t bodies = sw_ragdoll_bodies_count(rd);
    const uint32_t b = 1u + sw__rag_next(r) % (bodies - 1u); /* not the carried hips */
    const float a = 6.2831853f * sw__rag_unit(r);
    const float size = SW__RAG_IMPULSE_MIN + SW__RAG_IMPULSE_RANGE * sw__rag_unit(r);
    const sw_vec3 dir = sw_vec3_normalize(sw_vec3_make(cosf(a), 0.2f, sinf(a)));
    const sw_physics_body_state st = sw_ragdoll_body_state(rd, b);
    res = sw_ragdoll_apply_impulse(rd, b, sw_vec3_scale(dir, size), st.transform.t);
    ++r->impulses;
    return res;
}

/* The planted-foot constraint on the shown pose: where the walk's foot
 * (held by its contact model) comes down, the simulated leg is bent
 * (two-bone IK) so its foot stands on the walk's (the friction with the
 * ground that the ragdoll's foot-less legs lack: an impulse no longer kicks
 * a planted foot away); the hold grows from SW__RAG_PLANT_ABOVE over the
 * foot's flat height to full on the ground, so the shown foot is on its
 * spot before it lands. Fails: the IK job's result. */
static sw_result sw__powered_plant(const sw__powered* r, sw__sc_actor* view) {
    const sw__sc_rag* ra = &r->rag;
    for (uint32_t f = 0; f < 2; ++f) {
        const sw__sc_contact* k = &r->contacts.feet[f];
        if (k->hip < 0 || k->knee < 0 || k->ankle < 0 || !isfinite(k->heel_ref)) continue;
        const sw_vec3 g = sw__sc_pos(&ra->anim_model[k->ankle]);
        const float over = g.y - sw__sc_ground(g.x, g.z, NULL) - k->heel_ref;
        const float u = fminf(fmaxf(1.0f - over / SW__RAG_PLANT_ABOVE, 0.0f), 1.0f);
        if (!(u > 0.0f)) continue;
        const float w = u * u * (3.0f - 2.0f * u);
        const sw_vec3 p = sw__sc_pos(&view->model[k->ankle]);
        const sw_quat keep = sw_quat_slerp(sw__sc_rotation(&view->model[k->ankle]),
                                           sw__sc_rotation(&ra->anim_model[k->ankle]), w);
        const sw_result res =
            sw__sc_view_two_bone(view, k->hip, k->knee, k->ankle, sw_vec3_lerp(p, g, w));
        if (res != SW_RESULT_OK) return res;
        sw__sc_view_set_rotation(view, (uint32_t)k->ankle, keep);
        sw__sc_view_models(view);
    }
    return SW_RESULT_OK;
}

/* Shown as simulated, and its distance from the animation. */
static sw_result sw__powered_after_physics(void* state, sw__sc_ctx* ctx, sw__sc_actor* view,
                                           float dt, float alpha) {
    (void)ctx;
    sw__powered* r = (sw__powered*)state;
    sw__sc_rag* ra = &r->rag;
    const sw_result res = sw__sc_rag_show(ra, view, alpha);
    if (res != SW_RESULT_OK) return res;
    sw__sc_rag_place(ra, view);
    sw__sc_rag_models(ra->skel, ra->anim, ra->root, ra->anim_model);
    const uint32_t bodies = sw_ragdoll_bodies_count(ra->rd);
    float err = 0.0f;
    for (uint32_t b = 0; b < bodies; ++b) {
        const uint32_t j = sw_ragdoll_body_joint(ra->rd, b);
        const sw_mat4* p = &view->model[j];
        const sw_mat4* q = &ra->anim_model[j];
        const sw_vec3 d =
            sw_vec3_make(p->m[12] - q->m[12], p->m[13] - q->m[13], p->m[14] - q->m[14]);
        err += sw_vec3_length(d);
    }
    err /= (float)bodies;
    r->error_sum += (double)err;
    r->error_max = fmaxf(r->error_max, err);
    r->error_mean = (float)(r->error_sum / (double)++r->error_count);
    const sw_result planted = sw__powered_plant(r, view);
    if (planted != SW_RESULT_OK) return planted;
    return sw__sc_rag_ground(ra, view, dt);
}

static void sw__powered_metrics(const void* state, sw_showcase_metrics* m, sw_showcase_status* st) {
    (void)st;
    const sw__powered* r = (const sw__powered*)state;
    m->ragdoll_impulses = r->impulses;
    m->ragdoll_tracking_error_mean = r->error_mean;
    m->ragdoll_tracking_error_max = r->error_max;
}

static void sw__powered_destroy(void* state) {
    sw__sc_rag_despawn(&((sw__powered*)state)->rag);
}

const sw__sc_actor_class sw__sc_powered = {.name = "powered",
                                           .material = SW_SHOWCASE_MATERIAL_SKIN,
                                           .physics = true,
                                           .create = sw__powered_create,
                                           .update = sw__powered_update,
                                           .after_physics = sw__powered_after_physics,
                                           .metrics = sw__powered_metrics,
                                           .destroy = sw__powered_destroy};
