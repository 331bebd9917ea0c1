/* bindings/lua/skeleton.c: sinew.Skeleton (built from a table or owned by an
 * asset), joint lookup by index or name. */
#include <string.h>

#include "lsw.h"

const sw_skeleton* lsw_check_skeleton(lua_State* L, int idx) {
    return ((lsw_skeleton*)luaL_checkudata(L, idx, LSW_SKELETON))->s;
}

void lsw_push_skeleton(lua_State* L, const sw_skeleton* s, int owner) {
    owner = lua_absindex(L, owner);
    lsw_skeleton* ud = lua_newuserdatauv(L, sizeof *ud, 1);
    ud->s = s;
    ud->owned = false;
    luaL_setmetatable(L, LSW_SKELETON);
    lua_pushvalue(L, owner);
    lsw_keep(L, -2, 1);
}

uint32_t lsw_check_joint(lua_State* L, int idx, const sw_skeleton* s) {
    if (lua_type(L, idx) == LUA_TSTRING) {
        const char* name = lua_tostring(L, idx);
        const int32_t j = sw_skeleton_find_joint(s, name);
        if (j < 0) return (uint32_t)luaL_error(L, "no joint named '%s' in the skeleton", name);
        return (uint32_t)j;
    }
    int ok = 0;
    const lua_Integer j = lua_tointegerx(L, idx, &ok);
    if (!ok) return (uint32_t)luaL_error(L, "a joint is a 1-based index or a name");
    if (j < 1 || j > (lua_Integer)s->joints_count)
        return (uint32_t)luaL_error(L, "joint %I out of range 1..%d", j, (int)s->joints_count);
    return (uint32_t)(j - 1);
}

uint32_t lsw_field_joint(lua_State* L, int t, const char* key, const sw_skeleton* s) {
    if (lua_getfield(L, t, key) == LUA_TNIL)
        return (uint32_t)luaL_error(L, "option '%s' missing", key);
    const uint32_t j = lsw_check_joint(L, -1, s);
    lua_pop(L, 1);
    return j;
}

uint32_t lsw_check_joints(lua_State* L, int idx, const sw_skeleton* s, uint32_t* out,
                          uint32_t cap) {
    idx = lua_absindex(L, idx);
    luaL_checktype(L, idx, LUA_TTABLE);
    const lua_Unsigned n = lua_rawlen(L, idx);
    if (n > cap) return (uint32_t)luaL_error(L, "at most %d joints in a chain", (int)cap);
    for (lua_Unsigned i = 0; i < n; ++i) {
        lua_rawgeti(L, idx, (lua_Integer)i + 1);
        out[i] = lsw_check_joint(L, -1, s);
        lua_pop(L, 1);
    }
    return (uint32_t)n;
}

/* ---- sinew.skeleton{ {name = , parent = , t = , r = , s = }, ... } ---- */

/* The parent of joint entry i (at the top of the stack): nil, an earlier
 * 1-based index or an earlier joint's name. */
static int32_t entry_parent(lua_State* L, int list, lua_Integer i) {
    const int type = lua_getfield(L, -1, "parent");
    int32_t parent = -1;
    if (type == LUA_TSTRING) {
        const char* name = lua_tostring(L, -1);
        for (lua_Integer k = 1; k < i && parent < 0; ++k) {
            lua_rawgeti(L, list, k);
            lua_getfield(L, -1, "name");
            if (lua_isstring(L, -1) && strcmp(lua_tostring(L, -1), name) == 0)
                parent = (int32_t)(k - 1);
            lua_pop(L, 2);
        }
        if (parent < 0) luaL_error(L, "joint %I: parent '%s' is not an earlier joint", i, name);
    } else if (type != LUA_TNIL) {
        parent = (int32_t)luaL_checkinteger(L, -1) - 1;
    }
    lua_pop(L, 1);
    return parent;
}

static int l_skeleton(lua_State* L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    const lua_Unsigned n = lua_rawlen(L, 1);
    if (n == 0 || n > SW_SKELETON_MAX_JOINTS)
        return luaL_error(L, "sinew.skeleton: 1..%d joints", SW_SKELETON_MAX_JOINTS);
    sw_skeleton_joint* joints = lua_newuserdatauv(L, sizeof(sw_skeleton_joint) * n, 0);
    for (lua_Unsigned i = 0; i < n; ++i) {
        lua_rawgeti(L, 1, (lua_Integer)i + 1);
        luaL_checktype(L, -1, LUA_TTABLE);
        lua_getfield(L, -1, "name");
        joints[i].name = lsw_check_kept_string(L, -1); /* kept alive by the argument table */
        lua_pop(L, 1);
        joints[i].parent = entry_parent(L, 1, (lua_Integer)i + 1);
        joints[i].rest = lsw_check_xform(L, -1);
        lua_pop(L, 1);
    }
    lsw_skeleton* ud = lua_newuserdatauv(L, sizeof *ud, 1);
    ud->s = NULL;
    ud->owned = false;
    luaL_setmetatable(L, LSW_SKELETON);
    const sw_skeleton_desc desc = {joints, (uint32_t)n};
    sw_error err = SW_ERROR_INIT;
    lsw_check(L, "sinew.skeleton", sw_skeleton_create(&desc, NULL, &ud->s, &err), &err);
    ud->owned = true;
    return 1;
}

static int skeleton_gc(lua_State* L) {
    lsw_skeleton* ud = luaL_checkudata(L, 1, LSW_SKELETON);
    if (ud->owned) sw_skeleton_destroy(ud->s, NULL);
    ud->owned = false;
    ud->s = NULL;
    return 0;
}

static int skeleton_len(lua_State* L) {
    lua_pushinteger(L, lsw_check_skeleton(L, 1)->joints_count);
    return 1;
}

/* skeleton:joint(name_or_index) -> 1-based index, or nil when unknown. */
static int skeleton_joint(lua_State* L) {
    const sw_skeleton* s = lsw_check_skeleton(L, 1);
    if (lua_type(L, 2) == LUA_TSTRING) {
        const int32_t j = sw_skeleton_find_joint(s, lua_tostring(L, 2));
        if (j < 0) return 0;
        lua_pushinteger(L, j + 1);
        return 1;
    }
    lua_pushinteger(L, (lua_Integer)lsw_check_joint(L, 2, s) + 1);
    return 1;
}

static int skeleton_name(lua_State* L) {
    const sw_skeleton* s = lsw_check_skeleton(L, 1);
    lua_pushstring(L, sw_skeleton_joint_name(s, lsw_check_joint(L, 2, s)));
    return 1;
}

/* skeleton:parent(joint) -> 1-based parent index, or nil for a root. */
static int skeleton_parent(lua_State* L) {
    const sw_skeleton* s = lsw_check_skeleton(L, 1);
    const int16_t p = sw_skeleton_parents(s)[lsw_check_joint(L, 2, s)];
    if (p < 0) return 0;
    lua_pushinteger(L, p + 1);
    return 1;
}

static int skeleton_rest(lua_State* L) {
    const sw_skeleton* s = lsw_check_skeleton(L, 1);
    lsw_push_xform(L, sw_pose_get(sw_skeleton_rest_pose(s), lsw_check_joint(L, 2, s)));
    return 1;
}

/* skeleton:chain(root, tip) -> list of 1-based joints, root first. */
static int skeleton_chain(lua_State* L) {
    const sw_skeleton* s = lsw_check_skeleton(L, 1);
    uint16_t chain[SW_SKELETON_MAX_JOINTS];
    uint32_t n = 0;
    const char* root = sw_skeleton_joint_name(s, lsw_check_joint(L, 2, s));
    const char* tip = sw_skeleton_joint_name(s, lsw_check_joint(L, 3, s));
    lsw_check(L, "skeleton:chain",
              sw_skeleton_find_chain(s, root, tip, chain, SW_SKELETON_MAX_JOINTS, &n), NULL);
    lua_createtable(L, (int)n, 0);
    for (uint32_t i = 0; i < n; ++i) {
        lua_pushinteger(L, chain[i] + 1);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

static int skeleton_pose(lua_State* L) {
    lsw_check_skeleton(L, 1);
    lsw_new_pose(L, 1);
    return 1;
}

static int skeleton_model(lua_State* L) {
    lsw_check_skeleton(L, 1);
    lsw_new_model(L, 1);
    return 1;
}

static const luaL_Reg k_skeleton_methods[] = {{"joint", skeleton_joint},   {"name", skeleton_name},
                                              {"parent", skeleton_parent}, {"rest", skeleton_rest},
                                              {"chain", skeleton_chain},   {"pose", skeleton_pose},
                                              {"model", skeleton_model},   {NULL, NULL}};
static const luaL_Reg k_skeleton_meta[] = {
    {"__gc", skeleton_gc}, {"__len", skeleton_len}, {NULL, NULL}};

void lsw_open_skeleton(lua_State* L) {
    lsw_class(L, LSW_SKELETON, k_skeleton_methods, k_skeleton_meta);
    lua_pushcfunction(L, l_skeleton);
    lua_setfield(L, -2, "skeleton");
}
