/* sinew._sinew: the per-frame jobs (sample, blend, additive, local-to-model,
 * skinning palette) over numpy poses and matrices. */
#include "py_common.h"

#include <string.h>

bool py_mat4(PyObject* o, sw_mat4* out, const char* what) {
    PyArrayObject* a = (PyArrayObject*)PyArray_FROM_OTF(o, NPY_FLOAT32, PY_IN);
    if (!a) return false;
    if (PyArray_NDIM(a) != 2 || PyArray_DIM(a, 0) != 4 || PyArray_DIM(a, 1) != 4) {
        Py_DECREF(a);
        PyErr_Format(PyExc_ValueError, "%s: a 4x4 matrix expected", what);
        return false;
    }
    const float* v = (const float*)PyArray_DATA(a);
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c)
            out->m[c * 4 + r] = v[r * 4 + c];
    Py_DECREF(a);
    return true;
}

static PyObject* py_sample(PyObject* self, PyObject* args, PyObject* kw) {
    (void)self;
    static char* kwlist[] = {"skeleton", "clip", "time", "out", "floats", NULL};
    PyObject *so, *co, *out = Py_None;
    float time = 0.0f;
    int floats = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOf|$Op:sample", kwlist, &so, &co, &time, &out,
                                     &floats))
        return NULL;
    const sw_skeleton* s = py_skeleton_arg(so, "skeleton");
    const sw_clip* c = s ? py_clip_arg(co, "clip") : NULL;
    if (!c) return NULL;
    PyArrayObject* pose = py_pose_out(out, s->packets_count);
    if (!pose) return NULL;
    PyArrayObject* fl = NULL;
    if (floats) {
        const npy_intp n = (npy_intp)c->float_tracks_count;
        fl = (PyArrayObject*)PyArray_ZEROS(1, &n, NPY_FLOAT32, 0);
        if (!fl) {
            Py_DECREF(pose);
            return NULL;
        }
    }
    sw_sample_job job;
    memset(&job, 0, sizeof job);
    job.clip = c;
    job.skeleton = s;
    job.time = time;
    job.out = (sw_xform4*)PyArray_DATA(pose);
    job.out_count = (uint32_t)PyArray_DIM(pose, 0);
    if (fl && c->float_tracks_count) {
        job.floats = (float*)PyArray_DATA(fl);
        job.floats_count = c->float_tracks_count;
    }
    const sw_result r = sw_sample_job_run(&job);
    if (r != SW_RESULT_OK) {
        Py_DECREF(pose);
        Py_XDECREF(fl);
        return py_raise(r, NULL, "sample");
    }
    return fl ? Py_BuildValue("(NN)", pose, fl) : (PyObject*)pose;
}

/* Per-joint weights padded to packets * 4 floats (a new array). */
static PyArrayObject* py_joint_weights(PyObject* o, uint32_t packets) {
    PyArrayObject* a = (PyArrayObject*)PyArray_FROM_OTF(o, NPY_FLOAT32, PY_IN);
    if (!a) return NULL;
    const npy_intp n = (npy_intp)packets * 4;
    if (PyArray_NDIM(a) != 1 || PyArray_DIM(a, 0) > n) {
        Py_DECREF(a);
        PyErr_Format(PyExc_ValueError, "joint_weights: one float per joint (at most %ld)", (long)n);
        return NULL;
    }
    PyArrayObject* p = (PyArrayObject*)PyArray_ZEROS(1, &n, NPY_FLOAT32, 0);
    if (p) memcpy(PyArray_DATA(p), PyArray_DATA(a), (size_t)PyArray_NBYTES(a));
    Py_DECREF(a);
    return p;
}

/* One blend layer from (pose, weight[, joint_weights[, mode]]); keeps the
 * arrays it makes in keep (a list). */
static bool py_blend_layer(PyObject* t, uint32_t packets, sw_blend_layer* l, PyObject* keep) {
    PyObject *pose_o, *jw = Py_None;
    const char* mode = "normal";
    if (!PyTuple_Check(t) || !PyArg_ParseTuple(t, "Of|Os", &pose_o, &l->weight, &jw, &mode)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError,
                            "blend: each layer is a tuple (pose, weight[, joint_weights[, mode]])");
        return false;
    }
    PyArrayObject* pose = py_pose_in(pose_o, packets, "blend layer");
    if (!pose || PyList_Append(keep, (PyObject*)pose) < 0) {
        Py_XDECREF(pose);
        return false;
    }
    Py_DECREF(pose);
    l->pose = (const sw_xform4*)PyArray_DATA(pose);
    if (strcmp(mode, "additive") == 0) {
        l->mode = SW_BLEND_MODE_ADDITIVE;
    } else if (strcmp(mode, "normal") != 0) {
        PyErr_Format(PyExc_ValueError, "blend: mode \"normal\" or \"additive\", got \"%s\"", mode);
        return false;
    }
    if (jw == Py_None) return true;
    PyArrayObject* w = py_joint_weights(jw, packets);
    if (!w || PyList_Append(keep, (PyObject*)w) < 0) {
        Py_XDECREF(w);
        return false;
    }
    Py_DECREF(w);
    l->joint_weights = (const float*)PyArray_DATA(w);
    return true;
}

static PyObject* py_blend(PyObject* self, PyObject* args, PyObject* kw) {
    (void)self;
    static char* kwlist[] = {"skeleton", "layers", "threshold", "out", NULL};
    PyObject *so, *layers_o, *out = Py_None;
    float threshold = 0.0f;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|$fO:blend", kwlist, &so, &layers_o, &threshold,
                                     &out))
        return NULL;
    const sw_skeleton* s = py_skeleton_arg(so, "skeleton");
    PyObject* seq = s ? PySequence_Fast(layers_o, "layers: a sequence of tuples") : NULL;
    if (!seq) return NULL;
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > SW_BLEND_MAX_LAYERS) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "blend: at most %d layers", SW_BLEND_MAX_LAYERS);
        return NULL;
    }
    sw_blend_layer layers[SW_BLEND_MAX_LAYERS];
    memset(layers, 0, sizeof layers);
    PyObject* keep = PyList_New(0);
    PyArrayObject* pose = NULL;
    bool ok = keep != NULL;
    for (Py_ssize_t i = 0; ok && i < n; ++i)
        ok = py_blend_layer(PySequence_Fast_GET_ITEM(seq, i), s->packets_count, &layers[i], keep);
    if (ok) pose = py_pose_out(out, s->packets_count);
    if (pose) {
        sw_blend_job job;
        memset(&job, 0, sizeof job);
        job.layers = layers;
        job.layers_count = (uint32_t)n;
        job.rest_pose = sw_skeleton_rest_pose(s);
        job.packets_count = s->packets_count;
        job.threshold = threshold;
        job.out = (sw_xform4*)PyArray_DATA(pose);
        job.out_count = (uint32_t)PyArray_DIM(pose, 0);
        const sw_result r = sw_blend_job_run(&job);
        if (r != SW_RESULT_OK) {
            Py_CLEAR(pose);
            py_raise(r, NULL, "blend");
        }
    }
    Py_XDECREF(keep);
    Py_DECREF(seq);
    return (PyObject*)pose;
}

static PyObject* py_make_additive(PyObject* self, PyObject* args, PyObject* kw) {
    (void)self;
    static char* kwlist[] = {"pose", "reference", "out", NULL};
    PyObject *po, *ro, *out = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|$O:make_additive", kwlist, &po, &ro, &out))
        return NULL;
    PyArrayObject* p = py_pose_in(po, 1, "pose");
    const uint32_t packets = p ? (uint32_t)PyArray_DIM(p, 0) : 0;
    PyArrayObject* ref = p ? py_pose_in(ro, packets, "reference") : NULL;
    PyArrayObject* o = ref ? py_pose_out(out, packets) : NULL;
    if (o) {
        const sw_make_additive_job job = {(const sw_xform4*)PyArray_DATA(p),
                                          (const sw_xform4*)PyArray_DATA(ref), packets,
                                          (sw_xform4*)PyArray_DATA(o), (uint32_t)PyArray_DIM(o, 0)};
        const sw_result r = sw_make_additive_job_run(&job);
        if (r != SW_RESULT_OK) {
            Py_CLEAR(o);
            py_raise(r, NULL, "make_additive");
        }
    }
    Py_XDECREF(p);
    Py_XDECREF(ref);
    return (PyObject*)o;
}

static PyObject* py_apply_additive(PyObject* self, PyObject* args, PyObject* kw) {
    (void)self;
    static char* kwlist[] = {"base", "delta", "weight", "joint_weights", "out", NULL};
    PyObject *bo, *dobj, *jw = Py_None, *out = Py_None;
    float weight = 1.0f;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|f$OO:apply_additive", kwlist, &bo, &dobj,
                                     &weight, &jw, &out))
        return NULL;
    PyArrayObject* b = py_pose_in(bo, 1, "base");
    const uint32_t packets = b ? (uint32_t)PyArray_DIM(b, 0) : 0;
    PyArrayObject* d = b ? py_pose_in(dobj, packets, "delta") : NULL;
    PyArrayObject* w = d && jw != Py_None ? py_joint_weights(jw, packets) : NULL;
    PyArrayObject* o = d && (jw == Py_None || w) ? py_pose_out(out, packets) : NULL;
    if (o) {
        const sw_apply_additive_job job = {(const sw_xform4*)PyArray_DATA(b),
                                           (const sw_xform4*)PyArray_DATA(d),
                                           packets,
                                           weight,
                                           w ? (const float*)PyArray_DATA(w) : NULL,
                                           (sw_xform4*)PyArray_DATA(o),
                                           (uint32_t)PyArray_DIM(o, 0)};
        const sw_result r = sw_apply_additive_job_run(&job);
        if (r != SW_RESULT_OK) {
            Py_CLEAR(o);
            py_raise(r, NULL, "apply_additive");
        }
    }
    Py_XDECREF(b);
    Py_XDECREF(d);
    Py_XDECREF(w);
    return (PyObject*)o;
}

static PyObject* py_local_to_model(PyObject* self, PyObject* args, PyObject* kw) {
    (void)self;
    static char* kwlist[] = {"skeleton", "pose", "root", "subtree_root", "out", NULL};
    PyObject *so, *po, *root_o = Py_None, *out = Py_None;
    int subtree_root = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|$OiO:local_to_model", kwlist, &so, &po, &root_o,
                                     &subtree_root, &out))
        return NULL;
    const sw_skeleton* s = py_skeleton_arg(so, "skeleton");
    sw_mat4 root;
    if (!s || (root_o != Py_None && !py_mat4(root_o, &root, "root"))) return NULL;
    if (subtree_root >= 0 && out == Py_None) {
        PyErr_SetString(PyExc_ValueError,
                        "local_to_model: subtree_root updates the matrices given as out");
        return NULL;
    }
    PyArrayObject* pose = py_pose_in(po, s->packets_count, "pose");
    if (!pose) return NULL;
    PyArrayObject* st =
        out == Py_None ? py_mat_new(s->joints_count) : py_mat_inout(out, s->joints_count, "out");
    if (st) {
        sw_local_to_model_job job;
        memset(&job, 0, sizeof job);
        job.skeleton = s;
        job.local = (const sw_xform4*)PyArray_DATA(pose);
        job.local_count = (uint32_t)PyArray_DIM(pose, 0);
        job.root_transform = root_o != Py_None ? &root : NULL;
        job.subtree = subtree_root >= 0;
        job.subtree_root = subtree_root >= 0 ? (uint32_t)subtree_root : 0u;
        job.out = (sw_mat4*)PyArray_DATA(st);
        job.out_count = (uint32_t)PyArray_DIM(st, 0);
        const sw_result r = sw_local_to_model_job_run(&job);
        if (r != SW_RESULT_OK) {
            Py_CLEAR(st);
            py_raise(r, NULL, "local_to_model");
        }
    }
    Py_DECREF(pose);
    if (!st) return NULL;
    if (out != Py_None) {
        Py_DECREF(st);
        return Py_NewRef(out);
    }
    return py_mat_view(st);
}

static PyObject* py_skinning_palette(PyObject* self, PyObject* args, PyObject* kw) {
    (void)self;
    static char* kwlist[] = {"model", "mesh", "inverse_binds", "joints", NULL};
    PyObject *mo, *mesh_o = Py_None, *ib_o = Py_None, *j_o = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O$OO:skinning_palette", kwlist, &mo, &mesh_o,
                                     &ib_o, &j_o))
        return NULL;
    if ((mesh_o == Py_None) == (ib_o == Py_None)) {
        PyErr_SetString(PyExc_TypeError, "skinning_palette: give a mesh or inverse_binds");
        return NULL;
    }
    PyArrayObject* model = py_mat_in(mo, 1, "model");
    PyArrayObject* ib = NULL;
    PyArrayObject* joints = NULL;
    PyArrayObject* st = NULL;
    sw_skinning_job job;
    memset(&job, 0, sizeof job);
    if (!model) return NULL;
    if (mesh_o != Py_None) {
        const sw_mesh* m = py_mesh_arg(mesh_o, "mesh");
        if (!m) goto done;
        job.inverse_bind = sw_mesh_inverse_binds(m);
        job.joints = sw_mesh_palette(m);
        job.count = m->palette_count;
    } else {
        ib = py_mat_in(ib_o, 1, "inverse_binds");
        if (!ib) goto done;
        job.inverse_bind = (const sw_mat4*)PyArray_DATA(ib);
        job.count = (uint32_t)PyArray_DIM(ib, 0);
        if (j_o != Py_None) {
            joints = (PyArrayObject*)PyArray_FROM_OTF(j_o, NPY_UINT16, PY_IN);
            if (!joints) goto done;
            if (PyArray_SIZE(joints) != (npy_intp)job.count) {
                PyErr_SetString(PyExc_ValueError, "joints: one skeleton joint per inverse bind");
                goto done;
            }
            job.joints = (const uint16_t*)PyArray_DATA(joints);
        }
    }
    st = py_mat_new(job.count);
    if (!st) goto done;
    job.model = (const sw_mat4*)PyArray_DATA(model);
    job.model_count = (uint32_t)PyArray_DIM(model, 0);
    job.out = (sw_mat4*)PyArray_DATA(st);
    job.out_count = job.count;
    const sw_result r = sw_skinning_job_run(&job);
    if (r != SW_RESULT_OK) {
        Py_CLEAR(st);
        py_raise(r, NULL, "skinning_palette");
    }
done:
    Py_DECREF(model);
    Py_XDECREF(ib);
    Py_XDECREF(joints);
    return st ? py_mat_view(st) : NULL;
}

static PyObject* py_sample_buffer(PyObject* self, PyObject* arg) {
    (void)self;
    const long n = PyLong_AsLong(arg);
    if (n == -1 && PyErr_Occurred()) return NULL;
    if (n < 1 || n > SW_SKELETON_MAX_JOINTS / 4) {
        PyErr_Format(PyExc_ValueError, "a pose has 1 to %d packets", SW_SKELETON_MAX_JOINTS / 4);
        return NULL;
    }
    return (PyObject*)py_pose_new((uint32_t)n);
}

#define PY_KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS

PyMethodDef py_jobs_methods[] = {
    {"sample_buffer", py_sample_buffer, METH_O,
     "sample_buffer(packets) -> pose: a zeroed, 16-byte aligned float32 (packets, 10, 4) "
     "array (sinew.empty_pose is the friendlier name)."},
    {"sample", PY_KW(py_sample),
     "sample(skeleton, clip, time, *, out=None, floats=False) -> pose | (pose, floats)\n\n"
     "The clip's local pose at `time` seconds (clamped to [0, duration]; sw_sample_job): a "
     "float32 (packets, 10, 4) array in sinew's SoA layout. out: a pose array to write into. "
     "floats=True also returns the float tracks' values (float32, track order)."},
    {"blend", PY_KW(py_blend),
     "blend(skeleton, layers, *, threshold=0.0, out=None) -> pose\n\n"
     "Weighted blend of local poses (sw_blend_job). layers: tuples (pose, weight[, "
     "joint_weights[, mode]]) with joint_weights one float per joint (or None) and mode "
     "\"normal\" or \"additive\". Below threshold (0: 0.1) the rest pose fills the weight."},
    {"make_additive", PY_KW(py_make_additive),
     "make_additive(pose, reference, *, out=None) -> delta: the additive delta of pose "
     "against reference (sw_make_additive_job)."},
    {"apply_additive", PY_KW(py_apply_additive),
     "apply_additive(base, delta, weight=1.0, *, joint_weights=None, out=None) -> pose: base "
     "with the delta applied at weight (sw_apply_additive_job)."},
    {"local_to_model", PY_KW(py_local_to_model),
     "local_to_model(skeleton, pose, *, root=None, subtree_root=-1, out=None) -> matrices\n\n"
     "Model-space matrices of a local pose (sw_local_to_model_job): a float32 (joints, 4, 4) "
     "array indexed [joint, row, col] (a transposed view of sinew's column-major storage, "
     "no copy). root: 4x4 model transform of the roots' parent. subtree_root with out: "
     "recompute only that joint's sub-tree in out."},
    {"skinning_palette", PY_KW(py_skinning_palette),
     "skinning_palette(model, mesh=None, *, inverse_binds=None, joints=None) -> matrices\n\n"
     "The skinning matrices model[joints[i]] @ inverse_binds[i] (sw_skinning_job), from a "
     "Mesh (its palette and inverse binds) or explicit inverse_binds (n, 4, 4) and joints."},
    {NULL, NULL, 0, NULL}};
