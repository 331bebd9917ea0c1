/* An independent, deliberately simple BVH reader and forward kinematics in
 * double precision, used as the reference for sinew's BVH reader, sampling
 * and local-to-model (test_bvh.c) and for the CLI (test_cli.c).
 *
 * Parsing is deliberately naive, over a NUL-terminated copy: whitespace-separated
 * tokens, numbers with strtod, frames as a flat list of numbers. Rotations
 * are 3x3 matrices built per axis in the order the channels are listed
 * (R = R1 * R2 * R3), position channels replace the OFFSET component they
 * name, and model space is composed down the parent chain. */
#ifndef SINEW_TEST_BVH_FK_H
#define SINEW_TEST_BVH_FK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FK_MAX_JOINTS 2048

typedef struct fk_joint {
    char name[300];
    int parent; /* index in fk_bvh.joints (End Sites included) */
    int end_site;
    double offset[3];
    int nch;
    int ch[6]; /* 0..2 X/Y/Z position, 3..5 X/Y/Z rotation */
    int first; /* first column in a frame */
} fk_joint;

typedef struct fk_bvh {
    fk_joint* joints;
    int count;
    int channels;
    int frames_declared;
    int frames; /* complete frames of numbers found */
    double frame_time;
    double* data; /* frames * channels */
} fk_bvh;

static inline void fk_free(fk_bvh* b) {
    free(b->joints);
    free(b->data);
    memset(b, 0, sizeof *b);
}

/* Next whitespace-separated token into tok (at most 299 chars); 0 at the
 * end. (Not sscanf on the whole text: glibc's sscanf measures the remaining
 * string on every call, which is quadratic on a 3 MB file.) */
static inline int fk_token(const char** p, char* tok) {
    const char* s = *p;
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        ++s;
    int n = 0;
    while (*s && *s != ' ' && *s != '\t' && *s != '\r' && *s != '\n' && n < 299)
        tok[n++] = *s++;
    tok[n] = '\0';
    *p = s;
    return n > 0;
}

/* Parses NUL-terminated BVH text; 0 on success, -1 when it is not understood. */
static inline int fk_parse(const char* text, fk_bvh* b) {
    memset(b, 0, sizeof *b);
    b->joints = (fk_joint*)calloc(FK_MAX_JOINTS, sizeof(fk_joint));
    if (!b->joints) return -1;
    char tok[300];
    const char* p = text;
    int stack[FK_MAX_JOINTS];
    int depth = 0;
    if (!fk_token(&p, tok) || strcmp(tok, "HIERARCHY") != 0) goto fail;
    for (;;) {
        if (!fk_token(&p, tok)) goto fail;
        if (strcmp(tok, "MOTION") == 0 && depth == 0) break;
        if (strcmp(tok, "ROOT") == 0 || strcmp(tok, "JOINT") == 0 || strcmp(tok, "End") == 0) {
            if (b->count >= FK_MAX_JOINTS) goto fail;
            fk_joint* j = &b->joints[b->count];
            j->parent = depth > 0 ? stack[depth - 1] : -1;
            j->end_site = strcmp(tok, "End") == 0;
            if (!fk_token(&p, tok)) goto fail; /* the name, or "Site" */
            if (!j->end_site) snprintf(j->name, sizeof j->name, "%s", tok);
            stack[depth++] = b->count++;
        } else if (strcmp(tok, "{") == 0) {
            continue;
        } else if (strcmp(tok, "}") == 0) {
            if (depth == 0) goto fail;
            --depth;
        } else if (strcmp(tok, "OFFSET") == 0 && depth > 0) {
            fk_joint* j = &b->joints[stack[depth - 1]];
            for (int k = 0; k < 3; ++k) {
                if (!fk_token(&p, tok)) goto fail;
                j->offset[k] = strtod(tok, NULL);
            }
        } else if (strcmp(tok, "CHANNELS") == 0 && depth > 0) {
            fk_joint* j = &b->joints[stack[depth - 1]];
            if (!fk_token(&p, tok)) goto fail;
            j->nch = atoi(tok);
            if (j->nch < 0 || j->nch > 6) goto fail;
            j->first = b->channels;
            b->channels += j->nch;
            for (int c = 0; c < j->nch; ++c) {
                if (!fk_token(&p, tok) || strlen(tok) != 9) goto fail;
                int axis = tok[0] - 'X';
                if (axis < 0 || axis > 2) goto fail;
                if (strcmp(tok + 1, "position") == 0)
                    j->ch[c] = axis;
                else if (strcmp(tok + 1, "rotation") == 0)
                    j->ch[c] = 3 + axis;
                else
                    goto fail;
            }
        } else {
            goto fail;
        }
    }
    if (!fk_token(&p, tok) || strcmp(tok, "Frames:") != 0 || !fk_token(&p, tok)) goto fail;
    b->frames_declared = atoi(tok);
    if (!fk_token(&p, tok) || strcmp(tok, "Frame") != 0) goto fail;
    if (!fk_token(&p, tok) || strcmp(tok, "Time:") != 0) goto fail;
    if (!fk_token(&p, tok)) goto fail;
    b->frame_time = strtod(tok, NULL);
    size_t cap = 1024, n = 0;
    b->data = (double*)malloc(cap * sizeof(double));
    if (!b->data) goto fail;
    while (fk_token(&p, tok)) {
        if (n == cap) {
            cap *= 2;
            double* d = (double*)realloc(b->data, cap * sizeof(double));
            if (!d) goto fail;
            b->data = d;
        }
        b->data[n++] = strtod(tok, NULL);
    }
    b->frames = b->channels > 0 ? (int)(n / (size_t)b->channels) : 0;
    return 0;
fail:
    fk_free(b);
    return -1;
}

/* 3x3 row-major matrices. */
static inline void fk_mat_mul(const double a[9], const double b[9], double out[9]) {
    double r[9];
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            r[i * 3 + j] = a[i * 3 + 0] * b[0 * 3 + j] + a[i * 3 + 1] * b[1 * 3 + j] +
                           a[i * 3 + 2] * b[2 * 3 + j];
        }
    }
    memcpy(out, r, sizeof r);
}

static inline void fk_axis_matrix(int axis, double deg, double m[9]) {
    const double a = deg * 3.14159265358979323846 / 180.0;
    const double c = cos(a), s = sin(a);
    static const double id[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    memcpy(m, id, sizeof id);
    if (axis == 0) {
        m[4] = c, m[5] = -s, m[7] = s, m[8] = c;
    } else if (axis == 1) {
        m[0] = c, m[2] = s, m[6] = -s, m[8] = c;
    } else {
        m[0] = c, m[1] = -s, m[3] = s, m[4] = c;
    }
}

/* Local rotation matrix and translation of joint j at frame f (scaled). */
static inline void fk_local(const fk_bvh* b, int j, int f, double scale, double r[9], double t[3]) {
    static const double id[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    const fk_joint* jt = &b->joints[j];
    memcpy(r, id, sizeof id);
    for (int k = 0; k < 3; ++k)
        t[k] = jt->offset[k];
    for (int c = 0; c < jt->nch; ++c) {
        double v = b->data[(size_t)f * (size_t)b->channels + (size_t)(jt->first + c)];
        if (jt->ch[c] < 3) {
            t[jt->ch[c]] = v;
        } else {
            double m[9];
            fk_axis_matrix(jt->ch[c] - 3, v, m);
            fk_mat_mul(r, m, r);
        }
    }
    for (int k = 0; k < 3; ++k)
        t[k] *= scale;
}

/* Quaternion (x, y, z, w) of a rotation matrix (row-major). */
static inline void fk_mat_to_quat(const double m[9], double q[4]) {
    double tr = m[0] + m[4] + m[8];
    if (tr > 0) {
        double s = sqrt(tr + 1.0) * 2;
        q[3] = 0.25 * s, q[0] = (m[7] - m[5]) / s, q[1] = (m[2] - m[6]) / s,
        q[2] = (m[3] - m[1]) / s;
    } else if (m[0] > m[4] && m[0] > m[8]) {
        double s = sqrt(1.0 + m[0] - m[4] - m[8]) * 2;
        q[3] = (m[7] - m[5]) / s, q[0] = 0.25 * s, q[1] = (m[1] + m[3]) / s,
        q[2] = (m[2] + m[6]) / s;
    } else if (m[4] > m[8]) {
        double s = sqrt(1.0 + m[4] - m[0] - m[8]) * 2;
        q[3] = (m[2] - m[6]) / s, q[0] = (m[1] + m[3]) / s, q[1] = 0.25 * s,
        q[2] = (m[5] + m[7]) / s;
    } else {
        double s = sqrt(1.0 + m[8] - m[0] - m[4]) * 2;
        q[3] = (m[3] - m[1]) / s, q[0] = (m[2] + m[6]) / s, q[1] = (m[5] + m[7]) / s,
        q[2] = 0.25 * s;
    }
}

static inline void fk_quat_to_mat(const double q[4], double m[9]) {
    const double x = q[0], y = q[1], z = q[2], w = q[3];
    m[0] = 1 - 2 * (y * y + z * z), m[1] = 2 * (x * y - z * w), m[2] = 2 * (x * z + y * w);
    m[3] = 2 * (x * y + z * w), m[4] = 1 - 2 * (x * x + z * z), m[5] = 2 * (y * z - x * w);
    m[6] = 2 * (x * z - y * w), m[7] = 2 * (y * z + x * w), m[8] = 1 - 2 * (x * x + y * y);
}

/* Slerp on the shortest arc in double. */
static inline void fk_slerp(const double a[4], const double b0[4], double t, double out[4]) {
    double b[4] = {b0[0], b0[1], b0[2], b0[3]};
    double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    if (d < 0) {
        for (int k = 0; k < 4; ++k)
            b[k] = -b[k];
        d = -d;
    }
    double wa, wb;
    if (d > 0.9999999) {
        wa = 1 - t, wb = t;
    } else {
        double th = acos(d);
        wa = sin((1 - t) * th) / sin(th), wb = sin(t * th) / sin(th);
    }
    double n = 0;
    for (int k = 0; k < 4; ++k) {
        out[k] = wa * a[k] + wb * b[k];
        n += out[k] * out[k];
    }
    n = sqrt(n);
    for (int k = 0; k < 4; ++k)
        out[k] /= n;
}

/* Model-space positions (pos[j*3..]) and rotations (rot[j*9..], may be NULL)
 * of every joint (End Sites included) at frame f, or between frames f and
 * f + 1 at `alpha` (0: frame f exactly, from the Euler matrices alone). */
static inline void fk_pose(const fk_bvh* b, int f, double alpha, double scale, double* pos,
                           double* rot) {
    double* rots = (double*)malloc((size_t)b->count * 9 * sizeof(double));
    for (int j = 0; j < b->count; ++j) {
        double r[9], t[3];
        fk_local(b, j, f, scale, r, t);
        if (alpha != 0.0) {
            double r1[9], t1[3], qa[4], qb[4], q[4];
            fk_local(b, j, f + 1, scale, r1, t1);
            fk_mat_to_quat(r, qa);
            fk_mat_to_quat(r1, qb);
            fk_slerp(qa, qb, alpha, q);
            fk_quat_to_mat(q, r);
            for (int k = 0; k < 3; ++k)
                t[k] += (t1[k] - t[k]) * alpha;
        }
        const int p = b->joints[j].parent;
        if (p < 0) {
            memcpy(&rots[j * 9], r, sizeof r);
            memcpy(&pos[j * 3], t, sizeof t);
        } else {
            const double* pr = &rots[p * 9];
            for (int k = 0; k < 3; ++k) {
                pos[j * 3 + k] = pos[p * 3 + k] + pr[k * 3 + 0] * t[0] + pr[k * 3 + 1] * t[1] +
                                 pr[k * 3 + 2] * t[2];
            }
            fk_mat_mul(pr, r, &rots[j * 9]);
        }
    }
    if (rot) memcpy(rot, rots, (size_t)b->count * 9 * sizeof(double));
    free(rots);
}

/* Reads a whole file as a NUL-terminated string (malloc'd), NULL on failure. */
static inline char* fk_read_text(const char* path, size_t* size) {
    FILE* f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char* s = n >= 0 ? (char*)malloc((size_t)n + 1) : NULL;
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    fclose(f);
    if (s) {
        s[n] = '\0';
        if (size) *size = (size_t)n;
    }
    return s;
}

#endif
