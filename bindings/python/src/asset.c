/* sinew._sinew: Asset (any file the asset opener reads, with the CLI's
 * reader table), Skeleton, Clip and Mesh, their attributes as numpy views
 * of sinew's own memory. */
#include "py_common.h"

#include <string.h>

#include "sinew/assimp/assimp_import.h"
#include "sinew/showcase/character.h"

/* ---- blocks ---- */

/* Frees a block the wrapper owns, by type. */
static void py_block_destroy(PyTypeObject* type, const void* ptr) {
    if (type == &py_skeleton_type) sw_skeleton_destroy((const sw_skeleton*)ptr, NULL);
    if (type == &py_clip_type) sw_clip_destroy((const sw_clip*)ptr, NULL);
    if (type == &py_mesh_type) sw_mesh_destroy((const sw_mesh*)ptr, NULL);
}

PyObject* py_block_wrap(PyTypeObject* type, const void* ptr, PyObject* owner) {
    py_block* o = PyObject_New(py_block, type);
    if (!o) {
        if (!owner) py_block_destroy(type, ptr);
        return NULL;
    }
    o->ptr = ptr;
    o->owner = Py_XNewRef(owner);
    return (PyObject*)o;
}

static void py_block_dealloc(PyObject* self) {
    py_block* o = (py_block*)self;
    if (o->owner)
        Py_DECREF(o->owner);
    else
        py_block_destroy(Py_TYPE(self), o->ptr);
    PyObject_Free(self);
}

const void* py_block_arg(PyObject* o, PyTypeObject* type, const char* what) {
    if (!PyObject_TypeCheck(o, type)) {
        PyErr_Format(PyExc_TypeError, "%s: a %s expected, got %s", what, type->tp_name,
                     Py_TYPE(o)->tp_name);
        return NULL;
    }
    return ((py_block*)o)->ptr;
}

/* ---- Skeleton ---- */

static PyObject* py_skeleton_names(PyObject* self, void* closure) {
    (void)closure;
    const sw_skeleton* s = ((const sw_skeleton*)((py_block*)self)->ptr);
    PyObject* t = PyTuple_New((Py_ssize_t)s->joints_count);
    for (uint32_t j = 0; t && j < s->joints_count; ++j) {
        PyObject* n =
            PyUnicode_DecodeUTF8(sw_skeleton_joint_name(s, j),
                                 (Py_ssize_t)strlen(sw_skeleton_joint_name(s, j)), "replace");
        if (!n) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, (Py_ssize_t)j, n);
    }
    return t;
}

static PyObject* py_skeleton_parents(PyObject* self, void* closure) {
    (void)closure;
    const sw_skeleton* s = ((const sw_skeleton*)((py_block*)self)->ptr);
    const npy_intp dims[1] = {(npy_intp)s->joints_count};
    return py_view(self, sw_skeleton_parents(s), 1, dims, NPY_INT16, false);
}

static PyObject* py_skeleton_rest(PyObject* self, void* closure) {
    (void)closure;
    const sw_skeleton* s = ((const sw_skeleton*)((py_block*)self)->ptr);
    const npy_intp dims[3] = {(npy_intp)s->packets_count, 10, 4};
    return py_view(self, sw_skeleton_rest_pose(s), 3, dims, NPY_FLOAT32, false);
}

static PyObject* py_skeleton_count(PyObject* self, void* closure) {
    const sw_skeleton* s = ((const sw_skeleton*)((py_block*)self)->ptr);
    return PyLong_FromUnsignedLong(closure ? s->packets_count : s->joints_count);
}

static PyObject* py_skeleton_find_joint(PyObject* self, PyObject* arg) {
    const char* name = PyUnicode_AsUTF8(arg);
    if (!name) return NULL;
    const int32_t j = sw_skeleton_find_joint(((const sw_skeleton*)((py_block*)self)->ptr), name);
    if (j < 0) {
        sw_error err = SW_ERROR_INIT;
        err.check = "joint in the skeleton";
        snprintf(err.detail, sizeof err.detail, "no joint named \"%s\"", name);
        return py_raise(SW_RESULT_NOT_FOUND, &err, NULL);
    }
    return PyLong_FromLong(j);
}

static PyObject* py_skeleton_find_chain(PyObject* self, PyObject* args) {
    const char *root, *tip;
    if (!PyArg_ParseTuple(args, "ss:find_chain", &root, &tip)) return NULL;
    uint16_t chain[SW_SKELETON_MAX_JOINTS];
    uint32_t n = 0;
    const sw_result r = sw_skeleton_find_chain(((const sw_skeleton*)((py_block*)self)->ptr), root,
                                               tip, chain, SW_SKELETON_MAX_JOINTS, &n);
    if (r != SW_RESULT_OK) {
        sw_error err = SW_ERROR_INIT;
        err.check = "chain from root to tip";
        snprintf(err.detail, sizeof err.detail, "no chain from \"%s\" down to \"%s\"", root, tip);
        return py_raise(r, &err, NULL);
    }
    PyObject* l = PyList_New((Py_ssize_t)n);
    for (uint32_t i = 0; l && i < n; ++i)
        PyList_SET_ITEM(l, (Py_ssize_t)i, PyLong_FromLong(chain[i]));
    return l;
}

/* Skeleton.from_joints(names, parents, rest): sw_skeleton_create. */
static PyObject* py_skeleton_from_joints(PyObject* cls, PyObject* args, PyObject* kw) {
    (void)cls;
    static char* kwlist[] = {"names", "parents", "rest", NULL};
    PyObject *names, *parents_o, *rest_o;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO:from_joints", kwlist, &names, &parents_o,
                                     &rest_o))
        return NULL;
    PyObject* nseq = PySequence_Fast(names, "names: a sequence of str");
    if (!nseq) return NULL;
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(nseq);
    PyArrayObject* par = (PyArrayObject*)PyArray_FROM_OTF(parents_o, NPY_INT32, PY_IN);
    PyArrayObject* rest = (PyArrayObject*)PyArray_FROM_OTF(rest_o, NPY_FLOAT32, PY_IN);
    sw_skeleton_joint* joints = n > 0 ? PyMem_Calloc((size_t)n, sizeof *joints) : NULL;
    PyObject* result = NULL;
    if (!par || !rest || (n > 0 && !joints)) goto done;
    if (PyArray_SIZE(par) != n || PyArray_NDIM(rest) != 2 || PyArray_DIM(rest, 0) != n ||
        PyArray_DIM(rest, 1) != 10) {
        PyErr_SetString(PyExc_ValueError, "from_joints: n names, n parents and rest of shape (n, "
                                          "10): tx ty tz rx ry rz rw sx sy sz per joint");
        goto done;
    }
    const int32_t* p = (const int32_t*)PyArray_DATA(par);
    const float* v = (const float*)PyArray_DATA(rest);
    for (Py_ssize_t j = 0; j < n; ++j) {
        joints[j].name = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(nseq, j));
        if (!joints[j].name) goto done;
        joints[j].parent = p[j];
        const float* x = v + 10 * j;
        joints[j].rest.t = sw_vec3_make(x[0], x[1], x[2]);
        joints[j].rest.r = sw_quat_make(x[3], x[4], x[5], x[6]);
        joints[j].rest.s = sw_vec3_make(x[7], x[8], x[9]);
    }
    const sw_skeleton_desc desc = {joints, (uint32_t)n};
    const sw_skeleton* s = NULL;
    sw_error err = SW_ERROR_INIT;
    const sw_result r = sw_skeleton_create(&desc, NULL, &s, &err);
    result = r == SW_RESULT_OK ? py_skeleton_wrap(s, NULL) : py_raise(r, &err, "skeleton");
done:
    PyMem_Free(joints);
    Py_XDECREF(par);
    Py_XDECREF(rest);
    Py_DECREF(nseq);
    return result;
}

static PyObject* py_skeleton_repr(PyObject* self) {
    return PyUnicode_FromFormat("<sinew.Skeleton, %u joints>",
                                ((const sw_skeleton*)((py_block*)self)->ptr)->joints_count);
}

static PyGetSetDef k_skeleton_getset[] = {
    {"joints_count", py_skeleton_count, NULL, "Number of joints.", NULL},
    {"packets_count", py_skeleton_count, NULL,
     "Number of SoA packets of a pose ((joints_count + 3) // 4).", (void*)1},
    {"names", py_skeleton_names, NULL, "Joint names, a tuple of str in joint order.", NULL},
    {"parents", py_skeleton_parents, NULL,
     "Parent of each joint (-1 for roots), a read-only int16 view of the skeleton's memory.", NULL},
    {"rest_pose", py_skeleton_rest, NULL,
     "The local rest pose, a read-only float32 (packets, 10, 4) view of the skeleton's "
     "memory (sinew's SoA layout; see sinew.pose_to_joints).",
     NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef k_skeleton_methods[] = {
    {"find_joint", py_skeleton_find_joint, METH_O,
     "find_joint(name) -> int: the joint's index; raises NotFoundError."},
    {"find_chain", py_skeleton_find_chain, METH_VARARGS,
     "find_chain(root, tip) -> list[int]: joints from root down to tip (both included); "
     "raises NotFoundError."},
    {"from_joints", (PyCFunction)(void (*)(void))py_skeleton_from_joints,
     METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "Skeleton.from_joints(names, parents, rest) -> Skeleton: builds a skeleton "
     "(sw_skeleton_create) from joint names, parent indices (parent-first, -1 for roots) "
     "and local rest transforms of shape (n, 10): tx ty tz rx ry rz rw sx sy sz."},
    {NULL, NULL, 0, NULL}};

PyTypeObject py_skeleton_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sinew.Skeleton",
    .tp_basicsize = sizeof(py_block),
    .tp_dealloc = py_block_dealloc,
    .tp_repr = py_skeleton_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A joint hierarchy with names and a rest pose (immutable). Get one from an "
              "Asset, or build one with Skeleton.from_joints.",
    .tp_methods = k_skeleton_methods,
    .tp_getset = k_skeleton_getset,
};

/* ---- Clip ---- */

static PyObject* py_str(const char* s) {
    return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace");
}

static PyObject* py_clip_get(PyObject* self, void* closure) {
    const sw_clip* c = ((const sw_clip*)((py_block*)self)->ptr);
    static const char* const codecs[] = {"none", "raw", "quantized", "frames"};
    switch ((int)(intptr_t)closure) {
    case 0:
        return py_str(sw_clip_name(c));
    case 1:
        return PyFloat_FromDouble((double)c->duration);
    case 2:
        return PyLong_FromUnsignedLong(c->joints_count);
    case 3:
        return PyLong_FromUnsignedLong(c->tracks_count);
    case 4:
        return PyBool_FromLong((c->flags & SW_CLIP_FLAG_ADDITIVE) != 0);
    case 5:
        return PyUnicode_FromString(c->codec < 4u ? codecs[c->codec] : "none");
    case 6:
        return PyLong_FromUnsignedLong(c->size);
    default: {
        PyObject* l = PyList_New((Py_ssize_t)c->events_count);
        for (uint32_t i = 0; l && i < c->events_count; ++i)
            PyList_SET_ITEM(l, (Py_ssize_t)i,
                            Py_BuildValue("(dN)", (double)sw_clip_events(c)[i].time,
                                          py_str(sw_clip_event_name(c, i))));
        return l;
    }
    }
}

static PyObject* py_clip_float_tracks(PyObject* self, void* closure) {
    (void)closure;
    const sw_clip* c = ((const sw_clip*)((py_block*)self)->ptr);
    PyObject* t = PyTuple_New((Py_ssize_t)c->float_tracks_count);
    for (uint32_t f = 0; t && f < c->float_tracks_count; ++f) {
        PyObject* n = py_str(sw_clip_float_track_name(c, f));
        if (!n) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, (Py_ssize_t)f, n);
    }
    return t;
}

static PyObject* py_clip_play_time(PyObject* self, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"time", "loop", NULL};
    double t = 0.0;
    int loop = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "d|p:play_time", kwlist, &t, &loop)) return NULL;
    return PyFloat_FromDouble(
        (double)sw_clip_play_time(((const sw_clip*)((py_block*)self)->ptr), t, loop != 0));
}

static PyObject* py_clip_events_between(PyObject* self, PyObject* args) {
    float from, to;
    if (!PyArg_ParseTuple(args, "ff:events_between", &from, &to)) return NULL;
    const sw_clip* c = ((const sw_clip*)((py_block*)self)->ptr);
    const uint32_t n = sw_clip_events_between(c, from, to, NULL, 0);
    uint32_t* idx = PyMem_Calloc(n ? n : 1u, sizeof *idx);
    if (!idx) return PyErr_NoMemory();
    sw_clip_events_between(c, from, to, idx, n);
    PyObject* l = PyList_New((Py_ssize_t)n);
    for (uint32_t i = 0; l && i < n; ++i)
        PyList_SET_ITEM(l, (Py_ssize_t)i,
                        Py_BuildValue("(dN)", (double)sw_clip_events(c)[idx[i]].time,
                                      py_str(sw_clip_event_name(c, idx[i]))));
    PyMem_Free(idx);
    return l;
}

static PyObject* py_clip_repr(PyObject* self) {
    const sw_clip* c = ((const sw_clip*)((py_block*)self)->ptr);
    char dur[32];
    snprintf(dur, sizeof dur, "%.6g", (double)c->duration);
    return PyUnicode_FromFormat("<sinew.Clip \"%s\", %s s, %u joints>", sw_clip_name(c), dur,
                                c->joints_count);
}

static PyGetSetDef k_clip_getset[] = {
    {"name", py_clip_get, NULL, "The clip's name.", (void*)0},
    {"duration", py_clip_get, NULL, "Duration in seconds.", (void*)1},
    {"joints_count", py_clip_get, NULL, "Joints of the skeletons it plays on.", (void*)2},
    {"tracks_count", py_clip_get, NULL, "Tracks (joint and float tracks).", (void*)3},
    {"additive", py_clip_get, NULL, "True for an additive (delta) clip.", (void*)4},
    {"codec", py_clip_get, NULL, "\"raw\", \"quantized\" or \"frames\".", (void*)5},
    {"size", py_clip_get, NULL, "Bytes of the clip block.", (void*)6},
    {"events", py_clip_get, NULL, "Events as a list of (time, name), in time order.", (void*)7},
    {"float_tracks", py_clip_float_tracks, NULL,
     "Names of the float tracks, a tuple in track order.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef k_clip_methods[] = {
    {"play_time", (PyCFunction)(void (*)(void))py_clip_play_time, METH_VARARGS | METH_KEYWORDS,
     "play_time(time, loop=False) -> float: where the clip plays `time` (wrapped with loop, "
     "else clamped to [0, duration]; sw_clip_play_time)."},
    {"events_between", py_clip_events_between, METH_VARARGS,
     "events_between(start, end) -> list of (time, name): events with start <= time < end "
     "(sw_clip_events_between)."},
    {NULL, NULL, 0, NULL}};

PyTypeObject py_clip_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sinew.Clip",
    .tp_basicsize = sizeof(py_block),
    .tp_dealloc = py_block_dealloc,
    .tp_repr = py_clip_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An animation clip (immutable): joint tracks, float tracks and events. Sample it "
              "with sinew.sample.",
    .tp_methods = k_clip_methods,
    .tp_getset = k_clip_getset,
};

/* ---- Mesh ---- */

static PyObject* py_mesh_get(PyObject* self, void* closure) {
    const sw_mesh* m = ((const sw_mesh*)((py_block*)self)->ptr);
    const npy_intp v = (npy_intp)m->vertices_count;
    npy_intp dims[2] = {v, 3};
    switch ((int)(intptr_t)closure) {
    case 0:
        return py_str(sw_mesh_name(m));
    case 1:
        return py_view(self, sw_mesh_positions(m), 2, dims, NPY_FLOAT32, false);
    case 2:
        if (!sw_mesh_normals(m)) Py_RETURN_NONE;
        return py_view(self, sw_mesh_normals(m), 2, dims, NPY_FLOAT32, false);
    case 3:
        if (!sw_mesh_uvs(m)) Py_RETURN_NONE;
        dims[1] = 2;
        return py_view(self, sw_mesh_uvs(m), 2, dims, NPY_FLOAT32, false);
    case 4:
        dims[1] = 4;
        return py_view(self, sw_mesh_joints(m), 2, dims, NPY_UINT16, false);
    case 5:
        dims[1] = 4;
        return py_view(self, sw_mesh_weights(m), 2, dims, NPY_FLOAT32, false);
    case 6:
        dims[0] = (npy_intp)m->indices_count;
        return py_view(self, sw_mesh_indices(m), 1, dims, NPY_UINT32, false);
    case 7:
        dims[0] = (npy_intp)m->palette_count;
        return py_view(self, sw_mesh_palette(m), 1, dims, NPY_UINT16, false);
    default: {
        const npy_intp d3[3] = {(npy_intp)m->palette_count, 4, 4};
        PyObject* st = py_view(self, sw_mesh_inverse_binds(m), 3, d3, NPY_FLOAT32, false);
        return py_mat_view((PyArrayObject*)st);
    }
    }
}

static PyObject* py_mesh_repr(PyObject* self) {
    const sw_mesh* m = ((const sw_mesh*)((py_block*)self)->ptr);
    return PyUnicode_FromFormat("<sinew.Mesh \"%s\", %u vertices, %u palette joints>",
                                sw_mesh_name(m), m->vertices_count, m->palette_count);
}

static PyGetSetDef k_mesh_getset[] = {
    {"name", py_mesh_get, NULL, "The mesh's name.", (void*)0},
    {"positions", py_mesh_get, NULL, "Bind-space positions, read-only float32 (V, 3) view.",
     (void*)1},
    {"normals", py_mesh_get, NULL, "Normals (V, 3) view, or None.", (void*)2},
    {"uvs", py_mesh_get, NULL, "UVs (V, 2) view, or None.", (void*)3},
    {"joints", py_mesh_get, NULL, "Palette indices per vertex, uint16 (V, 4) view.", (void*)4},
    {"weights", py_mesh_get, NULL, "Skin weights per vertex, float32 (V, 4) view.", (void*)5},
    {"indices", py_mesh_get, NULL, "Triangle indices, uint32 view.", (void*)6},
    {"palette", py_mesh_get, NULL, "Skeleton joint of each palette entry, uint16 view.", (void*)7},
    {"inverse_binds", py_mesh_get, NULL,
     "Inverse bind matrices, a read-only (palette, 4, 4) view indexed [i, row, col].", (void*)8},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject py_mesh_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sinew.Mesh",
    .tp_basicsize = sizeof(py_block),
    .tp_dealloc = py_block_dealloc,
    .tp_repr = py_mesh_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A skinned mesh of an Asset (immutable); its arrays are views of sinew's memory.",
    .tp_getset = k_mesh_getset,
};

/* ---- Asset ---- */

/* An opened file (or the built-in humanoid). Its skeleton, clips and meshes
 * are wrapped anew at each access: the wrappers reference the asset, and an
 * asset holding them would make cycles that reference counting never frees. */
typedef struct py_asset {
    PyObject_HEAD sw_asset asset;
    sw_scene scene; /* the built-in humanoid (Asset.default_humanoid) */
    bool opened, is_scene;
    const sw_skeleton* skeleton;
    const sw_clip* const* clips;
    uint32_t clips_count;
    const sw_mesh* const* meshes;
    uint32_t meshes_count;
} py_asset;

static void py_asset_dealloc(PyObject* self) {
    py_asset* o = (py_asset*)self;
    if (o->opened) sw_asset_free(&o->asset);
    if (o->is_scene) sw_scene_free(&o->scene, NULL);
    Py_TYPE(self)->tp_free(self);
}

/* A tuple of new wrappers of n blocks, each referencing the asset. */
static PyObject* py_asset_tuple(PyObject* self, PyTypeObject* type, const void* const* blocks,
                                uint32_t n) {
    PyObject* t = PyTuple_New((Py_ssize_t)n);
    for (uint32_t i = 0; t && i < n; ++i) {
        PyObject* w = py_block_wrap(type, blocks[i], self);
        if (!w) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, (Py_ssize_t)i, w);
    }
    return t;
}

/* Clip names from a sequence of str into names[] (UTF-8 owned by seq). */
static bool py_asset_clip_names(PyObject* seq, const char** names, uint32_t cap, uint32_t* n) {
    const Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    if (k > (Py_ssize_t)cap) {
        PyErr_Format(PyExc_ValueError, "clips: at most %u names", cap);
        return false;
    }
    for (Py_ssize_t i = 0; i < k; ++i) {
        names[i] = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(seq, i));
        if (!names[i]) return false;
    }
    *n = (uint32_t)k;
    return true;
}

#define PY_ASSET_MAX_CLIPS 1024

static PyObject* py_asset_new(PyTypeObject* type, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"path",       "scale",      "clips",    "end_sites", "isolate",
                             "in_process", "timeout_ms", "max_size", "readers",   NULL};
    PyObject* path = NULL;
    PyObject* clips = Py_None;
    sw_asset_options opt;
    memset(&opt, 0, sizeof opt);
    int end_sites = 0, isolate = 0, in_process = 0, readers = 1;
    unsigned int timeout = 0;
    Py_ssize_t max_size = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|$fOpppInp:Asset", kwlist, PyUnicode_FSConverter,
                                     &path, &opt.scale, &clips, &end_sites, &isolate, &in_process,
                                     &timeout, &max_size, &readers))
        return NULL;
    static const sw_asset_reader k_readers[] = {SW_ASSIMP_ASSET_READER};
    opt.end_sites = end_sites != 0;
    opt.isolate = isolate != 0;
    opt.readers_in_process = in_process != 0;
    opt.timeout_ms = timeout;
    opt.max_file_size = (size_t)(max_size > 0 ? max_size : 0);
    if (readers) {
        opt.readers = k_readers;
        opt.readers_count = 1;
    }
    const char* names[PY_ASSET_MAX_CLIPS];
    PyObject* seq = NULL;
    if (clips != Py_None) {
        seq = PySequence_Fast(clips, "clips: a sequence of clip names");
        if (!seq || !py_asset_clip_names(seq, names, PY_ASSET_MAX_CLIPS, &opt.clips_count)) {
            Py_XDECREF(seq);
            Py_DECREF(path);
            return NULL;
        }
        opt.clips = names;
    }
    py_asset* o = (py_asset*)type->tp_alloc(type, 0);
    if (o) {
        const char* p = PyBytes_AS_STRING(path);
        sw_error err = SW_ERROR_INIT;
        sw_result r;
        Py_BEGIN_ALLOW_THREADS;
        r = sw_asset_open(p, &opt, &o->asset, &err);
        Py_END_ALLOW_THREADS;
        if (r != SW_RESULT_OK) {
            Py_CLEAR(o);
            py_raise(r, &err, p);
        } else {
            o->opened = true;
            o->skeleton = o->asset.skeleton;
            o->clips = o->asset.clips;
            o->clips_count = o->asset.clips_count;
            o->meshes = o->asset.meshes;
            o->meshes_count = o->asset.meshes_count;
        }
    }
    Py_XDECREF(seq);
    Py_DECREF(path);
    return (PyObject*)o;
}

static PyObject* py_asset_default_humanoid(PyObject* cls, PyObject* unused) {
    (void)unused;
    py_asset* o = (py_asset*)((PyTypeObject*)cls)->tp_alloc((PyTypeObject*)cls, 0);
    if (!o) return NULL;
    sw_error err = SW_ERROR_INIT;
    const sw_result r = sw_showcase_humanoid(NULL, &o->scene, NULL, &err);
    if (r != SW_RESULT_OK) {
        Py_DECREF(o);
        return py_raise(r, &err, "default humanoid");
    }
    o->is_scene = true;
    o->skeleton = o->scene.skeleton;
    o->clips = o->scene.clips;
    o->clips_count = o->scene.clips_count;
    o->meshes = (const sw_mesh* const*)o->scene.meshes;
    o->meshes_count = o->scene.meshes_count;
    return (PyObject*)o;
}

static PyObject* py_asset_clip(PyObject* self, PyObject* arg) {
    py_asset* o = (py_asset*)self;
    PyObject* s = PyObject_Str(arg);
    const char* name = s ? PyUnicode_AsUTF8(s) : NULL;
    if (!name) {
        Py_XDECREF(s);
        return NULL;
    }
    sw_error err = SW_ERROR_INIT;
    int32_t i = -1;
    if (o->opened) {
        i = sw_asset_require_clip(&o->asset, name, &err);
    } else {
        for (uint32_t k = 0; k < o->scene.clips_count && i < 0; ++k)
            if (strcmp(sw_clip_name(o->scene.clips[k]), name) == 0) i = (int32_t)k;
        err.check = "clip in the file";
        snprintf(err.detail, sizeof err.detail, "no clip \"%s\"", name);
    }
    Py_DECREF(s);
    if (i < 0) return py_raise(SW_RESULT_NOT_FOUND, &err, NULL);
    return py_clip_wrap(o->clips[i], self);
}

static PyObject* py_asset_get(PyObject* self, void* closure) {
    py_asset* o = (py_asset*)self;
    static const char* const formats[] = {"none", "sinew", "bvh", "gltf", "assimp"};
    switch ((int)(intptr_t)closure) {
    case 0:
        return py_skeleton_wrap(o->skeleton, self);
    case 1:
        return py_asset_tuple(self, &py_clip_type, (const void* const*)o->clips, o->clips_count);
    case 2:
        return py_asset_tuple(self, &py_mesh_type, (const void* const*)o->meshes, o->meshes_count);
    case 3:
        if (o->is_scene) return PyUnicode_FromString("showcase");
        return PyUnicode_FromString(formats[(unsigned)o->asset.format < 5u ? o->asset.format : 0]);
    case 4:
        return PyLong_FromUnsignedLongLong(o->opened ? o->asset.file_size : 0u);
    default:
        return py_str(o->opened ? o->asset.warning : o->scene.warning);
    }
}

static PyGetSetDef k_asset_getset[] = {
    {"skeleton", py_asset_get, NULL, "The file's (first) skeleton.", (void*)0},
    {"clips", py_asset_get, NULL, "Its clips, a tuple of Clip.", (void*)1},
    {"meshes", py_asset_get, NULL, "Meshes bound to it, a tuple of Mesh.", (void*)2},
    {"format", py_asset_get, NULL,
     "How it was read: \"sinew\", \"bvh\", \"gltf\", \"assimp\" (or \"showcase\").", (void*)3},
    {"file_size", py_asset_get, NULL, "Bytes of the file.", (void*)4},
    {"warning", py_asset_get, NULL, "Non-fatal remarks of the reader (\"\" when none).", (void*)5},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef k_asset_methods[] = {
    {"clip", py_asset_clip, METH_O,
     "clip(name_or_index) -> Clip: a clip by exact name or index; NotFoundError names the "
     "clips of the file, nearest first."},
    {"default_humanoid", py_asset_default_humanoid, METH_NOARGS | METH_CLASS,
     "Asset.default_humanoid() -> Asset: sinew's built-in humanoid (skeleton, clips, "
     "capsule meshes)."},
    {NULL, NULL, 0, NULL}};

PyTypeObject py_asset_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sinew.Asset",
    .tp_basicsize = sizeof(py_asset),
    .tp_dealloc = py_asset_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc =
        "Asset(path, *, scale=0.0, clips=None, end_sites=False, isolate=False, "
        "in_process=False, timeout_ms=0, max_size=0, readers=True)\n\n"
        "Opens any file sinew reads (sw_asset_open): .sinew archives, BVH and glTF natively, "
        "and with readers=True everything assimp reads (FBX, Collada, X, ...) in a child "
        "process, as the CLI does. scale multiplies lengths (0: file units), clips keeps only "
        "the named clips, isolate runs every reader in a child process, in_process runs "
        "assimp in this process. Raises a sinew.Error subclass naming the file.",
    .tp_methods = k_asset_methods,
    .tp_getset = k_asset_getset,
    .tp_new = py_asset_new,
};

int py_asset_types_init(PyObject* m) {
    PyTypeObject* types[] = {&py_skeleton_type, &py_clip_type, &py_mesh_type, &py_asset_type};
    const char* names[] = {"Skeleton", "Clip", "Mesh", "Asset"};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; ++i) {
        if (PyType_Ready(types[i]) < 0) return -1;
        if (PyModule_AddObjectRef(m, names[i], (PyObject*)types[i]) < 0) return -1;
    }
    return 0;
}
