/* Private declarations of the Python extension module sinew._sinew: the
 * object types every part shares, the error mapping and the numpy
 * conversions. The binding parses arguments, calls sinew and converts
 * results; it holds no animation logic. */
#ifndef SINEW_PY_COMMON_H
#define SINEW_PY_COMMON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL sinew_py_ARRAY_API
#ifndef SINEW_PY_MODULE_MAIN
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

#include "sinew/sinew.h"
#include "sinew/tools/readers/asset.h"

/* ---- objects ---- */

/* A sinew block (skeleton, clip, mesh): its memory is owned by `owner` (an
 * Asset) or, when owner is NULL, by this object, which destroys it with
 * the type's destroy function. */
typedef struct py_block {
    PyObject_HEAD const void* ptr;
    PyObject* owner;
} py_block;

extern PyTypeObject py_skeleton_type;
extern PyTypeObject py_clip_type;
extern PyTypeObject py_mesh_type;
extern PyTypeObject py_asset_type;
extern PyTypeObject py_animator_type;
extern PyTypeObject py_animator_bake_type;
extern PyTypeObject py_mirror_type;
extern PyTypeObject py_retarget_map_type;
extern PyTypeObject py_foot_state_type;

/* A new wrapper of `ptr` of type Skeleton, Clip or Mesh. The owner is
 * referenced; NULL: the wrapper owns ptr and frees it (also on failure). */
PyObject* py_block_wrap(PyTypeObject* type, const void* ptr, PyObject* owner);
/* The block of `o`, borrowed, or NULL with TypeError when o is not a `type`. */
const void* py_block_arg(PyObject* o, PyTypeObject* type, const char* what);
#define py_skeleton_wrap(s, owner) py_block_wrap(&py_skeleton_type, (s), (owner))
#define py_clip_wrap(c, owner) py_block_wrap(&py_clip_type, (c), (owner))
#define py_mesh_wrap(m, owner) py_block_wrap(&py_mesh_type, (m), (owner))
#define py_skeleton_arg(o, what) ((const sw_skeleton*)py_block_arg((o), &py_skeleton_type, (what)))
#define py_clip_arg(o, what) ((const sw_clip*)py_block_arg((o), &py_clip_type, (what)))
#define py_mesh_arg(o, what) ((const sw_mesh*)py_block_arg((o), &py_mesh_type, (what)))

/* ---- errors ---- */

/* Registers sinew.Error and one subclass per sw_result in module m. */
int py_errors_init(PyObject* m);
/* Raises the subclass of sinew.Error for r with the text of err (may be
 * NULL) after "what: " (may be NULL); returns NULL. */
PyObject* py_raise(sw_result r, const sw_error* err, const char* what);

/* ---- numpy ---- */

/* Flags of input conversions: C-contiguous, aligned, and cast from any
 * numeric type (float64 lists and int64 indices are the usual inputs). */
#define PY_IN (NPY_ARRAY_IN_ARRAY | NPY_ARRAY_FORCECAST)

/* A new float32 array of shape (packets, 10, 4), 16-byte aligned, zeroed:
 * a local pose in sinew's SoA layout (sw_xform4 packets). */
PyArrayObject* py_pose_new(uint32_t packets);
/* The pose `o` for reading: a float32 (n >= packets, 10, 4) array, 16-byte
 * aligned (copied when it is not). New reference, or NULL with an error. */
PyArrayObject* py_pose_in(PyObject* o, uint32_t packets, const char* what);
/* The pose `o` for writing in place: must already be a writable,
 * C-contiguous, 16-byte aligned float32 (n >= packets, 10, 4) array.
 * Borrowed reference, or NULL with ValueError. */
PyArrayObject* py_pose_inout(PyObject* o, uint32_t packets, const char* what);
/* `out` when given (py_pose_inout) with a new reference, else a new pose. */
PyArrayObject* py_pose_out(PyObject* out, uint32_t packets);

/* New (n, 4, 4) float32 storage for n sw_mat4 (column-major in memory). */
PyArrayObject* py_mat_new(uint32_t n);
/* The view users see of matrix storage `st` (n, 4, 4): a[i, row, col],
 * transposed without copying; steals the reference to st. */
PyObject* py_mat_view(PyArrayObject* st);
/* Matrices `o` (n, 4, 4), indexed [i, row, col], as sw_mat4 storage: a new
 * reference to C-contiguous float32 data (a copy when needed), NULL with an
 * error. n >= min. */
PyArrayObject* py_mat_in(PyObject* o, uint32_t min, const char* what);
/* As py_mat_in but without copying, for matrices written in place: o must
 * be the transposed view of contiguous storage (what local_to_model returns). */
PyArrayObject* py_mat_inout(PyObject* o, uint32_t min, const char* what);

/* A read-only (or writable) numpy view of memory owned by `owner`. */
PyObject* py_view(PyObject* owner, const void* data, int nd, const npy_intp* dims, int type,
                  bool writable);

/* A 4x4 matrix indexed [row, col] into sw_mat4 (column-major); false with an error. */
bool py_mat4(PyObject* o, sw_mat4* out, const char* what);

/* A 3-vector or quaternion from a sequence of floats; false with an error. */
bool py_vec3(PyObject* o, sw_vec3* out, const char* what);
bool py_quat(PyObject* o, sw_quat* out, const char* what);
PyObject* py_vec3_tuple(sw_vec3 v);
PyObject* py_quat_tuple(sw_quat q);

/* ---- what the IK, chain and foot jobs share ---- */

/* A joint given as an index or a name; false with an error (NotFoundError). */
bool py_joint(const sw_skeleton* s, PyObject* o, uint32_t* out);

/* A chain of at most cap joints (indices or names) into out[0..*n); false
 * with an error. */
bool py_chain(const sw_skeleton* s, PyObject* o, uint32_t* out, uint32_t cap, uint32_t* n);

/* IK limits: one dict (or None) per chain joint, n of them; false with an error. */
bool py_ik_limits(PyObject* o, uint32_t n, sw_ik_limit* out);

/* sw_ground_ray_fn over a Python callable (user): ray(origin, direction,
 * max_distance) -> None | (point, normal). After an exception the rest of
 * the rays miss; the caller raises it when the job returns. */
bool py_ground_ray(void* user, sw_vec3 from, sw_vec3 dir, float max_distance, sw_vec3* point,
                   sw_vec3* normal);

/* What every job on a pose and its model matrices takes. */
typedef struct py_ik_common {
    const sw_skeleton* skeleton;
    PyArrayObject* model; /* sw_mat4 storage (new reference) */
    PyArrayObject* pose;  /* borrowed: written in place */
    sw_mat4 root;
    bool has_root;
} py_ik_common;

/* Parses skeleton, model matrices (updated in place with model_inout), the
 * pose (edited in place) and an optional root transform; false with an
 * error. Release with py_ik_common_free either way. */
bool py_ik_common_init(py_ik_common* c, PyObject* so, PyObject* mo, PyObject* po, PyObject* root,
                       bool model_inout);
void py_ik_common_free(py_ik_common* c);

#define PY_IK_MODEL(c) ((sw_mat4*)PyArray_DATA((c)->model))
#define PY_IK_MODEL_COUNT(c) ((uint32_t)PyArray_DIM((c)->model, 0))
#define PY_IK_POSE(c) ((sw_xform4*)PyArray_DATA((c)->pose))
#define PY_IK_POSE_COUNT(c) ((uint32_t)PyArray_DIM((c)->pose, 0))
#define PY_IK_ROOT(c) ((c)->has_root ? &(c)->root : NULL)

/* Sets the fields every pose job shares (skeleton, model, model_count,
 * root_transform, pose, pose_count) from a py_ik_common. */
#define PY_IK_FILL(job, c)                                                                         \
    do {                                                                                           \
        (job).skeleton = (c)->skeleton;                                                            \
        (job).model = PY_IK_MODEL(c);                                                              \
        (job).model_count = PY_IK_MODEL_COUNT(c);                                                  \
        (job).root_transform = PY_IK_ROOT(c);                                                      \
        (job).pose = PY_IK_POSE(c);                                                                \
        (job).pose_count = PY_IK_POSE_COUNT(c);                                                    \
    } while (0)

/* ---- the parts' method tables and type setup ---- */
extern PyMethodDef py_jobs_methods[];
extern PyMethodDef py_ik_methods[];
extern PyMethodDef py_tools_methods[];
/* Readies the types of each part and adds them to m; -1 on failure. */
int py_asset_types_init(PyObject* m);
int py_animator_types_init(PyObject* m);
int py_retarget_types_init(PyObject* m);
int py_ik_types_init(PyObject* m);
int py_procedural_init(PyObject* m);
int py_hit_init(PyObject* m);
int py_walker_init(PyObject* m);

#endif
