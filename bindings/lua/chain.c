/* bindings/lua/chain.c: sinew.Chain, a row of points with their segment
 * lengths (follow-the-leader), optionally over a joint chain of a skeleton
 * (aim, jiggle; sinew/procedural/chain.h). */
#include <string.h>

#include "lsw.h"
#include "sinew/procedural/chain.h"

typedef struct lsw_chain {
    const sw_skeleton* s; /* NULL for a chain of points only */
    uint32_t count;
    uint32_t joints[SW_CHAIN_MAX_JOINTS];
    sw_vec3 points[SW_CHAIN_MAX_JOINTS];
    float lengths[SW_CHAIN_MAX_JOINTS];
    sw_jiggle_point jiggle_points[SW_CHAIN_MAX_JOINTS];
    sw_jiggle_state jiggle;
} lsw_chain;

static lsw_chain* check_chain(lua_State* L, int idx) {
    return luaL_checkudata(L, idx, LSW_CHAIN);
}

static lsw_chain* new_chain(lua_State* L) {
    lsw_chain* c = lua_newuserdatauv(L, sizeof *c, 1);
    memset(c, 0, sizeof *c);
    c->jiggle.points = c->jiggle_points;
    c->jiggle.points_count = SW_CHAIN_MAX_JOINTS;
    luaL_setmetatable(L, LSW_CHAIN);
    return c;
}

/* sinew.chain(model, joints): the joints' model positions and the distances
 * between them; sinew.chain(points): a chain of free points. */
static int l_chain(lua_State* L) {
    if (lua_istable(L, 1)) {
        const lua_Unsigned n = lua_rawlen(L, 1);
        if (n < 1 || n > SW_CHAIN_MAX_JOINTS)
            return luaL_error(L, "sinew.chain: 1..%d points", SW_CHAIN_MAX_JOINTS);
        lsw_chain* c = new_chain(L);
        c->count = (uint32_t)n;
        for (uint32_t i = 0; i < c->count; ++i) {
            lua_rawgeti(L, 1, (lua_Integer)i + 1);
            c->points[i] = lsw_check_vec3(L, -1);
            lua_pop(L, 1);
            if (i > 0)
                c->lengths[i - 1] = sw_vec3_length(sw_vec3_sub(c->points[i], c->points[i - 1]));
        }
        return 1;
    }
    lsw_pose* m = lsw_check_model(L, 1);
    lsw_chain* c = new_chain(L);
    c->s = m->s;
    c->count = lsw_check_joints(L, 2, m->s, c->joints, SW_CHAIN_MAX_JOINTS);
    lsw_check(
        L, "sinew.chain",
        sw_chain_points_from_model(m->data, m->count, c->joints, c->count, c->points, c->lengths),
        NULL);
    lua_getiuservalue(L, 1, 1);
    lsw_keep(L, -2, 1);
    return 1;
}

static uint32_t check_index(lua_State* L, int idx, uint32_t n) {
    const lua_Integer i = luaL_checkinteger(L, idx);
    if (i < 1 || i > (lua_Integer)n) luaL_error(L, "index %I out of range 1..%d", i, (int)n);
    return (uint32_t)(i - 1);
}

static int chain_len(lua_State* L) {
    lua_pushinteger(L, check_chain(L, 1)->count);
    return 1;
}

/* chain[i] -> point i (1-based). */
static int chain_index(lua_State* L) {
    const lsw_chain* c = check_chain(L, 1);
    if (lua_type(L, 2) != LUA_TNUMBER) return lsw_method(L);
    lsw_push_vec3(L, c->points[check_index(L, 2, c->count)]);
    return 1;
}

static int chain_newindex(lua_State* L) {
    lsw_chain* c = check_chain(L, 1);
    c->points[check_index(L, 2, c->count)] = lsw_check_vec3(L, 3);
    return 0;
}

/* chain:length(i) -> distance from point i to point i + 1 kept by follow. */
static int chain_length(lua_State* L) {
    const lsw_chain* c = check_chain(L, 1);
    lua_pushnumber(L, (lua_Number)c->lengths[check_index(L, 2, c->count - 1)]);
    return 1;
}

/* chain:follow(head): point 1 to head, each other point pulled behind its
 * leader at its length. */
static int chain_follow(lua_State* L) {
    lsw_chain* c = check_chain(L, 1);
    const sw_chain_follow_job job = {.head = lsw_check_vec3(L, 2),
                                     .lengths = c->lengths,
                                     .lengths_count = c->count - 1,
                                     .points = c->points,
                                     .points_count = c->count};
    lsw_check(L, "chain:follow", sw_chain_follow_job_run(&job), NULL);
    return 0;
}

/* The joint chain's model and pose, checked against the chain's skeleton. */
static void chain_poses(lua_State* L, const lsw_chain* c, lsw_pose** model, lsw_pose** pose) {
    if (!c->s) luaL_error(L, "this chain has no joints (made from points)");
    lsw_job_poses(L, 2, model, pose);
    if ((*pose)->s->joints_count != c->s->joints_count)
        luaL_error(L, "the pose is not of the chain's skeleton");
}

/* chain:aim{model, pose [, weight, root]}: turns the joints towards the points. */
static int chain_aim(lua_State* L) {
    lsw_chain* c = check_chain(L, 1);
    lsw_pose *model, *pose;
    chain_poses(L, c, &model, &pose);
    sw_mat4 root;
    const sw_chain_aim_job job = {.skeleton = pose->s,
                                  .model = model->data,
                                  .model_count = model->count,
                                  .root_transform = lsw_opt_mat4(L, 2, "root", &root),
                                  .joints = c->joints,
                                  .joints_count = c->count,
                                  .points = c->points,
                                  .points_count = c->count,
                                  .weight = lsw_opt_float(L, 2, "weight", 1.0f),
                                  .pose = pose->data,
                                  .pose_count = pose->count};
    lsw_check(L, "chain:aim", sw_chain_aim_job_run(&job), NULL);
    return 0;
}

/* The colliders list { {a = , b = , radius = }, ... } (b defaults to a: a sphere). */
static uint32_t read_colliders(lua_State* L, sw_jiggle_collider* out, uint32_t cap) {
    const uint32_t n = lsw_list(L, 2, "colliders", cap, false);
    const int list = lua_gettop(L);
    for (uint32_t i = 0; i < n; ++i) {
        const int t = lsw_entry(L, list, i);
        out[i].a = lsw_opt_vec3(L, t, "a", sw_vec3_make(0, 0, 0));
        out[i].b = lsw_opt_vec3(L, t, "b", out[i].a);
        out[i].radius = lsw_opt_float(L, t, "radius", 0.0f);
        lua_settop(L, list);
    }
    lua_pop(L, 1);
    return n;
}

/* chain:jiggle{model, pose, dt [, stiffness, damping, gravity, step,
 * max_steps, colliders, weight, root]}: advances the chain's Verlet state
 * and writes the joints' rotations. */
static int chain_jiggle(lua_State* L) {
    lsw_chain* c = check_chain(L, 1);
    lsw_pose *model, *pose;
    chain_poses(L, c, &model, &pose);
    sw_mat4 root;
    sw_jiggle_collider colliders[32];
    const sw_jiggle_job job = {.skeleton = pose->s,
                               .model = model->data,
                               .model_count = model->count,
                               .root_transform = lsw_opt_mat4(L, 2, "root", &root),
                               .joints = c->joints,
                               .joints_count = c->count,
                               .dt = lsw_opt_float(L, 2, "dt", 0.0f),
                               .stiffness = lsw_opt_float(L, 2, "stiffness", 0.0f),
                               .damping = lsw_opt_float(L, 2, "damping", 0.0f),
                               .gravity = lsw_opt_vec3(L, 2, "gravity", sw_vec3_make(0, 0, 0)),
                               .step = lsw_opt_float(L, 2, "step", 0.0f),
                               .max_steps = lsw_opt_uint(L, 2, "max_steps", 0),
                               .colliders = colliders,
                               .colliders_count = read_colliders(L, colliders, 32),
                               .weight = lsw_opt_float(L, 2, "weight", 1.0f),
                               .state = &c->jiggle,
                               .pose = pose->data,
                               .pose_count = pose->count};
    lsw_check(L, "chain:jiggle", sw_jiggle_job_run(&job), NULL);
    return 0;
}

/* chain:jiggle_point(i) -> the simulated position of point i. */
static int chain_jiggle_point(lua_State* L) {
    const lsw_chain* c = check_chain(L, 1);
    lsw_push_vec3(L, c->jiggle_points[check_index(L, 2, c->count)].position);
    return 1;
}

/* chain:reset(): the next jiggle starts again at rest on the pose. */
static int chain_reset(lua_State* L) {
    check_chain(L, 1)->jiggle.started = false;
    return 0;
}

static const luaL_Reg k_chain_methods[] = {{"length", chain_length},
                                           {"follow", chain_follow},
                                           {"aim", chain_aim},
                                           {"jiggle", chain_jiggle},
                                           {"jiggle_point", chain_jiggle_point},
                                           {"reset", chain_reset},
                                           {NULL, NULL}};
static const luaL_Reg k_chain_meta[] = {
    {"__index", chain_index}, {"__newindex", chain_newindex}, {"__len", chain_len}, {NULL, NULL}};

void lsw_open_chain(lua_State* L) {
    lsw_class(L, LSW_CHAIN, k_chain_methods, k_chain_meta);
    lua_pushcfunction(L, l_chain);
    lua_setfield(L, -2, "chain");
}
