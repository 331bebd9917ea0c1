/* bindings/lua/lsw.c: errors, aligned userdata, vectors and option fields. */
#include "lsw.h"

#include <stdint.h>
#include <string.h>

/* ---- errors ---- */

static void set_str(lua_State* L, const char* key, const char* v) {
    lua_pushstring(L, v);
    lua_setfield(L, -2, key);
}

static void set_int(lua_State* L, const char* key, lua_Integer v) {
    lua_pushinteger(L, v);
    lua_setfield(L, -2, key);
}

/* "what: result[: system error][: detail] (check "c"[, offset o][, index i])". */
static void push_message(lua_State* L, const char* what, sw_result r, const sw_error* err) {
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addstring(&b, what);
    luaL_addstring(&b, ": ");
    luaL_addstring(&b, sw_result_str(r));
    if (err && err->sys_errno) {
        luaL_addstring(&b, ": ");
        luaL_addstring(&b, strerror(err->sys_errno));
    }
    if (err && err->detail[0]) {
        luaL_addstring(&b, ": ");
        luaL_addstring(&b, err->detail);
    }
    if (err && err->check) {
        lua_pushfstring(L, " (check \"%s\"", err->check);
        luaL_addvalue(&b);
        if (err->offset > 0) {
            lua_pushfstring(L, ", offset %I", (lua_Integer)err->offset);
            luaL_addvalue(&b);
        }
        if (err->index >= 0) {
            lua_pushfstring(L, ", index %I", (lua_Integer)err->index);
            luaL_addvalue(&b);
        }
        luaL_addchar(&b, ')');
    }
    luaL_pushresult(&b);
}

int lsw_raise(lua_State* L, const char* what, sw_result r, const sw_error* err) {
    lua_createtable(L, 0, 8);
    set_str(L, "result", sw_result_str(r));
    set_int(L, "code", (lua_Integer)r);
    if (err) {
        if (err->check) set_str(L, "check", err->check);
        set_str(L, "detail", err->detail);
        set_int(L, "offset", (lua_Integer)err->offset);
        set_int(L, "index", (lua_Integer)err->index);
        set_int(L, "errno", err->sys_errno);
    }
    push_message(L, what, r, err);
    lua_setfield(L, -2, "message");
    luaL_setmetatable(L, LSW_ERROR);
    return lua_error(L);
}

void lsw_check(lua_State* L, const char* what, sw_result r, const sw_error* err) {
    if (r != SW_RESULT_OK) lsw_raise(L, what, r, err);
}

static int error_tostring(lua_State* L) {
    lua_getfield(L, 1, "message");
    return 1;
}

/* ---- userdata ---- */

void* lsw_new_aligned(lua_State* L, size_t header, size_t size, const char* mt, void** base) {
    const size_t head = (header + 15u) & ~(size_t)15u;
    char* ud = lua_newuserdatauv(L, head + size + 16u, 1);
    memset(ud, 0, head + size + 16u);
    if (mt) luaL_setmetatable(L, mt);
    *base = ud;
    const uintptr_t p = ((uintptr_t)(ud + head) + 15u) & ~(uintptr_t)15u;
    return (void*)p;
}

void lsw_class(lua_State* L, const char* name, const luaL_Reg* methods, const luaL_Reg* meta) {
    luaL_newmetatable(L, name);
    if (meta) luaL_setfuncs(L, meta, 0);
    lua_newtable(L);
    if (methods) luaL_setfuncs(L, methods, 0);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, "methods");
    if (lua_getfield(L, -2, "__index") == LUA_TNIL) {
        lua_pop(L, 1);
        lua_setfield(L, -2, "__index");
    } else {
        lua_pop(L, 2);
    }
    lua_pop(L, 1);
}

int lsw_method(lua_State* L) {
    if (luaL_getmetafield(L, 1, "methods") == LUA_TNIL) return 0;
    lua_pushvalue(L, 2);
    lua_rawget(L, -2);
    return 1;
}

void lsw_keep(lua_State* L, int ud, int n) {
    lua_setiuservalue(L, ud, n);
}

/* ---- values ---- */

const char* lsw_check_kept_string(lua_State* L, int idx) {
    if (lua_type(L, idx) != LUA_TSTRING) luaL_error(L, "a name must be a string");
    return lua_tostring(L, idx);
}

float lsw_check_float(lua_State* L, int idx) {
    return (float)luaL_checknumber(L, idx);
}

/* Component i (1-based) of the vector table at idx: t[i] or t[name]. */
static float component(lua_State* L, int idx, int i, const char* name) {
    lua_rawgeti(L, idx, i);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_getfield(L, idx, name);
    }
    int ok = 0;
    const lua_Number v = lua_tonumberx(L, -1, &ok);
    lua_pop(L, 1);
    if (!ok) luaL_error(L, "vector component %s (or [%d]) missing or not a number", name, i);
    return (float)v;
}

bool lsw_to_vec3(lua_State* L, int idx, sw_vec3* out) {
    idx = lua_absindex(L, idx);
    if (!lua_istable(L, idx)) return false;
    float v[3];
    static const char* const names[3] = {"x", "y", "z"};
    for (int i = 0; i < 3; ++i) {
        lua_rawgeti(L, idx, i + 1);
        if (lua_isnil(L, -1)) {
            lua_pop(L, 1);
            lua_getfield(L, idx, names[i]);
        }
        int ok = 0;
        v[i] = (float)lua_tonumberx(L, -1, &ok);
        lua_pop(L, 1);
        if (!ok) return false;
    }
    *out = sw_vec3_make(v[0], v[1], v[2]);
    return true;
}

sw_vec3 lsw_check_vec3(lua_State* L, int idx) {
    idx = lua_absindex(L, idx);
    luaL_checktype(L, idx, LUA_TTABLE);
    return sw_vec3_make(component(L, idx, 1, "x"), component(L, idx, 2, "y"),
                        component(L, idx, 3, "z"));
}

sw_quat lsw_check_quat(lua_State* L, int idx) {
    idx = lua_absindex(L, idx);
    luaL_checktype(L, idx, LUA_TTABLE);
    return sw_quat_make(component(L, idx, 1, "x"), component(L, idx, 2, "y"),
                        component(L, idx, 3, "z"), component(L, idx, 4, "w"));
}

sw_xform lsw_check_xform(lua_State* L, int idx) {
    idx = lua_absindex(L, idx);
    luaL_checktype(L, idx, LUA_TTABLE);
    sw_xform x = sw_xform_identity();
    x.t = lsw_opt_vec3(L, idx, "t", x.t);
    x.r = lsw_opt_quat(L, idx, "r", x.r);
    x.s = lsw_opt_vec3(L, idx, "s", x.s);
    return x;
}

sw_mat4 lsw_check_mat4(lua_State* L, int idx) {
    idx = lua_absindex(L, idx);
    luaL_checktype(L, idx, LUA_TTABLE);
    if (lua_rawlen(L, idx) != 16) return sw_mat4_from_xform(lsw_check_xform(L, idx));
    sw_mat4 m;
    for (int i = 0; i < 16; ++i) {
        lua_rawgeti(L, idx, i + 1);
        m.m[i] = (float)luaL_checknumber(L, -1);
        lua_pop(L, 1);
    }
    return m;
}

static void push_floats(lua_State* L, const char* const* names, const float* v, int n) {
    lua_createtable(L, 0, n);
    for (int i = 0; i < n; ++i) {
        lua_pushnumber(L, (lua_Number)v[i]);
        lua_setfield(L, -2, names[i]);
    }
}

void lsw_push_vec3(lua_State* L, sw_vec3 v) {
    static const char* const names[3] = {"x", "y", "z"};
    const float f[3] = {v.x, v.y, v.z};
    push_floats(L, names, f, 3);
}

void lsw_push_quat(lua_State* L, sw_quat q) {
    static const char* const names[4] = {"x", "y", "z", "w"};
    const float f[4] = {q.x, q.y, q.z, q.w};
    push_floats(L, names, f, 4);
}

void lsw_push_xform(lua_State* L, sw_xform x) {
    lua_createtable(L, 0, 3);
    lsw_push_vec3(L, x.t);
    lua_setfield(L, -2, "t");
    lsw_push_quat(L, x.r);
    lua_setfield(L, -2, "r");
    lsw_push_vec3(L, x.s);
    lua_setfield(L, -2, "s");
}

void lsw_push_mat4(lua_State* L, const sw_mat4* m) {
    lua_createtable(L, 16, 0);
    for (int i = 0; i < 16; ++i) {
        lua_pushnumber(L, (lua_Number)m->m[i]);
        lua_rawseti(L, -2, i + 1);
    }
}

/* ---- option fields ---- */

bool lsw_has(lua_State* L, int t, const char* key) {
    const bool has = lua_getfield(L, t, key) != LUA_TNIL;
    lua_pop(L, 1);
    return has;
}

float lsw_opt_float(lua_State* L, int t, const char* key, float def) {
    if (lua_getfield(L, t, key) == LUA_TNIL) {
        lua_pop(L, 1);
        return def;
    }
    int ok = 0;
    const lua_Number v = lua_tonumberx(L, -1, &ok);
    if (!ok) luaL_error(L, "option '%s' must be a number", key);
    lua_pop(L, 1);
    return (float)v;
}

bool lsw_opt_bool(lua_State* L, int t, const char* key, bool def) {
    if (lua_getfield(L, t, key) == LUA_TNIL) {
        lua_pop(L, 1);
        return def;
    }
    const bool v = lua_toboolean(L, -1) != 0;
    lua_pop(L, 1);
    return v;
}

uint32_t lsw_opt_uint(lua_State* L, int t, const char* key, uint32_t def) {
    if (lua_getfield(L, t, key) == LUA_TNIL) {
        lua_pop(L, 1);
        return def;
    }
    int ok = 0;
    const lua_Integer v = lua_tointegerx(L, -1, &ok);
    if (!ok || v < 0 || v > (lua_Integer)UINT32_MAX)
        luaL_error(L, "option '%s' must be a whole number >= 0", key);
    lua_pop(L, 1);
    return (uint32_t)v;
}

sw_vec3 lsw_opt_vec3(lua_State* L, int t, const char* key, sw_vec3 def) {
    if (lua_getfield(L, t, key) == LUA_TNIL) {
        lua_pop(L, 1);
        return def;
    }
    const sw_vec3 v = lsw_check_vec3(L, -1);
    lua_pop(L, 1);
    return v;
}

sw_quat lsw_opt_quat(lua_State* L, int t, const char* key, sw_quat def) {
    if (lua_getfield(L, t, key) == LUA_TNIL) {
        lua_pop(L, 1);
        return def;
    }
    const sw_quat q = lsw_check_quat(L, -1);
    lua_pop(L, 1);
    return q;
}

void* lsw_field_udata(lua_State* L, int t, const char* key, const char* mt) {
    lua_getfield(L, t, key);
    void* p = luaL_testudata(L, -1, mt);
    if (!p) luaL_error(L, "option '%s' must be a %s", key, mt);
    lua_pop(L, 1);
    return p;
}

const sw_mat4* lsw_opt_mat4(lua_State* L, int t, const char* key, sw_mat4* out) {
    if (lua_getfield(L, t, key) == LUA_TNIL) {
        lua_pop(L, 1);
        return NULL;
    }
    *out = lsw_check_mat4(L, -1);
    lua_pop(L, 1);
    return out;
}

int lsw_opt_word(lua_State* L, int t, const char* key, const char* const* words, int def) {
    if (lua_getfield(L, t, key) == LUA_TNIL) {
        lua_pop(L, 1);
        return def;
    }
    const char* s = lua_tostring(L, -1);
    for (int i = 0; s && words[i]; ++i) {
        if (strcmp(s, words[i]) == 0) {
            lua_pop(L, 1);
            return i;
        }
    }
    return luaL_error(L, "option '%s': unknown value '%s'", key, s ? s : "?");
}

/* ---- lists of option tables ---- */

uint32_t lsw_list(lua_State* L, int t, const char* key, uint32_t cap, bool required) {
    const int type = lua_getfield(L, t, key);
    if (type == LUA_TNIL && !required) return 0;
    if (type != LUA_TTABLE) return (uint32_t)luaL_error(L, "option '%s' must be a list", key);
    const lua_Unsigned n = lua_rawlen(L, -1);
    if (n > cap) return (uint32_t)luaL_error(L, "option '%s': at most %d entries", key, (int)cap);
    return (uint32_t)n;
}

int lsw_entry(lua_State* L, int list, uint32_t i) {
    if (lua_rawgeti(L, list, (lua_Integer)i + 1) != LUA_TTABLE)
        luaL_error(L, "list entry %d must be a table", (int)i + 1);
    return lua_gettop(L);
}

/* ---- ground rays ---- */

void lsw_ray_begin(lua_State* L, int fn, lsw_ray* ray) {
    fn = lua_absindex(L, fn);
    luaL_checktype(L, fn, LUA_TFUNCTION);
    lua_pushnil(L); /* room for an error the function raises */
    ray->L = L;
    ray->fn = fn;
    ray->error = lua_gettop(L);
    ray->failed = false;
}

/* Records an error (the value on top) for lsw_ray_end and stops calling. */
static bool ray_fail(lsw_ray* c, int top) {
    lua_replace(c->L, c->error);
    c->failed = true;
    lua_settop(c->L, top);
    return false;
}

bool lsw_ray_call(void* user, sw_vec3 from, sw_vec3 dir, float max_distance, sw_vec3* point,
                  sw_vec3* normal) {
    lsw_ray* c = user;
    lua_State* L = c->L;
    if (c->failed) return false;
    const int top = lua_gettop(L);
    lua_pushvalue(L, c->fn);
    lsw_push_vec3(L, from);
    lsw_push_vec3(L, dir);
    lua_pushnumber(L, (lua_Number)max_distance);
    if (lua_pcall(L, 3, 2, 0) != LUA_OK) return ray_fail(c, top);
    bool hit = false;
    if (!lua_isnil(L, -2)) {
        hit = lsw_to_vec3(L, -2, point) && lsw_to_vec3(L, -1, normal);
        if (!hit) {
            lua_pushstring(L, "ray: return nil (a miss) or two vectors (point, normal)");
            return ray_fail(c, top);
        }
    }
    lua_settop(L, top);
    return hit;
}

void lsw_ray_end(const lsw_ray* ray) {
    if (!ray->failed) return;
    lua_pushvalue(ray->L, ray->error);
    lua_error(ray->L);
}

/* ---- the module ---- */

static const luaL_Reg k_error_meta[] = {{"__tostring", error_tostring}, {NULL, NULL}};

__attribute__((visibility("default"))) int luaopen_sinew(lua_State* L);

int luaopen_sinew(lua_State* L) {
    lsw_class(L, LSW_ERROR, NULL, k_error_meta);
    lua_newtable(L);
    lsw_open_skeleton(L);
    lsw_open_pose(L);
    lsw_open_asset(L);
    lsw_open_jobs(L);
    lsw_open_math(L);
    lsw_open_ik(L);
    lsw_open_foot(L);
    lsw_open_spring(L);
    lsw_open_chain(L);
    lsw_open_retarget(L);
    lsw_open_effects(L);
    lsw_open_walker(L);
    lsw_open_animator(L);
    lua_pushfstring(L, "%d.%d.%d", SINEW_VERSION_MAJOR, SINEW_VERSION_MINOR, SINEW_VERSION_PATCH);
    lua_setfield(L, -2, "version");
    return 1;
}
