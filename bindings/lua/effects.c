/* bindings/lua/effects.c: hit effects (sinew/procedural/hit.h: camera
 * shake, field-of-view pulse, hit pause, pose shake) and spine wander
 * (sinew/procedural/spine.h). */
#include <string.h>

#include "lsw.h"
#include "sinew/procedural/hit.h"
#include "sinew/procedural/spine.h"

#define LSW_HIT_PAUSE "sinew.HitPause"

/* The shake description in the table at t (fields as sw_shake_desc). */
static sw_shake_desc read_shake(lua_State* L, int t) {
    luaL_checktype(L, t, LUA_TTABLE);
    const sw_vec3 zero = sw_vec3_make(0, 0, 0);
    const sw_shake_desc d = {.position_amplitude = lsw_opt_vec3(L, t, "position_amplitude", zero),
                             .position_frequency = lsw_opt_float(L, t, "position_frequency", 0.0f),
                             .rotation_amplitude = lsw_opt_vec3(L, t, "rotation_amplitude", zero),
                             .rotation_frequency = lsw_opt_float(L, t, "rotation_frequency", 0.0f),
                             .fov_amplitude = lsw_opt_float(L, t, "fov_amplitude", 0.0f),
                             .fov_frequency = lsw_opt_float(L, t, "fov_frequency", 0.0f),
                             .fade_in = lsw_opt_float(L, t, "fade_in", 0.0f),
                             .hold = lsw_opt_float(L, t, "hold", 0.0f),
                             .fade_out = lsw_opt_float(L, t, "fade_out", 0.0f),
                             .seed = lsw_opt_uint(L, t, "seed", 0)};
    return d;
}

/* sinew.shake(desc, t) -> {position, rotation, fov, envelope, offset}: the
 * camera shake at t seconds since its start (camera space). */
static int l_shake(lua_State* L) {
    const sw_shake_desc d = read_shake(L, 1);
    const sw_shake_sample s = sw_shake_eval(&d, lsw_check_float(L, 2));
    lua_createtable(L, 0, 5);
    lsw_push_vec3(L, s.position);
    lua_setfield(L, -2, "position");
    lsw_push_vec3(L, s.rotation);
    lua_setfield(L, -2, "rotation");
    lua_pushnumber(L, (lua_Number)s.fov);
    lua_setfield(L, -2, "fov");
    lua_pushnumber(L, (lua_Number)s.envelope);
    lua_setfield(L, -2, "envelope");
    lsw_push_xform(L, s.offset);
    lua_setfield(L, -2, "offset");
    return 1;
}

/* sinew.shake_duration(desc) -> seconds of the active window. */
static int l_shake_duration(lua_State* L) {
    const sw_shake_desc d = read_shake(L, 1);
    lua_pushnumber(L, (lua_Number)sw_shake_duration(&d));
    return 1;
}

/* sinew.fov_pulse({amount, attack, hold, release}, t) -> radians to add to the field of view. */
static int l_fov_pulse(lua_State* L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    const sw_fov_pulse_desc d = {
        lsw_opt_float(L, 1, "amount", 0.0f), lsw_opt_float(L, 1, "attack", 0.0f),
        lsw_opt_float(L, 1, "hold", 0.0f), lsw_opt_float(L, 1, "release", 0.0f)};
    lua_pushnumber(L, (lua_Number)sw_fov_pulse_eval(&d, lsw_check_float(L, 2)));
    return 1;
}

/* sinew.hit_pause() -> a pause (no pause running). */
static int l_hit_pause(lua_State* L) {
    sw_hit_pause* p = lua_newuserdatauv(L, sizeof *p, 0);
    memset(p, 0, sizeof *p);
    luaL_setmetatable(L, LSW_HIT_PAUSE);
    return 1;
}

/* pause:start(duration, scale). */
static int pause_start(lua_State* L) {
    sw_hit_pause_start(luaL_checkudata(L, 1, LSW_HIT_PAUSE), lsw_check_float(L, 2),
                       lsw_check_float(L, 3));
    return 0;
}

/* pause:scale_dt(dt) -> the game's dt for a real frame of dt. */
static int pause_scale_dt(lua_State* L) {
    lua_pushnumber(L, (lua_Number)sw_hit_pause_scale_dt(luaL_checkudata(L, 1, LSW_HIT_PAUSE),
                                                        lsw_check_float(L, 2)));
    return 1;
}

static int pause_active(lua_State* L) {
    lua_pushboolean(L, sw_hit_pause_active(luaL_checkudata(L, 1, LSW_HIT_PAUSE)));
    return 1;
}

/* sinew.pose_shake{pose, joints, amplitude, time [, frequency, half_life, seed]}. */
static int l_pose_shake(lua_State* L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lsw_pose* pose = lsw_field_udata(L, 1, "pose", LSW_POSE);
    uint32_t joints[SW_SKELETON_MAX_JOINTS];
    lua_getfield(L, 1, "joints");
    const uint32_t n = lsw_check_joints(L, -1, pose->s, joints, SW_SKELETON_MAX_JOINTS);
    const sw_pose_shake_job job = {.joints = joints,
                                   .joints_count = n,
                                   .amplitude = lsw_opt_float(L, 1, "amplitude", 0.0f),
                                   .frequency = lsw_opt_float(L, 1, "frequency", 0.0f),
                                   .half_life = lsw_opt_float(L, 1, "half_life", 0.0f),
                                   .time = lsw_opt_float(L, 1, "time", 0.0f),
                                   .seed = lsw_opt_uint(L, 1, "seed", 0),
                                   .pose = pose->data,
                                   .pose_count = pose->count};
    lsw_check(L, "sinew.pose_shake", sw_pose_shake_job_run(&job), NULL);
    return 0;
}

static const char* const k_spine_solvers[] = {"default", "fabrik", "ccd", NULL};

/* sinew.spine_wander{model, pose, joints, range, time [, frequency, seed,
 * solver, iterations, tolerance, weight, root]} -> the model-space target
 * the tip was sent to. */
static int l_spine_wander(lua_State* L) {
    lsw_pose *model, *pose;
    lsw_job_poses(L, 1, &model, &pose);
    uint32_t joints[SW_IK_MAX_CHAIN];
    lua_getfield(L, 1, "joints");
    const uint32_t n = lsw_check_joints(L, -1, pose->s, joints, SW_IK_MAX_CHAIN);
    sw_mat4 root;
    sw_vec3 target = sw_vec3_make(0, 0, 0);
    const sw_spine_wander_job job = {
        .skeleton = pose->s,
        .model = model->data,
        .model_count = model->count,
        .root_transform = lsw_opt_mat4(L, 1, "root", &root),
        .joints = joints,
        .joints_count = n,
        .range = lsw_opt_vec3(L, 1, "range", sw_vec3_make(0, 0, 0)),
        .frequency = lsw_opt_float(L, 1, "frequency", 0.0f),
        .seed = lsw_opt_uint(L, 1, "seed", 0),
        .time = lsw_opt_float(L, 1, "time", 0.0f),
        .solver = (sw_spine_solver)lsw_opt_word(L, 1, "solver", k_spine_solvers, 0),
        .iterations = lsw_opt_uint(L, 1, "iterations", 0),
        .tolerance = lsw_opt_float(L, 1, "tolerance", 0.0f),
        .weight = lsw_opt_float(L, 1, "weight", 1.0f),
        .pose = pose->data,
        .pose_count = pose->count,
        .target = &target};
    lsw_check(L, "sinew.spine_wander", sw_spine_wander_job_run(&job), NULL);
    lsw_push_vec3(L, target);
    return 1;
}

/* sinew.spine_wander_offset(range, frequency, seed, time) -> the wander offset. */
static int l_spine_wander_offset(lua_State* L) {
    lsw_push_vec3(L,
                  sw_spine_wander_offset(lsw_check_vec3(L, 1), lsw_check_float(L, 2),
                                         (uint32_t)luaL_checkinteger(L, 3), lsw_check_float(L, 4)));
    return 1;
}

static const luaL_Reg k_pause_methods[] = {
    {"start", pause_start}, {"scale_dt", pause_scale_dt}, {"active", pause_active}, {NULL, NULL}};
static const luaL_Reg k_effects[] = {{"shake", l_shake},
                                     {"shake_duration", l_shake_duration},
                                     {"fov_pulse", l_fov_pulse},
                                     {"hit_pause", l_hit_pause},
                                     {"pose_shake", l_pose_shake},
                                     {"spine_wander", l_spine_wander},
                                     {"spine_wander_offset", l_spine_wander_offset},
                                     {NULL, NULL}};

void lsw_open_effects(lua_State* L) {
    lsw_class(L, LSW_HIT_PAUSE, k_pause_methods, NULL);
    luaL_setfuncs(L, k_effects, 0);
}
