/* sinew._sinew: the offline tools' entry points that the Python tools
 * (sinew/tools.py) compose: compression and its error metric, the output
 * policy and writing a scene. */
#include "py_common.h"

#include <string.h>

#include "sinew/tools/builders/clip_recorder.h"
#include "sinew/tools/builders/compress.h"
#include "sinew/tools/writers/output.h"

static PyObject* py_joint_name(const sw_skeleton* s, uint32_t j) {
    return PyUnicode_FromString(j < s->joints_count ? sw_skeleton_joint_name(s, j) : "");
}

/* The figures of one compressed clip, with the keys of `sinew compress --json`. */
static PyObject* py_compress_stats(const sw_skeleton* s, const sw_clip* c,
                                   const sw_compress_stats* st) {
    return Py_BuildValue(
        "{s:s,s:I,s:I,s:d,s:K,s:K,s:d,s:d,s:d,s:N,s:d,s:d,s:{s:I,s:I,s:I,s:I}}", "name",
        sw_clip_name(c), "joints", s->joints_count, "samples", st->samples_count, "rate",
        (double)st->rate, "raw_bytes", (unsigned long long)st->raw_bytes, "compressed_bytes",
        (unsigned long long)st->compressed_bytes, "ratio", st->ratio, "max_error",
        (double)st->error.max, "p99_error", (double)st->error.p99, "worst_joint",
        py_joint_name(s, st->error.worst_joint), "worst_time", (double)st->error.worst_time,
        "seconds", st->seconds, "tracks", "default", st->default_tracks, "constant",
        st->constant_tracks, "animated", st->animated_tracks, "uniform_scale", st->uniform_scales);
}

static PyObject* py_compress_clip(PyObject* self, PyObject* args, PyObject* kw) {
    (void)self;
    static char* kwlist[] = {"skeleton",        "clip", "precision",
                             "shell",           "rate", "segment_samples",
                             "joint_precision", NULL};
    PyObject *so, *co, *jp = Py_None;
    sw_compress_options opt;
    memset(&opt, 0, sizeof opt);
    opt.precision = 0.01f;
    opt.shell = 3.0f;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|$fffIO:compress_clip", kwlist, &so, &co,
                                     &opt.precision, &opt.shell, &opt.rate, &opt.segment_samples,
                                     &jp))
        return NULL;
    const sw_skeleton* s = py_skeleton_arg(so, "skeleton");
    const sw_clip* c = s ? py_clip_arg(co, "clip") : NULL;
    if (!c) return NULL;
    PyArrayObject* jpa = NULL;
    if (jp != Py_None) {
        jpa = (PyArrayObject*)PyArray_FROM_OTF(jp, NPY_FLOAT32, PY_IN);
        if (!jpa) return NULL;
        if (PyArray_SIZE(jpa) != (npy_intp)s->joints_count) {
            Py_DECREF(jpa);
            PyErr_SetString(PyExc_ValueError, "joint_precision: one value per joint");
            return NULL;
        }
        opt.joint_precision = (const float*)PyArray_DATA(jpa);
    }
    const sw_clip* out = NULL;
    sw_compress_stats st;
    memset(&st, 0, sizeof st);
    sw_error err = SW_ERROR_INIT;
    sw_result r;
    Py_BEGIN_ALLOW_THREADS;
    r = sw_compress_clip(s, c, &opt, NULL, &out, &st, &err);
    Py_END_ALLOW_THREADS;
    Py_XDECREF(jpa);
    PyObject* stats = py_compress_stats(s, c, &st);
    if (r == SW_RESULT_OK)
        return stats ? Py_BuildValue("(NN)", py_clip_wrap(out, NULL), stats)
                     : py_clip_wrap(out, NULL);
    if (r == SW_RESULT_LIMIT && err.check && strcmp(err.check, "error within precision") == 0)
        snprintf(err.detail, sizeof err.detail,
                 "error %.6g at joint \"%s\", %.4f s, exceeds the precision %g at every rate "
                 "up to 1000 Hz",
                 (double)st.error.max, sw_skeleton_joint_name(s, st.error.worst_joint),
                 (double)st.error.worst_time, (double)opt.precision);
    char what[300];
    snprintf(what, sizeof what, "compress clip \"%s\"", sw_clip_name(c));
    py_raise(r, &err, what);
    if (stats) { /* the last attempt's figures go with the error */
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyErr_NormalizeException(&type, &value, &tb);
        if (value) PyObject_SetAttrString(value, "stats", stats);
        PyErr_Restore(type, value, tb);
        Py_DECREF(stats);
    }
    return NULL;
}

static PyObject* py_clip_error(PyObject* self, PyObject* args, PyObject* kw) {
    (void)self;
    static char* kwlist[] = {"skeleton", "reference", "clip", "shell", "rate", "at_keys", NULL};
    PyObject *so, *ro, *co;
    int at_keys = 0;
    sw_clip_error_desc d;
    memset(&d, 0, sizeof d);
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|$ffp:clip_error", kwlist, &so, &ro, &co,
                                     &d.shell, &d.rate, &at_keys))
        return NULL;
    d.skeleton = py_skeleton_arg(so, "skeleton");
    d.reference = d.skeleton ? py_clip_arg(ro, "reference") : NULL;
    d.clip = d.reference ? py_clip_arg(co, "clip") : NULL;
    if (!d.clip) return NULL;
    d.at_keys = at_keys != 0;
    const npy_intp joints = (npy_intp)d.skeleton->joints_count;
    PyArrayObject* jmax = (PyArrayObject*)PyArray_ZEROS(1, &joints, NPY_FLOAT32, 0);
    if (!jmax) return NULL;
    d.joint_max = (float*)PyArray_DATA(jmax);
    sw_clip_error e;
    sw_error err = SW_ERROR_INIT;
    const sw_result r = sw_clip_error_measure(&d, NULL, &e, &err);
    if (r != SW_RESULT_OK) {
        Py_DECREF(jmax);
        return py_raise(r, &err, "clip_error");
    }
    return Py_BuildValue("{s:d,s:d,s:N,s:d,s:I,s:N}", "max", (double)e.max, "p99", (double)e.p99,
                         "worst_joint", py_joint_name(d.skeleton, e.worst_joint), "worst_time",
                         (double)e.worst_time, "samples", e.samples_count, "joint_max", jmax);
}

/* Paths from a sequence of str / PathLike into new bytes objects in `keep`. */
static bool py_paths(PyObject* o, PyObject* keep, const char** out, uint32_t cap, uint32_t* n) {
    *n = 0;
    if (o == Py_None) return true;
    PyObject* seq = PySequence_Fast(o, "inputs: a sequence of paths");
    if (!seq) return false;
    bool ok = PySequence_Fast_GET_SIZE(seq) <= (Py_ssize_t)cap;
    if (!ok) PyErr_Format(PyExc_ValueError, "inputs: at most %u", cap);
    for (Py_ssize_t i = 0; ok && i < PySequence_Fast_GET_SIZE(seq); ++i) {
        PyObject* b = NULL;
        ok = PyUnicode_FSConverter(PySequence_Fast_GET_ITEM(seq, i), &b) &&
             PyList_Append(keep, b) == 0;
        if (ok) out[(*n)++] = PyBytes_AS_STRING(b);
        Py_XDECREF(b);
    }
    Py_DECREF(seq);
    return ok;
}

static PyObject* py_check_output(PyObject* self, PyObject* args, PyObject* kw) {
    (void)self;
    static char* kwlist[] = {"path", "inputs", "sinew_only", NULL};
    PyObject *path = NULL, *io = Py_None;
    int sinew_only = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|Op:check_output", kwlist, PyUnicode_FSConverter,
                                     &path, &io, &sinew_only))
        return NULL;
    PyObject* keep = PyList_New(0);
    const char* inputs[16];
    uint32_t n = 0;
    PyObject* result = NULL;
    if (keep && py_paths(io, keep, inputs, 16, &n)) {
        sw_output_format f = SW_OUTPUT_FORMAT_NONE;
        sw_error err = SW_ERROR_INIT;
        const uint32_t allowed = sinew_only ? SW_OUTPUT_FORMAT_SINEW : SW_OUTPUT_FORMATS_ALL;
        const sw_result r = sw_output_check(PyBytes_AS_STRING(path), allowed, inputs, n, &f, &err);
        if (r == SW_RESULT_OVERLAP && err.index >= 0 && (uint64_t)err.index < n)
            snprintf(err.detail, sizeof err.detail, "%s the input %s",
                     err.offset ? "its .bin would overwrite" : "is", inputs[err.index]);
        result = r == SW_RESULT_OK ? PyUnicode_FromString(sw_output_extension(f) + 1)
                                   : py_raise(r, &err, PyBytes_AS_STRING(path));
    }
    Py_XDECREF(keep);
    Py_DECREF(path);
    return result;
}

/* A scene borrowing the objects of the sequences (arrays from PyMem). */
static bool py_scene(PyObject* so, PyObject* co, PyObject* mo, sw_scene* scene) {
    memset(scene, 0, sizeof *scene);
    scene->skeleton = py_skeleton_arg(so, "skeleton");
    if (!scene->skeleton) return false;
    PyObject* cs = PySequence_Fast(co, "clips: a sequence of Clip");
    PyObject* ms = cs ? PySequence_Fast(mo, "meshes: a sequence of Mesh") : NULL;
    bool ok = ms != NULL;
    const Py_ssize_t nc = ok ? PySequence_Fast_GET_SIZE(cs) : 0;
    const Py_ssize_t nm = ok ? PySequence_Fast_GET_SIZE(ms) : 0;
    scene->clips = ok ? PyMem_Calloc((size_t)nc + 1u, sizeof(void*)) : NULL;
    scene->meshes = ok ? PyMem_Calloc((size_t)nm + 1u, sizeof(void*)) : NULL;
    ok = ok && scene->clips && scene->meshes;
    for (Py_ssize_t i = 0; ok && i < nc; ++i)
        ok = (scene->clips[i] = py_clip_arg(PySequence_Fast_GET_ITEM(cs, i), "clips")) != NULL;
    for (Py_ssize_t i = 0; ok && i < nm; ++i)
        ok = (scene->meshes[i] = py_mesh_arg(PySequence_Fast_GET_ITEM(ms, i), "meshes")) != NULL;
    scene->clips_count = (uint32_t)nc;
    scene->meshes_count = (uint32_t)nm;
    Py_XDECREF(cs);
    Py_XDECREF(ms);
    return ok;
}

static PyObject* py_write_scene(PyObject* self, PyObject* args, PyObject* kw) {
    (void)self;
    static char* kwlist[] = {"path", "skeleton", "clips", "meshes", NULL};
    PyObject *path = NULL, *so, *co = NULL, *mo = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O|OO:write_scene", kwlist, PyUnicode_FSConverter,
                                     &path, &so, &co, &mo))
        return NULL;
    PyObject* empty = PyTuple_New(0);
    sw_scene scene;
    bool ok = empty && py_scene(so, co ? co : empty, mo ? mo : empty, &scene);
    if (ok) {
        sw_error err = SW_ERROR_INIT;
        sw_result r;
        Py_BEGIN_ALLOW_THREADS;
        r = sw_output_write(&scene, PyBytes_AS_STRING(path), &err);
        Py_END_ALLOW_THREADS;
        ok = r == SW_RESULT_OK || py_raise(r, &err, PyBytes_AS_STRING(path));
    }
    PyMem_Free(scene.clips);
    PyMem_Free(scene.meshes);
    Py_XDECREF(empty);
    Py_DECREF(path);
    return ok ? Py_NewRef(Py_None) : NULL;
}

/* Events from (time, name) pairs into out (names owned by seq). */
static bool py_events(PyObject* seq, sw_clip_event_desc* out, uint32_t n) {
    for (uint32_t i = 0; i < n; ++i)
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, (Py_ssize_t)i), "fs", &out[i].time,
                              &out[i].name))
            return false;
    return true;
}

static bool py_fold(const char* s, sw_clip_recorder_fold* out) {
    static const char* const words[] = {"none", "rest", "constant"};
    for (int i = 0; i < 3; ++i)
        if (strcmp(s, words[i]) == 0) {
            *out = (sw_clip_recorder_fold)i;
            return true;
        }
    PyErr_Format(PyExc_ValueError, "fold: \"none\", \"rest\" or \"constant\", got \"%s\"", s);
    return false;
}

/* Appends every pose of `poses` (frames, packets, 10, 4) to the recorder. */
static sw_result py_record_frames(sw_clip_recorder* rec, PyArrayObject* poses, sw_error* err) {
    const npy_intp frames = PyArray_DIM(poses, 0);
    const uint32_t packets = (uint32_t)PyArray_DIM(poses, 1);
    const char* base = (const char*)PyArray_DATA(poses);
    sw_result r = SW_RESULT_OK;
    for (npy_intp f = 0; r == SW_RESULT_OK && f < frames; ++f)
        r = sw_clip_recorder_append(
            rec, (const sw_xform4*)(const void*)(base + (size_t)f * packets * sizeof(sw_xform4)),
            packets, err);
    return r;
}

static PyObject* py_record_clip(PyObject* self, PyObject* args, PyObject* kw) {
    (void)self;
    static char* kwlist[] = {"skeleton", "poses", "rate",      "name", "duration",
                             "events",   "fold",  "tolerance", NULL};
    PyObject *so, *po, *eo = Py_None;
    float rate;
    const char* fold = "none";
    sw_clip_recorder_options opt = {SW_CLIP_RECORDER_FOLD_NONE, 0.0f};
    sw_clip_recorder_clip desc;
    memset(&desc, 0, sizeof desc);
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOf|$zfOsf:record_clip", kwlist, &so, &po, &rate,
                                     &desc.name, &desc.duration, &eo, &fold, &opt.tolerance) ||
        !py_fold(fold, &opt.fold))
        return NULL;
    const sw_skeleton* s = py_skeleton_arg(so, "skeleton");
    PyArrayObject* poses =
        s ? (PyArrayObject*)PyArray_FROM_OTF(po, NPY_FLOAT32, PY_IN | NPY_ARRAY_ENSURECOPY) : NULL;
    if (!poses) return NULL;
    PyObject* seq = eo != Py_None ? PySequence_Fast(eo, "events: (time, name) pairs") : NULL;
    const uint32_t ne = seq ? (uint32_t)PySequence_Fast_GET_SIZE(seq) : 0u;
    sw_clip_event_desc* events = PyMem_Calloc(ne + 1u, sizeof *events);
    PyObject* result = NULL;
    if (PyArray_NDIM(poses) != 4 || PyArray_DIM(poses, 2) != 10 || PyArray_DIM(poses, 3) != 4 ||
        PyArray_DIM(poses, 1) < (npy_intp)s->packets_count) {
        PyErr_SetString(PyExc_ValueError, "poses: an array of shape (frames, packets, 10, 4)");
    } else if (events && (eo == Py_None || (seq && py_events(seq, events, ne)))) {
        desc.events = events;
        desc.events_count = ne;
        sw_clip_recorder* rec = NULL;
        const sw_clip* clip = NULL;
        sw_error err = SW_ERROR_INIT;
        sw_result r = sw_clip_recorder_create(s, rate, &opt, NULL, &rec, &err);
        if (r == SW_RESULT_OK) r = py_record_frames(rec, poses, &err);
        if (r == SW_RESULT_OK) r = sw_clip_recorder_build(rec, &desc, NULL, &clip, &err);
        sw_clip_recorder_destroy(rec);
        result = r == SW_RESULT_OK ? py_clip_wrap(clip, NULL) : py_raise(r, &err, "record_clip");
    }
    PyMem_Free(events);
    Py_XDECREF(seq);
    Py_DECREF(poses);
    return result;
}

#define PY_KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS

PyMethodDef py_tools_methods[] = {
    {"compress_clip", PY_KW(py_compress_clip),
     "compress_clip(skeleton, clip, *, precision=0.01, shell=3.0, rate=0.0, "
     "segment_samples=0, joint_precision=None) -> (Clip, stats)\n\n"
     "Error-bounded compression of a raw clip (sw_compress_clip). stats: the figures "
     "`sinew compress --json` prints per clip (ratio, max_error, p99_error, worst_joint, ...). "
     "When no rate holds the bound, LimitError carries them as .stats."},
    {"clip_error", PY_KW(py_clip_error),
     "clip_error(skeleton, reference, clip, *, shell=0.0, rate=0.0, at_keys=False) -> dict: "
     "ACL's error metric between two clips (sw_clip_error_measure): max, p99, worst_joint, "
     "worst_time, samples, joint_max (float32 per joint)."},
    {"record_clip", PY_KW(py_record_clip),
     "record_clip(skeleton, poses, rate, *, name=None, duration=0.0, events=None, "
     "fold=\"none\", tolerance=0.0) -> Clip\n\n"
     "A raw clip from local poses at `rate` frames per second (sw_clip_recorder): poses of "
     "shape (frames, packets, 10, 4), key k at k / rate; events as (time, name); fold "
     "\"rest\" leaves out tracks within tolerance of the rest pose, \"constant\" keeps one "
     "key for unchanging tracks."},
    {"check_output", PY_KW(py_check_output),
     "check_output(path, inputs=None, sinew_only=False) -> format: the output policy "
     "(sw_output_check) before any work: \"sinew\", \"glb\" or \"gltf\" from the extension, "
     "refusing an input, a missing folder or an unknown extension."},
    {"write_scene", PY_KW(py_write_scene),
     "write_scene(path, skeleton, clips=(), meshes=()) -> None: writes a skeleton with its "
     "clips and meshes in the format of path's extension (.sinew, .glb, .gltf), through a "
     "temporary file renamed into place (sw_output_write)."},
    {NULL, NULL, 0, NULL}};
