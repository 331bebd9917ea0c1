/* Showcase scene: the actors, their per-frame update and the metrics.
 * Generated meshes and the ground are in scene_build.c. */
#include <ctype.h>
#include <stdio.h>

#include "showcase/scene_internal.h"
#include "sinew/showcase/character.h"

enum {
    SW__A_LOCO = 0,
    SW__A_REACH,
    SW__A_CAT,
    SW__A_ARM,
    SW__A_SPIDER,
    SW__A_HIT,
    SW__A_IDLE,
    SW__A_PROPS,
    SW__A_TARGETS,
    SW__A_POWERED, /* ragdoll actors: only with physics */
    SW__A_KNOCK,
    SW__A_COUNT
};

typedef struct sw__sc_anim {
    const sw_animator_bound* bound;
    sw_animator_instance* inst;
    void* scratch;
    size_t scratch_size;
    float params[8];
    uint32_t params_count;
} sw__sc_anim;

/* Joints of a humanoid (-1 when the character has none). */
typedef struct sw__sc_human {
    int32_t hips, spine, spine1, neck, head;
    int32_t r_arm, r_forearm, r_hand;
    int32_t l_upleg, l_leg, l_foot, r_upleg, r_leg, r_foot;
    bool legs, reach;
    float ankle_height;   /* model-space ankle height in the idle pose (character units) */
    sw_vec3 head_forward; /* head-local axis that faces +Z in the idle pose */
    float scale;          /* character units to metres */
    float lift;           /* world height of the character's origin (its feet on the ground) */
} sw__sc_human;

typedef struct sw__sc_plant {
    bool planted;
    sw_vec3 anchor;
    float drift;
} sw__sc_plant;

struct sw_showcase {
    sw__sc_mem mem;
    double time;
    uint32_t seed;
    sw_showcase_metrics metrics;
    sw_showcase_camera camera;
    sw_showcase_inputs in;
    sw__sc_actor actors[SW__A_COUNT];
    /* characters */
    sw_scene builtin;
    bool builtin_owned;
    sw_scene spider;
    const sw_scene* chr;
    const sw_clip* clip_idle;
    const sw_clip* clip_walk;
    const sw_clip* clip_jog;
    float speed_walk, speed_jog; /* m/s */
    bool in_place;
    const sw_clip** clips_all; /* the character's clips and the hit clip */
    uint32_t clips_all_count;
    sw__sc_human hum;
    double slide_sum, spider_slide_sum;
    /* locomotion: the default animator (synchronized blend space,
     * crossfades), its inertialized twin (when it has transitions) and the
     * unsynchronized one (clips on layers); all updated every frame */
    sw__sc_anim loco;
    sw__sc_anim loco_inert;
    sw__sc_anim loco_free;
    bool has_loco_inert, has_loco_free;
    sw_spring_float loco_speed;
    sw_vec3 loco_pos;
    float loco_heading;
    sw__sc_plant loco_feet[2]; /* after the foot lock */
    sw__sc_plant loco_raw[2];  /* the animation alone */
    sw_vec3 lock_anchor[2];
    float lock_weight[2];
    double raw_slide_sum;
    sw__sc_velocity loco_vel;
    /* reach */
    uint32_t* reach_cursors;
    sw_sample_cache reach_cache;
    sw_foot_state reach_feet;
    sw_spring_vec3 look;
    sw_vec3 orb;
    sw_vec3 reach_spot;
    /* caterpillar */
    sw_vec3 cat_points[SW__SC_SEGMENTS];
    float cat_lengths[SW__SC_SEGMENTS - 1];
    sw_vec3 cat_heading;
    /* arm */
    sw_vec3 arm_target;
    /* spider */
    sw_walker_leg legs[SW__SPIDER_LEGS_MAX];
    sw_walker_desc walker;
    sw_walker_state walker_state;
    uint32_t chain_joints[SW__SPIDER_LEGS_MAX][4];
    sw_walker_chain chains[SW__SPIDER_LEGS_MAX];
    uint32_t spider_tips[SW__SPIDER_LEGS_MAX];
    sw__sc_plant spider_feet[SW__SPIDER_LEGS_MAX];
    uint32_t spider_legs;
    /* hit: crossfaded (default) and inertialized animators, side by side */
    sw__sc_anim hit;
    sw__sc_anim hit_inert;
    sw_xform4* alt_local; /* the variant not shown */
    sw_mat4* alt_model;
    sw_showcase_status status;
    sw_hit_pause pause;
    double next_hit;
    float since_hit_real; /* < 0 before the first hit */
    float since_hit;      /* actor time */
    sw_shake_desc shake;
    sw_fov_pulse_desc pulse;
    sw__sc_velocity hit_vel;
    uint32_t shake_joints[8];
    uint32_t shake_joints_count;
    uint32_t spine_chain[4];
    uint32_t spine_count;
    /* idle */
    sw__sc_anim idle;
    sw_animator_idle idle_ctl;
    /* ragdolls (NULL without physics) */
    sw__sc_rag* rag;
};

/* ---- helpers ---- */

static float sw__clampf(float x, float lo, float hi) {
    return x < lo ? lo : x > hi ? hi : x;
}

static float sw__smooth(float a, float b, float x) {
    const float t = sw__clampf((x - a) / (b - a), 0.0f, 1.0f);
    return t * t * (3.0f - 2.0f * t);
}

static sw_vec3 sw__pos(const sw_mat4* m) {
    return sw_vec3_make(m->m[12], m->m[13], m->m[14]);
}

static float sw__hdist(sw_vec3 a, sw_vec3 b) {
    const float dx = a.x - b.x, dz = a.z - b.z;
    return sqrtf(dx * dx + dz * dz);
}

static sw_mat4 sw__world(sw_vec3 p, float yaw, float scale) {
    sw_xform x = sw_xform_identity();
    x.t = p;
    x.r = sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), yaw);
    x.s = sw_vec3_make(scale, scale, scale);
    return sw_mat4_from_xform(x);
}

static bool sw__contains_ci(const char* s, const char* word) {
    const size_t n = strlen(word);
    for (; *s; ++s) {
        size_t k = 0;
        while (k < n && s[k] && tolower((unsigned char)s[k]) == word[k])
            ++k;
        if (k == n) return true;
    }
    return false;
}

/* Exact name, else a name ending in it case-insensitively ("mixamorig:Hips"). */
static int32_t sw__find(const sw_skeleton* s, const char* const* names, uint32_t n) {
    for (uint32_t i = 0; i < n; ++i) {
        const int32_t j = sw_skeleton_find_joint(s, names[i]);
        if (j >= 0) return j;
    }
    for (uint32_t i = 0; i < n; ++i) {
        const size_t ln = strlen(names[i]);
        for (uint32_t j = 0; j < s->joints_count; ++j) {
            const char* jn = sw_skeleton_joint_name(s, j);
            const size_t lj = strlen(jn);
            if (lj <= ln || (jn[lj - ln - 1] != ':' && jn[lj - ln - 1] != '_')) continue;
            bool same = true;
            for (size_t k = 0; k < ln && same; ++k)
                same =
                    tolower((unsigned char)jn[lj - ln + k]) == tolower((unsigned char)names[i][k]);
            if (same) return (int32_t)j;
        }
    }
    return -1;
}

static bool sw__is_ancestor(const sw_skeleton* s, int32_t a, int32_t j) {
    if (a < 0 || j < 0) return false;
    const int16_t* parents = sw_skeleton_parents(s);
    for (int32_t k = parents[j]; k >= 0; k = parents[k])
        if (k == a) return true;
    return false;
}

static bool sw__has_event(const sw_clip* c, const char* name) {
    for (uint32_t e = 0; e < c->events_count; ++e)
        if (strcmp(sw_clip_event_name(c, e), name) == 0) return true;
    return false;
}

static sw_result sw__fail(sw_error* err, sw_result r, const char* check) {
    if (err && err->result == SW_RESULT_OK) {
        err->result = r;
        err->check = check;
        err->offset = 0;
        err->index = -1;
    }
    return r;
}

/* Samples `clip` at `time` into `local` (no cache). */
static void sw__sample(const sw_skeleton* s, const sw_clip* clip, float time, sw_xform4* local) {
    const sw_sample_job job = {
        .clip = clip, .skeleton = s, .time = time, .out = local, .out_count = s->packets_count};
    (void)sw_sample_job_run(&job);
}

/* Horizontal speed of joint j over the clip (character units per second). */
static float sw__clip_speed(sw_showcase* sc, const sw_skeleton* s, const sw_clip* c, int32_t j,
                            sw_xform4* local, sw_mat4* model) {
    (void)sc;
    if (!c || j < 0 || !(c->duration > 0.0f)) return 0.0f;
    sw__sample(s, c, 0.0f, local);
    sw__sc_models(s, local, model);
    const sw_vec3 a = sw__pos(&model[j]);
    sw__sample(s, c, c->duration, local);
    sw__sc_models(s, local, model);
    const sw_vec3 b = sw__pos(&model[j]);
    return sw__hdist(a, b) / c->duration;
}

static sw_result sw__actor(sw_showcase* sc, uint32_t i, const char* name, const sw_skeleton* s,
                           const sw_mesh* const* meshes, uint32_t meshes_count,
                           sw_showcase_material material) {
    sw__sc_actor* a = &sc->actors[i];
    a->name = name;
    a->skel = s;
    a->meshes = meshes;
    a->meshes_count = meshes_count > SW_SHOWCASE_MAX_MESHES ? SW_SHOWCASE_MAX_MESHES : meshes_count;
    a->material = material;
    a->world = sw_mat4_identity();
    a->local = (sw_xform4*)sw__sc_alloc(&sc->mem, s->packets_count * sizeof(sw_xform4));
    a->model = (sw_mat4*)sw__sc_alloc(&sc->mem, s->joints_count * sizeof(sw_mat4));
    if (!a->local || !a->model) return SW_RESULT_OUT_OF_MEMORY;
    memcpy(a->local, sw_skeleton_rest_pose(s), s->packets_count * sizeof(sw_xform4));
    sw__sc_models(s, a->local, a->model);
    for (uint32_t k = 0; k < a->meshes_count; ++k) {
        a->palettes[k] =
            (sw_mat4*)sw__sc_alloc(&sc->mem, meshes[k]->palette_count * sizeof(sw_mat4));
        if (!a->palettes[k]) return SW_RESULT_OUT_OF_MEMORY;
        a->palettes_view[k] = a->palettes[k];
    }
    return SW_RESULT_OK;
}

static sw_result sw__anim(sw_showcase* sc, const sw_animator_desc* desc, const sw_skeleton* s,
                          sw__sc_anim* an, sw_error* err) {
    const sw_animator* def = NULL;
    if (sc->mem.animators_count == SW__SC_MAX_OWNED) return SW_RESULT_LIMIT;
    sw_result r = sw_animator_create(desc, &sc->mem.alloc, &def, err);
    if (r != SW_RESULT_OK) return r;
    sc->mem.animators[sc->mem.animators_count++] = def;
    const size_t bsize = sw_animator_bound_size(def, s);
    void* bmem = sw__sc_alloc(&sc->mem, bsize);
    if (!bmem) return SW_RESULT_OUT_OF_MEMORY;
    r = sw_animator_bind(def, s, sc->clips_all, sc->clips_all_count, bmem, bsize, &an->bound, err);
    if (r != SW_RESULT_OK) return r;
    const size_t isize = sw_animator_instance_size(an->bound);
    void* imem = sw__sc_alloc(&sc->mem, isize);
    if (!imem) return SW_RESULT_OUT_OF_MEMORY;
    r = sw_animator_instance_init(imem, isize, an->bound, &an->inst);
    if (r != SW_RESULT_OK) return r;
    an->scratch_size = sw_animator_scratch_size(an->bound);
    an->scratch = sw__sc_alloc(&sc->mem, an->scratch_size);
    if (!an->scratch) return SW_RESULT_OUT_OF_MEMORY;
    an->params_count = sw_animator_params_count(def);
    if (an->params_count > 8) return SW_RESULT_LIMIT;
    return sw_animator_params_reset(def, an->params, an->params_count);
}

/* ---- building ---- */

static sw_result sw__pick_clips(sw_showcase* sc, const sw_showcase_options* o, sw_error* err) {
    const sw_scene* c = sc->chr;
    const sw_clip* roles[3] = {NULL, NULL, NULL};
    static const char* const words[3] = {"idle", "walk", "jog"};
    for (uint32_t r = 0; r < 3; ++r) {
        const char* want = o ? o->clip_names[r] : NULL;
        for (uint32_t k = 0; k < c->clips_count && !roles[r]; ++k) {
            const char* n = sw_clip_name(c->clips[k]);
            if (want ? strcmp(n, want) == 0 : sw__contains_ci(n, words[r])) roles[r] = c->clips[k];
        }
        if (!roles[r] && !want && r == 2)
            for (uint32_t k = 0; k < c->clips_count && !roles[r]; ++k)
                if (sw__contains_ci(sw_clip_name(c->clips[k]), "run")) roles[r] = c->clips[k];
        if (!roles[r] && want) return sw__fail(err, SW_RESULT_NOT_FOUND, "named clip exists");
    }
    if (!roles[1]) roles[1] = roles[2];
    if (!roles[2]) roles[2] = roles[1];
    if (!roles[0]) roles[0] = roles[1] ? roles[1] : c->clips[0];
    if (!roles[1]) roles[1] = roles[2] = roles[0];
    sc->clip_idle = roles[0];
    sc->clip_walk = roles[1];
    sc->clip_jog = roles[2];
    return SW_RESULT_OK;
}

static sw_result sw__human_setup(sw_showcase* sc, sw_error* err) {
    const sw_skeleton* s = sc->chr->skeleton;
    sw__sc_human* h = &sc->hum;
    static const char* const hips[] = {"Hips", "Pelvis", "Root"};
    static const char* const spine[] = {"Spine", "Abdomen", "LowerBack"};
    static const char* const spine1[] = {"Spine1", "Spine2", "Chest", "Torso"};
    static const char* const neck[] = {"Neck", "Neck1"};
    static const char* const head[] = {"Head"};
    static const char* const rarm[] = {"RightArm", "UpperArmR", "RightUpperArm"};
    static const char* const rfore[] = {"RightForeArm", "LowerArmR", "RightLowerArm"};
    static const char* const rhand[] = {"RightHand", "HandR", "Palm2R", "PalmR"};
    static const char* const lup[] = {"LeftUpLeg", "UpperLegL", "LeftUpperLeg"};
    static const char* const lleg[] = {"LeftLeg", "LowerLegL", "LeftLowerLeg"};
    static const char* const lfoot[] = {"LeftFoot", "FootL"};
    static const char* const rup[] = {"RightUpLeg", "UpperLegR", "RightUpperLeg"};
    static const char* const rleg[] = {"RightLeg", "LowerLegR", "RightLowerLeg"};
    static const char* const rfoot[] = {"RightFoot", "FootR"};
#define SW__FIND(list) sw__find(s, list, (uint32_t)(sizeof list / sizeof list[0]))
    h->hips = SW__FIND(hips);
    h->spine = SW__FIND(spine);
    h->spine1 = SW__FIND(spine1);
    h->neck = SW__FIND(neck);
    h->head = SW__FIND(head);
    h->r_arm = SW__FIND(rarm);
    h->r_forearm = SW__FIND(rfore);
    h->r_hand = SW__FIND(rhand);
    h->l_upleg = SW__FIND(lup);
    h->l_leg = SW__FIND(lleg);
    h->l_foot = SW__FIND(lfoot);
    h->r_upleg = SW__FIND(rup);
    h->r_leg = SW__FIND(rleg);
    h->r_foot = SW__FIND(rfoot);
#undef SW__FIND
    if (h->hips < 0) h->hips = 0;
    h->legs = sw__is_ancestor(s, h->hips, h->l_upleg) && sw__is_ancestor(s, h->l_upleg, h->l_leg) &&
              sw__is_ancestor(s, h->l_leg, h->l_foot) && sw__is_ancestor(s, h->hips, h->r_upleg) &&
              sw__is_ancestor(s, h->r_upleg, h->r_leg) && sw__is_ancestor(s, h->r_leg, h->r_foot);
    h->reach =
        sw__is_ancestor(s, h->r_arm, h->r_forearm) && sw__is_ancestor(s, h->r_forearm, h->r_hand);
    /* The idle pose at time 0 gives the ankle height, the size and the head's forward axis. */
    sw_xform4* local = (sw_xform4*)sw__sc_alloc(&sc->mem, s->packets_count * sizeof(sw_xform4));
    sw_mat4* model = (sw_mat4*)sw__sc_alloc(&sc->mem, s->joints_count * sizeof(sw_mat4));
    if (!local || !model) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation");
    sw__sample(s, sc->clip_idle, 0.0f, local);
    sw__sc_models(s, local, model);
    float top = 0.0f, bottom = 0.0f;
    for (uint32_t j = 0; j < s->joints_count; ++j) {
        const float y = model[j].m[13];
        top = j == 0 || y > top ? y : top;
        bottom = j == 0 || y < bottom ? y : bottom;
    }
    const float head_y = h->head >= 0 ? model[h->head].m[13] - bottom : top - bottom;
    h->scale = head_y > 1e-6f ? (h->head >= 0 ? 1.52f : 1.65f) / head_y : 1.0f;
    if (sc->builtin_owned) h->scale = 1.0f;
    h->lift = 0.0f;
    if (!sc->builtin_owned && sc->chr->meshes_count > 0) {
        /* A file's character: size it from its skinned meshes in the idle
         * pose (1.75 m tall) and put its lowest vertex on the ground. */
        sw_mat4* pal = (sw_mat4*)sw__sc_alloc(&sc->mem, 1024 * sizeof(sw_mat4));
        if (!pal) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation");
        float lo = INFINITY, hi = -INFINITY;
        for (uint32_t k = 0; k < sc->chr->meshes_count; ++k) {
            const sw_mesh* m = sc->chr->meshes[k];
            const sw_skinning_job job = {.model = model,
                                         .model_count = s->joints_count,
                                         .joints = sw_mesh_palette(m),
                                         .inverse_bind = sw_mesh_inverse_binds(m),
                                         .count = m->palette_count,
                                         .out = pal,
                                         .out_count = 1024};
            if (sw_skinning_job_run(&job) != SW_RESULT_OK) continue;
            const float* pos = sw_mesh_positions(m);
            const uint16_t* jv = sw_mesh_joints(m);
            const float* wv = sw_mesh_weights(m);
            for (uint32_t v = 0; v < m->vertices_count; ++v) {
                const sw_vec3 p = sw_vec3_make(pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]);
                float y = 0.0f;
                for (uint32_t c = 0; c < 4; ++c)
                    if (wv[4 * v + c] > 0.0f)
                        y += wv[4 * v + c] * sw_mat4_point(&pal[jv[4 * v + c]], p).y;
                lo = fminf(lo, y);
                hi = fmaxf(hi, y);
            }
        }
        if (hi - lo > 1e-6f && isfinite(hi - lo)) {
            h->scale = 1.75f / (hi - lo);
            h->lift = -lo * h->scale;
        }
    }
    /* Two-bone IK needs bones: drop a chain with a joint on the one before it. */
#define SW__BONE(a, b) (sw_vec3_length(sw_vec3_sub(sw__pos(&model[a]), sw__pos(&model[b]))) > 1e-4f)
    h->legs = h->legs && SW__BONE(h->l_upleg, h->l_leg) && SW__BONE(h->l_leg, h->l_foot) &&
              SW__BONE(h->r_upleg, h->r_leg) && SW__BONE(h->r_leg, h->r_foot);
    h->reach = h->reach && SW__BONE(h->r_arm, h->r_forearm) && SW__BONE(h->r_forearm, h->r_hand);
#undef SW__BONE
    h->ankle_height = h->legs ? fminf(model[h->l_foot].m[13], model[h->r_foot].m[13]) : 0.0f;
    h->head_forward = sw_vec3_make(0, 0, 1);
    if (h->head >= 0) {
        const sw_quat q = sw_quat_from_mat4(&model[h->head]);
        h->head_forward = sw_quat_rotate(sw_quat_conjugate(q), sw_vec3_make(0, 0, 1));
    }
    const float ws = sw__clip_speed(sc, s, sc->clip_walk, h->hips, local, model) * h->scale;
    const float js = sw__clip_speed(sc, s, sc->clip_jog, h->hips, local, model) * h->scale;
    sc->in_place = !(ws > 0.1f);
    sc->speed_walk = sc->in_place ? 1.4f : ws;
    sc->speed_jog = sc->in_place || !(js > ws + 0.1f) ? sc->speed_walk * 2.0f : js;
    return SW_RESULT_OK;
}

/* The unsynchronized locomotion: idle on the base layer, walk and jog on
 * override layers weighted by parameters (sw__free_weights), each clip at its
 * own rate; events only from a clip with at least half the pose. */
static sw_result sw__loco_free_setup(sw_showcase* sc, sw_error* err) {
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
    const sw_result r = sw__anim(sc, &desc, sc->chr->skeleton, &sc->loco_free, err);
    sc->has_loco_free = r == SW_RESULT_OK;
    return r;
}

/* Layer weights of the unsynchronized locomotion giving the blend space's
 * weights (idle, walk, jog at speeds 0, walk, jog; linear between neighbours):
 * lerp(lerp(idle, walk, a), jog, b). */
static void sw__free_weights(const sw_showcase* sc, float speed, float* a, float* b) {
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

static sw_result sw__loco_setup(sw_showcase* sc, sw_error* err) {
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
    const sw_animator_layer_desc layer = {.name = "Base", .machine = "Locomotion"};
    const sw_animator_desc desc = {
        .params = params,
        .params_count = 1,
        .blend_spaces = &space,
        .blend_spaces_count = 1,
        .machines = &machine,
        .machines_count = 1,
        .layers = &layer,
        .layers_count = 1,
        .root_motion_joint = sw_skeleton_joint_name(sc->chr->skeleton, (uint32_t)sc->hum.hips)};
    if (move_sync) sc->metrics.features |= SW_SHOWCASE_FEATURE_SYNC;
    if (move_sync && sc->hum.legs) sc->metrics.features |= SW_SHOWCASE_FEATURE_FOOT_TRACK;
    sc->loco_pos = sw_vec3_make(SW__SC_LOCO_X - SW__SC_LOCO_R, sc->hum.lift, SW__SC_LOCO_Z);
    sc->loco_heading = 0.0f;
    const uint32_t n = sc->chr->skeleton->joints_count;
    sc->loco_vel.prev_pos = (sw_vec3*)sw__sc_alloc(&sc->mem, n * sizeof(sw_vec3));
    sc->loco_vel.prev_vel = (sw_vec3*)sw__sc_alloc(&sc->mem, n * sizeof(sw_vec3));
    sc->hit_vel.prev_pos = (sw_vec3*)sw__sc_alloc(&sc->mem, n * sizeof(sw_vec3));
    sc->hit_vel.prev_vel = (sw_vec3*)sw__sc_alloc(&sc->mem, n * sizeof(sw_vec3));
    if (!sc->loco_vel.prev_pos || !sc->loco_vel.prev_vel || !sc->hit_vel.prev_pos ||
        !sc->hit_vel.prev_vel)
        return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation");
    sw_result r = sw__anim(sc, &desc, sc->chr->skeleton, &sc->loco, err);
    if (r == SW_RESULT_OK && split) {
        tr[0].mode = tr[1].mode = SW_ANIMATOR_TRANSITION_MODE_INERTIALIZE;
        r = sw__anim(sc, &desc, sc->chr->skeleton, &sc->loco_inert, err);
        sc->has_loco_inert = r == SW_RESULT_OK;
    }
    if (r == SW_RESULT_OK && sc->clip_walk != sc->clip_idle) r = sw__loco_free_setup(sc, err);
    return r;
}

/* The hit clip: the idle pose at time 0 held, the spine and neck flinching
 * back and recovering over 0.45 s, the hips pushed back. */
static sw_result sw__hit_clip(sw_showcase* sc, const sw_clip** out, sw_error* err) {
    const sw_skeleton* s = sc->chr->skeleton;
    sw_xform4* local = (sw_xform4*)sw__sc_alloc(&sc->mem, s->packets_count * sizeof(sw_xform4));
    const uint32_t n = s->joints_count;
    sw_clip_track_desc* tracks =
        (sw_clip_track_desc*)sw__sc_alloc(&sc->mem, 3u * n * sizeof(sw_clip_track_desc));
    float* values = (float*)sw__sc_alloc(&sc->mem, (size_t)n * (3 + 4 * 4 + 3) * sizeof(float));
    if (!local || !tracks || !values) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation");
    sw__sample(s, sc->clip_idle, 0.0f, local);
    static const float times[4] = {0.0f, 0.07f, 0.2f, 0.45f};
    static const float bend[4] = {0.0f, 1.0f, 0.55f, 0.0f};
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
            /* replace the single key by four: pushed back 6 cm (character units) */
            tracks[tc - 1].keys_count = 4;
            v -= 3;
            for (uint32_t k = 0; k < 4; ++k) {
                v[3 * k] = x.t.x;
                v[3 * k + 1] = x.t.y;
                v[3 * k + 2] = x.t.z - 0.06f / sc->hum.scale * bend[k];
            }
            v += 12;
        }
        const uint32_t keys = flinch ? 4u : 1u;
        for (uint32_t k = 0; k < keys; ++k) {
            const sw_quat q = sw_quat_normalize(
                sw_quat_mul(x.r, sw_quat_from_axis_angle(sw_vec3_make(1, 0, 0), -0.32f * bend[k])));
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
    const sw_clip_desc desc = {.name = "sinew_hit",
                               .duration = times[3],
                               .joints_count = n,
                               .tracks = tracks,
                               .tracks_count = tc};
    if (sc->mem.clips_count == SW__SC_MAX_OWNED) return SW_RESULT_LIMIT;
    const sw_result r = sw_clip_create(&desc, &sc->mem.alloc, out, err);
    if (r == SW_RESULT_OK) sc->mem.clips[sc->mem.clips_count++] = *out;
    return r;
}

static sw_result sw__hit_setup(sw_showcase* sc, sw_error* err) {
    const sw_animator_param_desc params[1] = {
        {.name = "hit", .type = SW_ANIMATOR_PARAM_TYPE_TRIGGER}};
    const sw_animator_state_desc states[2] = {
        {.name = "Guard", .motion = SW_ANIMATOR_MOTION_CLIP, .target = sw_clip_name(sc->clip_idle)},
        {.name = "Hit", .motion = SW_ANIMATOR_MOTION_CLIP, .target = "sinew_hit", .once = true},
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
    const sw_animator_layer_desc layer = {.name = "Base", .machine = "Block"};
    const sw_animator_desc desc = {.params = params,
                                   .params_count = 1,
                                   .machines = &machine,
                                   .machines_count = 1,
                                   .layers = &layer,
                                   .layers_count = 1};
    sw_result r = sw__anim(sc, &desc, sc->chr->skeleton, &sc->hit, err);
    if (r != SW_RESULT_OK) return r;
    /* The inertialized twin: the cut to "Hit" blended out over 0.15 s. */
    tr[0].mode = tr[1].mode = SW_ANIMATOR_TRANSITION_MODE_INERTIALIZE;
    tr[0].duration = 0.15f;
    r = sw__anim(sc, &desc, sc->chr->skeleton, &sc->hit_inert, err);
    if (r != SW_RESULT_OK) return r;
    sc->alt_local =
        (sw_xform4*)sw__sc_alloc(&sc->mem, sc->chr->skeleton->packets_count * sizeof(sw_xform4));
    sc->alt_model =
        (sw_mat4*)sw__sc_alloc(&sc->mem, sc->chr->skeleton->joints_count * sizeof(sw_mat4));
    if (!sc->alt_local || !sc->alt_model)
        return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation");
    const int32_t shake[6] = {sc->hum.spine1, sc->hum.neck,      sc->hum.head,
                              sc->hum.r_arm,  sc->hum.r_forearm, sc->hum.spine};
    for (uint32_t k = 0; k < 6; ++k)
        if (shake[k] >= 0) sc->shake_joints[sc->shake_joints_count++] = (uint32_t)shake[k];
    /* The wander chain: joints in ancestor order, skipping one that sits on
     * the joint before it (CMU's Neck on Spine1): FABRIK needs bones. */
    const sw_skeleton* hs = sc->chr->skeleton;
    sw_xform4* local = (sw_xform4*)sw__sc_alloc(&sc->mem, hs->packets_count * sizeof(sw_xform4));
    sw_mat4* model = (sw_mat4*)sw__sc_alloc(&sc->mem, hs->joints_count * sizeof(sw_mat4));
    if (!local || !model) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation");
    sw__sample(hs, sc->clip_idle, 0.0f, local);
    sw__sc_models(hs, local, model);
    const int32_t chain[4] = {sc->hum.spine, sc->hum.spine1, sc->hum.neck, sc->hum.head};
    int32_t last = -1;
    for (uint32_t k = 0; k < 4; ++k) {
        if (chain[k] < 0 || (last >= 0 && !sw__is_ancestor(hs, last, chain[k]))) continue;
        if (last >= 0 &&
            sw_vec3_length(sw_vec3_sub(sw__pos(&model[chain[k]]), sw__pos(&model[last]))) < 1e-4f)
            continue;
        sc->spine_chain[sc->spine_count++] = (uint32_t)chain[k];
        last = chain[k];
    }
    if (sc->spine_count >= 2) sc->metrics.features |= SW_SHOWCASE_FEATURE_WANDER;
    sc->next_hit = 1.2;
    sc->since_hit_real = -1.0f;
    sc->since_hit = 100.0f;
    return SW_RESULT_OK;
}

static sw_result sw__idle_setup(sw_showcase* sc, sw_error* err) {
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
    const sw_animator_state_desc state = {.name = "Idle",
                                          .motion = SW_ANIMATOR_MOTION_BLEND_SPACE,
                                          .target = "mix",
                                          .speed_param = "tempo"};
    const sw_animator_machine_desc machine = {.name = "Idle", .states = &state, .states_count = 1};
    const sw_animator_layer_desc layer = {.name = "Base", .machine = "Idle"};
    const sw_animator_desc desc = {
        .params = params,
        .params_count = 4,
        .blend_spaces = &space,
        .blend_spaces_count = 1,
        .machines = &machine,
        .machines_count = 1,
        .layers = &layer,
        .layers_count = 1,
        .root_motion_joint = sw_skeleton_joint_name(sc->chr->skeleton, (uint32_t)sc->hum.hips)};
    sw_result r = sw__anim(sc, &desc, sc->chr->skeleton, &sc->idle, err);
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
    return sw_animator_idle_init(&sc->idle_ctl, ch, 4, 0x51DE0000ull + sc->seed);
}

/* Caterpillar: a root and SEGMENTS spheres. */
static sw_result sw__cat_setup(sw_showcase* sc, sw_error* err) {
    sw_skeleton_joint joints[SW__SC_SEGMENTS + 1];
    static const char* const names[SW__SC_SEGMENTS] = {
        "Segment0", "Segment1", "Segment2", "Segment3", "Segment4",  "Segment5",
        "Segment6", "Segment7", "Segment8", "Segment9", "Segment10", "Segment11"};
    joints[0] = (sw_skeleton_joint){"Caterpillar", -1, sw_xform_identity()};
    uint16_t palette[SW__SC_SEGMENTS];
    sw_mat4 ib[SW__SC_SEGMENTS];
    for (uint32_t i = 0; i < SW__SC_SEGMENTS; ++i) {
        joints[i + 1] = (sw_skeleton_joint){names[i], 0, sw_xform_identity()};
        joints[i + 1].rest.t = sw_vec3_make(0.0f, 0.1f, -0.14f * (float)i);
        palette[i] = (uint16_t)(i + 1);
        ib[i] = sw_mat4_identity();
        ib[i].m[13] = -0.1f;
        ib[i].m[14] = 0.14f * (float)i;
        if (i + 1 < SW__SC_SEGMENTS) sc->cat_lengths[i] = 0.14f;
        sc->cat_points[i] = sw_vec3_make(SW__SC_CAT_X, 0.0f, SW__SC_CAT_Z - 0.14f * (float)i);
    }
    const sw_skeleton* s = NULL;
    sw_result r = sw__sc_skeleton(&sc->mem, joints, SW__SC_SEGMENTS + 1, &s, err);
    if (r != SW_RESULT_OK) return r;
    sw__mb b;
    const uint32_t sv = 11u * 7u, si = 10u * 6u * 6u;
    r = sw__mb_init(&b, &sc->mem, SW__SC_SEGMENTS * sv + 24, SW__SC_SEGMENTS * si + 36);
    if (r != SW_RESULT_OK) return r;
    for (uint32_t i = 0; i < SW__SC_SEGMENTS; ++i) {
        const float rad = i == 0 ? 0.12f : 0.1f - 0.003f * (float)i;
        sw__mb_sphere(&b, (uint16_t)i, sw_vec3_make(0.0f, 0.1f, -0.14f * (float)i), rad, 10, 6);
    }
    const sw_mesh** meshes = (const sw_mesh**)sw__sc_alloc(&sc->mem, sizeof(void*));
    if (!meshes) return SW_RESULT_OUT_OF_MEMORY;
    r = sw__mb_build(&b, &sc->mem, "caterpillar", palette, ib, SW__SC_SEGMENTS, s->joints_count,
                     &meshes[0], err);
    if (r != SW_RESULT_OK) return r;
    sc->cat_heading = sw_vec3_make(0, 0, 1);
    return sw__actor(sc, SW__A_CAT, "caterpillar", s, meshes, 1, SW_SHOWCASE_MATERIAL_CREATURE);
}

/* A two-bone arm on a post: base, shoulder 0.7 m up, upper arm 0.55, forearm 0.5. */
static sw_result sw__arm_setup(sw_showcase* sc, sw_error* err) {
    sw_skeleton_joint joints[4] = {
        {"ArmBase", -1, sw_xform_identity()},
        {"Shoulder", 0, sw_xform_identity()},
        {"Elbow", 1, sw_xform_identity()},
        {"Hand", 2, sw_xform_identity()},
    };
    joints[1].rest.t = sw_vec3_make(0, 0.7f, 0);
    joints[2].rest.t = sw_vec3_make(0, 0.55f, 0);
    joints[3].rest.t = sw_vec3_make(0, 0.5f, 0);
    const sw_skeleton* s = NULL;
    sw_result r = sw__sc_skeleton(&sc->mem, joints, 4, &s, err);
    if (r != SW_RESULT_OK) return r;
    const float ys[4] = {0.0f, 0.7f, 1.25f, 1.75f};
    uint16_t palette[4] = {0, 1, 2, 3};
    sw_mat4 ib[4];
    for (uint32_t i = 0; i < 4; ++i) {
        ib[i] = sw_mat4_identity();
        ib[i].m[13] = -ys[i];
    }
    sw__mb b;
    r = sw__mb_init(&b, &sc->mem, 4 * 24 + 2 * 77, 4 * 36 + 2 * 360);
    if (r != SW_RESULT_OK) return r;
    const sw_quat id = sw_quat_identity();
    sw__mb_box(&b, 0, sw_vec3_make(0, 0.35f, 0), sw_vec3_make(0.07f, 0.35f, 0.07f), id);
    sw__mb_box(&b, 0, sw_vec3_make(0, 0.02f, 0), sw_vec3_make(0.2f, 0.02f, 0.2f), id);
    sw__mb_sphere(&b, 1, sw_vec3_make(0, 0.7f, 0), 0.08f, 10, 6);
    sw__mb_box(&b, 1, sw_vec3_make(0, 0.975f, 0), sw_vec3_make(0.05f, 0.23f, 0.05f), id);
    sw__mb_box(&b, 2, sw_vec3_make(0, 1.5f, 0), sw_vec3_make(0.04f, 0.22f, 0.04f), id);
    sw__mb_sphere(&b, 3, sw_vec3_make(0, 1.75f, 0), 0.06f, 10, 6);
    const sw_mesh** meshes = (const sw_mesh**)sw__sc_alloc(&sc->mem, sizeof(void*));
    if (!meshes) return SW_RESULT_OUT_OF_MEMORY;
    r = sw__mb_build(&b, &sc->mem, "arm", palette, ib, 4, 4, &meshes[0], err);
    if (r != SW_RESULT_OK) return r;
    return sw__actor(sc, SW__A_ARM, "arm", s, meshes, 1, SW_SHOWCASE_MATERIAL_METAL);
}

/* Props: the step, the beam on two posts and the bumpy patch (one rigid mesh). */
static sw_result sw__props_setup(sw_showcase* sc, sw_error* err) {
    const sw_skeleton_joint joint = {"Props", -1, sw_xform_identity()};
    const sw_skeleton* s = NULL;
    sw_result r = sw__sc_skeleton(&sc->mem, &joint, 1, &s, err);
    if (r != SW_RESULT_OK) return r;
    const uint32_t n = 48;
    sw__mb b;
    r = sw__mb_init(&b, &sc->mem, 4 * 24 + (n + 1) * (n + 1), 4 * 36 + n * n * 6);
    if (r != SW_RESULT_OK) return r;
    const sw_quat id = sw_quat_identity();
    sw__mb_box(&b, 0,
               sw_vec3_make(SW__SC_REACH_X + 0.5f * (SW__SC_STEP_X0 + SW__SC_STEP_X1),
                            0.5f * SW__SC_STEP_H,
                            SW__SC_REACH_Z + 0.5f * (SW__SC_STEP_Z0 + SW__SC_STEP_Z1)),
               sw_vec3_make(0.5f * (SW__SC_STEP_X1 - SW__SC_STEP_X0), 0.5f * SW__SC_STEP_H,
                            0.5f * (SW__SC_STEP_Z1 - SW__SC_STEP_Z0)),
               id);
    const float bz = SW__SC_SPIDER_Z + 0.5f * (SW__SC_BEAM_Z0 + SW__SC_BEAM_Z1);
    const float hz = 0.5f * (SW__SC_BEAM_Z1 - SW__SC_BEAM_Z0);
    sw__mb_box(&b, 0, sw_vec3_make(SW__SC_SPIDER_X, SW__SC_BEAM_Y + 0.5f * SW__SC_BEAM_T, bz),
               sw_vec3_make(SW__SC_BEAM_HALF, 0.5f * SW__SC_BEAM_T, hz), id);
    for (int side = -1; side <= 1; side += 2) {
        const float top = SW__SC_BEAM_Y + SW__SC_BEAM_T;
        sw__mb_box(&b, 0,
                   sw_vec3_make(SW__SC_SPIDER_X + (float)side * (SW__SC_BEAM_HALF + 0.04f),
                                0.5f * top, bz),
                   sw_vec3_make(0.04f, 0.5f * top, hz), id);
    }
    sw__mb_patch(&b, 0, SW__SC_SPIDER_X - SW__SC_BUMPS_R, SW__SC_SPIDER_X + SW__SC_BUMPS_R,
                 SW__SC_SPIDER_Z - SW__SC_BUMPS_R, SW__SC_SPIDER_Z + SW__SC_BUMPS_R, n);
    const uint16_t palette[1] = {0};
    const sw_mat4 ib[1] = {sw_mat4_identity()};
    const sw_mesh** meshes = (const sw_mesh**)sw__sc_alloc(&sc->mem, sizeof(void*));
    if (!meshes) return SW_RESULT_OUT_OF_MEMORY;
    r = sw__mb_build(&b, &sc->mem, "props", palette, ib, 1, 1, &meshes[0], err);
    if (r != SW_RESULT_OK) return r;
    return sw__actor(sc, SW__A_PROPS, "props", s, meshes, 1, SW_SHOWCASE_MATERIAL_PROP);
}

/* Targets: the orb (joint 1) and the arm's target marker (joint 2). */
static sw_result sw__targets_setup(sw_showcase* sc, sw_error* err) {
    const sw_skeleton_joint joints[3] = {{"Targets", -1, sw_xform_identity()},
                                         {"Orb", 0, sw_xform_identity()},
                                         {"ArmTarget", 0, sw_xform_identity()}};
    const sw_skeleton* s = NULL;
    sw_result r = sw__sc_skeleton(&sc->mem, joints, 3, &s, err);
    if (r != SW_RESULT_OK) return r;
    sw__mb b;
    r = sw__mb_init(&b, &sc->mem, 2 * 77, 2 * 360);
    if (r != SW_RESULT_OK) return r;
    sw__mb_sphere(&b, 0, sw_vec3_make(0, 0, 0), 0.07f, 10, 6);
    sw__mb_sphere(&b, 1, sw_vec3_make(0, 0, 0), 0.05f, 10, 6);
    const uint16_t palette[2] = {1, 2};
    const sw_mat4 ib[2] = {sw_mat4_identity(), sw_mat4_identity()};
    const sw_mesh** meshes = (const sw_mesh**)sw__sc_alloc(&sc->mem, sizeof(void*));
    if (!meshes) return SW_RESULT_OUT_OF_MEMORY;
    r = sw__mb_build(&b, &sc->mem, "targets", palette, ib, 2, 3, &meshes[0], err);
    if (r != SW_RESULT_OK) return r;
    return sw__actor(sc, SW__A_TARGETS, "targets", s, meshes, 1, SW_SHOWCASE_MATERIAL_TARGET);
}

static sw_result sw__spider_setup(sw_showcase* sc, sw_error* err) {
    sw_result r = sw_showcase_spider(&sc->mem.alloc, &sc->spider, err);
    if (r != SW_RESULT_OK) return r;
    const sw_skeleton* s = sc->spider.skeleton;
    sw_mat4* model = (sw_mat4*)sw__sc_alloc(&sc->mem, s->joints_count * sizeof(sw_mat4));
    if (!model) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation");
    sw__sc_models(s, sw_skeleton_rest_pose(s), model);
    const int32_t body = sw_skeleton_find_joint(s, "Body");
    if (body < 0) return sw__fail(err, SW_RESULT_NOT_FOUND, "spider joint Body");
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
        const sw_vec3 tip = sw__pos(&model[sc->chain_joints[legs][3]]);
        const uint32_t pair = i / 2u;
        sc->legs[legs] = (sw_walker_leg){.rest = sw_vec3_make(tip.x, 0.0f, tip.z),
                                         .group = (pair + (i % 2u)) % 2u};
        sc->chains[legs] = (sw_walker_chain){.joints = sc->chain_joints[legs],
                                             .joints_count = 4,
                                             .solver = SW_WALKER_SOLVER_FABRIK,
                                             .pole = sw_vec3_make(0, 1, 0)};
        sc->spider_tips[legs] = sc->chain_joints[legs][3];
        ++legs;
    }
    if (legs == 0) return sw__fail(err, SW_RESULT_NOT_FOUND, "spider legs Leg<i>_Coxa..Tip");
    sc->spider_legs = legs;
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
    if (r != SW_RESULT_OK) return sw__fail(err, r, "walker init");
    return sw__actor(sc, SW__A_SPIDER, "spider", s, sc->spider.meshes, sc->spider.meshes_count,
                     SW_SHOWCASE_MATERIAL_CREATURE);
}

/* The ragdoll actors, always of the built-in humanoid (built here when the
 * scene shows another character). */
static sw_result sw__rag_setup(sw_showcase* sc, const sw_showcase_options* o, sw_error* err) {
    sw_result r = SW_RESULT_OK;
    if (!sc->builtin_owned) {
        r = sw_showcase_humanoid(&sc->mem.alloc, &sc->builtin, NULL, err);
        if (r != SW_RESULT_OK) return r;
        sc->builtin_owned = true;
    }
    const sw_scene* b = &sc->builtin;
    r = sw__actor(sc, SW__A_POWERED, "powered", b->skeleton, b->meshes, b->meshes_count,
                  SW_SHOWCASE_MATERIAL_SKIN);
    if (r == SW_RESULT_OK)
        r = sw__actor(sc, SW__A_KNOCK, "knockdown", b->skeleton, b->meshes, b->meshes_count,
                      SW_SHOWCASE_MATERIAL_HIT);
    if (r == SW_RESULT_OK)
        r = sw__sc_rag_create(&sc->mem, o, b, &sc->actors[SW__A_POWERED], &sc->actors[SW__A_KNOCK],
                              &sc->rag, err);
    return r;
}

sw_result sw_showcase_create(const sw_showcase_options* options, sw_showcase** out, sw_error* err) {
    if (err) *err = (sw_error){SW_RESULT_OK, NULL, 0, -1};
    if (!out) return SW_RESULT_INVALID_ARGUMENT;
    *out = NULL;
    const sw_allocator* alloc = options ? options->alloc : NULL;
    if (options && options->character &&
        (!options->character->skeleton || options->character->clips_count == 0))
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "character has a skeleton and clips");
    if (options && options->physics &&
        (!options->physics_step || !isfinite(options->physics_step_size) ||
         options->physics_step_size < 0.0f))
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "physics with a step");
    sw_showcase* sc = (sw_showcase*)sw_alloc(alloc, sizeof *sc, 16);
    if (!sc) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation");
    memset(sc, 0, sizeof *sc);
    if (alloc) sc->mem.alloc = *alloc;
    sc->seed = options ? options->seed : 0u;
    sw_result r = SW_RESULT_OK;
    if (options && options->character) {
        sc->chr = options->character;
    } else {
        r = sw_showcase_humanoid(&sc->mem.alloc, &sc->builtin, NULL, err);
        sc->builtin_owned = r == SW_RESULT_OK;
        sc->chr = &sc->builtin;
    }
    if (r == SW_RESULT_OK) r = sw__pick_clips(sc, options, err);
    if (r == SW_RESULT_OK) r = sw__human_setup(sc, err);
    const sw_clip* hit_clip = NULL;
    if (r == SW_RESULT_OK) r = sw__hit_clip(sc, &hit_clip, err);
    if (r == SW_RESULT_OK) {
        sc->clips_all_count = sc->chr->clips_count + 1u;
        sc->clips_all =
            (const sw_clip**)sw__sc_alloc(&sc->mem, sc->clips_all_count * sizeof(void*));
        if (!sc->clips_all) {
            r = SW_RESULT_OUT_OF_MEMORY;
        } else {
            for (uint32_t k = 0; k < sc->chr->clips_count; ++k)
                sc->clips_all[k] = sc->chr->clips[k];
            sc->clips_all[sc->chr->clips_count] = hit_clip;
        }
    }
    if (r == SW_RESULT_OK) r = sw__loco_setup(sc, err);
    if (r == SW_RESULT_OK) r = sw__hit_setup(sc, err);
    if (r == SW_RESULT_OK) r = sw__idle_setup(sc, err);
    const sw_skeleton* hs = sc->chr->skeleton;
    const sw_mesh* const* hm = sc->chr->meshes;
    const uint32_t hmc = sc->chr->meshes_count;
    if (r == SW_RESULT_OK)
        r = sw__actor(sc, SW__A_LOCO, "locomotion", hs, hm, hmc, SW_SHOWCASE_MATERIAL_SKIN);
    if (r == SW_RESULT_OK)
        r = sw__actor(sc, SW__A_REACH, "reach", hs, hm, hmc, SW_SHOWCASE_MATERIAL_SKIN);
    if (r == SW_RESULT_OK)
        r = sw__actor(sc, SW__A_HIT, "hit", hs, hm, hmc, SW_SHOWCASE_MATERIAL_HIT);
    if (r == SW_RESULT_OK)
        r = sw__actor(sc, SW__A_IDLE, "idle", hs, hm, hmc, SW_SHOWCASE_MATERIAL_DEFAULT);
    if (r == SW_RESULT_OK) {
        sc->reach_cursors = (uint32_t*)sw__sc_alloc(&sc->mem, (sc->clip_idle->tracks_count + 1u) *
                                                                  sizeof(uint32_t));
        if (!sc->reach_cursors)
            r = SW_RESULT_OUT_OF_MEMORY;
        else
            sw_sample_cache_init(&sc->reach_cache, sc->reach_cursors, sc->clip_idle->tracks_count);
        if (sc->hum.legs) sc->metrics.features |= SW_SHOWCASE_FEATURE_FOOT_IK;
        if (sc->hum.reach) sc->metrics.features |= SW_SHOWCASE_FEATURE_REACH;
        if (sc->hum.head >= 0) sc->metrics.features |= SW_SHOWCASE_FEATURE_LOOK;
        /* Without legs to place, stand beside the step rather than in it. */
        sc->reach_spot = sw_vec3_make(SW__SC_REACH_X - (sc->hum.legs ? 0.0f : -0.85f), sc->hum.lift,
                                      SW__SC_REACH_Z);
    }
    if (r == SW_RESULT_OK) r = sw__cat_setup(sc, err);
    if (r == SW_RESULT_OK) r = sw__arm_setup(sc, err);
    if (r == SW_RESULT_OK) r = sw__props_setup(sc, err);
    if (r == SW_RESULT_OK) r = sw__targets_setup(sc, err);
    if (r == SW_RESULT_OK) r = sw__spider_setup(sc, err);
    if (r == SW_RESULT_OK && options && options->physics) r = sw__rag_setup(sc, options, err);
    if (r == SW_RESULT_OK) {
        r = sw_showcase_update(sc, 0.0f, NULL);
        if (r != SW_RESULT_OK) sw__fail(err, r, "first update (a job refused the character)");
    }
    if (r != SW_RESULT_OK) {
        sw__fail(err, r, r == SW_RESULT_OUT_OF_MEMORY ? "allocation" : "showcase setup");
        sw_showcase_destroy(sc);
        return r;
    }
    *out = sc;
    return SW_RESULT_OK;
}

void sw_showcase_destroy(sw_showcase* s) {
    if (!s) return;
    sw__sc_rag_destroy(s->rag);
    sw__sc_mem m = s->mem;
    if (s->builtin_owned) sw_scene_free(&s->builtin, &m.alloc);
    sw_scene_free(&s->spider, &m.alloc);
    sw__sc_mem_free(&m);
    const sw_allocator a = m.alloc;
    sw_free(&a, s, sizeof *s);
}

/* ---- per-frame ---- */

static void sw__models(sw__sc_actor* a) {
    const sw_local_to_model_job job = {.skeleton = a->skel,
                                       .local = a->local,
                                       .local_count = a->skel->packets_count,
                                       .root_transform = &a->world,
                                       .out = a->model,
                                       .out_count = a->skel->joints_count};
    (void)sw_local_to_model_job_run(&job);
}

float sw__sc_velocity_jump(sw__sc_velocity* v, const sw__sc_actor* a, float dt) {
    float jump = 0.0f;
    const uint32_t n = a->skel->joints_count;
    for (uint32_t j = 0; j < n; ++j) {
        const sw_vec3 p = sw__pos(&a->model[j]);
        sw_vec3 vel = sw_vec3_make(0, 0, 0);
        if (v->valid >= 1 && dt > 0.0f)
            vel = sw_vec3_scale(sw_vec3_sub(p, v->prev_pos[j]), 1.0f / dt);
        if (v->valid >= 2) jump = fmaxf(jump, sw_vec3_length(sw_vec3_sub(vel, v->prev_vel[j])));
        v->prev_pos[j] = p;
        v->prev_vel[j] = vel;
    }
    if (dt > 0.0f && v->valid < 2) ++v->valid;
    return jump;
}

static void sw__close_step(sw__sc_plant* p, uint32_t* steps, float* max, double* sum) {
    if (!p->planted) return;
    p->planted = false;
    ++*steps;
    *max = fmaxf(*max, p->drift);
    *sum += p->drift;
}

static void sw__penetration(const sw_showcase* sc, const sw__sc_actor* a, float* pen) {
    if (!sc->hum.legs) return;
    const int32_t feet[2] = {sc->hum.l_foot, sc->hum.r_foot};
    for (uint32_t f = 0; f < 2; ++f) {
        const sw_vec3 p = sw__pos(&a->model[feet[f]]);
        const float sole = p.y - sc->hum.lift - sc->hum.ankle_height * sc->hum.scale;
        *pen = fmaxf(*pen, sw__sc_ground(p.x, p.z, NULL) - sole);
    }
}

/* A foot is planted from its down event to its up event (or, for clips
 * without up events, the other foot's down event); per plant the largest
 * horizontal drift of its ankle from where it landed. */
static void sw__track_feet(sw_showcase* sc, const sw__sc_actor* a, const bool down[2],
                           const bool up[2], sw__sc_plant plants[2], uint32_t* steps, float* max,
                           double* sum) {
    const int32_t feet[2] = {sc->hum.l_foot, sc->hum.r_foot};
    for (uint32_t f = 0; f < 2; ++f) {
        sw__sc_plant* p = &plants[f];
        const sw_vec3 pos = sw__pos(&a->model[feet[f]]);
        if (p->planted) {
            if (up[f] || down[1 - f])
                sw__close_step(p, steps, max, sum);
            else
                p->drift = fmaxf(p->drift, sw__hdist(pos, p->anchor));
        }
        if (down[f]) {
            sw__close_step(p, steps, max, sum);
            *p = (sw__sc_plant){true, pos, 0.0f};
        }
    }
}

static sw_result sw__loco_update(sw_showcase* sc, float dt, float t) {
    sw__sc_actor* a = &sc->actors[SW__A_LOCO];
    float goal = 0.0f;
    if (sc->in.has_speed) {
        goal = sc->in.speed;
    } else {
        const float p = fmodf(t, 14.0f);
        goal = p < 2.0f    ? 0.0f
               : p < 5.5f  ? sc->speed_walk
               : p < 9.0f  ? sc->speed_jog
               : p < 11.5f ? sc->speed_walk
                           : 0.0f;
    }
    sw_spring_float_update(&sc->loco_speed, goal, 0.5f, dt);
    sc->loco.params[0] = fmaxf(sc->loco_speed.value, 0.0f);
    sw_animator_event events[16], ev_alt[16];
    uint32_t ne = 0, ne_alt = 0;
    sw_animator_root_motion rm = {{0, 0, 0}, 0}, rm_alt = {{0, 0, 0}, 0};
    sw_result r = sw_animator_update(sc->loco.inst, sc->loco.bound, sc->loco.params,
                                     sc->loco.params_count, dt, events, 16, &ne, &rm);
    if (r != SW_RESULT_OK) return r;
    /* The variants run side by side; the shown one gives the pose and the
     * events, the synchronized one (of the chosen transition mode) the root motion. */
    const bool inert = sc->in.transitions == SW_SHOWCASE_TRANSITIONS_INERTIALIZE;
    const sw__sc_anim* shown = &sc->loco;
    if (sc->has_loco_inert) {
        sc->loco_inert.params[0] = sc->loco.params[0];
        r = sw_animator_update(sc->loco_inert.inst, sc->loco_inert.bound, sc->loco_inert.params,
                               sc->loco_inert.params_count, dt, inert ? events : ev_alt, 16,
                               inert ? &ne : &ne_alt, inert ? &rm : &rm_alt);
        if (r != SW_RESULT_OK) return r;
        /* evaluated every frame: inertialization needs the previous outputs */
        r = sw_animator_evaluate(sc->loco_inert.inst, sc->loco_inert.bound, sc->loco_inert.scratch,
                                 sc->loco_inert.scratch_size, a->local, a->skel->packets_count);
        if (r != SW_RESULT_OK) return r;
        if (inert) shown = &sc->loco_inert;
    }
    if (sc->has_loco_free) {
        sw__free_weights(sc, sc->loco.params[0], &sc->loco_free.params[0],
                         &sc->loco_free.params[1]);
        r = sw_animator_update(sc->loco_free.inst, sc->loco_free.bound, sc->loco_free.params,
                               sc->loco_free.params_count, dt, sc->in.no_sync ? events : ev_alt, 16,
                               sc->in.no_sync ? &ne : &ne_alt, NULL);
        if (r != SW_RESULT_OK) return r;
        if (sc->in.no_sync) shown = &sc->loco_free;
    }
    r = sw_animator_evaluate(shown->inst, shown->bound, shown->scratch, shown->scratch_size,
                             a->local, a->skel->packets_count);
    if (r != SW_RESULT_OK) return r;
    /* Phase spread of the shown walk and jog weighing more than 5% of the pose each. */
    sw_animator_contribution con[8];
    const uint32_t nc = sw_animator_contributions(shown->inst, shown->bound, con, 8);
    float lw[3] = {1.0f, 1.0f, 1.0f};
    if (shown == &sc->loco_free) {
        const float la = sc->loco_free.params[0], lb = sc->loco_free.params[1];
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
    sc->status.locomotion_phase_spread = spread;
    sw_vec3 d = sw_vec3_scale(rm.translation, sc->hum.scale);
    if (sc->in_place) d = sw_vec3_make(0.0f, 0.0f, sc->loco.params[0] * dt);
    const sw_quat yaw = sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), sc->loco_heading);
    sc->loco_pos = sw_vec3_add(sc->loco_pos, sw_quat_rotate(yaw, d));
    sc->loco_heading += rm.yaw + d.z / SW__SC_LOCO_R;
    a->world = sw__world(sc->loco_pos, sc->loco_heading, sc->hum.scale);
    sw__models(a);
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
    sw_showcase_metrics* m = &sc->metrics;
    if (m->features & SW_SHOWCASE_FEATURE_FOOT_TRACK) {
        /* The animation alone: drift of each planted ankle (turning along the
         * circle while the clips walk straight makes the feet slide). */
        sw__track_feet(sc, a, down, up, sc->loco_raw, &m->locomotion_unlocked_steps,
                       &m->locomotion_unlocked_slide_max, &sc->raw_slide_sum);
        m->locomotion_unlocked_slide_mean =
            m->locomotion_unlocked_steps ? (float)(sc->raw_slide_sum / m->locomotion_unlocked_steps)
                                         : 0.0f;
        /* Foot lock: two-bone IK holds a planted ankle where it landed, and
         * lets go over 0.12 s once the foot lifts. */
        const sw__sc_human* h = &sc->hum;
        const int32_t hip[2] = {h->l_upleg, h->r_upleg}, knee[2] = {h->l_leg, h->r_leg};
        const int32_t ankle[2] = {h->l_foot, h->r_foot};
        for (uint32_t f = 0; f < 2; ++f) {
            if (sc->in.no_foot_placement) {
                sc->lock_weight[f] = 0.0f;
            } else if (sc->loco_raw[f].planted) {
                sc->lock_anchor[f] = sc->loco_raw[f].anchor;
                sc->lock_weight[f] = 1.0f;
            } else {
                sc->lock_weight[f] = fmaxf(0.0f, sc->lock_weight[f] - dt / 0.12f);
            }
            if (sc->lock_weight[f] <= 0.0f) continue;
            const sw_ik_two_bone_job ik = {.skeleton = a->skel,
                                           .model = a->model,
                                           .model_count = a->skel->joints_count,
                                           .root_transform = &a->world,
                                           .start_joint = (uint32_t)hip[f],
                                           .mid_joint = (uint32_t)knee[f],
                                           .end_joint = (uint32_t)ankle[f],
                                           .target = sc->lock_anchor[f],
                                           .weight = sc->lock_weight[f],
                                           .pose = a->local,
                                           .pose_count = a->skel->packets_count};
            r = sw_ik_two_bone_job_run(&ik);
            if (r != SW_RESULT_OK) return r;
            sw__models(a);
        }
        sc->status.locomotion_lock_weight = fmaxf(sc->lock_weight[0], sc->lock_weight[1]);
        sw__track_feet(sc, a, down, up, sc->loco_feet, &m->locomotion_steps,
                       &m->locomotion_slide_max, &sc->slide_sum);
        m->locomotion_slide_mean =
            m->locomotion_steps ? (float)(sc->slide_sum / m->locomotion_steps) : 0.0f;
    }
    const float jump = sw__sc_velocity_jump(&sc->loco_vel, a, dt);
    if (enter) {
        ++m->transitions;
        m->transition_velocity_jump_max = fmaxf(m->transition_velocity_jump_max, jump);
    }
    sw__penetration(sc, a, &m->foot_penetration_max);
    return SW_RESULT_OK;
}

static sw_result sw__reach_update(sw_showcase* sc, float dt, float t) {
    sw__sc_actor* a = &sc->actors[SW__A_REACH];
    const sw__sc_human* h = &sc->hum;
    const float k = h->scale;
    a->world = sw__world(sc->reach_spot, 0.0f, k);
    const float dur = sc->clip_idle->duration;
    const sw_sample_job sample = {.clip = sc->clip_idle,
                                  .skeleton = a->skel,
                                  .time = dur > 0.0f ? fmodf(t, dur) : 0.0f,
                                  .cache = &sc->reach_cache,
                                  .out = a->local,
                                  .out_count = a->skel->packets_count};
    sw_result r = sw_sample_job_run(&sample);
    if (r != SW_RESULT_OK) return r;
    sw__models(a);
    if (h->legs && !sc->in.no_foot_placement) {
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
                                  .state = &sc->reach_feet,
                                  .pose = a->local,
                                  .pose_count = a->skel->packets_count};
        r = sw_foot_job_run(&foot);
        if (r != SW_RESULT_OK) return r;
    }
    /* Head: a spring follows the camera (or the given point); look-at within 60 degrees. */
    const sw_vec3 goal = sc->in.has_look_target ? sc->in.look_target : sc->camera.view.t;
    if (sc->look.value.x == 0.0f && sc->look.value.y == 0.0f && sc->look.value.z == 0.0f)
        sc->look.value = goal;
    sw_spring_vec3_update(&sc->look, goal, 0.3f, dt);
    if (h->head >= 0) {
        sw_ik_look_at_joint chain[3];
        uint32_t n = 0;
        const int32_t js[3] = {h->spine1, h->neck, h->head};
        const float shares[3] = {0.25f, 0.5f, 1.0f};
        int32_t last = -1;
        for (uint32_t i = 0; i < 3; ++i) {
            if (js[i] < 0 || (last >= 0 && !sw__is_ancestor(a->skel, last, js[i]))) continue;
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
                                        .target = sc->look.value,
                                        .limit_angle = 1.05f,
                                        .weight = 1.0f,
                                        .pose = a->local,
                                        .pose_count = a->skel->packets_count};
        r = sw_ik_look_at_job_run(&look);
        if (r != SW_RESULT_OK) return r;
        sw__models(a);
    }
    /* Reach: the orb floats in front of the right hand; the weight fades in and out. */
    const sw_vec3 spot = sc->reach_spot;
    sc->orb = sw_vec3_add(spot, sw_vec3_scale(sw_vec3_make(-0.38f + 0.1f * sinf(0.6f * t),
                                                           1.3f + 0.12f * sinf(0.9f * t),
                                                           0.4f + 0.12f * cosf(0.7f * t)),
                                              k));
    const sw_vec3 target = sc->in.has_reach_target ? sc->in.reach_target : sc->orb;
    const float ph = fmodf(t, 6.0f);
    const float w = sw__smooth(1.0f, 1.8f, ph) * (1.0f - sw__smooth(4.0f, 4.8f, ph));
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
        sw__models(a);
        const sw_vec3 sh = sw__pos(&a->model[h->r_arm]);
        const sw_vec3 el = sw__pos(&a->model[h->r_forearm]);
        const sw_vec3 ha = sw__pos(&a->model[h->r_hand]);
        const float reach =
            sw_vec3_length(sw_vec3_sub(el, sh)) + sw_vec3_length(sw_vec3_sub(ha, el));
        if (w >= 0.999f && sw_vec3_length(sw_vec3_sub(target, sh)) < 0.98f * reach)
            sc->metrics.reach_error_max =
                fmaxf(sc->metrics.reach_error_max, sw_vec3_length(sw_vec3_sub(ha, target)));
    }
    sw__penetration(sc, a, &sc->metrics.foot_penetration_max);
    if (h->legs) {
        const sw_vec3 p = sw__pos(&a->model[h->l_foot]);
        const float sole = p.y - h->lift - h->ankle_height * h->scale;
        sc->status.reach_foot_gap = sole - sw__sc_ground(p.x, p.z, NULL);
    }
    return SW_RESULT_OK;
}

static sw_result sw__cat_update(sw_showcase* sc, float t) {
    sw__sc_actor* a = &sc->actors[SW__A_CAT];
    const float th = 0.42f * t, am = 1.05f;
    const sw_vec3 head =
        sw_vec3_make(SW__SC_CAT_X + am * sinf(th), 0.0f, SW__SC_CAT_Z + am * sinf(th) * cosf(th));
    const sw_vec3 step = sw_vec3_sub(head, sc->cat_points[0]);
    if (sw_vec3_length(step) > 1e-5f) sc->cat_heading = sw_vec3_normalize(step);
    const sw_chain_follow_job job = {.head = head,
                                     .lengths = sc->cat_lengths,
                                     .lengths_count = SW__SC_SEGMENTS - 1,
                                     .points = sc->cat_points,
                                     .points_count = SW__SC_SEGMENTS};
    const sw_result r = sw_chain_follow_job_run(&job);
    if (r != SW_RESULT_OK) return r;
    a->world = sw_mat4_identity();
    memcpy(a->local, sw_skeleton_rest_pose(a->skel), a->skel->packets_count * sizeof(sw_xform4));
    for (uint32_t i = 0; i < SW__SC_SEGMENTS; ++i) {
        const sw_vec3 dir =
            i == 0 ? sc->cat_heading
                   : sw_vec3_normalize(sw_vec3_sub(sc->cat_points[i - 1], sc->cat_points[i]));
        const float s = sinf(5.0f * t - 0.75f * (float)i);
        const float bob = 0.07f * (s > 0.0f ? s * s : 0.0f);
        sw_xform x = sw_xform_identity();
        x.t = sw_vec3_add(sc->cat_points[i], sw_vec3_make(0.0f, 0.1f + bob, 0.0f));
        x.r = sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), atan2f(dir.x, dir.z));
        sw_pose_set(a->local, i + 1, x);
    }
    sw__models(a);
    return SW_RESULT_OK;
}

static sw_result sw__arm_update(sw_showcase* sc, float t) {
    sw__sc_actor* a = &sc->actors[SW__A_ARM];
    a->world = sw__world(sw_vec3_make(SW__SC_ARM_X, 0.0f, SW__SC_ARM_Z), 0.0f, 1.0f);
    memcpy(a->local, sw_skeleton_rest_pose(a->skel), a->skel->packets_count * sizeof(sw_xform4));
    sw__models(a);
    const sw_vec3 sh = sw__pos(&a->model[1]);
    const float th = 0.8f * t, rad = 0.78f + 0.32f * sinf(0.37f * t + 0.5f);
    sc->arm_target = sw_vec3_add(
        sh, sw_vec3_make(rad * cosf(th), 0.25f * sinf(1.3f * t) + 0.1f, rad * sinf(th)));
    const sw_ik_two_bone_job ik = {.skeleton = a->skel,
                                   .model = a->model,
                                   .model_count = 4,
                                   .root_transform = &a->world,
                                   .start_joint = 1,
                                   .mid_joint = 2,
                                   .end_joint = 3,
                                   .target = sc->arm_target,
                                   .pole_mode = SW_IK_POLE_MODE_DIRECTION,
                                   .pole = sw_vec3_make(0, 1, 0),
                                   .weight = 1.0f,
                                   .pose = a->local,
                                   .pose_count = a->skel->packets_count};
    const sw_result r = sw_ik_two_bone_job_run(&ik);
    if (r != SW_RESULT_OK) return r;
    sw__models(a);
    const float d = sw_vec3_length(sw_vec3_sub(sc->arm_target, sh));
    if (d <= 0.999f * (0.55f + 0.5f)) {
        sc->metrics.arm_error_max =
            fmaxf(sc->metrics.arm_error_max,
                  sw_vec3_length(sw_vec3_sub(sw__pos(&a->model[3]), sc->arm_target)));
    } else {
        ++sc->metrics.arm_out_of_reach_frames;
    }
    return SW_RESULT_OK;
}

static sw_result sw__spider_update(sw_showcase* sc, float dt) {
    sw__sc_actor* a = &sc->actors[SW__A_SPIDER];
    const float v = 0.22f, h = sc->walker_state.heading;
    const sw_walker_job job = {.desc = &sc->walker,
                               .state = &sc->walker_state,
                               .velocity = sw_vec3_make(v * sinf(h), 0.0f, v * cosf(h)),
                               .turn_rate = v / SW__SC_SPIDER_R,
                               .dt = dt};
    sw_result r = sw_walker_job_run(&job);
    if (r != SW_RESULT_OK) return r;
    a->world = sw_walker_body_matrix(&sc->walker_state);
    memcpy(a->local, sw_skeleton_rest_pose(a->skel), a->skel->packets_count * sizeof(sw_xform4));
    sw_pose_set(a->local, 0, sw_xform_identity()); /* the body joint sits on the body matrix */
    sw__models(a);
    const sw_walker_pose_job pose = {.skeleton = a->skel,
                                     .model = a->model,
                                     .model_count = a->skel->joints_count,
                                     .root_transform = &a->world,
                                     .state = &sc->walker_state,
                                     .chains = sc->chains,
                                     .chains_count = sc->spider_legs,
                                     .weight = 1.0f,
                                     .pose = a->local,
                                     .pose_count = a->skel->packets_count};
    r = sw_walker_pose_job_run(&pose);
    if (r != SW_RESULT_OK) return r;
    sw__models(a);
    sw_showcase_metrics* m = &sc->metrics;
    for (uint32_t i = 0; i < sc->spider_legs; ++i) {
        sw__sc_plant* p = &sc->spider_feet[i];
        const sw_vec3 tip = sw__pos(&a->model[sc->spider_tips[i]]);
        const bool air = sc->walker_state.feet[i].airborne;
        if (air) {
            sw__close_step(p, &m->spider_steps, &m->spider_slide_max, &sc->spider_slide_sum);
        } else {
            if (!p->planted) *p = (sw__sc_plant){true, tip, 0.0f};
            p->drift = fmaxf(p->drift, sw__hdist(tip, p->anchor));
            m->spider_penetration_max =
                fmaxf(m->spider_penetration_max, sw__sc_ground(tip.x, tip.z, NULL) - tip.y);
        }
    }
    m->spider_slide_mean = m->spider_steps ? (float)(sc->spider_slide_sum / m->spider_steps) : 0.0f;
    return SW_RESULT_OK;
}

static sw_result sw__hit_update(sw_showcase* sc, float dt) {
    sw__sc_actor* a = &sc->actors[SW__A_HIT];
    const float k = sc->hum.scale;
    a->world = sw__world(sw_vec3_make(SW__SC_HIT_X, sc->hum.lift, SW__SC_HIT_Z), -0.35f, k);
    if (sc->time >= sc->next_hit) {
        sc->next_hit += 1.8;
        ++sc->metrics.hits;
        sc->hit.params[0] = 1.0f;
        sw_hit_pause_start(&sc->pause, 0.09f, 0.0f);
        sc->since_hit_real = 0.0f;
        sc->since_hit = 0.0f;
        sc->shake = (sw_shake_desc){.position_amplitude = sw_vec3_make(0.05f, 0.04f, 0.0f),
                                    .position_frequency = 14.0f,
                                    .rotation_amplitude = sw_vec3_make(0.012f, 0.012f, 0.02f),
                                    .rotation_frequency = 11.0f,
                                    .fov_amplitude = 0.01f,
                                    .fade_in = 0.01f,
                                    .hold = 0.06f,
                                    .fade_out = 0.35f,
                                    .seed = sc->seed * 31u + sc->metrics.hits};
        sc->pulse =
            (sw_fov_pulse_desc){.amount = 0.06f, .attack = 0.04f, .hold = 0.05f, .release = 0.3f};
    }
    const float adt = sw_hit_pause_scale_dt(&sc->pause, dt);
    sc->since_hit += adt;
    sw_animator_event events[8], ev_alt[8];
    uint32_t ne = 0, ne_alt = 0;
    const bool inert = sc->in.transitions == SW_SHOWCASE_TRANSITIONS_INERTIALIZE;
    sc->hit_inert.params[0] = sc->hit.params[0];
    sw_result r =
        sw_animator_update(sc->hit.inst, sc->hit.bound, sc->hit.params, sc->hit.params_count, adt,
                           inert ? ev_alt : events, 8, inert ? &ne_alt : &ne, NULL);
    if (r != SW_RESULT_OK) return r;
    r = sw_animator_update(sc->hit_inert.inst, sc->hit_inert.bound, sc->hit_inert.params,
                           sc->hit_inert.params_count, adt, inert ? events : ev_alt, 8,
                           inert ? &ne : &ne_alt, NULL);
    if (r != SW_RESULT_OK) return r;
    /* Both evaluated every frame (inertialization needs the previous
     * outputs); the other variant goes to alt_local. */
    const sw__sc_anim* shown = inert ? &sc->hit_inert : &sc->hit;
    const sw__sc_anim* other = inert ? &sc->hit : &sc->hit_inert;
    r = sw_animator_evaluate(other->inst, other->bound, other->scratch, other->scratch_size,
                             sc->alt_local, a->skel->packets_count);
    if (r != SW_RESULT_OK) return r;
    r = sw_animator_evaluate(shown->inst, shown->bound, shown->scratch, shown->scratch_size,
                             a->local, a->skel->packets_count);
    if (r != SW_RESULT_OK) return r;
    sw_animator_state_info states[SW_ANIMATOR_MAX_FADES];
    sc->status.hit_states =
        sw_animator_states(shown->inst, shown->bound, states, SW_ANIMATOR_MAX_FADES);
    if (sc->status.hit_states > 1) ++sc->status.hit_crossfade_updates;
    sc->status.hit_offset = 0.0f;
    if (inert) {
        /* The offset: the inertialized pose against the crossfaded one. */
        sw__models(a);
        const sw_local_to_model_job fk = {.skeleton = a->skel,
                                          .local = sc->alt_local,
                                          .local_count = a->skel->packets_count,
                                          .root_transform = &a->world,
                                          .out = sc->alt_model,
                                          .out_count = a->skel->joints_count};
        r = sw_local_to_model_job_run(&fk);
        if (r != SW_RESULT_OK) return r;
        for (uint32_t j = 0; j < a->skel->joints_count; ++j)
            sc->status.hit_offset = fmaxf(
                sc->status.hit_offset,
                sw_vec3_length(sw_vec3_sub(sw__pos(&a->model[j]), sw__pos(&sc->alt_model[j]))));
    }
    if (sc->shake_joints_count > 0 && sc->metrics.hits > 0) {
        const sw_pose_shake_job shake = {.joints = sc->shake_joints,
                                         .joints_count = sc->shake_joints_count,
                                         .amplitude = 0.14f,
                                         .frequency = 9.0f,
                                         .half_life = 0.12f,
                                         .time = sc->since_hit,
                                         .seed = sc->metrics.hits,
                                         .pose = a->local,
                                         .pose_count = a->skel->packets_count};
        r = sw_pose_shake_job_run(&shake);
        if (r != SW_RESULT_OK) return r;
    }
    sw__models(a);
    if (sc->spine_count >= 2) {
        const sw_spine_wander_job wander = {.skeleton = a->skel,
                                            .model = a->model,
                                            .model_count = a->skel->joints_count,
                                            .root_transform = &a->world,
                                            .joints = sc->spine_chain,
                                            .joints_count = sc->spine_count,
                                            .range = sw_vec3_make(0.05f * k, 0.02f * k, 0.05f * k),
                                            .seed = sc->metrics.hits,
                                            .time = sc->since_hit,
                                            .weight = 0.35f + 0.65f * expf(-sc->since_hit / 0.8f),
                                            .pose = a->local,
                                            .pose_count = a->skel->packets_count};
        r = sw_spine_wander_job_run(&wander);
        if (r != SW_RESULT_OK) return r;
        sw__models(a);
    }
    bool enter = false;
    for (uint32_t e = 0; e < ne && e < 8; ++e)
        if (events[e].kind == SW_ANIMATOR_EVENT_KIND_ENTER) enter = true;
    const float jump = sw__sc_velocity_jump(&sc->hit_vel, a, dt);
    if (enter) sc->metrics.hit_velocity_jump_max = fmaxf(sc->metrics.hit_velocity_jump_max, jump);
    sw__penetration(sc, a, &sc->metrics.foot_penetration_max);
    return SW_RESULT_OK;
}

static sw_result sw__idle_update(sw_showcase* sc, float dt) {
    sw__sc_actor* a = &sc->actors[SW__A_IDLE];
    const float yaw = 0.45f;
    a->world =
        sw__world(sw_vec3_make(SW__SC_IDLE_X, sc->hum.lift, SW__SC_IDLE_Z), yaw, sc->hum.scale);
    sw_result r =
        sw_animator_idle_update(&sc->idle_ctl, sc->idle.params, sc->idle.params_count, dt);
    if (r != SW_RESULT_OK) return r;
    uint32_t ne = 0;
    r = sw_animator_update(sc->idle.inst, sc->idle.bound, sc->idle.params, sc->idle.params_count,
                           dt, NULL, 0, &ne, NULL);
    if (r != SW_RESULT_OK) return r;
    r = sw_animator_evaluate(sc->idle.inst, sc->idle.bound, sc->idle.scratch, sc->idle.scratch_size,
                             a->local, a->skel->packets_count);
    if (r != SW_RESULT_OK) return r;
    sw__models(a);
    const sw__sc_human* h = &sc->hum;
    if (h->head >= 0) {
        const float lx = sc->idle.params[2], ly = sc->idle.params[3];
        const sw_vec3 head = sw__pos(&a->model[h->head]);
        const sw_vec3 dir = sw_vec3_make(sinf(yaw + 0.9f * lx), ly, cosf(yaw + 0.9f * lx));
        sw_ik_look_at_joint chain[2];
        uint32_t n = 0;
        if (h->neck >= 0 && sw__is_ancestor(a->skel, h->neck, h->head))
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
        sw__models(a);
    }
    sw__penetration(sc, a, &sc->metrics.foot_penetration_max);
    return SW_RESULT_OK;
}

static void sw__targets_update(sw_showcase* sc) {
    sw__sc_actor* a = &sc->actors[SW__A_TARGETS];
    memcpy(a->local, sw_skeleton_rest_pose(a->skel), a->skel->packets_count * sizeof(sw_xform4));
    sw_xform x = sw_xform_identity();
    x.t = sc->in.has_reach_target ? sc->in.reach_target : sc->orb;
    sw_pose_set(a->local, 1, x);
    x.t = sc->arm_target;
    sw_pose_set(a->local, 2, x);
    sw__models(a);
}

static void sw__camera_update(sw_showcase* sc, float t) {
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
    if (sc->since_hit_real >= 0.0f) {
        const sw_shake_sample s = sw_shake_eval(&sc->shake, sc->since_hit_real);
        view = sw_shake_apply(view, &s);
        fov += s.fov + sw_fov_pulse_eval(&sc->pulse, sc->since_hit_real);
    }
    sc->camera.view = view;
    sc->camera.fov_y = fov;
}

static sw_result sw__palettes(sw_showcase* sc) {
    for (uint32_t i = 0; i < SW__A_COUNT; ++i) {
        sw__sc_actor* a = &sc->actors[i];
        for (uint32_t k = 0; k < a->meshes_count; ++k) {
            const sw_mesh* m = a->meshes[k];
            const sw_skinning_job job = {.model = a->model,
                                         .model_count = a->skel->joints_count,
                                         .joints = sw_mesh_palette(m),
                                         .inverse_bind = sw_mesh_inverse_binds(m),
                                         .count = m->palette_count,
                                         .out = a->palettes[k],
                                         .out_count = m->palette_count};
            const sw_result r = sw_skinning_job_run(&job);
            if (r != SW_RESULT_OK) return r;
        }
    }
    return SW_RESULT_OK;
}

static sw_result sw__step(sw_showcase* sc, float dt) {
    sc->time += (double)dt;
    const float t = (float)sc->time;
    if (sc->since_hit_real >= 0.0f) sc->since_hit_real += dt;
    sw__camera_update(sc, t);
    sw_result r = sw__loco_update(sc, dt, t);
    if (r == SW_RESULT_OK) r = sw__reach_update(sc, dt, t);
    if (r == SW_RESULT_OK) r = sw__cat_update(sc, t);
    if (r == SW_RESULT_OK) r = sw__arm_update(sc, t);
    if (r == SW_RESULT_OK) r = sw__spider_update(sc, dt);
    if (r == SW_RESULT_OK) r = sw__hit_update(sc, dt);
    if (r == SW_RESULT_OK) r = sw__idle_update(sc, dt);
    if (r == SW_RESULT_OK) sw__targets_update(sc);
    if (r == SW_RESULT_OK && sc->rag) r = sw__sc_rag_update(sc->rag, sc->time, dt, &sc->metrics);
    if (r == SW_RESULT_OK) r = sw__palettes(sc);
    ++sc->metrics.updates;
    return r;
}

static bool sw__finite3(sw_vec3 v) {
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

sw_result sw_showcase_update(sw_showcase* s, float dt, const sw_showcase_inputs* in) {
    if (!s || !(dt >= 0.0f) || !isfinite(dt)) return SW_RESULT_INVALID_ARGUMENT;
    if (in) {
        if (!sw__finite3(in->camera) || !sw__finite3(in->camera_target) ||
            !sw__finite3(in->look_target) || !sw__finite3(in->reach_target) ||
            !isfinite(in->speed) || (unsigned)in->transitions > SW_SHOWCASE_TRANSITIONS_INERTIALIZE)
            return SW_RESULT_INVALID_ARGUMENT;
        s->in = *in;
    } else {
        memset(&s->in, 0, sizeof s->in);
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
    return s ? s->time : 0.0;
}

uint32_t sw_showcase_actors_count(const sw_showcase* s) {
    return s ? (s->rag ? SW__A_COUNT : SW__A_POWERED) : 0u;
}

sw_showcase_actor sw_showcase_get_actor(const sw_showcase* s, uint32_t i) {
    sw_showcase_actor v;
    memset(&v, 0, sizeof v);
    if (!s || i >= sw_showcase_actors_count(s)) return v;
    const sw__sc_actor* a = &s->actors[i];
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
    return s ? s->camera : c;
}

const sw_showcase_metrics* sw_showcase_get_metrics(const sw_showcase* s) {
    return s ? &s->metrics : NULL;
}

sw_showcase_status sw_showcase_get_status(const sw_showcase* s) {
    sw_showcase_status st;
    memset(&st, 0, sizeof st);
    if (!s) return st;
    st = s->status;
    st.knockdown_phase = sw__sc_rag_phase(s->rag);
    return st;
}
