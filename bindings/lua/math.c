/* bindings/lua/math.c: sinew's quaternion and matrix functions on Lua
 * tables (sinew/core/math.h), for scripts that set up targets and rigs. */
#include <string.h>

#include "lsw.h"

static int l_quat_axis_angle(lua_State* L) {
    lsw_push_quat(L, sw_quat_from_axis_angle(lsw_check_vec3(L, 1), lsw_check_float(L, 2)));
    return 1;
}

static int l_quat_mul(lua_State* L) {
    lsw_push_quat(L, sw_quat_mul(lsw_check_quat(L, 1), lsw_check_quat(L, 2)));
    return 1;
}

static int l_quat_conjugate(lua_State* L) {
    lsw_push_quat(L, sw_quat_conjugate(lsw_check_quat(L, 1)));
    return 1;
}

static int l_quat_normalize(lua_State* L) {
    lsw_push_quat(L, sw_quat_normalize(lsw_check_quat(L, 1)));
    return 1;
}

static int l_quat_rotate(lua_State* L) {
    lsw_push_vec3(L, sw_quat_rotate(lsw_check_quat(L, 1), lsw_check_vec3(L, 2)));
    return 1;
}

static int l_quat_from_to(lua_State* L) {
    lsw_push_quat(L, sw_quat_from_to(lsw_check_vec3(L, 1), lsw_check_vec3(L, 2)));
    return 1;
}

static int l_quat_slerp(lua_State* L) {
    lsw_push_quat(L,
                  sw_quat_slerp(lsw_check_quat(L, 1), lsw_check_quat(L, 2), lsw_check_float(L, 3)));
    return 1;
}

static const char* const k_orders[] = {"xyz", "xyz", "xzy", "yxz", "yzx", "zxy", "zyx", NULL};

/* sinew.quat_from_euler({x, y, z} [, order]): order "xyz" (default) .. "zyx". */
static int l_quat_from_euler(lua_State* L) {
    const int order = luaL_checkoption(L, 2, "xyz", k_orders);
    lsw_push_quat(L, sw_quat_from_euler(lsw_check_vec3(L, 1), (sw_euler_order)order));
    return 1;
}

static int l_quat_to_euler(lua_State* L) {
    const int order = luaL_checkoption(L, 2, "xyz", k_orders);
    lsw_push_vec3(L, sw_quat_to_euler(lsw_check_quat(L, 1), (sw_euler_order)order));
    return 1;
}

/* sinew.matrix(m): 16 numbers from a transform {t, r, s} (or a matrix). */
static int l_matrix(lua_State* L) {
    const sw_mat4 m = lsw_check_mat4(L, 1);
    lsw_push_mat4(L, &m);
    return 1;
}

/* sinew.mat4_mul(a, b): a * b (b applied first). */
static int l_mat4_mul(lua_State* L) {
    const sw_mat4 a = lsw_check_mat4(L, 1), b = lsw_check_mat4(L, 2);
    const sw_mat4 m = sw_mat4_mul(&a, &b);
    lsw_push_mat4(L, &m);
    return 1;
}

static int l_mat4_point(lua_State* L) {
    const sw_mat4 m = lsw_check_mat4(L, 1);
    lsw_push_vec3(L, sw_mat4_point(&m, lsw_check_vec3(L, 2)));
    return 1;
}

static int l_mat4_inverse(lua_State* L) {
    const sw_mat4 m = lsw_check_mat4(L, 1);
    sw_mat4 inv;
    if (!sw_mat4_inverse(&m, &inv)) return luaL_error(L, "sinew.mat4_inverse: singular matrix");
    lsw_push_mat4(L, &inv);
    return 1;
}

static const luaL_Reg k_math[] = {{"quat_axis_angle", l_quat_axis_angle},
                                  {"quat_mul", l_quat_mul},
                                  {"quat_conjugate", l_quat_conjugate},
                                  {"quat_normalize", l_quat_normalize},
                                  {"quat_rotate", l_quat_rotate},
                                  {"quat_from_to", l_quat_from_to},
                                  {"quat_slerp", l_quat_slerp},
                                  {"quat_from_euler", l_quat_from_euler},
                                  {"quat_to_euler", l_quat_to_euler},
                                  {"matrix", l_matrix},
                                  {"mat4_mul", l_mat4_mul},
                                  {"mat4_point", l_mat4_point},
                                  {"mat4_inverse", l_mat4_inverse},
                                  {NULL, NULL}};

void lsw_open_math(lua_State* L) {
    luaL_setfuncs(L, k_math, 0);
}
