/* bindings/lua/retarget.c: mirroring (sinew/retarget/mirror.h) and
 * retargeting (sinew/retarget/retarget.h, the map built by the tools'
 * sinew/tools/builders/retarget_map.h) of poses. */
#include <string.h>

#include "lsw.h"
#include "sinew/tools/builders/retarget_map.h"

/* ---- mirror ---- */

typedef struct lsw_mirror {
    const sw_mirror* m;
} lsw_mirror;

static const char* const k_axes[] = {"auto", "x", "y", "z", NULL};

/* The pairs option { {"LeftArm", "RightArm"}, ... } into out; returns the count. */
static uint32_t read_pairs(lua_State* L, int t, sw_mirror_pair* out, uint32_t cap) {
    const uint32_t n = lsw_list(L, t, "pairs", cap, false);
    const int list = lua_gettop(L);
    for (uint32_t i = 0; i < n; ++i) {
        const int e = lsw_entry(L, list, i);
        lua_rawgeti(L, e, 1);
        lua_rawgeti(L, e, 2);
        out[i].a = lsw_check_kept_string(L, -2); /* kept alive by the options table */
        out[i].b = lsw_check_kept_string(L, -1);
        lua_settop(L, list);
    }
    lua_pop(L, 1);
    return n;
}

/* sinew.mirror(skeleton [, {pairs, axis = "x"|"y"|"z", no_patterns}]): twins
 * from name patterns (and pairs), the plane through the origin. */
static int l_mirror(lua_State* L) {
    const sw_skeleton* s = lsw_check_skeleton(L, 1);
    sw_mirror_pair pairs[256];
    sw_mirror_desc desc = {.skeleton = s};
    if (lua_istable(L, 2)) {
        desc.pairs = pairs;
        desc.pairs_count = read_pairs(L, 2, pairs, 256);
        desc.axis = (sw_mirror_axis)lsw_opt_word(L, 2, "axis", k_axes, 0);
        desc.no_patterns = lsw_opt_bool(L, 2, "no_patterns", false);
    }
    const size_t size = sw_mirror_measure(&desc);
    void* base = NULL;
    void* mem = lsw_new_aligned(L, sizeof(lsw_mirror), size, LSW_MIRROR, &base);
    sw_error err = SW_ERROR_INIT;
    lsw_check(L, "sinew.mirror", sw_mirror_init(mem, size, &desc, &((lsw_mirror*)base)->m, &err),
              &err);
    lua_pushvalue(L, 1);
    lsw_keep(L, -2, 1);
    return 1;
}

static const sw_mirror* check_mirror(lua_State* L, int idx) {
    const lsw_mirror* m = luaL_checkudata(L, idx, LSW_MIRROR);
    if (!m->m) luaL_error(L, "mirror not built");
    return m->m;
}

/* mirror:run(pose, out): the mirrored pose into out (not in place). */
static int mirror_run(lua_State* L) {
    const sw_mirror* m = check_mirror(L, 1);
    const lsw_pose* in = lsw_check_pose(L, 2);
    lsw_pose* out = lsw_check_pose(L, 3);
    const sw_mirror_job job = {.mirror = m,
                               .in = in->data,
                               .in_count = in->count,
                               .out = out->data,
                               .out_count = out->count};
    lsw_check(L, "mirror:run", sw_mirror_job_run(&job), NULL);
    lua_settop(L, 3);
    return 1;
}

/* mirror:twin(joint) -> the twin's 1-based index (itself when none). */
static int mirror_twin(lua_State* L) {
    const sw_mirror* m = check_mirror(L, 1);
    lua_getiuservalue(L, 1, 1);
    const uint32_t j = lsw_check_joint(L, 2, lsw_check_skeleton(L, -1));
    lua_pushinteger(L, (lua_Integer)sw_mirror_twin(m, j) + 1);
    return 1;
}

/* mirror:axis() -> "x", "y" or "z". */
static int mirror_axis(lua_State* L) {
    lua_pushstring(L, k_axes[check_mirror(L, 1)->axis]);
    return 1;
}

static const luaL_Reg k_mirror_methods[] = {
    {"run", mirror_run}, {"twin", mirror_twin}, {"axis", mirror_axis}, {NULL, NULL}};

/* ---- retarget ---- */

typedef struct lsw_retarget {
    sw_retarget_map map;
    const sw_skeleton* source;
    const sw_skeleton* target;
    void* scratch;
    size_t scratch_size;
} lsw_retarget;

/* The options' map text and pairs applied to the automatic map. */
static void build_joint_map(lua_State* L, sw_retarget_joint_map* jm) {
    if (!lua_istable(L, 3)) return;
    if (lua_getfield(L, 3, "map") == LUA_TSTRING) {
        size_t n = 0;
        const char* text = lua_tolstring(L, -1, &n);
        sw_error err = SW_ERROR_INIT;
        lsw_check(L, "sinew.retarget: map", sw_retarget_joint_map_parse(jm, text, n, &err), &err);
    }
    lua_pop(L, 1);
    if (lua_getfield(L, 3, "pairs") == LUA_TTABLE) {
        const lua_Unsigned n = lua_rawlen(L, -1);
        for (lua_Unsigned i = 0; i < n; ++i) {
            lua_rawgeti(L, -1, (lua_Integer)i + 1);
            lua_rawgeti(L, -1, 1);
            lua_rawgeti(L, -2, 2);
            lsw_check(
                L, "sinew.retarget: pair",
                sw_retarget_joint_map_set(jm, luaL_checkstring(L, -2), luaL_checkstring(L, -1)),
                NULL);
            lua_pop(L, 3);
        }
    }
    lua_pop(L, 1);
}

/* sinew.retarget(source, target [, {map = text, pairs = {{src, tgt}},
 * leg_ik, root_scale, source_ground, target_ground}]): the automatic map by
 * name (edited by map text and pairs) prepared for the retarget job. */
static int l_retarget(lua_State* L) {
    lua_settop(L, 3);
    const sw_skeleton* source = lsw_check_skeleton(L, 1);
    const sw_skeleton* target = lsw_check_skeleton(L, 2);
    sw_retarget_joint_map* jm = lua_newuserdatauv(L, sizeof *jm, 0); /* temporary */
    lsw_check(L, "sinew.retarget", sw_retarget_joint_map_auto(source, target, jm), NULL);
    build_joint_map(L, jm);
    sw_retarget_pair* pairs =
        lua_newuserdatauv(L, sizeof(sw_retarget_pair) * jm->target->joints_count, 0);
    sw_retarget_limb limbs[SW_RETARGET_MAX_LIMBS];
    sw_retarget_map_desc desc;
    const bool opts = lua_istable(L, 3);
    lsw_check(L, "sinew.retarget",
              sw_retarget_joint_map_desc(jm, opts && lsw_opt_bool(L, 3, "leg_ik", false), pairs,
                                         limbs, &desc),
              NULL);
    if (opts) {
        desc.root_scale = lsw_opt_float(L, 3, "root_scale", 0.0f);
        desc.source_ground = lsw_opt_float(L, 3, "source_ground", 0.0f);
        desc.target_ground = lsw_opt_float(L, 3, "target_ground", 0.0f);
    }
    lsw_retarget* rt = lua_newuserdatauv(L, sizeof *rt, 3);
    memset(rt, 0, sizeof *rt);
    luaL_setmetatable(L, LSW_RETARGET);
    sw_error err = SW_ERROR_INIT;
    lsw_check(L, "sinew.retarget", sw_retarget_map_init(&desc, &rt->map, &err), &err);
    rt->source = jm->source;
    rt->target = jm->target;
    void* base = NULL;
    rt->scratch_size = sw_retarget_scratch_size(&rt->map);
    rt->scratch = lsw_new_aligned(L, 0, rt->scratch_size, NULL, &base);
    lsw_keep(L, -2, 3);
    lua_pushvalue(L, 1);
    lsw_keep(L, -2, 1);
    lua_pushvalue(L, 2);
    lsw_keep(L, -2, 2);
    return 1;
}

static lsw_retarget* check_retarget(lua_State* L, int idx) {
    lsw_retarget* rt = luaL_checkudata(L, idx, LSW_RETARGET);
    if (!rt->scratch) luaL_error(L, "retarget map not built");
    return rt;
}

/* rt:run(source_pose, target_pose [, ik_weight]): the target pose. */
static int retarget_run(lua_State* L) {
    lsw_retarget* rt = check_retarget(L, 1);
    const lsw_pose* in = lsw_check_pose(L, 2);
    lsw_pose* out = lsw_check_pose(L, 3);
    const sw_retarget_job job = {.map = &rt->map,
                                 .source = rt->source,
                                 .target = rt->target,
                                 .source_pose = in->data,
                                 .source_pose_count = in->count,
                                 .ik_weight = (float)luaL_optnumber(L, 4, 0.0),
                                 .scratch = rt->scratch,
                                 .scratch_size = rt->scratch_size,
                                 .out = out->data,
                                 .out_count = out->count};
    lsw_check(L, "retarget:run", sw_retarget_job_run(&job), NULL);
    lua_settop(L, 3);
    return 1;
}

/* rt:source_of(target_joint) -> 1-based source joint, or nil when unmapped. */
static int retarget_source_of(lua_State* L) {
    const lsw_retarget* rt = check_retarget(L, 1);
    const int16_t s = rt->map.source_of[lsw_check_joint(L, 2, rt->target)];
    if (s < 0) return 0;
    lua_pushinteger(L, s + 1);
    return 1;
}

/* rt:info() -> {pairs, limbs, root_scale}. */
static int retarget_info(lua_State* L) {
    const lsw_retarget* rt = check_retarget(L, 1);
    lua_createtable(L, 0, 3);
    lua_pushinteger(L, rt->map.pairs_count);
    lua_setfield(L, -2, "pairs");
    lua_pushinteger(L, rt->map.limbs_count);
    lua_setfield(L, -2, "limbs");
    lua_pushnumber(L, (lua_Number)rt->map.root_scale);
    lua_setfield(L, -2, "root_scale");
    return 1;
}

static const luaL_Reg k_retarget_methods[] = {{"run", retarget_run},
                                              {"source_of", retarget_source_of},
                                              {"info", retarget_info},
                                              {NULL, NULL}};

void lsw_open_retarget(lua_State* L) {
    lsw_class(L, LSW_MIRROR, k_mirror_methods, NULL);
    lsw_class(L, LSW_RETARGET, k_retarget_methods, NULL);
    lua_pushcfunction(L, l_mirror);
    lua_setfield(L, -2, "mirror");
    lua_pushcfunction(L, l_retarget);
    lua_setfield(L, -2, "retarget");
}
