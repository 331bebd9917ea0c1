/* bindings/lua/foot.c: foot placement (sinew/ik/foot.h) with the ground ray
 * as a Lua function, and its per-character state (sinew.FootState). */
#include <string.h>

#include "lsw.h"
#include "sinew/ik/foot.h"

static sw_foot_state* check_state(lua_State* L, int idx) {
    return luaL_checkudata(L, idx, LSW_FOOT);
}

/* The legs list: { {hip = , knee = , ankle = [, pole = ]}, ... }. */
static uint32_t read_legs(lua_State* L, const sw_skeleton* s, sw_foot_leg* legs) {
    const uint32_t n = lsw_list(L, 1, "legs", SW_FOOT_MAX_LEGS, true);
    const int list = lua_gettop(L);
    for (uint32_t i = 0; i < n; ++i) {
        const int t = lsw_entry(L, list, i);
        legs[i].hip = lsw_field_joint(L, t, "hip", s);
        legs[i].knee = lsw_field_joint(L, t, "knee", s);
        legs[i].ankle = lsw_field_joint(L, t, "ankle", s);
        legs[i].pole = lsw_opt_vec3(L, t, "pole", sw_vec3_make(0, 0, 0));
        lua_settop(L, list);
    }
    lua_pop(L, 1);
    return n;
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
    lua_getfield(L, 1, "ray");
    lsw_ray ctx;
    lsw_ray_begin(L, 2, &ctx);
    job.ray = lsw_ray_call;
    job.ray_user = &ctx;
    const sw_result r = sw_foot_job_run(&job);
    lsw_ray_end(&ctx);
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
