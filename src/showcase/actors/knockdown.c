/* "knockdown" (sinew/showcase/scene.h): a ragdoll of the built-in humanoid
 * standing idle (kinematic) that is hit in the chest, falls limp, settles,
 * picks the get-up clip by lying face up or down, moves its root to where
 * the ragdoll lies, blends from the ragdoll's pose into the clip, stands
 * idle again and is hit again. */
#include "showcase/actors/ragdoll.h"
#include "sinew/showcase/character.h"

/* Its spot (x, z), on flat ground behind the other actors. */
#define SW__RAG_KNOCK_X (-1.2f)
#define SW__RAG_KNOCK_Z (-6.4f)
#define SW__RAG_KNOCK_RANGE 0.5f /* m from its spot before hits push it back */
/* "knockdown": first hit, idle time between a get-up and the next hit, the
 * hit's impulse on the chest (N s) from behind and from the front (harder:
 * a fall on the back lands closer to the feet, and the get-up from the back
 * ends over the feet, so the harder hit keeps its spot from creeping
 * forward), the shortest fall before settling counts, the longest wait for
 * settling (s). */
#define SW__RAG_FIRST_KNOCK 1.0
#define SW__RAG_STAND 1.5
#define SW__RAG_KNOCK_IMPULSE 45.0f
#define SW__RAG_KNOCK_IMPULSE_FRONT 60.0f
#define SW__RAG_MIN_FALL 0.5f
#define SW__RAG_SETTLE_TIMEOUT 6.0f
/* The blend from the ragdoll's pose into the get-up clip's first pose (the
 * clip waits) lasts long enough that no joint accelerates faster than
 * SW__RAG_BLEND_ACCEL (m/s^2) for it: a smoothstep over T seconds moving a
 * joint by D metres peaks at 6 D / T^2; then the clip plays from rest. */
#define SW__RAG_BLEND_ACCEL 4.0f
#define SW__RAG_BLEND_MIN 0.5f
#define SW__RAG_BLEND_MAX 2.0f
/* In that blend a foot lying on the ground (its ankle under its knee)
 * takes a step, not a skate: its ankle goes from where the guard shows it
 * to the clip's on a path of its own, lifted by SW__RAG_STEP_LIFT times the
 * horizontal distance at the blend's middle (a bump with no velocity at
 * either end), moving over the ground only between SW__RAG_STEP_WAIT and
 * 1 - SW__RAG_STEP_WAIT of the blend (smoothstep), so it is off the ground
 * before it moves; from SW__RAG_STEP_BACK on the path hands the foot back
 * to the blend (the clip's first pose may have the leg straight, which a
 * path from above reaches only with a jump of the knee). A foot in the air
 * is lifted as much over where the blend has it. */
#define SW__RAG_STEP_LIFT 0.3f
#define SW__RAG_STEP_WAIT 0.2f
#define SW__RAG_STEP_BACK 0.5f

typedef struct sw__knock {
    sw__sc_rag rag;
    const sw_clip* idle;
    const sw_clip* getup[SW_SHOWCASE_GETUP_CLIPS];
    uint32_t phase;
    double next_knock;
    float phase_time, idle_time;
    uint32_t clip;          /* get-up clip playing */
    float blend;            /* seconds the blend into it lasts */
    sw_xform4* frozen;      /* the ragdoll's pose where the get-up began */
    sw__sc_actor clip_only; /* the get-up clip alone (its velocity noise) */
    sw__sc_velocity shown_vel, clip_vel;
    sw_showcase_metrics m; /* its figures */
    float step[2];         /* m the blend lifts each foot (left, right) at its middle */
    sw_vec3 foot_from[2];  /* each ankle (world) where the blend begins (as shown) and ends */
    sw_vec3 foot_to[2];
    bool lying[2];          /* each foot on the ground (its ankle under its knee) there */
    sw__sc_actor anim_view; /* rag.anim (model matrices rag.anim_model) for the lift */
} sw__knock;

/* At its spot, facing +X (it falls along X, clear of the props). */
static sw_xform sw__rag_knock_root(void) {
    sw_xform x = sw_xform_identity();
    x.t = sw_vec3_make(SW__RAG_KNOCK_X, 0.0f, SW__RAG_KNOCK_Z);
    x.r = sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), 1.5707963f);
    return x;
}

static sw_result sw__knock_create(sw__sc_ctx* ctx, sw__sc_actor* view, void** state,
                                  sw_error* err) {
    sw__knock* r = (sw__knock*)sw__sc_alloc(&ctx->mem, sizeof *r);
    *state = r;
    if (!r) return SW_RESULT_OUT_OF_MEMORY;
    const sw_scene* humanoid = NULL;
    sw_result res = sw__sc_rag_init(ctx, view, &r->rag, &humanoid, err);
    if (res != SW_RESULT_OK) return res;
    const sw_skeleton* s = humanoid->skeleton;
    r->idle = humanoid->clips[0];
    res = sw_showcase_humanoid_getup(humanoid, &ctx->mem.alloc, r->getup, err);
    if (res != SW_RESULT_OK) return res;
    for (uint32_t c = 0; c < SW_SHOWCASE_GETUP_CLIPS; ++c) {
        res = sw__sc_own_clip(&ctx->mem, r->getup[c]);
        if (res != SW_RESULT_OK) {
            for (uint32_t k = c + 1u; k < SW_SHOWCASE_GETUP_CLIPS; ++k)
                sw_clip_destroy(r->getup[k], &ctx->mem.alloc);
            return res;
        }
    }
    r->frozen = (sw_xform4*)sw__sc_alloc(&ctx->mem, s->packets_count * sizeof(sw_xform4));
    r->clip_only.skel = s;
    r->clip_only.model = (sw_mat4*)sw__sc_alloc(&ctx->mem, s->joints_count * sizeof(sw_mat4));
    if (!r->frozen || !r->clip_only.model) return SW_RESULT_OUT_OF_MEMORY;
    res = sw__sc_velocity_init(&ctx->mem, &r->shown_vel, s->joints_count);
    if (res == SW_RESULT_OK) res = sw__sc_velocity_init(&ctx->mem, &r->clip_vel, s->joints_count);
    if (res != SW_RESULT_OK) return res;
    r->anim_view = (sw__sc_actor){.skel = s, .local = r->rag.anim, .model = r->rag.anim_model};
    /* standing idle, kinematic */
    r->rag.root = sw__rag_knock_root();
    sw__sc_sample(s, r->idle, 0.0f, r->rag.anim);
    res = sw__sc_rag_spawn(ctx, &r->rag, 2u, err);
    r->phase = SW_SHOWCASE_KNOCKDOWN_STANDING;
    r->next_knock = SW__RAG_FIRST_KNOCK;
    return res;
}

/* Blends two local poses: a with weight w, b with 1 - w. */
static sw_result sw__rag_mix(const sw_skeleton* s, const sw_xform4* a, const sw_xform4* b, float w,
                             sw_xform4* out) {
    const sw_blend_layer layers[2] = {{.pose = a, .weight = w}, {.pose = b, .weight = 1.0f - w}};
    const sw_blend_job job = {.layers = layers,
                              .layers_count = 2,
                              .rest_pose = sw_skeleton_rest_pose(s),
                              .packets_count = s->packets_count,
                              .out = out,
                              .out_count = s->packets_count};
    return sw_blend_job_run(&job);
}

/* Knock-down events before the physics steps: the hit. */
static sw_result sw__rag_knock_begin(sw__knock* r, double time, sw_showcase_metrics* m) {
    sw__sc_rag* ra = &r->rag;
    if (r->phase != SW_SHOWCASE_KNOCKDOWN_STANDING || time < r->next_knock) return SW_RESULT_OK;
    sw_result res = sw_ragdoll_set_all(ra->rd, SW_RAGDOLL_MODE_DYNAMIC, 0.0f, 1.0f);
    if (res != SW_RESULT_OK) return res;
    const int32_t chest = sw_ragdoll_find_body(ra->rd, ra->chest);
    const uint32_t b = chest >= 0 ? (uint32_t)chest : 0u;
    const sw_physics_body_state st = sw_ragdoll_body_state(ra->rd, b);
    /* odd knocks from the front (falls on the back), even ones from behind;
     * once the get-ups have carried it away from its spot, from the side
     * that sends it back */
    float dir = (m->knockdowns % 2u == 0u) ? -1.0f : 1.0f;
    const sw_vec3 forward = sw_quat_rotate(ra->root.r, sw_vec3_make(0, 0, 1));
    const sw_vec3 home = sw_vec3_sub(sw__rag_knock_root().t, ra->root.t);
    if (sw_vec3_length(home) > SW__RAG_KNOCK_RANGE)
        dir = sw_vec3_dot(home, forward) >= 0.0f ? 1.0f : -1.0f;
    const float size = dir < 0.0f ? SW__RAG_KNOCK_IMPULSE_FRONT : SW__RAG_KNOCK_IMPULSE;
    res = sw_ragdoll_apply_impulse(ra->rd, b, sw_vec3_scale(forward, dir * size), st.transform.t);
    if (res != SW_RESULT_OK) return res;
    ++m->knockdowns;
    r->phase = SW_SHOWCASE_KNOCKDOWN_FALLING;
    r->phase_time = 0.0f;
    return SW_RESULT_OK;
}

/* The ragdoll lies still: the get-up clip by facing, the root where the
 * ragdoll lies, its pose kept to blend from, bodies back to kinematic. */
static sw_result sw__rag_getup_begin(sw__knock* r, sw_showcase_metrics* m) {
    sw__sc_rag* ra = &r->rag;
    const uint32_t n = ra->skel->packets_count;
    sw_ragdoll_status st;
    sw_result res = sw_ragdoll_status_get(ra->rd, &st);
    if (res != SW_RESULT_OK) return res;
    r->clip = st.facing == SW_RAGDOLL_FACING_DOWN ? 1u : 0u;
    if (r->clip == 0u)
        ++m->getups_face_up;
    else
        ++m->getups_face_down;
    m->settle_time_last = r->phase_time;
    m->settle_time_max = fmaxf(m->settle_time_max, r->phase_time);
    /* the clip's first pose (into the scratch pose) decides the root; the
     * pose kept is the ragdoll's as shown, hands and feet from the idle */
    sw__sc_sample(ra->skel, r->getup[r->clip], 0.0f, ra->physics);
    sw_xform root;
    res = sw_ragdoll_align_root(ra->rd, ra->physics, n, 0.0f, &root, NULL);
    if (res != SW_RESULT_OK) return res;
    res = sw_ragdoll_read(ra->rd, 1.0f, root, ra->anim, n, r->frozen, n);
    if (res != SW_RESULT_OK) return res;
    /* the blend's length from the farthest a joint has to go */
    sw__sc_rag_models(ra->skel, r->frozen, root, ra->anim_model);
    sw__sc_rag_models(ra->skel, ra->physics, root, r->clip_only.model);
    float far = 0.0f;
    for (uint32_t j = 0; j < ra->skel->joints_count; ++j) {
        const float* a = ra->anim_model[j].m;
        const float* b = r->clip_only.model[j].m;
        far = fmaxf(far, sw_vec3_length(sw_vec3_make(a[12] - b[12], a[13] - b[13], a[14] - b[14])));
    }
    r->blend =
        fminf(fmaxf(sqrtf(6.0f * far / SW__RAG_BLEND_ACCEL), SW__RAG_BLEND_MIN), SW__RAG_BLEND_MAX);
    /* each foot's path and lift: the ground it covers from the ragdoll to the clip */
    for (uint32_t l = 0; l < 2; ++l) {
        const int32_t e = ra->limbs[l].end;
        if (e < 0) continue;
        r->foot_from[l] = sw__sc_pos(&ra->anim_model[e]);
        r->foot_to[l] = sw__sc_pos(&r->clip_only.model[e]);
        r->step[l] = SW__RAG_STEP_LIFT * sw__sc_hdist(r->foot_from[l], r->foot_to[l]);
    }
    ra->root = root;
    r->phase = SW_SHOWCASE_KNOCKDOWN_GETTING_UP;
    r->phase_time = 0.0f;
    r->clip_vel.valid = 0u;
    return sw_ragdoll_set_all(ra->rd, SW_RAGDOLL_MODE_KINEMATIC, 1.0f, 0.0f);
}

/* Time in the get-up clip: it starts once the blend into its first pose is over. */
static float sw__rag_clip_time(const sw__knock* r) {
    return fmaxf(r->phase_time - r->blend, 0.0f);
}

/* Where foot l's ankle goes at the blend's progress u (p: where the blend
 * has it): a lying foot along its step, a foot in the air lifted over p. */
static sw_vec3 sw__rag_step_target(const sw__knock* r, uint32_t l, float u, sw_vec3 p) {
    const float lift = r->step[l] * 16.0f * u * u * (1.0f - u) * (1.0f - u);
    if (!r->lying[l]) return sw_vec3_make(p.x, p.y + lift, p.z);
    const float up = sw__sc_smoothstep(0.0f, 1.0f, u);
    const float along = sw__sc_smoothstep(SW__RAG_STEP_WAIT, 1.0f - SW__RAG_STEP_WAIT, u);
    const sw_vec3 p0 = r->foot_from[l], p1 = r->foot_to[l];
    const sw_vec3 path =
        sw_vec3_make(p0.x + (p1.x - p0.x) * along, p0.y + (p1.y - p0.y) * up + lift,
                     p0.z + (p1.z - p0.z) * along);
    return sw_vec3_lerp(path, p, sw__sc_smoothstep(SW__RAG_STEP_BACK, 1.0f, u));
}

/* Moves the blended pose's feet along their steps (u: the blend's
 * progress) with two-bone IK; a foot in the air keeps its world
 * orientation, a lying one turns with its shin as the guard's lift turned
 * it (the local-space blend alone drags a lying foot through the ground:
 * 10 cm under it halfway on the face-up get-up). Fails: the IK job's
 * result. */
static sw_result sw__rag_step(sw__knock* r, float u) {
    sw__sc_rag* ra = &r->rag;
    sw__sc_actor* a = &r->anim_view;
    a->world = sw_mat4_from_xform(ra->root);
    sw__sc_view_models(a);
    for (uint32_t l = 0; l < 2; ++l) {
        const sw__sc_rag_limb* lb = &ra->limbs[l];
        if (lb->start < 0 || lb->mid < 0 || lb->end < 0 || !(r->step[l] > 0.0f) || !(u > 0.0f) ||
            !(u < 1.0f))
            continue;
        const sw_quat keep = sw__sc_rotation(&a->model[lb->end]);
        const sw_result res =
            sw__sc_view_two_bone(a, lb->start, lb->mid, lb->end,
                                 sw__rag_step_target(r, l, u, sw__sc_pos(&a->model[lb->end])));
        if (res != SW_RESULT_OK) return res;
        if (r->lying[l]) continue;
        sw__sc_view_set_rotation(a, (uint32_t)lb->end, keep);
        sw__sc_view_models(a);
    }
    return SW_RESULT_OK;
}

/* The knock-down actor's animation for this update (before the steps). */
static sw_result sw__rag_knock_anim(sw__knock* r, float dt) {
    sw__sc_rag* ra = &r->rag;
    switch (r->phase) {
    case SW_SHOWCASE_KNOCKDOWN_GETTING_UP: {
        /* the clip waits at its first pose while the blend lasts */
        r->phase_time += dt;
        const sw_clip* c = r->getup[r->clip];
        sw__sc_sample(ra->skel, c, sw__rag_clip_time(r), ra->physics);
        const float u = fminf(r->phase_time / r->blend, 1.0f);
        const float w = 1.0f - u * u * (3.0f - 2.0f * u);
        (void)sw__rag_mix(ra->skel, r->frozen, ra->physics, w, ra->anim);
        return sw__rag_step(r, u);
    }
    default:
        /* standing, or falling: hands and feet (no bodies) keep the idle's */
        if (r->phase == SW_SHOWCASE_KNOCKDOWN_FALLING) r->phase_time += dt;
        r->idle_time += dt;
        sw__sc_sample(ra->skel, r->idle, fmodf(r->idle_time, r->idle->duration), ra->anim);
        break;
    }
    return SW_RESULT_OK;
}

/* This update's animation and, when due, the hit (before the physics steps). */
static sw_result sw__knock_update(void* state, sw__sc_ctx* ctx, sw__sc_actor* view, float dt) {
    (void)view;
    sw__knock* r = (sw__knock*)state;
    const sw_result res = sw__rag_knock_anim(r, dt);
    if (res != SW_RESULT_OK) return res;
    return sw__rag_knock_begin(r, ctx->time, &r->m);
}

static sw_result sw__knock_after_physics(void* state, sw__sc_ctx* ctx, sw__sc_actor* view, float dt,
                                         float alpha) {
    sw__knock* r = (sw__knock*)state;
    sw__sc_rag* ra = &r->rag;
    const sw_skeleton* s = ra->skel;
    sw_showcase_metrics* m = &r->m;
    sw_result res = SW_RESULT_OK;
    bool began = false;
    if (r->phase == SW_SHOWCASE_KNOCKDOWN_FALLING) {
        sw_ragdoll_status st;
        res = sw_ragdoll_status_get(ra->rd, &st);
        if (res != SW_RESULT_OK) return res;
        if ((st.settled && r->phase_time >= SW__RAG_MIN_FALL) ||
            r->phase_time >= SW__RAG_SETTLE_TIMEOUT) {
            res = sw__rag_getup_begin(r, m);
            if (res != SW_RESULT_OK) return res;
            memcpy(ra->anim, r->frozen, s->packets_count * sizeof(sw_xform4));
            began = true;
        }
    }
    if (r->phase == SW_SHOWCASE_KNOCKDOWN_FALLING) {
        res = sw__sc_rag_show(ra, view, alpha);
        if (res != SW_RESULT_OK) return res;
    } else {
        memcpy(view->local, ra->anim, s->packets_count * sizeof(sw_xform4));
    }
    sw__sc_rag_place(ra, view);
    res = sw__sc_rag_ground(ra, view, dt);
    if (res != SW_RESULT_OK) return res;
    /* the steps begin where the guard shows the feet (a foot lying on its
     * heel has its ankle lifted 9 cm): from under it, the step's rise would
     * reach the guard's height at speed and the knee jump; less the lift of
     * the whole body, which the guard adds again after the step */
    for (uint32_t l = 0; began && l < 2; ++l) {
        const sw__sc_rag_limb* lb = &ra->limbs[l];
        if (lb->end < 0 || lb->mid < 0) continue;
        r->foot_from[l] = sw__sc_pos(&view->model[lb->end]);
        r->foot_from[l].y -= view->world.m[13] - ra->root.t.y;
        r->lying[l] = r->foot_from[l].y < sw__sc_pos(&view->model[lb->mid]).y;
    }
    const float jump = sw__sc_velocity_jump(&r->shown_vel, view, dt);
    if (r->phase == SW_SHOWCASE_KNOCKDOWN_GETTING_UP) {
        if (r->phase_time <= r->blend)
            m->getup_velocity_jump_max = fmaxf(m->getup_velocity_jump_max, jump);
        /* the clip alone at the same updates */
        sw__sc_sample(s, r->getup[r->clip], sw__rag_clip_time(r), ra->physics);
        sw__sc_rag_models(s, ra->physics, ra->root, r->clip_only.model);
        m->getup_clip_noise_max =
            fmaxf(m->getup_clip_noise_max, sw__sc_velocity_jump(&r->clip_vel, &r->clip_only, dt));
        if (sw__rag_clip_time(r) >= r->getup[r->clip]->duration) {
            ++m->getups_done;
            r->phase = SW_SHOWCASE_KNOCKDOWN_STANDING;
            r->idle_time = 0.0f; /* the clip ended in idle's first pose */
            r->next_knock = ctx->time + SW__RAG_STAND;
        }
    }
    return SW_RESULT_OK;
}

static void sw__knock_metrics(const void* state, sw_showcase_metrics* m, sw_showcase_status* st) {
    const sw__knock* r = (const sw__knock*)state;
    m->knockdowns = r->m.knockdowns;
    m->getups_face_up = r->m.getups_face_up;
    m->getups_face_down = r->m.getups_face_down;
    m->getups_done = r->m.getups_done;
    m->settle_time_max = r->m.settle_time_max;
    m->settle_time_last = r->m.settle_time_last;
    m->getup_velocity_jump_max = r->m.getup_velocity_jump_max;
    m->getup_clip_noise_max = r->m.getup_clip_noise_max;
    st->knockdown_phase = r->phase;
}

static void sw__knock_destroy(void* state) {
    sw__sc_rag_despawn(&((sw__knock*)state)->rag);
}

const sw__sc_actor_class sw__sc_knockdown = {.name = "knockdown",
                                             .material = SW_SHOWCASE_MATERIAL_HIT,
                                             .physics = true,
                                             .create = sw__knock_create,
                                             .update = sw__knock_update,
                                             .after_physics = sw__knock_after_physics,
                                             .metrics = sw__knock_metrics,
                                             .destroy = sw__knock_destroy};
