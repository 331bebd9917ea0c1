/* The showcase's ragdoll actors, "powered" and "knockdown" (sinew/showcase/scene.h),
 * on whatever physics engine the options give (sw_physics).
 *
 * Both ragdolls live in one engine and share one fixed-step stepper: per
 * update, the animation of each actor is computed first, then every fixed
 * step drives both ragdolls, steps the engine once and captures both, and
 * finally each actor reads its ragdoll back (interpolated) and blends it
 * with its animation. */
#include "showcase/scene_internal.h"
#include "sinew/showcase/character.h"

/* Spots (x, z) on flat ground behind the other actors. */
#define SW__RAG_WALK_X 0.6f
#define SW__RAG_WALK_Z (-4.6f)
#define SW__RAG_WALK_R 0.8f /* circle radius (m) */
#define SW__RAG_KNOCK_X (-1.2f)
#define SW__RAG_KNOCK_Z (-6.4f)
#define SW__RAG_KNOCK_RANGE 0.5f /* m from its spot before hits push it back */
/* "powered": an impulse every SW__RAG_IMPULSE_EVERY s of 20..40 N s. */
#define SW__RAG_IMPULSE_EVERY 0.35
#define SW__RAG_IMPULSE_MIN 20.0f
#define SW__RAG_IMPULSE_RANGE 20.0f
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

typedef struct sw__rag_actor {
    sw__sc_actor* actor;
    sw_ragdoll* rd;
    sw_xform4* anim;     /* animated local pose */
    sw_xform4* physics;  /* pose read back from the bodies */
    sw_mat4* anim_model; /* animated model matrices (world) */
    sw_xform root;       /* model -> world */
} sw__rag_actor;

struct sw__sc_rag {
    sw_result (*step)(void* user);
    void* step_user;
    sw_ragdoll_stepper stepper;
    const sw_skeleton* skel;
    const sw_clip* idle;
    const sw_clip* walk;
    float walk_speed; /* m/s */
    const sw_clip* getup[SW_SHOWCASE_GETUP_CLIPS];
    uint32_t chest; /* skeleton joint of the body the knock-down hit lands on */
    sw__rag_actor powered, knock;
    uint32_t rng;
    /* powered */
    float walk_time, walk_angle;
    double next_impulse;
    double error_sum;
    uint32_t error_count;
    /* knockdown */
    uint32_t phase;
    double next_knock;
    float phase_time, idle_time;
    uint32_t clip;          /* get-up clip playing */
    float blend;            /* seconds the blend into it lasts */
    sw_xform4* frozen;      /* the ragdoll's pose where the get-up began */
    sw__sc_actor clip_only; /* the get-up clip alone (its velocity noise) */
    sw__sc_velocity shown_vel, clip_vel;
};

static uint32_t sw__rag_next(sw__sc_rag* r) {
    uint32_t x = r->rng; /* xorshift32 */
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    r->rng = x;
    return x;
}

static float sw__rag_unit(sw__sc_rag* r) {
    return (float)(sw__rag_next(r) >> 8) * (1.0f / 16777216.0f);
}

static void sw__rag_sample(const sw_skeleton* s, const sw_clip* clip, float time, sw_xform4* out) {
    const sw_sample_job job = {
        .clip = clip, .skeleton = s, .time = time, .out = out, .out_count = s->packets_count};
    (void)sw_sample_job_run(&job);
}

static void sw__rag_models(const sw_skeleton* s, const sw_xform4* local, sw_xform root,
                           sw_mat4* out) {
    const sw_mat4 world = sw_mat4_from_xform(root);
    const sw_local_to_model_job job = {.skeleton = s,
                                       .local = local,
                                       .local_count = s->packets_count,
                                       .root_transform = &world,
                                       .out = out,
                                       .out_count = s->joints_count};
    (void)sw_local_to_model_job_run(&job);
}

static sw_result sw__rag_velocity(sw__sc_mem* m, sw__sc_velocity* v, uint32_t joints) {
    v->prev_pos = (sw_vec3*)sw__sc_alloc(m, joints * sizeof(sw_vec3));
    v->prev_vel = (sw_vec3*)sw__sc_alloc(m, joints * sizeof(sw_vec3));
    return v->prev_pos && v->prev_vel ? SW_RESULT_OK : SW_RESULT_OUT_OF_MEMORY;
}

static sw_result sw__rag_actor_init(sw__sc_mem* m, const sw_ragdoll_desc* desc,
                                    const sw_skeleton* s, const sw_physics* physics,
                                    sw__sc_actor* actor, sw__rag_actor* ra, sw_error* err) {
    ra->actor = actor;
    const size_t pose_bytes = s->packets_count * sizeof(sw_xform4);
    ra->anim = (sw_xform4*)sw__sc_alloc(m, pose_bytes);
    ra->physics = (sw_xform4*)sw__sc_alloc(m, pose_bytes);
    ra->anim_model = (sw_mat4*)sw__sc_alloc(m, s->joints_count * sizeof(sw_mat4));
    const size_t size = sw_ragdoll_measure(desc, s);
    void* mem = sw__sc_alloc(m, size);
    if (!ra->anim || !ra->physics || !ra->anim_model || !mem) return SW_RESULT_OUT_OF_MEMORY;
    return sw_ragdoll_init(mem, size, desc, s, physics, &ra->rd, err);
}

/* The walk at walk_time, in place (root motion taken out), and the root on
 * the circle at walk_angle, facing along it. */
static void sw__rag_walk_pose(sw__sc_rag* r) {
    sw__rag_actor* ra = &r->powered;
    const float dur = r->walk->duration;
    const float t = fmodf(r->walk_time, dur);
    sw__rag_sample(r->skel, r->walk, t, ra->anim);
    sw_xform hips = sw_pose_get(ra->anim, 0);
    hips.t.z -= r->walk_speed * t;
    sw_pose_set(ra->anim, 0, hips);
    const float a = r->walk_angle;
    ra->root = sw_xform_identity();
    ra->root.t = sw_vec3_make(SW__RAG_WALK_X + SW__RAG_WALK_R * sinf(a), 0.0f,
                              SW__RAG_WALK_Z + SW__RAG_WALK_R * cosf(a));
    ra->root.r = sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), a + 1.5707963f);
}

/* At its spot, facing +X (it falls along X, clear of the props). */
static sw_xform sw__rag_knock_root(void) {
    sw_xform x = sw_xform_identity();
    x.t = sw_vec3_make(SW__RAG_KNOCK_X, 0.0f, SW__RAG_KNOCK_Z);
    x.r = sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), 1.5707963f);
    return x;
}

sw_result sw__sc_rag_create(sw__sc_mem* m, const sw_showcase_options* o, const sw_scene* humanoid,
                            sw__sc_actor* powered, sw__sc_actor* knock, sw__sc_rag** out,
                            sw_error* err) {
    sw__sc_rag* r = (sw__sc_rag*)sw__sc_alloc(m, sizeof *r);
    if (!r) return SW_RESULT_OUT_OF_MEMORY;
    *out = r;
    const sw_skeleton* s = humanoid->skeleton;
    r->step = o->physics_step;
    r->step_user = o->physics_user;
    r->stepper.step = o->physics_step_size;
    r->skel = s;
    r->idle = humanoid->clips[0];
    r->walk = humanoid->clips[1];
    r->rng = (o->seed ^ 0x9e3779b9u) | 1u;
    sw_result res = sw_showcase_humanoid_getup(humanoid, &m->alloc, r->getup, err);
    if (res != SW_RESULT_OK) return res;
    for (uint32_t c = 0; c < SW_SHOWCASE_GETUP_CLIPS; ++c) {
        if (m->clips_count == SW__SC_MAX_OWNED) {
            sw_clip_destroy(r->getup[c], &m->alloc);
            r->getup[c] = NULL;
            return SW_RESULT_LIMIT;
        }
        m->clips[m->clips_count++] = r->getup[c];
    }
    r->frozen = (sw_xform4*)sw__sc_alloc(m, s->packets_count * sizeof(sw_xform4));
    r->clip_only.skel = s;
    r->clip_only.model = (sw_mat4*)sw__sc_alloc(m, s->joints_count * sizeof(sw_mat4));
    if (!r->frozen || !r->clip_only.model) return SW_RESULT_OUT_OF_MEMORY;
    /* the walk's speed from its root motion (the frozen pose as scratch) */
    sw__rag_sample(s, r->walk, 0.0f, r->frozen);
    const float z0 = sw_pose_get(r->frozen, 0).t.z;
    sw__rag_sample(s, r->walk, r->walk->duration, r->frozen);
    r->walk_speed = (sw_pose_get(r->frozen, 0).t.z - z0) / r->walk->duration;
    res = sw__rag_velocity(m, &r->shown_vel, s->joints_count);
    if (res == SW_RESULT_OK) res = sw__rag_velocity(m, &r->clip_vel, s->joints_count);
    if (res != SW_RESULT_OK) return res;

    /* one ragdoll description for both */
    const char* const names[] = {
        "Hips",       "Spine",       "Spine1",       "Neck",     "Head",      "LeftArm",
        "RightArm",   "LeftForeArm", "RightForeArm", "LeftHand", "RightHand", "LeftUpLeg",
        "RightUpLeg", "LeftLeg",     "RightLeg",     "LeftFoot", "RightFoot"};
    int32_t j[17];
    for (uint32_t k = 0; k < 17u; ++k)
        j[k] = sw_skeleton_find_joint(s, names[k]);
    r->chest = (uint32_t)j[2];
    const sw_ragdoll_humanoid_joints hj = {
        .hips = j[0],
        .spine = j[1],
        .chest = j[2],
        .neck = j[3],
        .head = j[4],
        .upper_arm = {j[5], j[6]},
        .forearm = {j[7], j[8]},
        .hand = {j[9], j[10]},
        .thigh = {j[11], j[12]},
        .shin = {j[13], j[14]},
        .foot = {j[15], j[16]},
    };
    sw_ragdoll_desc desc;
    res = sw_ragdoll_desc_humanoid(s, &hj, NULL, &desc, NULL, err);
    if (res == SW_RESULT_OK)
        res = sw__rag_actor_init(m, &desc, s, o->physics, powered, &r->powered, err);
    if (res == SW_RESULT_OK)
        res = sw__rag_actor_init(m, &desc, s, o->physics, knock, &r->knock, err);
    if (res != SW_RESULT_OK) return res;

    /* powered: hips carried by the animation, the rest simulated and pulled to it */
    sw__rag_walk_pose(r);
    res = sw_ragdoll_spawn(r->powered.rd, r->powered.anim, s->packets_count, r->powered.root, 1u,
                           err);
    if (res == SW_RESULT_OK)
        res = sw_ragdoll_set_all(r->powered.rd, SW_RAGDOLL_MODE_DYNAMIC, 1.0f, 1.0f);
    if (res == SW_RESULT_OK) res = sw_ragdoll_set_mode(r->powered.rd, 0, SW_RAGDOLL_MODE_KINEMATIC);
    /* knockdown: standing idle, kinematic */
    r->knock.root = sw__rag_knock_root();
    sw__rag_sample(s, r->idle, 0.0f, r->knock.anim);
    if (res == SW_RESULT_OK)
        res =
            sw_ragdoll_spawn(r->knock.rd, r->knock.anim, s->packets_count, r->knock.root, 2u, err);
    r->phase = SW_SHOWCASE_KNOCKDOWN_STANDING;
    r->next_knock = SW__RAG_FIRST_KNOCK;
    r->next_impulse = SW__RAG_IMPULSE_EVERY;
    return res;
}

void sw__sc_rag_destroy(sw__sc_rag* r) {
    if (!r) return;
    if (r->powered.rd) sw_ragdoll_despawn(r->powered.rd);
    if (r->knock.rd) sw_ragdoll_despawn(r->knock.rd);
}

uint32_t sw__sc_rag_phase(const sw__sc_rag* r) {
    return r ? r->phase : SW_SHOWCASE_KNOCKDOWN_NONE;
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

/* Shows the ragdoll's pose blended with the animation by the ragdoll's weights. */
static sw_result sw__rag_show(const sw__sc_rag* r, sw__rag_actor* ra, float alpha) {
    const uint32_t n = r->skel->packets_count;
    sw_result res = sw_ragdoll_read(ra->rd, alpha, ra->root, ra->anim, n, ra->physics, n);
    if (res == SW_RESULT_OK)
        res = sw_ragdoll_blend(ra->rd, ra->anim, ra->physics, ra->actor->local, n);
    return res;
}

static void sw__rag_place(sw__rag_actor* ra) {
    ra->actor->world = sw_mat4_from_xform(ra->root);
    sw__rag_models(ra->actor->skel, ra->actor->local, ra->root, ra->actor->model);
}

/* Knock-down events before the physics steps: the hit. */
static sw_result sw__rag_knock_begin(sw__sc_rag* r, double time, sw_showcase_metrics* m) {
    sw__rag_actor* ra = &r->knock;
    if (r->phase != SW_SHOWCASE_KNOCKDOWN_STANDING || time < r->next_knock) return SW_RESULT_OK;
    sw_result res = sw_ragdoll_set_all(ra->rd, SW_RAGDOLL_MODE_DYNAMIC, 0.0f, 1.0f);
    if (res != SW_RESULT_OK) return res;
    const int32_t chest = sw_ragdoll_find_body(ra->rd, r->chest);
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
static sw_result sw__rag_getup_begin(sw__sc_rag* r, sw_showcase_metrics* m) {
    sw__rag_actor* ra = &r->knock;
    const uint32_t n = r->skel->packets_count;
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
    sw__rag_sample(r->skel, r->getup[r->clip], 0.0f, ra->physics);
    sw_xform root;
    res = sw_ragdoll_align_root(ra->rd, ra->physics, n, 0.0f, &root, NULL);
    if (res != SW_RESULT_OK) return res;
    res = sw_ragdoll_read(ra->rd, 1.0f, root, ra->anim, n, r->frozen, n);
    if (res != SW_RESULT_OK) return res;
    /* the blend's length from the farthest a joint has to go */
    sw__rag_models(r->skel, r->frozen, root, ra->anim_model);
    sw__rag_models(r->skel, ra->physics, root, r->clip_only.model);
    float far = 0.0f;
    for (uint32_t j = 0; j < r->skel->joints_count; ++j) {
        const float* a = ra->anim_model[j].m;
        const float* b = r->clip_only.model[j].m;
        far = fmaxf(far, sw_vec3_length(sw_vec3_make(a[12] - b[12], a[13] - b[13], a[14] - b[14])));
    }
    r->blend =
        fminf(fmaxf(sqrtf(6.0f * far / SW__RAG_BLEND_ACCEL), SW__RAG_BLEND_MIN), SW__RAG_BLEND_MAX);
    ra->root = root;
    r->phase = SW_SHOWCASE_KNOCKDOWN_GETTING_UP;
    r->phase_time = 0.0f;
    r->clip_vel.valid = 0u;
    return sw_ragdoll_set_all(ra->rd, SW_RAGDOLL_MODE_KINEMATIC, 1.0f, 0.0f);
}

/* Time in the get-up clip: it starts once the blend into its first pose is over. */
static float sw__rag_clip_time(const sw__sc_rag* r) {
    return fmaxf(r->phase_time - r->blend, 0.0f);
}

/* The knock-down actor's animation for this update (before the steps). */
static void sw__rag_knock_anim(sw__sc_rag* r, float dt) {
    sw__rag_actor* ra = &r->knock;
    switch (r->phase) {
    case SW_SHOWCASE_KNOCKDOWN_GETTING_UP: {
        /* the clip waits at its first pose while the blend lasts */
        r->phase_time += dt;
        const sw_clip* c = r->getup[r->clip];
        sw__rag_sample(r->skel, c, sw__rag_clip_time(r), ra->physics);
        const float u = fminf(r->phase_time / r->blend, 1.0f);
        const float w = 1.0f - u * u * (3.0f - 2.0f * u);
        (void)sw__rag_mix(r->skel, r->frozen, ra->physics, w, ra->anim);
        break;
    }
    default:
        /* standing, or falling: hands and feet (no bodies) keep the idle's */
        if (r->phase == SW_SHOWCASE_KNOCKDOWN_FALLING) r->phase_time += dt;
        r->idle_time += dt;
        sw__rag_sample(r->skel, r->idle, fmodf(r->idle_time, r->idle->duration), ra->anim);
        break;
    }
}

static sw_result sw__rag_drive(sw__rag_actor* ra, float step) {
    const sw_ragdoll_drive_desc d = {.pose = ra->anim,
                                     .pose_count = ra->actor->skel->packets_count,
                                     .root = ra->root,
                                     .step = step};
    return sw_ragdoll_drive(ra->rd, &d, NULL);
}

sw_result sw__sc_rag_update(sw__sc_rag* r, double time, float dt, sw_showcase_metrics* m) {
    const sw_skeleton* s = r->skel;
    /* animation */
    r->walk_time += dt;
    r->walk_angle += r->walk_speed * dt / SW__RAG_WALK_R;
    sw__rag_walk_pose(r);
    sw__rag_knock_anim(r, dt);
    /* events */
    sw_result res = SW_RESULT_OK;
    if (time >= r->next_impulse) {
        r->next_impulse += SW__RAG_IMPULSE_EVERY;
        const uint32_t bodies = sw_ragdoll_bodies_count(r->powered.rd);
        const uint32_t b = 1u + sw__rag_next(r) % (bodies - 1u); /* not the carried hips */
        const float a = 6.2831853f * sw__rag_unit(r);
        const float size = SW__RAG_IMPULSE_MIN + SW__RAG_IMPULSE_RANGE * sw__rag_unit(r);
        const sw_vec3 dir = sw_vec3_normalize(sw_vec3_make(cosf(a), 0.2f, sinf(a)));
        const sw_physics_body_state st = sw_ragdoll_body_state(r->powered.rd, b);
        res = sw_ragdoll_apply_impulse(r->powered.rd, b, sw_vec3_scale(dir, size), st.transform.t);
        ++m->ragdoll_impulses;
    }
    if (res == SW_RESULT_OK) res = sw__rag_knock_begin(r, time, m);
    /* physics */
    float alpha = 0.0f;
    const uint32_t steps = sw_ragdoll_stepper_advance(&r->stepper, dt, &alpha);
    const float h = r->stepper.step;
    for (uint32_t i = 0; i < steps && res == SW_RESULT_OK; ++i) {
        res = sw__rag_drive(&r->powered, h);
        if (res == SW_RESULT_OK) res = sw__rag_drive(&r->knock, h);
        if (res == SW_RESULT_OK) res = r->step(r->step_user);
        if (res == SW_RESULT_OK) res = sw_ragdoll_capture(r->powered.rd, h);
        if (res == SW_RESULT_OK) res = sw_ragdoll_capture(r->knock.rd, h);
    }
    if (res != SW_RESULT_OK) return res;
    /* powered: shown, and its distance from the animation */
    res = sw__rag_show(r, &r->powered, alpha);
    if (res != SW_RESULT_OK) return res;
    sw__rag_place(&r->powered);
    sw__rag_models(s, r->powered.anim, r->powered.root, r->powered.anim_model);
    const uint32_t bodies = sw_ragdoll_bodies_count(r->powered.rd);
    float err = 0.0f;
    for (uint32_t b = 0; b < bodies; ++b) {
        const uint32_t j = sw_ragdoll_body_joint(r->powered.rd, b);
        const sw_mat4* p = &r->powered.actor->model[j];
        const sw_mat4* q = &r->powered.anim_model[j];
        const sw_vec3 d =
            sw_vec3_make(p->m[12] - q->m[12], p->m[13] - q->m[13], p->m[14] - q->m[14]);
        err += sw_vec3_length(d);
    }
    err /= (float)bodies;
    r->error_sum += (double)err;
    m->ragdoll_tracking_error_max = fmaxf(m->ragdoll_tracking_error_max, err);
    m->ragdoll_tracking_error_mean = (float)(r->error_sum / (double)++r->error_count);
    /* knockdown */
    sw__rag_actor* ra = &r->knock;
    if (r->phase == SW_SHOWCASE_KNOCKDOWN_FALLING) {
        sw_ragdoll_status st;
        res = sw_ragdoll_status_get(ra->rd, &st);
        if (res != SW_RESULT_OK) return res;
        if ((st.settled && r->phase_time >= SW__RAG_MIN_FALL) ||
            r->phase_time >= SW__RAG_SETTLE_TIMEOUT) {
            res = sw__rag_getup_begin(r, m);
            if (res != SW_RESULT_OK) return res;
            memcpy(ra->anim, r->frozen, s->packets_count * sizeof(sw_xform4));
        }
    }
    if (r->phase == SW_SHOWCASE_KNOCKDOWN_FALLING) {
        res = sw__rag_show(r, ra, alpha);
        if (res != SW_RESULT_OK) return res;
    } else {
        memcpy(ra->actor->local, ra->anim, s->packets_count * sizeof(sw_xform4));
    }
    sw__rag_place(ra);
    const float jump = sw__sc_velocity_jump(&r->shown_vel, ra->actor, dt);
    if (r->phase == SW_SHOWCASE_KNOCKDOWN_GETTING_UP) {
        if (r->phase_time <= r->blend)
            m->getup_velocity_jump_max = fmaxf(m->getup_velocity_jump_max, jump);
        /* the clip alone at the same updates */
        sw__rag_sample(s, r->getup[r->clip], sw__rag_clip_time(r), ra->physics);
        sw__rag_models(s, ra->physics, ra->root, r->clip_only.model);
        m->getup_clip_noise_max =
            fmaxf(m->getup_clip_noise_max, sw__sc_velocity_jump(&r->clip_vel, &r->clip_only, dt));
        if (sw__rag_clip_time(r) >= r->getup[r->clip]->duration) {
            ++m->getups_done;
            r->phase = SW_SHOWCASE_KNOCKDOWN_STANDING;
            r->idle_time = 0.0f; /* the clip ended in idle's first pose */
            r->next_knock = time + SW__RAG_STAND;
        }
    }
    return SW_RESULT_OK;
}
