/* bindings/lua/spring.c: critically damped springs and dampers by half-life
 * (sinew/procedural/spring.h). A sinew.Spring holds a number, a vector or a
 * rotation with its velocity. */
#include <string.h>

#include "lsw.h"
#include "sinew/procedural/spring.h"

typedef enum spring_kind { SPRING_FLOAT, SPRING_VEC3, SPRING_QUAT } spring_kind;

typedef struct lsw_spring {
    spring_kind kind;
    sw_spring_float f;
    sw_spring_vec3 v;
    sw_spring_quat q;
} lsw_spring;

static lsw_spring* check_spring(lua_State* L, int idx) {
    return luaL_checkudata(L, idx, LSW_SPRING);
}

/* A table with a w (or a 4th entry) is a rotation. */
static bool is_quat(lua_State* L, int idx) {
    if (!lua_istable(L, idx)) return false;
    const bool four = lua_rawgeti(L, idx, 4) != LUA_TNIL;
    lua_pop(L, 1);
    const bool w = lua_getfield(L, idx, "w") != LUA_TNIL;
    lua_pop(L, 1);
    return four || w;
}

/* sinew.spring(value [, velocity]): a spring at value (a number, vector or
 * quaternion), at rest unless a velocity is given. */
static int l_spring(lua_State* L) {
    lua_settop(L, 2);
    lsw_spring* s = lua_newuserdatauv(L, sizeof *s, 0);
    memset(s, 0, sizeof *s);
    luaL_setmetatable(L, LSW_SPRING);
    const bool vel = !lua_isnoneornil(L, 2);
    if (lua_type(L, 1) == LUA_TNUMBER) {
        s->kind = SPRING_FLOAT;
        s->f.value = lsw_check_float(L, 1);
        s->f.velocity = vel ? lsw_check_float(L, 2) : 0.0f;
    } else if (is_quat(L, 1)) {
        s->kind = SPRING_QUAT;
        s->q.value = lsw_check_quat(L, 1);
        if (vel) s->q.velocity = lsw_check_vec3(L, 2);
    } else {
        s->kind = SPRING_VEC3;
        s->v.value = lsw_check_vec3(L, 1);
        if (vel) s->v.velocity = lsw_check_vec3(L, 2);
    }
    return 1;
}

static void push_value(lua_State* L, const lsw_spring* s) {
    if (s->kind == SPRING_FLOAT)
        lua_pushnumber(L, (lua_Number)s->f.value);
    else if (s->kind == SPRING_VEC3)
        lsw_push_vec3(L, s->v.value);
    else
        lsw_push_quat(L, s->q.value);
}

static void push_velocity(lua_State* L, const lsw_spring* s) {
    if (s->kind == SPRING_FLOAT)
        lua_pushnumber(L, (lua_Number)s->f.velocity);
    else
        lsw_push_vec3(L, s->kind == SPRING_VEC3 ? s->v.velocity : s->q.velocity);
}

/* spring.value, spring.velocity, methods. */
static int spring_index(lua_State* L) {
    const lsw_spring* s = check_spring(L, 1);
    const char* key = luaL_checkstring(L, 2);
    if (strcmp(key, "value") == 0)
        push_value(L, s);
    else if (strcmp(key, "velocity") == 0)
        push_velocity(L, s);
    else
        return lsw_method(L);
    return 1;
}

/* spring.value = v, spring.velocity = v. */
static int spring_newindex(lua_State* L) {
    lsw_spring* s = check_spring(L, 1);
    const char* key = luaL_checkstring(L, 2);
    const bool value = strcmp(key, "value") == 0;
    if (!value && strcmp(key, "velocity") != 0)
        return luaL_error(L, "a spring has value and velocity only");
    if (s->kind == SPRING_FLOAT)
        *(value ? &s->f.value : &s->f.velocity) = lsw_check_float(L, 3);
    else if (s->kind == SPRING_VEC3)
        *(value ? &s->v.value : &s->v.velocity) = lsw_check_vec3(L, 3);
    else if (value)
        s->q.value = lsw_check_quat(L, 3);
    else
        s->q.velocity = lsw_check_vec3(L, 3);
    return 0;
}

/* spring:update(goal, half_life, dt): the exact critically damped step.
 * Returns the new value. */
static int spring_update(lua_State* L) {
    lsw_spring* s = check_spring(L, 1);
    const float h = lsw_check_float(L, 3), dt = lsw_check_float(L, 4);
    if (s->kind == SPRING_FLOAT)
        sw_spring_float_update(&s->f, lsw_check_float(L, 2), h, dt);
    else if (s->kind == SPRING_VEC3)
        sw_spring_vec3_update(&s->v, lsw_check_vec3(L, 2), h, dt);
    else
        sw_spring_quat_update(&s->q, lsw_check_quat(L, 2), h, dt);
    push_value(L, s);
    return 1;
}

/* spring:update_moving(goal, goal_velocity, half_life, dt) (numbers, vectors). */
static int spring_update_moving(lua_State* L) {
    lsw_spring* s = check_spring(L, 1);
    const float h = lsw_check_float(L, 4), dt = lsw_check_float(L, 5);
    if (s->kind == SPRING_FLOAT)
        sw_spring_float_update_moving(&s->f, lsw_check_float(L, 2), lsw_check_float(L, 3), h, dt);
    else if (s->kind == SPRING_VEC3)
        sw_spring_vec3_update_moving(&s->v, lsw_check_vec3(L, 2), lsw_check_vec3(L, 3), h, dt);
    else
        return luaL_error(L, "spring:update_moving: not for rotations");
    push_value(L, s);
    return 1;
}

/* spring:update_velocity(goal_velocity, half_life, dt) (vectors). */
static int spring_update_velocity(lua_State* L) {
    lsw_spring* s = check_spring(L, 1);
    if (s->kind != SPRING_VEC3) return luaL_error(L, "spring:update_velocity: vectors only");
    sw_spring_vec3_update_velocity(&s->v, lsw_check_vec3(L, 2), lsw_check_float(L, 3),
                                   lsw_check_float(L, 4));
    push_value(L, s);
    return 1;
}

/* sinew.damp(value, goal, half_life, dt): the damper step (numbers,
 * vectors or quaternions). */
static int l_damp(lua_State* L) {
    const float h = lsw_check_float(L, 3), dt = lsw_check_float(L, 4);
    if (lua_type(L, 1) == LUA_TNUMBER)
        lua_pushnumber(L, (lua_Number)sw_spring_damp_float(lsw_check_float(L, 1),
                                                           lsw_check_float(L, 2), h, dt));
    else if (is_quat(L, 1))
        lsw_push_quat(L, sw_spring_damp_quat(lsw_check_quat(L, 1), lsw_check_quat(L, 2), h, dt));
    else
        lsw_push_vec3(L, sw_spring_damp_vec3(lsw_check_vec3(L, 1), lsw_check_vec3(L, 2), h, dt));
    return 1;
}

static int l_damp_factor(lua_State* L) {
    lua_pushnumber(L,
                   (lua_Number)sw_spring_damp_factor(lsw_check_float(L, 1), lsw_check_float(L, 2)));
    return 1;
}

static int l_spring_rate(lua_State* L) {
    lua_pushnumber(L, (lua_Number)sw_spring_rate(lsw_check_float(L, 1)));
    return 1;
}

static const luaL_Reg k_spring_methods[] = {{"update", spring_update},
                                            {"update_moving", spring_update_moving},
                                            {"update_velocity", spring_update_velocity},
                                            {NULL, NULL}};
static const luaL_Reg k_spring_meta[] = {
    {"__index", spring_index}, {"__newindex", spring_newindex}, {NULL, NULL}};
static const luaL_Reg k_spring_funcs[] = {{"spring", l_spring},
                                          {"damp", l_damp},
                                          {"damp_factor", l_damp_factor},
                                          {"spring_rate", l_spring_rate},
                                          {NULL, NULL}};

void lsw_open_spring(lua_State* L) {
    lsw_class(L, LSW_SPRING, k_spring_methods, k_spring_meta);
    luaL_setfuncs(L, k_spring_funcs, 0);
}
