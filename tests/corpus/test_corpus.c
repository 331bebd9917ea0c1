/* The corpus test (issue 17): every file under the given folders whose
 * extension assimp reads (or .sinew / .bvh / .gltf / .glb) goes, in a child
 * process with a time limit, through what the CLI does: open (the assimp
 * reader table, readers isolated), sample, compress every clip (precision
 * 0.01, shell 3: the CLI's defaults), export the compressed clips as .glb and
 * read the .glb back. The bound is checked here with this file's own
 * forward kinematics: the source clip and the compressed clip are sampled
 * at the source's key times and the compressed clip's sample times, and
 * every joint's virtual vertices (3 units along its model-space axes)
 * compared, and so are the quarter points between every two of them (the
 * decoder's interpolation against the source's). One line per file that is
 * not simply passed; a summary at the end (files, passed, refused with
 * reason). Exit 1 when a file crashes, hangs, fails a step or breaks the
 * bound anywhere measured; refusals are not failures.
 *
 * usage: test_corpus [--timeout S] [--jobs N] [--assets DIR] DIR... (a
 * missing DIR is skipped, saying so; --assets: $SINEW_ASSETS when set, else
 * DIR). */
#define _POSIX_C_SOURCE 200809L
#include <assimp/cimport.h>
#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sinew/assimp/assimp_import.h"
#include "sinew/sinew.h"
#include "sinew/tools/builders/compress.h"
#include "sinew/tools/readers/asset.h"
#include "sinew/tools/readers/gltf.h"
#include "sinew/tools/writers/gltf_export.h"

#define PRECISION 0.01f
#define SHELL 3.0

/* Child exit codes. */
enum { PASS = 0, BROKEN = 1, REFUSED = 3, STILL = 4 };

typedef struct files {
    char** paths;
    size_t count, cap;
} files;

static bool model_extension(const char* path) {
    const char* dot = strrchr(path, '.');
    if (!dot || strchr(dot, '/')) return false;
    if (strcasecmp(dot, ".sinew") == 0 || strcasecmp(dot, ".bvh") == 0) return true;
    char ext[32];
    snprintf(ext, sizeof ext, "*%s", dot);
    return aiIsExtensionSupported(ext) == AI_TRUE;
}

static void collect(const char* dir, files* f) {
    DIR* d = opendir(dir);
    if (!d) return;
    struct dirent* e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            collect(path, f);
        } else if (S_ISREG(st.st_mode) && model_extension(path)) {
            if (f->count == f->cap) {
                f->cap = f->cap ? 2u * f->cap : 256u;
                f->paths = (char**)realloc(f->paths, f->cap * sizeof *f->paths);
                if (!f->paths) exit(2);
            }
            f->paths[f->count++] = strdup(path);
        }
    }
    closedir(d);
}

static int path_cmp(const void* a, const void* b) {
    return strcmp(*(char* const*)a, *(char* const*)b);
}

static int float_cmp(const void* x, const void* y) {
    const float a = *(const float*)x, b = *(const float*)y;
    return (a > b) - (a < b);
}

/* ---- the independent bound check ---- */

/* Model-space 3x4 matrices (columns X, Y, Z, translation) of a local pose,
 * walking the parents in double precision. */
static void fk(const sw_skeleton* s, const sw_xform4* pose, double (*m)[12]) {
    const int16_t* parents = sw_skeleton_parents(s);
    for (uint32_t j = 0; j < s->joints_count; ++j) {
        const sw_xform x = sw_xform4_get(&pose[j / 4u], j % 4u);
        const double qx = x.r.x, qy = x.r.y, qz = x.r.z, qw = x.r.w;
        const double n = qx * qx + qy * qy + qz * qz + qw * qw;
        const double k = n > 0.0 ? 2.0 / n : 0.0;
        const double l[12] = {(1 - k * (qy * qy + qz * qz)) * x.s.x,
                              k * (qx * qy + qw * qz) * x.s.x,
                              k * (qx * qz - qw * qy) * x.s.x,
                              k * (qx * qy - qw * qz) * x.s.y,
                              (1 - k * (qx * qx + qz * qz)) * x.s.y,
                              k * (qy * qz + qw * qx) * x.s.y,
                              k * (qx * qz + qw * qy) * x.s.z,
                              k * (qy * qz - qw * qx) * x.s.z,
                              (1 - k * (qx * qx + qy * qy)) * x.s.z,
                              x.t.x,
                              x.t.y,
                              x.t.z};
        if (parents[j] < 0) {
            memcpy(m[j], l, sizeof l);
            continue;
        }
        const double* p = m[parents[j]];
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 3; ++r)
                m[j][3 * c + r] = p[r] * l[3 * c] + p[3 + r] * l[3 * c + 1] +
                                  p[6 + r] * l[3 * c + 2] + (c == 3 ? p[9 + r] : 0.0);
    }
}

typedef struct worst {
    double error;
    uint32_t joint;
    float time;
} worst;

/* The times to check: the source's joint key times, the compressed clip's
 * samples at `rate`, 0 and the end; with `between` the quarter points of
 * every two consecutive ones instead. *n set; malloc'd. */
static float* check_times(const sw_clip* src, float rate, bool between, uint32_t* n) {
    const sw_clip_track* tr = sw_clip_tracks(src);
    const uint32_t joint_tracks = src->tracks_count - src->float_tracks_count;
    const uint32_t samples = (uint32_t)ceil((double)src->duration * rate - 1e-3) + 1u;
    size_t cap = 2u + samples;
    for (uint32_t i = 0; i < joint_tracks; ++i)
        cap += tr[i].keys_count;
    float* t = (float*)malloc(2u * cap * sizeof(float));
    if (!t) exit(2);
    uint32_t k = 0;
    t[k++] = 0.0f;
    t[k++] = src->duration;
    for (uint32_t i = 0; i < samples; ++i)
        t[k++] = fminf((float)i / rate, src->duration);
    for (uint32_t i = 0; i < joint_tracks; ++i)
        for (uint32_t q = 0; q < tr[i].keys_count; ++q)
            t[k++] = fminf(fmaxf(sw_clip_track_key_time(src, &tr[i], q), 0.0f), src->duration);
    qsort(t, k, sizeof(float), float_cmp);
    if (between) {
        float* q = (float*)malloc(3u * (k + 1u) * sizeof(float));
        if (!q) exit(2);
        uint32_t m = 0;
        for (uint32_t i = 0; i + 1u < k; ++i) {
            if (!(t[i + 1u] > t[i])) continue;
            for (uint32_t part = 1; part <= 3u; ++part)
                q[m++] = (float)((double)t[i] + ((double)t[i + 1u] - (double)t[i]) * 0.25 * part);
        }
        free(t);
        t = q;
        k = m;
    }
    *n = k;
    return t;
}

/* Largest distance between the virtual vertices of the two clips at the
 * check times (between: their quarter points). */
static worst bound_error(const sw_skeleton* s, const sw_clip* src, const sw_clip* packed,
                         float rate, bool between) {
    const uint32_t J = s->joints_count, P = s->packets_count;
    sw_xform4* pa = (sw_xform4*)aligned_alloc(16, sizeof(sw_xform4) * P);
    sw_xform4* pb = (sw_xform4*)aligned_alloc(16, sizeof(sw_xform4) * P);
    double(*ma)[12] = calloc(J, sizeof *ma);
    double(*mb)[12] = calloc(J, sizeof *mb);
    uint32_t n = 0;
    float* times = check_times(src, rate, between, &n);
    if (!pa || !pb || !ma || !mb) exit(2);
    worst w = {0.0, 0, 0.0f};
    for (uint32_t i = 0; i < n; ++i) {
        const sw_sample_job ja = {
            .clip = src, .skeleton = s, .time = times[i], .out = pa, .out_count = P};
        const sw_sample_job jb = {
            .clip = packed, .skeleton = s, .time = times[i], .out = pb, .out_count = P};
        if (sw_sample_job_run(&ja) != SW_RESULT_OK || sw_sample_job_run(&jb) != SW_RESULT_OK) {
            w.error = INFINITY;
            w.time = times[i];
            break;
        }
        fk(s, pa, ma);
        fk(s, pb, mb);
        for (uint32_t j = 0; j < J; ++j) {
            for (int axis = 0; axis < 3; ++axis) {
                const double* ca = &ma[j][3 * axis];
                const double len = sqrt(ca[0] * ca[0] + ca[1] * ca[1] + ca[2] * ca[2]);
                const double at = len > 0.0 ? SHELL / len : SHELL;
                double d2 = 0.0;
                for (int r = 0; r < 3; ++r) {
                    const double d = (ma[j][9 + r] + at * ma[j][3 * axis + r]) -
                                     (mb[j][9 + r] + at * mb[j][3 * axis + r]);
                    d2 += d * d;
                }
                if (!(sqrt(d2) <= w.error)) {
                    w.error = sqrt(d2);
                    w.joint = j;
                    w.time = times[i];
                }
            }
        }
    }
    free(times);
    free(pa);
    free(pb);
    free(ma);
    free(mb);
    return w;
}

/* ---- one file, in a child ---- */

/* Every joint's local transform at t finite. */
static bool sample_finite(const sw_skeleton* s, const sw_clip* c, float t) {
    sw_xform4* p = (sw_xform4*)aligned_alloc(16, sizeof(sw_xform4) * s->packets_count);
    if (!p) exit(2);
    const sw_sample_job job = {
        .clip = c, .skeleton = s, .time = t, .out = p, .out_count = s->packets_count};
    bool ok = sw_sample_job_run(&job) == SW_RESULT_OK;
    const float* f = (const float*)(const void*)p;
    for (size_t i = 0; ok && i < sizeof(sw_xform4) / sizeof(float) * s->packets_count; ++i)
        ok = isfinite(f[i]);
    free(p);
    return ok;
}

/* Exports the compressed clips with the skeleton and meshes as .glb and
 * reads it back: the same joint and clip counts. NULL or what failed. */
static const char* export_reimport(const sw_asset* a, const sw_clip** packed, char* why,
                                   size_t cap) {
    sw_scene scene;
    memset(&scene, 0, sizeof scene);
    scene.skeleton = a->skeleton;
    scene.clips = packed;
    scene.clips_count = a->clips_count;
    scene.meshes = (const sw_mesh**)a->meshes;
    scene.meshes_count = a->meshes_count;
    void* glb = NULL;
    size_t size = 0;
    sw_error err;
    memset(&err, 0, sizeof err);
    sw_result r = sw_gltf_export(&scene, NULL, NULL, &glb, &size, &err);
    if (r != SW_RESULT_OK) {
        snprintf(why, cap, "export: %s (%s)", sw_result_str(r), err.check ? err.check : "");
        return why;
    }
    sw_scene back;
    r = sw_gltf_read(glb, size, NULL, NULL, &back, &err);
    sw_free(NULL, glb, size);
    if (r != SW_RESULT_OK) {
        snprintf(why, cap, "re-import: %s (%s)", sw_result_str(r), err.check ? err.check : "");
        return why;
    }
    uint32_t additive = 0;
    for (uint32_t c = 0; c < a->clips_count; ++c)
        additive += (a->clips[c]->flags & SW_CLIP_FLAG_ADDITIVE) ? 1u : 0u;
    if (back.skeleton->joints_count != a->skeleton->joints_count ||
        back.clips_count != a->clips_count - additive) {
        snprintf(why, cap, "re-import: %u joints, %u clips (wrote %u, %u)",
                 back.skeleton->joints_count, back.clips_count, a->skeleton->joints_count,
                 a->clips_count - additive);
        sw_scene_free(&back, NULL);
        return why;
    }
    sw_scene_free(&back, NULL);
    return NULL;
}

/* Compresses clip c: PASS with its figures, REFUSED when the compressor
 * says the bound cannot be held, BROKEN otherwise. */
static int compress_one(const char* path, const sw_asset* a, uint32_t c, const sw_clip** packed,
                        double* worst_error) {
    const sw_clip* clip = a->clips[c];
    if (!sample_finite(a->skeleton, clip, 0.0f) ||
        !sample_finite(a->skeleton, clip, clip->duration)) {
        printf("FAIL    %s: clip \"%s\": a sampled value is not finite\n", path,
               sw_clip_name(clip));
        return BROKEN;
    }
    const sw_compress_options o = {.precision = PRECISION, .shell = (float)SHELL};
    sw_compress_stats st;
    sw_error err;
    memset(&err, 0, sizeof err);
    const sw_result r = sw_compress_clip(a->skeleton, clip, &o, NULL, &packed[c], &st, &err);
    if (r == SW_RESULT_LIMIT && err.check && strcmp(err.check, "error within precision") == 0) {
        printf("refused %s: clip \"%s\": error %.4g at joint \"%s\", %.3f s, over %g at every "
               "rate\n",
               path, sw_clip_name(clip), (double)st.error.max,
               sw_skeleton_joint_name(a->skeleton, st.error.worst_joint),
               (double)st.error.worst_time, (double)PRECISION);
        return REFUSED;
    }
    if (r != SW_RESULT_OK) {
        printf("FAIL    %s: clip \"%s\": compress: %s (%s)\n", path, sw_clip_name(clip),
               sw_result_str(r), err.check ? err.check : "");
        return BROKEN;
    }
    const worst w = bound_error(a->skeleton, clip, packed[c], st.rate, false);
    if (!(w.error <= (double)PRECISION * 1.001)) {
        printf("FAIL    %s: clip \"%s\": error %.6g at joint \"%s\", %.4f s, over %g (reported "
               "%.6g)\n",
               path, sw_clip_name(clip), w.error, sw_skeleton_joint_name(a->skeleton, w.joint),
               (double)w.time, (double)PRECISION, (double)st.error.max);
        return BROKEN;
    }
    /* Between samples: the decoder's interpolation against the source's. */
    const worst b = bound_error(a->skeleton, clip, packed[c], st.rate, true);
    if (!(b.error <= (double)PRECISION * 1.001)) {
        printf("FAIL    %s: clip \"%s\": error %.6g at joint \"%s\", %.4f s, between samples "
               "(%.3f Hz), over %g (reported %.6g)\n",
               path, sw_clip_name(clip), b.error, sw_skeleton_joint_name(a->skeleton, b.joint),
               (double)b.time, (double)st.rate, (double)PRECISION, (double)st.error.max);
        return BROKEN;
    }
    if (w.error > *worst_error) *worst_error = w.error;
    if (b.error > *worst_error) *worst_error = b.error;
    return PASS;
}

static int run_file(const char* path, unsigned timeout_s) {
    const sw_asset_reader readers[] = {SW_ASSIMP_ASSET_READER};
    const sw_asset_options ao = {
        .readers = readers, .readers_count = 1, .timeout_ms = timeout_s * 1000u / 2u};
    sw_asset a;
    sw_error err;
    memset(&err, 0, sizeof err);
    sw_result r = sw_asset_open(path, &ao, &a, &err);
    /* A glTF file with nothing to animate is refused by the reader, where
     * assimp's static models open without clips: both count as without
     * animation, not as refused. */
    if (r == SW_RESULT_NOT_FOUND && err.check && strcmp(err.check, "skin or animated node") == 0)
        return STILL;
    if (r != SW_RESULT_OK) {
        /* the reader's warning, unless it repeats the detail */
        const bool warn = a.warning[0] && !strstr(err.detail, a.warning);
        printf("refused %s: %s%s%s%s%s (%s)%s%s\n", path, sw_result_str(r),
               err.sys_errno ? ": " : "", err.sys_errno ? strerror(err.sys_errno) : "",
               err.detail[0] ? ": " : "", err.detail, err.check ? err.check : "", warn ? ": " : "",
               warn ? a.warning : "");
        return REFUSED;
    }
    if (a.clips_count == 0) {
        sw_asset_free(&a);
        return STILL;
    }
    const sw_clip** packed = (const sw_clip**)calloc(a.clips_count, sizeof *packed);
    if (!packed) exit(2);
    int rc = PASS;
    double worst_error = 0.0;
    for (uint32_t c = 0; c < a.clips_count && rc == PASS; ++c)
        rc = compress_one(path, &a, c, packed, &worst_error);
    char why[512];
    const char* bad = rc == PASS ? export_reimport(&a, packed, why, sizeof why) : NULL;
    if (bad) {
        printf("FAIL    %s: %s\n", path, bad);
        rc = BROKEN;
    }
    if (rc == PASS) {
        printf("pass    %s: %u joints, %u clips, max error %.4g\n", path, a.skeleton->joints_count,
               a.clips_count, worst_error);
    }
    for (uint32_t c = 0; c < a.clips_count; ++c)
        sw_clip_destroy(packed[c], NULL);
    free(packed);
    sw_asset_free(&a);
    return rc;
}

/* ---- the driver ---- */

typedef struct tally {
    unsigned files, passed, refused, still, failed;
} tally;

static void account(tally* t, const char* path, int status) {
    if (WIFSIGNALED(status)) {
        printf("FAIL    %s: %s\n", path,
               WTERMSIG(status) == SIGALRM ? "timed out" : "crashed (signal)");
        ++t->failed;
        return;
    }
    switch (WIFEXITED(status) ? WEXITSTATUS(status) : -1) {
    case PASS:
        ++t->passed;
        break;
    case REFUSED:
        ++t->refused;
        break;
    case STILL:
        ++t->still;
        break;
    default:
        ++t->failed;
        break;
    }
}

int main(int argc, char** argv) {
    unsigned timeout_s = 120, jobs = 2;
    files f = {NULL, 0, 0};
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--timeout") == 0 && i + 1 < argc) {
            timeout_s = (unsigned)atoi(argv[++i]);
        } else if (strcmp(argv[i], "--jobs") == 0 && i + 1 < argc) {
            jobs = (unsigned)atoi(argv[++i]);
        } else {
            const char* dir = argv[i];
            if (strcmp(dir, "--assets") == 0 && i + 1 < argc) {
                const char* env = getenv("SINEW_ASSETS");
                dir = env && *env ? env : argv[i + 1];
                ++i;
            }
            struct stat st;
            if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
                printf("skipped: %s not found\n", dir);
            else
                collect(dir, &f);
        }
    }
    qsort(f.paths, f.count, sizeof *f.paths, path_cmp);
    fflush(stdout);
    tally t = {0, 0, 0, 0, 0};
    pid_t* pids = (pid_t*)calloc(jobs ? jobs : 1u, sizeof *pids);
    size_t* which = (size_t*)calloc(jobs ? jobs : 1u, sizeof *which);
    size_t next = 0, running = 0;
    const time_t t0 = time(NULL);
    while (next < f.count || running > 0) {
        while (next < f.count && running < jobs) {
            const pid_t pid = fork();
            if (pid == 0) {
                alarm(timeout_s);
                const int rc = run_file(f.paths[next], timeout_s);
                fflush(stdout);
                _exit(rc);
            }
            for (unsigned k = 0; k < jobs; ++k) {
                if (pids[k] == 0) {
                    pids[k] = pid;
                    which[k] = next;
                    break;
                }
            }
            ++next;
            ++running;
            ++t.files;
        }
        int status = 0;
        const pid_t done = wait(&status);
        for (unsigned k = 0; k < jobs; ++k) {
            if (pids[k] == done && done > 0) {
                account(&t, f.paths[which[k]], status);
                fflush(stdout);
                pids[k] = 0;
                --running;
            }
        }
    }
    printf("corpus: %u files, %u passed (the bound held at keys, samples and the quarter points "
           "between them), %u refused (reasons above), %u without animation (no clip, or glTF "
           "without skin or animated node), %u failed, %ld s\n",
           t.files, t.passed, t.refused, t.still, t.failed, (long)(time(NULL) - t0));
    for (size_t i = 0; i < f.count; ++i)
        free(f.paths[i]);
    free(f.paths);
    free(pids);
    free(which);
    return t.failed ? 1 : 0;
}
