/* bindings/lua/lsw.h: what the files of the Lua module (`require "sinew"`) share.
 *
 * The module is a front end: each function reads its Lua arguments, calls
 * the C API and pushes what it returns. Conventions (docs/lua.md):
 * - joints are 1-based integers (joint 1 is the C joint 0) or names;
 * - vectors are tables {x, y, z} or {x = , y = , z = } on input and
 *   {x = , y = , z = } on output; quaternions likewise with w; transforms
 *   {t = vec3, r = quat, s = vec3}; matrices 16 numbers, column-major;
 * - poses (sinew.Pose), model matrices (sinew.Model) and chains
 *   (sinew.Chain) are userdata over sinew's own arrays, read and written in
 *   place by the jobs: nothing is copied per frame;
 * - a failing call raises a sinew.Error (fields result, check, detail,
 *   offset, index, errno, message; tostring gives the message), the text of
 *   the sw_error the C call filled.
 */
#ifndef SINEW_LUA_LSW_H
#define SINEW_LUA_LSW_H

#include <lauxlib.h>
#include <lua.h>

#include "sinew/sinew.h"

/* Metatable names. */
#define LSW_SKELETON "sinew.Skeleton"
#define LSW_CLIP "sinew.Clip"
#define LSW_ASSET "sinew.Asset"
#define LSW_POSE "sinew.Pose"
#define LSW_MODEL "sinew.Model"
#define LSW_CHAIN "sinew.Chain"
#define LSW_SPRING "sinew.Spring"
#define LSW_FOOT "sinew.FootState"
#define LSW_MIRROR "sinew.Mirror"
#define LSW_RETARGET "sinew.Retarget"
#define LSW_ANIMATOR "sinew.Animator"
#define LSW_BOUND "sinew.Bound"
#define LSW_INSTANCE "sinew.Instance"
#define LSW_ERROR "sinew.Error"

typedef struct lsw_skeleton {
    const sw_skeleton* s;
    bool owned; /* built by sinew.skeleton: destroyed with the userdata */
} lsw_skeleton;

/* A pose or a set of model matrices: `data` points into the userdata itself
 * (16-byte aligned); uservalue 1 is the skeleton userdata. */
typedef struct lsw_pose {
    const sw_skeleton* s;
    uint32_t count; /* packets (pose) or matrices (model) */
    void* data;
} lsw_pose;

/* ---- errors (lsw.c) ---- */

/* Raises a sinew.Error for the failed call `what` (never returns). err may be
 * NULL (jobs report a result only). */
int lsw_raise(lua_State* L, const char* what, sw_result r, const sw_error* err);
/* Raises unless r is OK. */
void lsw_check(lua_State* L, const char* what, sw_result r, const sw_error* err);

/* ---- userdata ---- */

/* A new userdata of `size` bytes whose block starting at the returned
 * pointer is 16-byte aligned, after a header of `header` bytes at its
 * start, with metatable `mt` (NULL: none) and one user value; *base
 * receives the userdata itself (pushed on the stack). */
void* lsw_new_aligned(lua_State* L, size_t header, size_t size, const char* mt, void** base);
/* Registers metatable `name` with `meta` (metamethods) and `methods` (its
 * field "methods", also __index unless meta has its own __index). */
void lsw_class(lua_State* L, const char* name, const luaL_Reg* methods, const luaL_Reg* meta);
/* For a custom __index: pushes method `key` (argument 2) of the userdata at 1. */
int lsw_method(lua_State* L);
/* Sets the uservalue `n` of the userdata at `ud` to the value on top (popped). */
void lsw_keep(lua_State* L, int ud, int n);

/* ---- values ---- */

sw_vec3 lsw_check_vec3(lua_State* L, int idx);
/* lsw_check_vec3 without raising: false when the value is not a vector
 * (callbacks called from inside a job must not raise). */
bool lsw_to_vec3(lua_State* L, int idx, sw_vec3* out);
sw_quat lsw_check_quat(lua_State* L, int idx);
sw_xform lsw_check_xform(lua_State* L, int idx);
/* A matrix: 16 numbers (column-major) or a transform table. */
sw_mat4 lsw_check_mat4(lua_State* L, int idx);
void lsw_push_vec3(lua_State* L, sw_vec3 v);
void lsw_push_quat(lua_State* L, sw_quat q);
void lsw_push_xform(lua_State* L, sw_xform x);
void lsw_push_mat4(lua_State* L, const sw_mat4* m);
float lsw_check_float(lua_State* L, int idx);
/* A string (numbers refused: their string form would be a temporary), whose
 * pointer stays valid while the table it came from holds it. */
const char* lsw_check_kept_string(lua_State* L, int idx);

/* ---- option tables: field `key` of the table at `t` ---- */

bool lsw_has(lua_State* L, int t, const char* key);
float lsw_opt_float(lua_State* L, int t, const char* key, float def);
bool lsw_opt_bool(lua_State* L, int t, const char* key, bool def);
uint32_t lsw_opt_uint(lua_State* L, int t, const char* key, uint32_t def);
sw_vec3 lsw_opt_vec3(lua_State* L, int t, const char* key, sw_vec3 def);
sw_quat lsw_opt_quat(lua_State* L, int t, const char* key, sw_quat def);
/* The userdata field `key` (a `mt` object), raising when missing or wrong. */
void* lsw_field_udata(lua_State* L, int t, const char* key, const char* mt);
/* An optional matrix field into *out; returns out, or NULL when absent. */
const sw_mat4* lsw_opt_mat4(lua_State* L, int t, const char* key, sw_mat4* out);
/* An optional string field, one of `words` (NULL-terminated): its index, or def. */
int lsw_opt_word(lua_State* L, int t, const char* key, const char* const* words, int def);

/* The list in field `key` of the table at t, pushed; returns its length,
 * raising past `cap` entries or when it is missing and `required` (a
 * missing optional list pushes nil and gives 0). */
uint32_t lsw_list(lua_State* L, int t, const char* key, uint32_t cap, bool required);
/* Pushes entry i (0-based) of the list at `list`, which must be a table;
 * returns its stack index. */
int lsw_entry(lua_State* L, int list, uint32_t i);

/* ---- skeletons, joints, poses (skeleton.c, pose.c) ---- */

const sw_skeleton* lsw_check_skeleton(lua_State* L, int idx);
/* Pushes a userdata over a skeleton owned by the value at `owner` (kept alive). */
void lsw_push_skeleton(lua_State* L, const sw_skeleton* s, int owner);
/* A joint: 1-based index or name; returns the C index. */
uint32_t lsw_check_joint(lua_State* L, int idx, const sw_skeleton* s);
/* A joint in field `key` of the table at t. */
uint32_t lsw_field_joint(lua_State* L, int t, const char* key, const sw_skeleton* s);
/* The list of joints at `idx` into out (capacity cap); returns the count. */
uint32_t lsw_check_joints(lua_State* L, int idx, const sw_skeleton* s, uint32_t* out, uint32_t cap);
/* The clip of a sinew.Clip (asset.c). */
const sw_clip* lsw_check_clip(lua_State* L, int idx);
lsw_pose* lsw_check_pose(lua_State* L, int idx);
lsw_pose* lsw_check_model(lua_State* L, int idx);
/* A new pose (rest) or model (identity) for the skeleton userdata at `skel`. */
lsw_pose* lsw_new_pose(lua_State* L, int skel);
lsw_pose* lsw_new_model(lua_State* L, int skel);
/* The model and pose fields of an options table, checked to share a skeleton. */
void lsw_job_poses(lua_State* L, int t, lsw_pose** model, lsw_pose** pose);

/* ---- ground rays as Lua functions (foot placement, walker) ---- */

/* The callback's context: the Lua function ray(from, dir, max_distance)
 * returning point, normal (nil: a miss). The function is never let raise
 * through sinew's C code: an error is kept and raised by lsw_ray_end. */
typedef struct lsw_ray {
    lua_State* L;
    int fn, error; /* stack indices of the function and of a kept error */
    bool failed;
} lsw_ray;

/* Sets up a ray over the function at `fn` (pushes a slot for an error). */
void lsw_ray_begin(lua_State* L, int fn, lsw_ray* ray);
/* The sw_ground_ray_fn calling it (user: the lsw_ray). */
bool lsw_ray_call(void* user, sw_vec3 from, sw_vec3 dir, float max_distance, sw_vec3* point,
                  sw_vec3* normal);
/* After the job: raises what the function raised, if anything. */
void lsw_ray_end(const lsw_ray* ray);

/* ---- the module's parts: each adds its functions to the table on top ---- */

void lsw_open_skeleton(lua_State* L);
void lsw_open_pose(lua_State* L);
void lsw_open_asset(lua_State* L);
void lsw_open_jobs(lua_State* L);
void lsw_open_math(lua_State* L);
void lsw_open_ik(lua_State* L);
void lsw_open_foot(lua_State* L);
void lsw_open_spring(lua_State* L);
void lsw_open_chain(lua_State* L);
void lsw_open_retarget(lua_State* L);
void lsw_open_animator(lua_State* L);
void lsw_open_effects(lua_State* L);
void lsw_open_walker(lua_State* L);

/* Lua table -> JSON text (json.c), pushed as a string. Raises on values JSON
 * cannot hold (functions, userdata, cycles, mixed keys). */
void lsw_push_json(lua_State* L, int idx);

#endif
