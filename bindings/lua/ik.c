/* bindings/lua/ik.c: the IK jobs (sinew/ik/ik.h): two-bone, FABRIK, CCD,
 * look-at and the single rotation; each takes an options table with the
 * model matrices and the pose it edits in place. */
#include "sinew/ik/ik.h"
#include "lsw.h"

static const char* const k_pole_modes[] = {"none", "target", "direction", NULL};

/* sinew.two_bone{model, pose, start, mid, end, target [, pole, pole_mode,
 * weight, softness, twist, end_rotation, end_rotation_weight, root]}
 * -> reached (bool). pole_mode defaults to "direction" when a pole is given. */
static int l_two_bone(lua_State* L) {
    lsw_pose *model, *pose;
    lsw_job_poses(L, 1, &model, &pose);
    const sw_skeleton* s = pose->s;
    sw_mat4 root;
    bool reached = false;
    const bool has_pole = lsw_has(L, 1, "pole");
    const sw_ik_two_bone_job job = {
        .skeleton = s,
        .model = model->data,
        .model_count = model->count,
        .root_transform = lsw_opt_mat4(L, 1, "root", &root),
        .start_joint = lsw_field_joint(L, 1, "start", s),
        .mid_joint = lsw_field_joint(L, 1, "mid", s),
        .end_joint = lsw_field_joint(L, 1, "end", s),
        .target = lsw_opt_vec3(L, 1, "target", sw_vec3_make(0, 0, 0)),
        .pole_mode = (sw_ik_pole_mode)lsw_opt_word(L, 1, "pole_mode", k_pole_modes,
                                                   has_pole ? SW_IK_POLE_MODE_DIRECTION : 0),
        .pole = lsw_opt_vec3(L, 1, "pole", sw_vec3_make(0, 0, 0)),
        .weight = lsw_opt_float(L, 1, "weight", 1.0f),
        .softness = lsw_opt_float(L, 1, "softness", 0.0f),
        .twist = lsw_opt_float(L, 1, "twist", 0.0f),
        .end_rotation = lsw_opt_quat(L, 1, "end_rotation", sw_quat_identity()),
        .end_rotation_weight = lsw_opt_float(L, 1, "end_rotation_weight", 0.0f),
        .pose = pose->data,
        .pose_count = pose->count,
        .reached = &reached};
    if (!lsw_has(L, 1, "target")) return luaL_error(L, "sinew.two_bone: option 'target' missing");
    lsw_check(L, "sinew.two_bone", sw_ik_two_bone_job_run(&job), NULL);
    lua_pushboolean(L, reached);
    return 1;
}

static const char* const k_limit_types[] = {"none", "hinge", "cone", NULL};

/* The limits list of a FABRIK or CCD job (one table or false per chain
 * joint) into out; returns out, or NULL without limits. */
static const sw_ik_limit* read_limits(lua_State* L, int t, uint32_t n, sw_ik_limit* out) {
    if (lua_getfield(L, t, "limits") == LUA_TNIL) {
        lua_pop(L, 1);
        return NULL;
    }
    const int list = lua_gettop(L);
    luaL_checktype(L, list, LUA_TTABLE);
    for (uint32_t i = 0; i < n; ++i) {
        sw_ik_limit* l = &out[i];
        *l = (sw_ik_limit){0};
        if (lua_rawgeti(L, list, (lua_Integer)i + 1) == LUA_TTABLE) {
            const int e = lua_gettop(L);
            l->type = (sw_ik_limit_type)lsw_opt_word(L, e, "type", k_limit_types, 0);
            l->axis = lsw_opt_vec3(L, e, "axis", sw_vec3_make(0, 0, 1));
            l->min_angle = lsw_opt_float(L, e, "min", 0.0f);
            l->max_angle = lsw_opt_float(L, e, "max", 0.0f);
            l->cone_angle = lsw_opt_float(L, e, "cone", 0.0f);
            l->max_step_angle = lsw_opt_float(L, e, "max_step", 0.0f);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return out;
}

/* What FABRIK and CCD share: the chain, limits and the common fields. */
typedef struct chain_args {
    uint32_t joints[SW_IK_MAX_CHAIN];
    uint32_t count;
    sw_ik_limit limits[SW_IK_MAX_CHAIN];
    const sw_ik_limit* limits_ptr;
    sw_mat4 root;
    const sw_mat4* root_ptr;
    sw_vec3 target;
    float weight, tolerance;
    uint32_t iterations;
} chain_args;

static void read_chain(lua_State* L, const sw_skeleton* s, chain_args* a) {
    lua_getfield(L, 1, "joints");
    a->count = lsw_check_joints(L, -1, s, a->joints, SW_IK_MAX_CHAIN);
    lua_pop(L, 1);
    a->limits_ptr = read_limits(L, 1, a->count, a->limits);
    a->root_ptr = lsw_opt_mat4(L, 1, "root", &a->root);
    if (!lsw_has(L, 1, "target")) luaL_error(L, "option 'target' missing");
    a->target = lsw_opt_vec3(L, 1, "target", sw_vec3_make(0, 0, 0));
    a->weight = lsw_opt_float(L, 1, "weight", 1.0f);
    a->iterations = lsw_opt_uint(L, 1, "iterations", 0);
    a->tolerance = lsw_opt_float(L, 1, "tolerance", 0.0f);
}

/* The fields FABRIK and CCD jobs share (same names in both structs). */
#define CHAIN_JOB_FIELDS(a, model, pose, distance)                                                 \
    .skeleton = (pose)->s, .model = (model)->data, .model_count = (model)->count,                  \
    .root_transform = (a).root_ptr, .joints = (a).joints, .joints_count = (a).count,               \
    .limits = (a).limits_ptr, .target = (a).target, .weight = (a).weight,                          \
    .iterations = (a).iterations, .tolerance = (a).tolerance, .pose = (pose)->data,                \
    .pose_count = (pose)->count, .distance = &(distance)

/* sinew.fabrik{model, pose, joints, target [, limits, pole, weight,
 * iterations, tolerance, root]} -> distance left (tip to target). */
static int l_fabrik(lua_State* L) {
    lsw_pose *model, *pose;
    lsw_job_poses(L, 1, &model, &pose);
    chain_args a;
    read_chain(L, pose->s, &a);
    float distance = 0.0f;
    const sw_ik_fabrik_job job = {CHAIN_JOB_FIELDS(a, model, pose, distance),
                                  .use_pole = lsw_has(L, 1, "pole"),
                                  .pole = lsw_opt_vec3(L, 1, "pole", sw_vec3_make(0, 0, 0))};
    lsw_check(L, "sinew.fabrik", sw_ik_fabrik_job_run(&job), NULL);
    lua_pushnumber(L, (lua_Number)distance);
    return 1;
}

/* sinew.ccd{model, pose, joints, target [, limits, weight, iterations,
 * tolerance, root]} -> distance left. */
static int l_ccd(lua_State* L) {
    lsw_pose *model, *pose;
    lsw_job_poses(L, 1, &model, &pose);
    chain_args a;
    read_chain(L, pose->s, &a);
    float distance = 0.0f;
    const sw_ik_ccd_job job = {CHAIN_JOB_FIELDS(a, model, pose, distance)};
    lsw_check(L, "sinew.ccd", sw_ik_ccd_job_run(&job), NULL);
    lua_pushnumber(L, (lua_Number)distance);
    return 1;
}

/* The look-at chain: joints (indices or names) with `shares` beside them
 * (default 1 each), into out; returns the count. */
static uint32_t read_look_chain(lua_State* L, const sw_skeleton* s, sw_ik_look_at_joint* out) {
    uint32_t joints[SW_IK_MAX_CHAIN];
    lua_getfield(L, 1, "joints");
    const uint32_t n = lsw_check_joints(L, -1, s, joints, SW_IK_MAX_CHAIN);
    lua_getfield(L, 1, "shares");
    for (uint32_t i = 0; i < n; ++i) {
        out[i].joint = joints[i];
        out[i].share = 1.0f;
        if (lua_istable(L, -1)) {
            lua_rawgeti(L, -1, (lua_Integer)i + 1);
            out[i].share = (float)luaL_optnumber(L, -1, 1.0);
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 2);
    return n;
}

/* sinew.look_at{model, pose, joints, forward, target [, shares, up,
 * model_up, limit, weight, root]}: turns the last joint's forward axis
 * towards target, spread over the chain. */
static int l_look_at(lua_State* L) {
    lsw_pose *model, *pose;
    lsw_job_poses(L, 1, &model, &pose);
    sw_ik_look_at_joint chain[SW_IK_MAX_CHAIN];
    const uint32_t n = read_look_chain(L, pose->s, chain);
    sw_mat4 root;
    if (!lsw_has(L, 1, "target") || !lsw_has(L, 1, "forward"))
        return luaL_error(L, "sinew.look_at: options 'target' and 'forward' are required");
    const sw_ik_look_at_job job = {.skeleton = pose->s,
                                   .model = model->data,
                                   .model_count = model->count,
                                   .root_transform = lsw_opt_mat4(L, 1, "root", &root),
                                   .joints = chain,
                                   .joints_count = n,
                                   .forward = lsw_opt_vec3(L, 1, "forward", sw_vec3_make(0, 0, 0)),
                                   .up = lsw_opt_vec3(L, 1, "up", sw_vec3_make(0, 0, 0)),
                                   .model_up =
                                       lsw_opt_vec3(L, 1, "model_up", sw_vec3_make(0, 0, 0)),
                                   .target = lsw_opt_vec3(L, 1, "target", sw_vec3_make(0, 0, 0)),
                                   .limit_angle = lsw_opt_float(L, 1, "limit", 0.0f),
                                   .weight = lsw_opt_float(L, 1, "weight", 1.0f),
                                   .pose = pose->data,
                                   .pose_count = pose->count};
    lsw_check(L, "sinew.look_at", sw_ik_look_at_job_run(&job), NULL);
    return 0;
}

/* sinew.rotate{model, pose, joint, rotation [, weight, root]}: one
 * model-space rotation applied to one joint of the pose. */
static int l_rotate(lua_State* L) {
    lsw_pose *model, *pose;
    lsw_job_poses(L, 1, &model, &pose);
    sw_mat4 root;
    const sw_ik_rotate_job job = {.skeleton = pose->s,
                                  .model = model->data,
                                  .model_count = model->count,
                                  .root_transform = lsw_opt_mat4(L, 1, "root", &root),
                                  .joint = lsw_field_joint(L, 1, "joint", pose->s),
                                  .rotation = lsw_opt_quat(L, 1, "rotation", sw_quat_identity()),
                                  .weight = lsw_opt_float(L, 1, "weight", 1.0f),
                                  .pose = pose->data,
                                  .pose_count = pose->count};
    lsw_check(L, "sinew.rotate", sw_ik_rotate_job_run(&job), NULL);
    return 0;
}

/* sinew.forward_from_rest(skeleton, joint, child) -> the unit direction to
 * child at rest in joint's local space. */
static int l_forward_from_rest(lua_State* L) {
    const sw_skeleton* s = lsw_check_skeleton(L, 1);
    lsw_push_vec3(L,
                  sw_ik_forward_from_rest(s, lsw_check_joint(L, 2, s), lsw_check_joint(L, 3, s)));
    return 1;
}

static const luaL_Reg k_ik[] = {{"two_bone", l_two_bone},
                                {"fabrik", l_fabrik},
                                {"ccd", l_ccd},
                                {"look_at", l_look_at},
                                {"rotate", l_rotate},
                                {"forward_from_rest", l_forward_from_rest},
                                {NULL, NULL}};

void lsw_open_ik(lua_State* L) {
    luaL_setfuncs(L, k_ik, 0);
}
