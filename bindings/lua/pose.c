/* bindings/lua/pose.c: sinew.Pose (a local SoA pose) and sinew.Model (model
 * matrices), userdata over sinew's arrays with indexing by joint. */
#include <string.h>

#include "lsw.h"

/* A pose or model userdata for the skeleton userdata at `skel`. */
static lsw_pose* new_block(lua_State* L, int skel, const char* mt, size_t elem, uint32_t count) {
    skel = lua_absindex(L, skel);
    const sw_skeleton* s = lsw_check_skeleton(L, skel);
    void* base = NULL;
    void* data = lsw_new_aligned(L, sizeof(lsw_pose), elem * count, mt, &base);
    lsw_pose* p = base;
    p->s = s;
    p->count = count;
    p->data = data;
    lua_pushvalue(L, skel);
    lsw_keep(L, -2, 1);
    return p;
}

lsw_pose* lsw_new_pose(lua_State* L, int skel) {
    const sw_skeleton* s = lsw_check_skeleton(L, skel);
    lsw_pose* p = new_block(L, skel, LSW_POSE, sizeof(sw_xform4), s->packets_count);
    memcpy(p->data, sw_skeleton_rest_pose(s), sizeof(sw_xform4) * p->count);
    return p;
}

lsw_pose* lsw_check_pose(lua_State* L, int idx) {
    return luaL_checkudata(L, idx, LSW_POSE);
}

lsw_pose* lsw_check_model(lua_State* L, int idx) {
    return luaL_checkudata(L, idx, LSW_MODEL);
}

void lsw_job_poses(lua_State* L, int t, lsw_pose** model, lsw_pose** pose) {
    luaL_checktype(L, t, LUA_TTABLE);
    *model = lsw_field_udata(L, t, "model", LSW_MODEL);
    *pose = lsw_field_udata(L, t, "pose", LSW_POSE);
    if ((*model)->s != (*pose)->s) luaL_error(L, "model and pose belong to different skeletons");
}

/* x:copy(other): other's values into x (same kind, same joint count). */
static int copy_block(lua_State* L, const char* mt, size_t elem) {
    lsw_pose* p = luaL_checkudata(L, 1, mt);
    const lsw_pose* o = luaL_checkudata(L, 2, mt);
    if (o->count != p->count || o->s->joints_count != p->s->joints_count)
        return luaL_error(L, "copy: different joint counts");
    memcpy(p->data, o->data, elem * p->count);
    lua_settop(L, 1);
    return 1;
}

/* x:clone() -> a new pose or model with x's values. */
static int clone_block(lua_State* L, const char* mt, size_t elem) {
    const lsw_pose* p = luaL_checkudata(L, 1, mt);
    lua_getiuservalue(L, 1, 1);
    lsw_pose* c = new_block(L, -1, mt, elem, p->count);
    memcpy(c->data, p->data, elem * p->count);
    return 1;
}

/* ---- Pose ---- */

/* The non-joint keys of poses and models: `skeleton` and the methods. */
/* The non-joint keys of poses and models: `skeleton` and the methods;
 * returns 0 when the key is neither (then it may name a joint). */
static int index_other(lua_State* L) {
    if (lua_type(L, 2) == LUA_TSTRING && strcmp(lua_tostring(L, 2), "skeleton") == 0) {
        lua_getiuservalue(L, 1, 1);
        return 1;
    }
    lsw_method(L);
    return lua_isnil(L, -1) ? 0 : 1;
}

/* pose[j] or model[j] by index, or by joint name when no method has that name. */
static bool is_joint_key(lua_State* L, const sw_skeleton* s) {
    return lua_type(L, 2) == LUA_TNUMBER ||
           (lua_type(L, 2) == LUA_TSTRING && sw_skeleton_find_joint(s, lua_tostring(L, 2)) >= 0);
}

static sw_xform4* pose_data(const lsw_pose* p) {
    return p->data;
}

static int pose_len(lua_State* L) {
    lua_pushinteger(L, lsw_check_pose(L, 1)->s->joints_count);
    return 1;
}

/* pose[j] -> {t, r, s} (j an index or a joint name); other keys: the
 * methods and `skeleton` (a method wins over a joint of the same name). */
static int pose_index(lua_State* L) {
    lsw_pose* p = lsw_check_pose(L, 1);
    if (lua_type(L, 2) != LUA_TNUMBER && index_other(L)) return 1;
    if (!is_joint_key(L, p->s)) return 0;
    lsw_push_xform(L, sw_pose_get(pose_data(p), lsw_check_joint(L, 2, p->s)));
    return 1;
}

/* pose[j] = {t, r, s} (fields left out keep their value). */
static int pose_newindex(lua_State* L) {
    lsw_pose* p = lsw_check_pose(L, 1);
    const uint32_t j = lsw_check_joint(L, 2, p->s);
    luaL_checktype(L, 3, LUA_TTABLE);
    sw_xform x = sw_pose_get(pose_data(p), j);
    x.t = lsw_opt_vec3(L, 3, "t", x.t);
    x.r = lsw_opt_quat(L, 3, "r", x.r);
    x.s = lsw_opt_vec3(L, 3, "s", x.s);
    sw_pose_set(pose_data(p), j, x);
    return 0;
}

static int pose_get(lua_State* L) {
    lsw_pose* p = lsw_check_pose(L, 1);
    lsw_push_xform(L, sw_pose_get(pose_data(p), lsw_check_joint(L, 2, p->s)));
    return 1;
}

static int pose_set(lua_State* L) {
    lua_settop(L, 3);
    return pose_newindex(L);
}

static int pose_translation(lua_State* L) {
    lsw_pose* p = lsw_check_pose(L, 1);
    lsw_push_vec3(L, sw_pose_get(pose_data(p), lsw_check_joint(L, 2, p->s)).t);
    return 1;
}

static int pose_rotation(lua_State* L) {
    lsw_pose* p = lsw_check_pose(L, 1);
    lsw_push_quat(L, sw_pose_get(pose_data(p), lsw_check_joint(L, 2, p->s)).r);
    return 1;
}

/* pose:reset(): the skeleton's rest pose. */
static int pose_reset(lua_State* L) {
    lsw_pose* p = lsw_check_pose(L, 1);
    memcpy(p->data, sw_skeleton_rest_pose(p->s), sizeof(sw_xform4) * p->count);
    lua_settop(L, 1);
    return 1;
}

/* pose:copy(other): other's values into pose (same skeleton). */
static int pose_copy(lua_State* L) {
    return copy_block(L, LSW_POSE, sizeof(sw_xform4));
}

static int pose_clone(lua_State* L) {
    return clone_block(L, LSW_POSE, sizeof(sw_xform4));
}

/* pose:to_model(model [, {root = matrix, subtree = joint}]): local-to-model. */
static int pose_to_model(lua_State* L) {
    lsw_pose* p = lsw_check_pose(L, 1);
    lsw_pose* m = lsw_check_model(L, 2);
    sw_mat4 root;
    sw_local_to_model_job job = {.skeleton = p->s,
                                 .local = pose_data(p),
                                 .local_count = p->count,
                                 .out = m->data,
                                 .out_count = m->count};
    if (lua_istable(L, 3)) {
        job.root_transform = lsw_opt_mat4(L, 3, "root", &root);
        if (lsw_has(L, 3, "subtree")) {
            job.subtree = true;
            job.subtree_root = lsw_field_joint(L, 3, "subtree", p->s);
        }
    }
    if (m->s->joints_count != p->s->joints_count)
        return luaL_error(L, "pose:to_model: model of another skeleton");
    lsw_check(L, "pose:to_model", sw_local_to_model_job_run(&job), NULL);
    lua_settop(L, 2);
    return 1;
}

static const luaL_Reg k_pose_methods[] = {
    {"get", pose_get},           {"set", pose_set},           {"translation", pose_translation},
    {"rotation", pose_rotation}, {"reset", pose_reset},       {"copy", pose_copy},
    {"clone", pose_clone},       {"to_model", pose_to_model}, {NULL, NULL}};
static const luaL_Reg k_pose_meta[] = {
    {"__index", pose_index}, {"__newindex", pose_newindex}, {"__len", pose_len}, {NULL, NULL}};

/* ---- Model ---- */

lsw_pose* lsw_new_model(lua_State* L, int skel) {
    const sw_skeleton* s = lsw_check_skeleton(L, skel);
    lsw_pose* m = new_block(L, skel, LSW_MODEL, sizeof(sw_mat4), s->joints_count);
    sw_mat4* mats = m->data;
    for (uint32_t j = 0; j < m->count; ++j)
        mats[j] = sw_mat4_identity();
    return m;
}

static const sw_mat4* model_at(lua_State* L, lsw_pose** out) {
    lsw_pose* m = lsw_check_model(L, 1);
    *out = m;
    return (const sw_mat4*)m->data + lsw_check_joint(L, 2, m->s);
}

static int model_len(lua_State* L) {
    lua_pushinteger(L, lsw_check_model(L, 1)->count);
    return 1;
}

/* model[j] -> 16 numbers, column-major (j an index or a joint name); other
 * keys as for poses. */
static int model_index(lua_State* L) {
    lsw_pose* m = lsw_check_model(L, 1);
    if (lua_type(L, 2) != LUA_TNUMBER && index_other(L)) return 1;
    if (!is_joint_key(L, m->s)) return 0;
    lsw_push_mat4(L, model_at(L, &m));
    return 1;
}

static int model_newindex(lua_State* L) {
    lsw_pose* m = NULL;
    sw_mat4* at = (sw_mat4*)model_at(L, &m);
    *at = lsw_check_mat4(L, 3);
    return 0;
}

static int model_get(lua_State* L) {
    lsw_pose* m = NULL;
    lsw_push_mat4(L, model_at(L, &m));
    return 1;
}

/* model:position(j) -> vec3, the translation column. */
static int model_position(lua_State* L) {
    lsw_pose* m = NULL;
    const sw_mat4* a = model_at(L, &m);
    lsw_push_vec3(L, sw_vec3_make(a->m[12], a->m[13], a->m[14]));
    return 1;
}

/* model:rotation(j) -> quat of the upper 3x3 (scale removed). */
static int model_rotation(lua_State* L) {
    lsw_pose* m = NULL;
    lsw_push_quat(L, sw_quat_from_mat4(model_at(L, &m)));
    return 1;
}

/* model:xform(j) -> {t, r, s} (sw_mat4_decompose). */
static int model_xform(lua_State* L) {
    lsw_pose* m = NULL;
    sw_xform x;
    sw_mat4_decompose(model_at(L, &m), &x);
    lsw_push_xform(L, x);
    return 1;
}

static int model_copy(lua_State* L) {
    return copy_block(L, LSW_MODEL, sizeof(sw_mat4));
}

static int model_clone(lua_State* L) {
    return clone_block(L, LSW_MODEL, sizeof(sw_mat4));
}

static const luaL_Reg k_model_methods[] = {{"get", model_get},
                                           {"position", model_position},
                                           {"rotation", model_rotation},
                                           {"xform", model_xform},
                                           {"copy", model_copy},
                                           {"clone", model_clone},
                                           {NULL, NULL}};
static const luaL_Reg k_model_meta[] = {
    {"__index", model_index}, {"__newindex", model_newindex}, {"__len", model_len}, {NULL, NULL}};

void lsw_open_pose(lua_State* L) {
    lsw_class(L, LSW_POSE, k_pose_methods, k_pose_meta);
    lsw_class(L, LSW_MODEL, k_model_methods, k_model_meta);
}
