/* bindings/lua/jobs.c: the pose jobs besides sampling and local-to-model:
 * blending and additive poses. */
#include "lsw.h"

/* Per-joint weights of a layer (a list of numbers in joint order) into
 * caller storage of packets * 4 floats; returns NULL when absent. */
static const float* layer_joint_weights(lua_State* L, int layer, const lsw_pose* out,
                                        float* storage) {
    if (lua_getfield(L, layer, "joint_weights") == LUA_TNIL) {
        lua_pop(L, 1);
        return NULL;
    }
    luaL_checktype(L, -1, LUA_TTABLE);
    for (uint32_t j = 0; j < out->count * 4u; ++j) {
        lua_rawgeti(L, -1, (lua_Integer)j + 1);
        storage[j] = j < out->s->joints_count ? (float)luaL_optnumber(L, -1, 0.0) : 0.0f;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return storage;
}

/* sinew.blend(out, { {pose = , weight = [, joint_weights = ] [, additive = true]}, ... }
 *             [, threshold]): the weighted blend into out. Returns out. */
static int l_blend(lua_State* L) {
    lua_settop(L, 3);
    lsw_pose* out = lsw_check_pose(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    const lua_Unsigned n = lua_rawlen(L, 2);
    if (n > SW_BLEND_MAX_LAYERS)
        return luaL_error(L, "sinew.blend: at most %d layers", SW_BLEND_MAX_LAYERS);
    sw_blend_layer layers[SW_BLEND_MAX_LAYERS];
    float* weights = lua_newuserdatauv(L, sizeof(float) * 4u * out->count * (n ? n : 1), 0);
    for (lua_Unsigned i = 0; i < n; ++i) {
        lua_rawgeti(L, 2, (lua_Integer)i + 1);
        const int t = lua_gettop(L);
        luaL_checktype(L, t, LUA_TTABLE);
        const lsw_pose* p = lsw_field_udata(L, t, "pose", LSW_POSE);
        if (p->count != out->count)
            return luaL_error(L, "sinew.blend: layer %I: another skeleton", (lua_Integer)i + 1);
        layers[i].pose = p->data;
        layers[i].weight = lsw_opt_float(L, t, "weight", 1.0f);
        layers[i].joint_weights = layer_joint_weights(L, t, out, weights + 4u * out->count * i);
        layers[i].mode =
            lsw_opt_bool(L, t, "additive", false) ? SW_BLEND_MODE_ADDITIVE : SW_BLEND_MODE_DEFAULT;
        lua_pop(L, 1);
    }
    const sw_blend_job job = {.layers = layers,
                              .layers_count = (uint32_t)n,
                              .rest_pose = sw_skeleton_rest_pose(out->s),
                              .packets_count = out->count,
                              .threshold = (float)luaL_optnumber(L, 3, 0.0),
                              .out = out->data,
                              .out_count = out->count};
    lsw_check(L, "sinew.blend", sw_blend_job_run(&job), NULL);
    lua_settop(L, 1);
    return 1;
}

static void same_skeleton(lua_State* L, const lsw_pose* a, const lsw_pose* b, const char* what) {
    if (a->count != b->count) luaL_error(L, "%s: poses of different skeletons", what);
}

/* sinew.make_additive(pose, reference, out): the delta of pose against
 * reference into out. Returns out. */
static int l_make_additive(lua_State* L) {
    const lsw_pose* p = lsw_check_pose(L, 1);
    const lsw_pose* ref = lsw_check_pose(L, 2);
    lsw_pose* out = lsw_check_pose(L, 3);
    same_skeleton(L, p, ref, "sinew.make_additive");
    same_skeleton(L, p, out, "sinew.make_additive");
    const sw_make_additive_job job = {.pose = p->data,
                                      .reference = ref->data,
                                      .packets_count = p->count,
                                      .out = out->data,
                                      .out_count = out->count};
    lsw_check(L, "sinew.make_additive", sw_make_additive_job_run(&job), NULL);
    lua_settop(L, 3);
    return 1;
}

/* sinew.apply_additive(base, delta, weight, out): base with the weighted
 * delta applied, into out (may be base). Returns out. */
static int l_apply_additive(lua_State* L) {
    const lsw_pose* base = lsw_check_pose(L, 1);
    const lsw_pose* delta = lsw_check_pose(L, 2);
    const float w = lsw_check_float(L, 3);
    lsw_pose* out = lsw_check_pose(L, 4);
    same_skeleton(L, base, delta, "sinew.apply_additive");
    same_skeleton(L, base, out, "sinew.apply_additive");
    const sw_apply_additive_job job = {.base = base->data,
                                       .delta = delta->data,
                                       .packets_count = base->count,
                                       .weight = w,
                                       .out = out->data,
                                       .out_count = out->count};
    lsw_check(L, "sinew.apply_additive", sw_apply_additive_job_run(&job), NULL);
    lua_settop(L, 4);
    return 1;
}

static const luaL_Reg k_jobs[] = {{"blend", l_blend},
                                  {"make_additive", l_make_additive},
                                  {"apply_additive", l_apply_additive},
                                  {NULL, NULL}};

void lsw_open_jobs(lua_State* L) {
    luaL_setfuncs(L, k_jobs, 0);
}
