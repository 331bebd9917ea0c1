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
/* Each hand swings from where the guard shows it to the clip's about its
 * shoulder: its reach (shoulder to wrist) goes from one to the other and
 * its direction turns the shorter way round (smoothstep), or over the top
 * when that way turns more than SW__RAG_SWING_OVER radians and passes
 * under the shoulder; the direction is lifted by SW__RAG_SWING_LIFT times
 * the chord between its two ends at the blend's middle. The local-space
 * blend alone turns an arm the way its joints turn, through the ground
 * when the ragdoll lies on it (a 180 s demo run: a hand 47 cm under it on a
 * face-down get-up, where the guard's lift then flipped the elbow over:
 * 17.9 m/s). The hand's world turn goes from where the guard shows it to
 * the clip's (slerp, smoothstep): turned with its forearm, a hand swinging
 * forward along the ground on a face-down get-up dug its fingers in, and
 * the guard's lift of it (13 cm) raised the folded elbow 0.8 m/s hard
 * (600 s demo runs at 60 fps). */
#define SW__RAG_SWING_OVER 2.0943951f
#define SW__RAG_SWING_LIFT 0.5f
/* The steps and swings are two-bone IK whose knee or elbow bends toward a
 * direction of its own, never the blended pose's bend, which flips where
 * its limb passes straight. A knee's is carried from one update to the
 * next (where the IK bent it last, across the leg's new axis) and turned
 * toward the clip's as the blend goes on (smoothstep). An elbow's is its
 * bend where the blend begins, turned about the arm by a fixed angle over
 * the blend (smoothstep; the shorter way to the clip's bend carried back
 * along the swing) and carried along the swing: the clip's bend seen
 * across the swinging arm spins where the arm swings past it, and turning
 * toward it reversed an elbow's turn (600 s demo runs at 30 fps: 1.7 m/s).
 * A step's reach is eased (the IK's softness, SW__RAG_STEP_SOFT at the
 * blend's middle, none at its ends), so a lifted foot never pulls its leg
 * straight, out of which the knee comes with a jump. */
#define SW__RAG_STEP_SOFT 0.15f
/* Before each step or swing the blended limb is bent about a hinge of its
 * own, at least SW__RAG_HINGE_MIN radians: the two-bone IK turns the mid
 * joint about the bend it finds and rolls the limb about its axis to put
 * the knee where asked, so where the blended knee passes (nearly) straight
 * its bend's normal sweeps round and the roll with it, the foot spinning
 * about the leg (600 s demo runs at 30 fps: a toe at 6.3 m/s). The hinge
 * (in the limb's start joint's space) turns from the bend's normal where
 * the blend begins to the clip's (smoothstep), about the upper bone. */
#define SW__RAG_HINGE_MIN 0.02f
/* A step's ankle never goes lower than the lower of its two ends, eased in
 * over SW__RAG_STEP_EASE m under it (sw__sc_soft_floor): the blend a
 * foot in the air follows can dive into the ground, where the guard stops
 * it at once (1.0 m/s on a face-up get-up at 60 Hz). Nor does a stepping
 * leg's knee, its bend turned up about the leg's axis as far as needed: a
 * folded leg turning its knee down toward the clip's on a face-down get-up
 * put it in the ground, where the guard's lift of the whole body turned
 * from falling to rising within a frame (1.17 m/s, a 600 s demo run at 60
 * fps). */
#define SW__RAG_STEP_EASE 0.03f

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
    bool lying[2];         /* each foot on the ground (its ankle under its knee) there */
    float knee_low[2];     /* the lower of each knee's heights (world) there */
    sw_vec3 reach_from[2]; /* each hand from its shoulder (world) where the blend begins and ends */
    sw_vec3 reach_to[2];
    sw_quat hand_from[2]; /* each hand's world turn there */
    sw_quat hand_to[2];
    sw_vec3 swing_axis[2]; /* each hand's direction turns about it (unit, world) */
    float swing[2];        /* by so many radians over the blend */
    sw_vec3 bend[4];       /* each limb's bend (legs, arms; unit, world): a knee's where its IK
                              left it, an elbow's where the blend begins */
    sw_vec3 bend_to[4];    /* and in the clip's first pose */
    sw_vec3 hinge_from[4]; /* each limb's bend normal (unit, its start joint's space) there */
    sw_vec3 hinge_to[4];
    float twist[2];         /* radians each elbow's bend turns about its arm over the blend */
    float bent_at;          /* the blend's progress at the last IK */
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

/* v less its part along unit axis a. */
static sw_vec3 sw__rag_across(sw_vec3 v, sw_vec3 a) {
    return sw_vec3_sub(v, sw_vec3_scale(a, sw_vec3_dot(v, a)));
}

/* Limb lb's bend in view a: the unit direction from its start-end axis to
 * its mid joint (zero for a straight limb). */
static sw_vec3 sw__rag_bend(const sw__sc_actor* a, const sw__sc_rag_limb* lb) {
    const sw_vec3 start = sw__sc_pos(&a->model[lb->start]);
    const sw_vec3 axis = sw_vec3_normalize(sw_vec3_sub(sw__sc_pos(&a->model[lb->end]), start));
    return sw_vec3_normalize(
        sw__rag_across(sw_vec3_sub(sw__sc_pos(&a->model[lb->mid]), start), axis));
}

/* Limb lb's hinge in view a: the unit normal of its bend in its start
 * joint's space (zero for a straight limb). */
static sw_vec3 sw__rag_hinge(const sw__sc_actor* a, const sw__sc_rag_limb* lb) {
    const sw_vec3 mid = sw__sc_pos(&a->model[lb->mid]);
    const sw_vec3 ab = sw_vec3_sub(mid, sw__sc_pos(&a->model[lb->start]));
    const sw_vec3 bc = sw_vec3_sub(sw__sc_pos(&a->model[lb->end]), mid);
    return sw_quat_rotate(sw_quat_conjugate(sw__sc_rotation(&a->model[lb->start])),
                          sw_vec3_normalize(sw_vec3_cross(ab, bc)));
}

/* The signed angle (radians) about unit axis n from v0 to v1 (both across it). */
static float sw__rag_angle(sw_vec3 v0, sw_vec3 v1, sw_vec3 n) {
    return atan2f(sw_vec3_dot(sw_vec3_cross(v0, v1), n), sw_vec3_dot(v0, v1));
}

/* The turn of a hand's direction from unit d0 to unit d1 (SW__RAG_SWING_OVER):
 * its angle (radians); *axis receives its unit axis. */
static float sw__rag_swing(sw_vec3 d0, sw_vec3 d1, sw_vec3* axis) {
    sw_vec3 n = sw_vec3_cross(d0, d1);
    float angle = atan2f(sw_vec3_length(n), sw_vec3_dot(d0, d1));
    /* (nearly) opposite: about the horizontal across d0, over the top */
    if (sw_vec3_length(n) < 1e-3f) n = sw_vec3_cross(d0, sw_vec3_make(0.0f, 1.0f, 0.0f));
    if (!(sw_vec3_length(n) > 0.0f)) n = sw_vec3_make(1.0f, 0.0f, 0.0f);
    n = sw_vec3_normalize(n);
    const sw_vec3 mid = sw_quat_rotate(sw_quat_from_axis_angle(n, 0.5f * angle), d0);
    if (angle > SW__RAG_SWING_OVER && mid.y < 0.0f) {
        n = sw_vec3_scale(n, -1.0f);
        angle = 6.2831853f - angle;
    }
    *axis = n;
    return angle;
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
    /* each limb's bend and hinge, each hand's reach and world turn in the clip's first pose */
    r->bent_at = 0.0f;
    for (uint32_t l = 0; l < 4; ++l) {
        const sw__sc_rag_limb* lb = &ra->limbs[l];
        if (lb->start < 0 || lb->mid < 0 || lb->end < 0) continue;
        r->bend_to[l] = sw__rag_bend(&r->clip_only, lb);
        r->hinge_to[l] = sw__rag_hinge(&r->clip_only, lb);
        if (l < 2u) continue;
        r->reach_to[l - 2u] = sw_vec3_sub(sw__sc_pos(&r->clip_only.model[lb->end]),
                                          sw__sc_pos(&r->clip_only.model[lb->start]));
        r->hand_to[l - 2u] = sw__sc_rotation(&r->clip_only.model[lb->end]);
    }
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

/* A bump over the blend's progress u: 1 at its middle, 0 with no velocity
 * at either end. */
static float sw__rag_bump(float u) {
    return 16.0f * u * u * (1.0f - u) * (1.0f - u);
}

/* Height y (m) kept over height low (SW__RAG_STEP_EASE). */
static float sw__rag_over(float y, float low) {
    return sw__sc_soft_floor(y, low - SW__RAG_STEP_EASE, SW__RAG_STEP_EASE);
}

/* Where foot l's ankle goes at the blend's progress u (p: where the blend
 * has it): a lying foot along its step, a foot in the air lifted over p. */
static sw_vec3 sw__rag_step_target(const sw__knock* r, uint32_t l, float u, sw_vec3 p) {
    const float lift = r->step[l] * sw__rag_bump(u);
    const sw_vec3 p0 = r->foot_from[l], p1 = r->foot_to[l];
    sw_vec3 t = sw_vec3_make(p.x, p.y + lift, p.z);
    if (r->lying[l]) {
        const float up = sw__sc_smoothstep(0.0f, 1.0f, u);
        const float along = sw__sc_smoothstep(SW__RAG_STEP_WAIT, 1.0f - SW__RAG_STEP_WAIT, u);
        const sw_vec3 path =
            sw_vec3_make(p0.x + (p1.x - p0.x) * along, p0.y + (p1.y - p0.y) * up + lift,
                         p0.z + (p1.z - p0.z) * along);
        t = sw_vec3_lerp(path, p, sw__sc_smoothstep(SW__RAG_STEP_BACK, 1.0f, u));
    }
    t.y = sw__rag_over(t.y, fminf(p0.y, p1.y));
    return t;
}

/* The turn of arm l's hand direction at the blend's progress u (its swing). */
static sw_quat sw__rag_swing_at(const sw__knock* r, uint32_t l, float u) {
    return sw_quat_from_axis_angle(r->swing_axis[l - 2u],
                                   r->swing[l - 2u] * sw__sc_smoothstep(0.0f, 1.0f, u));
}

/* Arm l's twist: the turn about its direction where the blend begins from
 * its bend there (r->bend[l]) to the clip's carried back along the swing
 * (the shorter way); a straight arm takes the clip's bend so carried. */
static void sw__rag_elbow_begin(sw__knock* r, uint32_t l) {
    const sw_vec3 d0 = sw_vec3_normalize(r->reach_from[l - 2u]);
    const sw_vec3 back =
        sw_quat_rotate(sw_quat_conjugate(sw__rag_swing_at(r, l, 1.0f)), r->bend_to[l]);
    const sw_vec3 to = sw_vec3_normalize(sw__rag_across(back, d0));
    if (!(sw_vec3_dot(r->bend[l], r->bend[l]) > 0.0f)) r->bend[l] = to;
    r->twist[l - 2u] = sw_vec3_dot(to, to) > 0.0f ? sw__rag_angle(r->bend[l], to, d0) : 0.0f;
}

/* Where limb l's knee or elbow bends (unit, world) at the blend's progress
 * u (k: sw__rag_turn's fraction), its axis at unit `axis`: a knee's bend
 * carried across the new axis and turned by the fraction k of what it
 * lacks to the clip's; an elbow's where the blend begins, turned by that
 * part of its twist and carried along the swing. */
static sw_vec3 sw__rag_bend_at(sw__knock* r, uint32_t l, float u, float k, sw_vec3 axis) {
    if (l >= 2u) {
        const sw_vec3 d0 = sw_vec3_normalize(r->reach_from[l - 2u]);
        const float turn = r->twist[l - 2u] * sw__sc_smoothstep(0.0f, 1.0f, u);
        return sw_quat_rotate(sw__rag_swing_at(r, l, u),
                              sw_quat_rotate(sw_quat_from_axis_angle(d0, turn), r->bend[l]));
    }
    const sw_vec3 to = sw_vec3_normalize(sw__rag_across(r->bend_to[l], axis));
    sw_vec3 b = sw_vec3_normalize(sw__rag_across(r->bend[l], axis));
    if (!(sw_vec3_dot(b, b) > 0.0f)) b = to;
    const float lack = sw__rag_angle(b, to, axis);
    r->bend[l] = sw_quat_rotate(sw_quat_from_axis_angle(axis, lack * k), b);
    return r->bend[l];
}

/* Bends limb l's mid joint in the blended pose about its hinge at the
 * blend's progress u (SW__RAG_HINGE_MIN): its lower bone turned the
 * shortest way into the plane across the hinge, at least that far from
 * straight the way the hinge folds it. */
static void sw__rag_on_hinge(sw__knock* r, uint32_t l, float u) {
    sw__sc_actor* a = &r->anim_view;
    const sw__sc_rag_limb* lb = &r->rag.limbs[l];
    const sw_vec3 mid = sw__sc_pos(&a->model[lb->mid]);
    const sw_vec3 ab = sw_vec3_normalize(sw_vec3_sub(mid, sw__sc_pos(&a->model[lb->start])));
    const sw_vec3 bc = sw_vec3_sub(sw__sc_pos(&a->model[lb->end]), mid);
    const sw_quat up = sw__sc_rotation(&a->model[lb->start]);
    const sw_vec3 h1 = sw_vec3_normalize(sw__rag_across(sw_quat_rotate(up, r->hinge_to[l]), ab));
    sw_vec3 h0 = sw_vec3_normalize(sw__rag_across(sw_quat_rotate(up, r->hinge_from[l]), ab));
    if (!(sw_vec3_dot(h1, h1) > 0.0f)) return;
    if (!(sw_vec3_dot(h0, h0) > 0.0f)) h0 = h1;
    const float turn = sw__rag_angle(h0, h1, ab) * sw__sc_smoothstep(0.0f, 1.0f, u);
    const sw_vec3 h = sw_quat_rotate(sw_quat_from_axis_angle(ab, turn), h0);
    const float bend = fmaxf(sw__rag_angle(ab, bc, h), SW__RAG_HINGE_MIN);
    const sw_vec3 to =
        sw_vec3_add(sw_vec3_scale(ab, cosf(bend)), sw_vec3_scale(sw_vec3_cross(h, ab), sinf(bend)));
    const sw_quat q = sw_quat_from_to(sw_vec3_normalize(bc), to);
    sw__sc_view_set_rotation(a, (uint32_t)lb->mid,
                             sw_quat_mul(q, sw__sc_rotation(&a->model[lb->mid])));
    sw__sc_view_models_below(a, (uint32_t)lb->mid);
}

/* Leg l's knee bend (unit, across the unit hip-to-target axis, the hip at
 * `hip`, the target `d` m from it) turned up about the axis as far as
 * needed to keep the knee over r->knee_low[l] (sw__rag_over), on its side
 * of the upward direction; the knee where the law of cosines puts it. */
static sw_vec3 sw__rag_knee_over(const sw__knock* r, uint32_t l, sw_vec3 bend, sw_vec3 axis,
                                 sw_vec3 hip, float d) {
    const sw__sc_actor* a = &r->anim_view;
    const sw__sc_rag_limb* lb = &r->rag.limbs[l];
    const sw_vec3 knee = sw__sc_pos(&a->model[lb->mid]);
    const float l1 = sw_vec3_length(sw_vec3_sub(knee, hip));
    const float l2 = sw_vec3_length(sw_vec3_sub(sw__sc_pos(&a->model[lb->end]), knee));
    d = fminf(fmaxf(d, fabsf(l1 - l2)), l1 + l2);
    const float along = d > 0.0f ? (d * d + l1 * l1 - l2 * l2) / (2.0f * d) : 0.0f;
    const float across = sqrtf(fmaxf(l1 * l1 - along * along, 0.0f));
    const sw_vec3 up = sw__rag_across(sw_vec3_make(0.0f, 1.0f, 0.0f), axis);
    const float top = across * sw_vec3_length(up); /* the most bend.y * across can be */
    const float base = hip.y + axis.y * along, y = base + bend.y * across;
    const float want = sw__rag_over(y, r->knee_low[l]);
    if (!(want > y) || !(top > 1e-4f)) return bend;
    const sw_vec3 w = sw_vec3_normalize(up);
    const sw_vec3 side = sw_vec3_cross(axis, w);
    const float c = fminf((want - base) / top, 1.0f);
    const float s = copysignf(sqrtf(fmaxf(1.0f - c * c, 0.0f)), sw_vec3_dot(bend, side));
    return sw_vec3_add(sw_vec3_scale(w, c), sw_vec3_scale(side, s));
}

/* Two-bone IK of limb l of the blended pose to target (world) at the
 * blend's progress u (k: sw__rag_turn's fraction), its mid joint on its
 * hinge (sw__rag_on_hinge) and bending as sw__rag_bend_at has it, a knee
 * kept over the ground (sw__rag_knee_over); its reach eased by softness
 * `soft`. Fails: the IK job's result. */
static sw_result sw__rag_bent_ik(sw__knock* r, uint32_t l, sw_vec3 target, float u, float k,
                                 float soft) {
    sw__sc_actor* a = &r->anim_view;
    const sw__sc_rag_limb* lb = &r->rag.limbs[l];
    sw__rag_on_hinge(r, l, u);
    const sw_vec3 start = sw__sc_pos(&a->model[lb->start]);
    const sw_vec3 to = sw_vec3_sub(target, start);
    const sw_vec3 axis = sw_vec3_normalize(to);
    sw_vec3 bend = sw__rag_bend_at(r, l, u, k, axis);
    if (l < 2u) bend = sw__rag_knee_over(r, l, bend, axis, start, sw_vec3_length(to));
    return sw__sc_view_two_bone_bent(a, lb->start, lb->mid, lb->end, target, bend, soft);
}

/* The fraction of what each knee's bend lacks to the clip's to turn at
 * the blend's progress u (the turn follows a smoothstep over the blend). */
static float sw__rag_turn(sw__knock* r, float u) {
    const float g0 = sw__sc_smoothstep(0.0f, 1.0f, r->bent_at);
    const float g1 = sw__sc_smoothstep(0.0f, 1.0f, u);
    r->bent_at = u;
    return g0 < 1.0f ? (g1 - g0) / (1.0f - g0) : 1.0f;
}

/* Swings the blended pose's hands about their shoulders (u: the blend's
 * progress, k: sw__rag_turn's fraction), each hand's world turn going from
 * where the blend begins to the clip's. Fails: the IK job's result. */
static sw_result sw__rag_swing_arms(sw__knock* r, float u, float k) {
    sw__sc_rag* ra = &r->rag;
    sw__sc_actor* a = &r->anim_view;
    if (!(u > 0.0f) || !(u < 1.0f)) return SW_RESULT_OK;
    const float along = sw__sc_smoothstep(0.0f, 1.0f, u);
    const float bump = sw__rag_bump(u);
    for (uint32_t l = 2; l < 4; ++l) {
        const sw__sc_rag_limb* lb = &ra->limbs[l];
        if (lb->start < 0 || lb->mid < 0 || lb->end < 0) continue;
        const sw_vec3 f = r->reach_from[l - 2u], t = r->reach_to[l - 2u];
        const sw_vec3 d0 = sw_vec3_normalize(f), d1 = sw_vec3_normalize(t);
        sw_vec3 dir = sw_quat_rotate(sw__rag_swing_at(r, l, u), d0);
        dir.y += SW__RAG_SWING_LIFT * bump * sw_vec3_length(sw_vec3_sub(d1, d0));
        const float reach = sw_vec3_length(f) + (sw_vec3_length(t) - sw_vec3_length(f)) * along;
        const sw_vec3 target = sw_vec3_add(sw__sc_pos(&a->model[lb->start]),
                                           sw_vec3_scale(sw_vec3_normalize(dir), reach));
        const sw_result res = sw__rag_bent_ik(r, l, target, u, k, 0.0f);
        if (res != SW_RESULT_OK) return res;
        sw__sc_view_set_rotation(a, (uint32_t)lb->end,
                                 sw_quat_slerp(r->hand_from[l - 2u], r->hand_to[l - 2u], along));
        sw__sc_view_models_below(a, (uint32_t)lb->end);
    }
    return SW_RESULT_OK;
}

/* Moves the blended pose's feet along their steps (u: the blend's
 * progress, k: sw__rag_turn's fraction) with two-bone IK; a foot in the
 * air keeps its world orientation, a lying one turns with its shin as the
 * guard's lift turned it (the local-space blend alone drags a lying foot
 * through the ground: 10 cm under it halfway on the face-up get-up).
 * Fails: the IK job's result. */
static sw_result sw__rag_step(sw__knock* r, float u, float k) {
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
        const float soft = SW__RAG_STEP_SOFT * sw__rag_bump(u);
        const sw_result res = sw__rag_bent_ik(
            r, l, sw__rag_step_target(r, l, u, sw__sc_pos(&a->model[lb->end])), u, k, soft);
        if (res != SW_RESULT_OK) return res;
        if (r->lying[l]) continue;
        sw__sc_view_set_rotation(a, (uint32_t)lb->end, keep);
        sw__sc_view_models_below(a, (uint32_t)lb->end);
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
        const float k = sw__rag_turn(r, u);
        const sw_result res = sw__rag_step(r, u, k);
        return res == SW_RESULT_OK ? sw__rag_swing_arms(r, u, k) : res;
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

/* Makes the view's pose as the ground guard shows it (its turns and lifts,
 * the whole body's moved onto the root joints) the pose the blend begins
 * from, and clears the guard's turns. Started again from the ragdoll's
 * pose, the guard is no fixed point of itself: at the blend's first update
 * it lifted a foot 5 mm more and the whole body 5 mm less, and a folded
 * knee jumped 1.4 cm (0.8 m/s at 60 Hz, face-up get-ups). */
static void sw__rag_keep_shown(sw__knock* r, sw__sc_actor* view) {
    sw__sc_rag* ra = &r->rag;
    const sw_skeleton* s = ra->skel;
    /* the whole body's lift, in the root's (unscaled) space */
    const sw_vec3 up = sw_quat_rotate(sw_quat_conjugate(ra->root.r),
                                      sw_vec3_make(0.0f, view->world.m[13] - ra->root.t.y, 0.0f));
    const int16_t* parents = sw_skeleton_parents(s);
    for (uint32_t j = 0; j < s->joints_count; ++j) {
        if (parents[j] >= 0) continue;
        sw_xform x = sw_pose_get(view->local, j);
        x.t = sw_vec3_add(x.t, up);
        sw_pose_set(view->local, j, x);
    }
    view->world = sw_mat4_from_xform(ra->root);
    memcpy(r->frozen, view->local, s->packets_count * sizeof(sw_xform4));
    memcpy(ra->anim, view->local, s->packets_count * sizeof(sw_xform4));
    for (uint32_t l = 0; l < 4; ++l) {
        ra->limbs[l].angle = 0.0f;
        ra->limbs[l].turn = 0.0f;
    }
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
    if (began) sw__rag_keep_shown(r, view);
    /* the steps and swings begin where the guard shows the hands and feet
     * (a foot lying on its heel has its ankle lifted 9 cm): from under it,
     * the step's rise would reach the guard's height at speed and the knee
     * jump */
    for (uint32_t l = 0; began && l < 4; ++l) {
        const sw__sc_rag_limb* lb = &ra->limbs[l];
        if (lb->start < 0 || lb->mid < 0 || lb->end < 0) continue;
        const sw_vec3 end = sw__sc_pos(&view->model[lb->end]);
        r->bend[l] = sw__rag_bend(view, lb);
        r->hinge_from[l] = sw__rag_hinge(view, lb);
        if (l < 2u) {
            r->foot_from[l] = end;
            r->lying[l] = end.y < sw__sc_pos(&view->model[lb->mid]).y;
            r->knee_low[l] = fminf(view->model[lb->mid].m[13], r->clip_only.model[lb->mid].m[13]);
        } else {
            const sw_vec3 f = sw_vec3_sub(end, sw__sc_pos(&view->model[lb->start]));
            r->reach_from[l - 2u] = f;
            r->hand_from[l - 2u] = sw__sc_rotation(&view->model[lb->end]);
            r->swing[l - 2u] =
                sw__rag_swing(sw_vec3_normalize(f), sw_vec3_normalize(r->reach_to[l - 2u]),
                              &r->swing_axis[l - 2u]);
            sw__rag_elbow_begin(r, l);
        }
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
