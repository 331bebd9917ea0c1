/* bindings/lua/walker.c: the multi-legged walker (sinew/procedural/walker.h):
 * a sinew.Walker holds the creature's description, its state and its ground
 * ray (a Lua function, as for foot placement). */
#include <string.h>

#include "lsw.h"
#include "sinew/procedural/walker.h"

#define LSW_WALKER "sinew.Walker"

typedef struct lsw_walker {
    sw_walker_desc desc;
    sw_walker_leg legs[SW_WALKER_MAX_LEGS];
    sw_walker_state state;
    bool placed;
} lsw_walker;

static lsw_walker* check_walker(lua_State* L, int idx) {
    return luaL_checkudata(L, idx, LSW_WALKER);
}

static uint32_t read_legs(lua_State* L, sw_walker_leg* legs) {
    const uint32_t n = lsw_list(L, 1, "legs", SW_WALKER_MAX_LEGS, true);
    const int list = lua_gettop(L);
    for (uint32_t i = 0; i < n; ++i) {
        const int t = lsw_entry(L, list, i);
        legs[i].rest = lsw_opt_vec3(L, t, "rest", sw_vec3_make(0, 0, 0));
        legs[i].group = lsw_opt_uint(L, t, "group", 0);
        lua_settop(L, list);
    }
    lua_pop(L, 1);
    return n;
}

/* sinew.walker{legs = {{rest, group}, ...}, height, stride, ray [, the other
 * sw_walker_desc fields by name]} -> Walker (place it before updating). */
static int l_walker(lua_State* L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    lsw_walker* w = lua_newuserdatauv(L, sizeof *w, 1);
    memset(w, 0, sizeof *w);
    luaL_setmetatable(L, LSW_WALKER);
    sw_walker_desc* d = &w->desc;
    d->legs = w->legs;
    d->legs_count = read_legs(L, w->legs);
    static const char* const names[] = {"height",         "min_height",         "clearance",
                                        "stride",         "step_duration",      "step_height",
                                        "move_dip",       "dip_speed",          "max_tilt",
                                        "ray_up",         "ray_down",           "height_half_life",
                                        "tilt_half_life", "velocity_half_life", "turn_half_life",
                                        "stride_speed"};
    float* fields[] = {&d->height,         &d->min_height,         &d->clearance,
                       &d->stride,         &d->step_duration,      &d->step_height,
                       &d->move_dip,       &d->dip_speed,          &d->max_tilt,
                       &d->ray_up,         &d->ray_down,           &d->height_half_life,
                       &d->tilt_half_life, &d->velocity_half_life, &d->turn_half_life,
                       &d->stride_speed};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
        *fields[i] = lsw_opt_float(L, 1, names[i], 0.0f);
    d->no_tilt = lsw_opt_bool(L, 1, "no_tilt", false);
    lua_getfield(L, 1, "ray");
    luaL_checktype(L, -1, LUA_TFUNCTION);
    lsw_keep(L, 2, 1);
    return 1;
}

/* Runs `fn` with the walker's ray function live (stack: walker at 1). */
static sw_result with_ray(lua_State* L, lsw_walker* w, sw_result (*fn)(lua_State*, lsw_walker*)) {
    lua_getiuservalue(L, 1, 1);
    lsw_ray ray;
    lsw_ray_begin(L, -1, &ray);
    w->desc.ray = lsw_ray_call;
    w->desc.ray_user = &ray;
    const sw_result r = fn(L, w);
    w->desc.ray_user = NULL;
    lsw_ray_end(&ray);
    return r;
}

static sw_result place(lua_State* L, lsw_walker* w) {
    return sw_walker_init(&w->desc, lsw_check_vec3(L, 2), (float)luaL_optnumber(L, 3, 0.0),
                          &w->state);
}

/* walker:place(position [, heading]): the body above position, feet planted. */
static int walker_place(lua_State* L) {
    lsw_walker* w = check_walker(L, 1);
    lua_settop(L, 3);
    lsw_check(L, "walker:place", with_ray(L, w, place), NULL);
    w->placed = true;
    return 0;
}

static sw_result update(lua_State* L, lsw_walker* w) {
    const sw_walker_job job = {.desc = &w->desc,
                               .state = &w->state,
                               .velocity = lsw_check_vec3(L, 2),
                               .turn_rate = lsw_check_float(L, 3),
                               .dt = lsw_check_float(L, 4)};
    return sw_walker_job_run(&job);
}

/* walker:update(velocity, turn_rate, dt): one step of the creature. */
static int walker_update(lua_State* L) {
    lsw_walker* w = check_walker(L, 1);
    if (!w->placed) return luaL_error(L, "walker:update: place the walker first");
    lua_settop(L, 4);
    lsw_check(L, "walker:update", with_ray(L, w, update), NULL);
    return 0;
}

/* walker:body() -> the body matrix (world). */
static int walker_body(lua_State* L) {
    const sw_mat4 m = sw_walker_body_matrix(&check_walker(L, 1)->state);
    lsw_push_mat4(L, &m);
    return 1;
}

/* walker:foot(i) -> {position, target, ideal, phase, airborne, steps} of leg i (1-based). */
static int walker_foot(lua_State* L) {
    const lsw_walker* w = check_walker(L, 1);
    const lua_Integer i = luaL_checkinteger(L, 2);
    luaL_argcheck(L, i >= 1 && i <= (lua_Integer)w->desc.legs_count, 2, "leg out of range");
    const sw_walker_foot* f = &w->state.feet[i - 1];
    lua_createtable(L, 0, 6);
    lsw_push_vec3(L, f->position);
    lua_setfield(L, -2, "position");
    lsw_push_vec3(L, f->target);
    lua_setfield(L, -2, "target");
    lsw_push_vec3(L, f->ideal);
    lua_setfield(L, -2, "ideal");
    lua_pushnumber(L, (lua_Number)f->phase);
    lua_setfield(L, -2, "phase");
    lua_pushboolean(L, f->airborne);
    lua_setfield(L, -2, "airborne");
    lua_pushinteger(L, f->steps);
    lua_setfield(L, -2, "steps");
    return 1;
}

static const char* const k_solvers[] = {"default", "two_bone", "fabrik", NULL};

/* The chains option: one {joints, solver, pole} per leg; joint storage in `joints`. */
static uint32_t read_chains(lua_State* L, const sw_skeleton* s, sw_walker_chain* chains,
                            uint32_t (*joints)[SW_IK_MAX_CHAIN]) {
    const uint32_t n = lsw_list(L, 2, "chains", SW_WALKER_MAX_LEGS, true);
    const int list = lua_gettop(L);
    for (uint32_t i = 0; i < n; ++i) {
        const int t = lsw_entry(L, list, i);
        lua_getfield(L, t, "joints");
        chains[i].joints = joints[i];
        chains[i].joints_count = lsw_check_joints(L, -1, s, joints[i], SW_IK_MAX_CHAIN);
        chains[i].solver = (sw_walker_solver)lsw_opt_word(L, t, "solver", k_solvers, 0);
        chains[i].pole = lsw_opt_vec3(L, t, "pole", sw_vec3_make(0, 0, 0));
        lua_settop(L, list);
    }
    lua_pop(L, 1);
    return n;
}

/* walker:pose{model, pose, chains [, weight, iterations]}: bends each leg's
 * chain onto its foot. The model matrices must come from local-to-model
 * with root = walker:body(). */
static int walker_pose(lua_State* L) {
    lsw_walker* w = check_walker(L, 1);
    lsw_pose *model, *pose;
    lsw_job_poses(L, 2, &model, &pose);
    sw_walker_chain chains[SW_WALKER_MAX_LEGS];
    uint32_t joints[SW_WALKER_MAX_LEGS][SW_IK_MAX_CHAIN];
    const sw_mat4 body = sw_walker_body_matrix(&w->state);
    const sw_walker_pose_job job = {.skeleton = pose->s,
                                    .model = model->data,
                                    .model_count = model->count,
                                    .root_transform = &body,
                                    .state = &w->state,
                                    .chains = chains,
                                    .chains_count = read_chains(L, pose->s, chains, joints),
                                    .iterations = lsw_opt_uint(L, 2, "iterations", 0),
                                    .weight = lsw_opt_float(L, 2, "weight", 1.0f),
                                    .pose = pose->data,
                                    .pose_count = pose->count};
    lsw_check(L, "walker:pose", sw_walker_pose_job_run(&job), NULL);
    return 0;
}

/* walker.position, walker.rotation, walker.heading; methods. */
static int walker_index(lua_State* L) {
    const lsw_walker* w = check_walker(L, 1);
    const char* key = luaL_checkstring(L, 2);
    if (strcmp(key, "position") == 0)
        lsw_push_vec3(L, w->state.position);
    else if (strcmp(key, "rotation") == 0)
        lsw_push_quat(L, w->state.rotation);
    else if (strcmp(key, "heading") == 0)
        lua_pushnumber(L, (lua_Number)w->state.heading);
    else
        return lsw_method(L);
    return 1;
}

static const luaL_Reg k_walker_methods[] = {{"place", walker_place}, {"update", walker_update},
                                            {"body", walker_body},   {"foot", walker_foot},
                                            {"pose", walker_pose},   {NULL, NULL}};
static const luaL_Reg k_walker_meta[] = {{"__index", walker_index}, {NULL, NULL}};

void lsw_open_walker(lua_State* L) {
    lsw_class(L, LSW_WALKER, k_walker_methods, k_walker_meta);
    lua_pushcfunction(L, l_walker);
    lua_setfield(L, -2, "walker");
}
