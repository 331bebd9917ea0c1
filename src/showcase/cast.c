/* The humanoid the showcase's humanoid actors show (cast.h). */
#include <ctype.h>

#include "showcase/cast.h"
#include "showcase/stage.h"
#include "sinew/showcase/character.h"

static sw_vec3 sw__pos(const sw_mat4* m) {
    return sw_vec3_make(m->m[12], m->m[13], m->m[14]);
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

bool sw__sc_is_ancestor(const sw_skeleton* s, int32_t a, int32_t j) {
    if (a < 0 || j < 0) return false;
    const int16_t* parents = sw_skeleton_parents(s);
    for (int32_t k = parents[j]; k >= 0; k = parents[k])
        if (k == a) return true;
    return false;
}

/* Horizontal speed of joint j over the clip (character units per second). */
static float sw__clip_speed(const sw_skeleton* s, const sw_clip* c, int32_t j, sw_xform4* local,
                            sw_mat4* model) {
    if (!c || j < 0 || !(c->duration > 0.0f)) return 0.0f;
    sw__sc_sample(s, c, 0.0f, local);
    sw__sc_models(s, local, model);
    const sw_vec3 a = sw__pos(&model[j]);
    sw__sc_sample(s, c, c->duration, local);
    sw__sc_models(s, local, model);
    const sw_vec3 b = sw__pos(&model[j]);
    const float dx = a.x - b.x, dz = a.z - b.z;
    return sqrtf(dx * dx + dz * dz) / c->duration;
}

/* The speed an in-place clip walks at: the mean horizontal speed of the
 * lower of joints a and b (the stance foot, which the clip slides back
 * under the body) over 64 steps of the clip (character units per second);
 * 0 without both joints. */
static float sw__stance_speed(const sw_skeleton* s, const sw_clip* c, int32_t a, int32_t b,
                              sw_xform4* local, sw_mat4* model) {
    if (!c || a < 0 || b < 0 || !(c->duration > 0.0f)) return 0.0f;
    const uint32_t steps = 64;
    const float dt = c->duration / (float)steps;
    sw_vec3 pa = sw_vec3_make(0, 0, 0), pb = pa;
    float sum = 0.0f;
    for (uint32_t k = 0; k <= steps; ++k) {
        sw__sc_sample(s, c, (float)k * dt, local);
        sw__sc_models(s, local, model);
        const sw_vec3 na = sw__pos(&model[a]), nb = sw__pos(&model[b]);
        if (k > 0) {
            const sw_vec3 from = pa.y <= pb.y ? pa : pb, to = pa.y <= pb.y ? na : nb;
            sum += sqrtf((to.x - from.x) * (to.x - from.x) + (to.z - from.z) * (to.z - from.z));
        }
        pa = na, pb = nb;
    }
    return sum / c->duration;
}

static sw_result sw__pick_clips(sw__sc_cast* cast, const sw_showcase_options* o, sw_error* err) {
    const sw_scene* c = cast->chr;
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
        if (!roles[r] && want)
            return sw__fail_first(err, SW_RESULT_NOT_FOUND, "named clip exists", 0, -1);
    }
    if (!roles[1]) roles[1] = roles[2];
    if (!roles[2]) roles[2] = roles[1];
    if (!roles[0]) roles[0] = roles[1] ? roles[1] : c->clips[0];
    if (!roles[1]) roles[1] = roles[2] = roles[0];
    cast->clip_idle = roles[0];
    cast->clip_walk = roles[1];
    cast->clip_jog = roles[2];
    return SW_RESULT_OK;
}

static sw_result sw__human_setup(sw__sc_cast* cast, sw__sc_mem* mem, sw_error* err) {
    const sw_skeleton* s = cast->chr->skeleton;
    sw__sc_human* h = &cast->hum;
    static const char* const hips[] = {"Hips", "Pelvis", "Root"};
    static const char* const spine[] = {"Spine", "Abdomen", "LowerBack"};
    static const char* const spine1[] = {"Spine1", "Spine2", "Chest", "Torso"};
    static const char* const neck[] = {"Neck", "Neck1"};
    static const char* const head[] = {"Head"};
    static const char* const larm[] = {"LeftArm", "UpperArmL", "LeftUpperArm"};
    static const char* const lfore[] = {"LeftForeArm", "LowerArmL", "LeftLowerArm"};
    static const char* const lhand[] = {"LeftHand", "HandL", "Palm2L", "PalmL"};
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
    h->l_arm = SW__FIND(larm);
    h->l_forearm = SW__FIND(lfore);
    h->l_hand = SW__FIND(lhand);
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
    h->legs =
        sw__sc_is_ancestor(s, h->hips, h->l_upleg) && sw__sc_is_ancestor(s, h->l_upleg, h->l_leg) &&
        sw__sc_is_ancestor(s, h->l_leg, h->l_foot) && sw__sc_is_ancestor(s, h->hips, h->r_upleg) &&
        sw__sc_is_ancestor(s, h->r_upleg, h->r_leg) && sw__sc_is_ancestor(s, h->r_leg, h->r_foot);
    h->reach = sw__sc_is_ancestor(s, h->r_arm, h->r_forearm) &&
               sw__sc_is_ancestor(s, h->r_forearm, h->r_hand);
    /* The idle pose at time 0 gives the ankle height, the size and the head's forward axis. */
    sw_xform4* local = (sw_xform4*)sw__sc_alloc(mem, s->packets_count * sizeof(sw_xform4));
    sw_mat4* model = (sw_mat4*)sw__sc_alloc(mem, s->joints_count * sizeof(sw_mat4));
    if (!local || !model) return sw__fail_first(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    sw__sc_sample(s, cast->clip_idle, 0.0f, local);
    sw__sc_models(s, local, model);
    float top = 0.0f, bottom = 0.0f;
    for (uint32_t j = 0; j < s->joints_count; ++j) {
        const float y = model[j].m[13];
        top = j == 0 || y > top ? y : top;
        bottom = j == 0 || y < bottom ? y : bottom;
    }
    const float head_y = h->head >= 0 ? model[h->head].m[13] - bottom : top - bottom;
    h->scale = head_y > 1e-6f ? (h->head >= 0 ? 1.52f : 1.65f) / head_y : 1.0f;
    if (cast->builtin_owned) h->scale = 1.0f;
    h->lift = 0.0f;
    if (!cast->builtin_owned && cast->chr->meshes_count > 0) {
        /* A file's character: size it from its skinned meshes in the idle
         * pose (1.75 m tall) and put its lowest vertex on the ground. */
        sw_mat4* pal = (sw_mat4*)sw__sc_alloc(mem, 1024 * sizeof(sw_mat4));
        if (!pal) return sw__fail_first(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
        float lo = INFINITY, hi = -INFINITY;
        for (uint32_t k = 0; k < cast->chr->meshes_count; ++k) {
            const sw_mesh* m = cast->chr->meshes[k];
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
    h->feet = h->legs ||
              (sw__sc_is_ancestor(s, h->l_upleg, h->l_leg) &&
               sw__sc_is_ancestor(s, h->r_upleg, h->r_leg) && h->l_foot >= 0 && h->r_foot >= 0 &&
               SW__BONE(h->l_upleg, h->l_leg) && SW__BONE(h->r_upleg, h->r_leg));
#undef SW__BONE
    h->ankle_height = h->legs ? fminf(model[h->l_foot].m[13], model[h->r_foot].m[13]) : 0.0f;
    h->head_forward = sw_vec3_make(0, 0, 1);
    if (h->head >= 0) {
        const sw_quat q = sw_quat_from_mat4(&model[h->head]);
        h->head_forward = sw_quat_rotate(sw_quat_conjugate(q), sw_vec3_make(0, 0, 1));
    }
    const float ws = sw__clip_speed(s, cast->clip_walk, h->hips, local, model) * h->scale;
    const float js = sw__clip_speed(s, cast->clip_jog, h->hips, local, model) * h->scale;
    cast->in_place = !(ws > 0.1f);
    cast->speed_walk = ws;
    cast->speed_jog = js > ws + 0.1f ? js : ws * 2.0f;
    if (cast->in_place) {
        /* the root moves at the speed the stance foot slides back, so a
         * planted foot stays put (1.4 and 2.8 m/s without feet to measure) */
        const float wf = sw__stance_speed(s, cast->clip_walk, h->l_foot, h->r_foot, local, model);
        const float jf = sw__stance_speed(s, cast->clip_jog, h->l_foot, h->r_foot, local, model);
        cast->speed_walk = wf * h->scale > 0.1f ? wf * h->scale : 1.4f;
        cast->speed_jog =
            jf * h->scale > cast->speed_walk + 0.1f ? jf * h->scale : cast->speed_walk * 2.0f;
    }
    return SW_RESULT_OK;
}

void sw__sc_cast_penetration(const sw__sc_cast* cast, const sw_mat4* model, float* pen) {
    if (!cast->hum.legs) return;
    const int32_t feet[2] = {cast->hum.l_foot, cast->hum.r_foot};
    for (uint32_t f = 0; f < 2; ++f) {
        const sw_vec3 p = sw__pos(&model[feet[f]]);
        const float sole = p.y - cast->hum.lift - cast->hum.ankle_height * cast->hum.scale;
        *pen = fmaxf(*pen, sw__sc_ground(p.x, p.z, NULL) - sole);
    }
}

sw_result sw__sc_cast_init(sw__sc_cast* c, sw__sc_mem* m, const sw_showcase_options* o,
                           sw_error* err) {
    sw_result r = SW_RESULT_OK;
    if (o && o->character && o->character->meshes_count == 0) {
        r = sw_showcase_bones_mesh(o->character->skeleton, &m->alloc, &c->bones_mesh,
                                   &c->bones_count, err);
        c->bones_view = *o->character;
        c->bones_view.meshes = &c->bones_mesh;
        c->bones_view.meshes_count = 1;
        c->chr = &c->bones_view;
    } else if (o && o->character) {
        c->chr = o->character;
    } else {
        r = sw_showcase_humanoid(&m->alloc, &c->builtin, NULL, err);
        c->builtin_owned = r == SW_RESULT_OK;
        c->chr = &c->builtin;
    }
    if (r == SW_RESULT_OK) r = sw__pick_clips(c, o, err);
    if (r == SW_RESULT_OK) r = sw__human_setup(c, m, err);
    return r;
}

sw_result sw__sc_cast_builtin(sw__sc_cast* c, sw__sc_mem* m, const sw_scene** out, sw_error* err) {
    if (!c->builtin_owned) {
        const sw_result r = sw_showcase_humanoid(&m->alloc, &c->builtin, NULL, err);
        if (r != SW_RESULT_OK) return r;
        c->builtin_owned = true;
    }
    *out = &c->builtin;
    return SW_RESULT_OK;
}

void sw__sc_cast_free(sw__sc_cast* c, const sw_allocator* alloc) {
    if (c->builtin_owned) sw_scene_free(&c->builtin, alloc);
    c->builtin_owned = false;
    sw_mesh_destroy(c->bones_mesh, alloc);
    c->bones_mesh = NULL;
}
