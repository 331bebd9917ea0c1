/* bindings/lua/foot.c: foot placement (sinew/ik/foot.h) with the ground ray
 * as a Lua function, and its per-character state (sinew.FootState). */
#include <string.h>

#include "lsw.h"
#include "sinew/ik/foot.h"

/* The ray callback's context: the Lua function at `fn`; an error it raised
 * is kept (at `fn` + 1) and raised after the job. */
typedef struct ray_ctx {
    lua_State* L;
    int fn;
    bool failed;
} ray_ctx;

/* Calls ray(from, dir, max_distance) -> point, normal (nil: a miss). */
static bool lua_ray(void* user, sw_vec3 from, sw_vec3 dir, float max_distance, sw_vec3* point,
                    sw_vec3* normal) {
    ray_ctx* c = user;
    lua_State* L = c->L;
    if (c->failed) return false;
    const int top = lua_gettop(L);
    lua_pushvalue(L, c->fn);
    lsw_push_vec3(L, from);
    lsw_push_vec3(L, dir);
    lua_pushnumber(L, (lua_Number)max_distance);
    if (lua_pcall(L, 3, 2, 0) != LUA_OK) {
        lua_replace(L, c->fn + 1);
        c->failed = true;
        lua_settop(L, top);
        return false;
    }
    bool hit = false;
    if (!lua_isnil(L, -2)) {
        hit = lsw_to_vec3(L, -2, point) && lsw_to_vec3(L, -1, normal);
        if (!hit) {
            lua_pushstring(L, "sinew.foot: ray must return nil or two vectors (point, normal)");
            lua_replace(L, c->fn + 1);
            c->failed = true;
        }
    }
    lua_settop(L, top);
    return hit;
}

static sw_foot_state* check_state(lua_State* L, int idx) {
    return luaL_checkudata(L, idx, LSW_FOOT);
}

/* The legs list: { {hip = , knee = , ankle = [, pole = ]}, ... }. */
static uint32_t read_legs(lua_State* L, const sw_skeleton* s, sw_foot_leg* legs) {
    lua_getfield(L, 1, "legs");
    luaL_checktype(L, -1, LUA_TTABLE);
    const int list = lua_gettop(L);
    const lua_Unsigned n = lua_rawlen(L, list);
    if (n > SW_FOOT_MAX_LEGS) luaL_error(L, "sinew.foot: at most %d legs", SW_FOOT_MAX_LEGS);
    for (lua_Unsigned i = 0; i < n; ++i) {
        lua_rawgeti(L, list, (lua_Integer)i + 1);
        const int t = lua_gettop(L);
        luaL_checktype(L, t, LUA_TTABLE);
        legs[i].hip = lsw_field_joint(L, t, "hip", s);
        legs[i].knee = lsw_field_joint(L, t, "knee", s);
        legs[i].ankle = lsw_field_joint(L, t, "ankle", s);
        legs[i].pole = lsw_opt_vec3(L, t, "pole", sw_vec3_make(0, 0, 0));
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return (uint32_t)n;
}

/* The optional fields of the job (defaults: the C defaults). */
static void read_tuning(lua_State* L, sw_foot_job* job) {
    job->up = lsw_opt_vec3(L, 1, "up", job->up);
    job->floor_height = lsw_opt_float(L, 1, "floor_height", 0.0f);
    job->max_step_up = lsw_opt_float(L, 1, "max_step_up", 0.0f);
    job->max_step_down = lsw_opt_float(L, 1, "max_step_down", 0.0f);
    job->max_tilt = lsw_opt_float(L, 1, "max_tilt", 0.0f);
    job->no_tilt = lsw_opt_bool(L, 1, "no_tilt", false);
    job->foot_half_life = lsw_opt_float(L, 1, "foot_half_life", 0.0f);
    job->pelvis_half_life = lsw_opt_float(L, 1, "pelvis_half_life", 0.0f);
    job->tilt_half_life = lsw_opt_float(L, 1, "tilt_half_life", 0.0f);
    job->dt = lsw_opt_float(L, 1, "dt", 0.0f);
    job->weight = lsw_opt_float(L, 1, "weight", 1.0f);
}

/* sinew.foot{model, pose, pelvis, legs, ray, state [, dt, weight, up,
 * floor_height, max_step_up, max_step_down, max_tilt, no_tilt,
 * foot_half_life, pelvis_half_life, tilt_half_life, root]}: places the feet
 * on the ground the ray function finds; updates pose and model in place. */
static int l_foot(lua_State* L) {
    lsw_pose *model, *pose;
    lsw_job_poses(L, 1, &model, &pose);
    sw_foot_leg legs[SW_FOOT_MAX_LEGS];
    sw_mat4 root;
    sw_foot_job job;
    memset(&job, 0, sizeof job);
    job.skeleton = pose->s;
    job.model = model->data;
    job.model_count = model->count;
    job.root_transform = lsw_opt_mat4(L, 1, "root", &root);
    job.pelvis = lsw_field_joint(L, 1, "pelvis", pose->s);
    job.legs = legs;
    job.legs_count = read_legs(L, pose->s, legs);
    job.state = lsw_field_udata(L, 1, "state", LSW_FOOT);
    job.pose = pose->data;
    job.pose_count = pose->count;
    read_tuning(L, &job);
    lua_settop(L, 1);
    lua_getfield(L, 1, "ray"); /* 2: the function, 3: room for its error */
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushnil(L);
    ray_ctx ctx = {L, 2, false};
    job.ray = lua_ray;
    job.ray_user = &ctx;
    const sw_result r = sw_foot_job_run(&job);
    if (ctx.failed) {
        lua_pushvalue(L, 3);
        return lua_error(L);
    }
    lsw_check(L, "sinew.foot", r, NULL);
    return 0;
}

/* sinew.foot_state(): zeroed state (the first run snaps the springs). */
static int l_foot_state(lua_State* L) {
    sw_foot_state* st = lua_newuserdatauv(L, sizeof *st, 0);
    memset(st, 0, sizeof *st);
    luaL_setmetatable(L, LSW_FOOT);
    return 1;
}

/* state:reset(): after a cut, the next run snaps again. */
static int foot_reset(lua_State* L) {
    check_state(L, 1)->started = false;
    return 0;
}

/* state:leg(i) -> {offset, target, grounded} of leg i (1-based). */
static int foot_leg(lua_State* L) {
    const sw_foot_state* st = check_state(L, 1);
    const lua_Integer i = luaL_checkinteger(L, 2);
    luaL_argcheck(L, i >= 1 && i <= SW_FOOT_MAX_LEGS, 2, "leg out of range");
    const sw_foot_leg_state* l = &st->legs[i - 1];
    lua_createtable(L, 0, 3);
    lua_pushnumber(L, (lua_Number)l->offset.value);
    lua_setfield(L, -2, "offset");
    lsw_push_vec3(L, l->target);
    lua_setfield(L, -2, "target");
    lua_pushboolean(L, l->grounded);
    lua_setfield(L, -2, "grounded");
    return 1;
}

/* state:pelvis() -> the smoothed pelvis offset (metres along up). */
static int foot_pelvis(lua_State* L) {
    lua_pushnumber(L, (lua_Number)check_state(L, 1)->pelvis.value);
    return 1;
}

static const luaL_Reg k_foot_methods[] = {
    {"reset", foot_reset}, {"leg", foot_leg}, {"pelvis", foot_pelvis}, {NULL, NULL}};

void lsw_open_foot(lua_State* L) {
    lsw_class(L, LSW_FOOT, k_foot_methods, NULL);
    lua_pushcfunction(L, l_foot);
    lua_setfield(L, -2, "foot");
    lua_pushcfunction(L, l_foot_state);
    lua_setfield(L, -2, "foot_state");
}
