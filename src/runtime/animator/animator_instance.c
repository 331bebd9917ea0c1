/* Animator instances: update (times, transitions, events, root motion),
 * play, evaluate (sample + blend jobs, layers, inertialization) and
 * inspection. See sinew/animator/animator.h for the behaviour.
 *
 * Instance layout (offsets from the header, 16-byte aligned parts):
 *     header
 *     machines   sw__mrun[machines_count]    playing states of each machine
 *     layers     sw__lrun[layers_count]
 *     contribs   sw_animator_contribution[layers_count * max_contrib]
 *     params     float[params_count]         the parameters of the last update
 *     caches     sw__cslot[caches]           the sampling caches of the layers
 *     cursors    uint32_t[caches * cursors]  (the bound's caches_first: one per
 *                cached clip a layer may play; both empty when none caches)
 *     inertia    per layer (when the definition inertializes): two history
 *                poses, then 14 floats per joint (translation direction,
 *                x0, v0, a0, T, rotation axis, x0, v0, a0, T)
 *
 * Normalized times are doubles (cycles, unwrapped), so long sessions keep
 * their precision; clip times are floats derived from them. */
#include <string.h>

#include "animator_internal.h"

#define SW__PI 3.14159265358979323846
#define SW__INERT_FLOATS 14u
#define SW__CYCLES_LOOP 1024u /* full cycles walked one by one for events */
/* Most cycles one update may advance a state (absurd dt or speeds): keeps
 * normalized times finite and cycle counts exact in a double and a uint64. */
#define SW__MAX_STEP 1e12

typedef struct sw__entry {
    double ntime; /* normalized time now */
    double prev;  /* at the start of the last update */
    /* no clip of the state has an event (of the instance's quiet_with bound)
     * at normalized times in [quiet_from, quiet) (see sw__note_quiet; both 0:
     * nothing known) */
    double quiet_from, quiet;
    uint32_t state;
    float snap; /* weight when the newest transition began */
    uint32_t finished;
    uint32_t pad;
} sw__entry;

typedef struct sw__mrun {
    uint32_t playing;
    uint32_t count;
    float elapsed, duration;
    uint32_t interrupt;
    float weight; /* the machine's total weight, while its layer's weights_valid */
    sw__entry e[SW_ANIMATOR_MAX_FADES];
} sw__mrun;

typedef struct sw__lrun {
    float weight;
    uint32_t contrib_count;
    uint32_t inert; /* 0 none, 1 pending, 2 active */
    float inert_elapsed, inert_duration;
    uint32_t hist_count;
    uint64_t hist_frame;
    float hist_dt[2]; /* dt of the update that preceded each history pose */
    uint32_t stale;   /* weight and contributions to rebuild before they are read */
    /* the weights of the layer's machines (sw__mrun.weight) stand: no
     * machine of the layer started, stopped or faded since they were computed */
    uint32_t weights_valid;
} sw__lrun;

/* A sampling cache of a layer without pointers (see sw_sample_cache): the
 * clip slot its words belong to (of the bound in cached_with) and the time
 * of its last sample. Evaluate gives each contribution the cache that last
 * sampled its clip (sw__eval_claim), so forward playback resumes each key
 * search and keeps each clip's decoded keys whatever the contributions'
 * order; a cached sample is bit-identical to a cold seek. */
typedef struct sw__cslot {
    uint32_t clip; /* NONE: empty */
    float time;
} sw__cslot;

struct sw_animator_instance {
    uint32_t magic, size;
    uint32_t def_size, machines_count, layers_count, packets, params_count, max_contrib;
    uint32_t keep;    /* sw_animator_keep */
    uint32_t cursors; /* words per cache: the bound object's cursors[keep] */
    uint32_t caches;  /* sampling caches: the bound's caches_first[keep][layers_count] */
    uint32_t machines_offset, layers_offset, contribs_offset, params_offset, caches_offset;
    uint32_t cursors_offset, inert_offset;
    uint32_t inert_layer_bytes;
    uint64_t frame;
    float last_dt;
    uint32_t pose_changed; /* evaluate's inputs changed since the last evaluate (or none yet) */
    uint64_t built_with;   /* address of the bound the contributions were last built with */
    /* address of the bound of the last update when that update changed
     * nothing (see sw__update_still), else 0 (play and seek clear it) */
    uint64_t still_with;
    uint64_t quiet_with;  /* address of the bound whose clips the entries' quiet spans are of */
    uint64_t cached_with; /* address of the bound whose clips the caches hold (0: none) */
    /* member weights of blend space w_space (NONE: none) at the parameters,
     * kept while the parameters stay (sw__space_weights) */
    uint32_t w_space;
    float w[SW_ANIMATOR_MAX_MEMBERS];
};

/* ---- layout ------------------------------------------------------------------- */

typedef struct sw__inst_layout {
    uint32_t machines, layers, contribs, params, caches, cursors, inert, inert_layer, size;
} sw__inst_layout;

static void sw__inst_layout_of(const sw_animator_bound* b, uint32_t keep, sw__inst_layout* lay) {
    const sw_animator* a = b->def;
    uint64_t at = sw__align16(sizeof(sw_animator_instance));
    const uint64_t contribs = (uint64_t)a->layers_count * a->max_contrib;
    lay->machines =
        (uint32_t)sw__layout_take(&at, sizeof(sw__mrun) * (uint64_t)a->machines_count, 16u);
    lay->layers = (uint32_t)sw__layout_take(&at, sizeof(sw__lrun) * (uint64_t)a->layers_count, 16u);
    lay->contribs =
        (uint32_t)sw__layout_take(&at, sizeof(sw_animator_contribution) * contribs, 16u);
    lay->params = (uint32_t)sw__layout_take(&at, 4u * (uint64_t)a->params_count, 16u);
    const uint64_t caches = b->caches_first[keep][a->layers_count];
    lay->caches = (uint32_t)sw__layout_take(&at, sizeof(sw__cslot) * caches, 16u);
    lay->cursors = (uint32_t)sw__layout_take(&at, 4u * caches * b->cursors[keep], 16u);
    lay->inert = (uint32_t)at;
    lay->inert_layer = 0;
    if (a->has_inertialize) {
        uint64_t per = 2u * sizeof(sw_xform4) * (uint64_t)b->packets +
                       sw__align16(4u * SW__INERT_FLOATS * (uint64_t)b->skeleton->joints_count);
        lay->inert_layer = (uint32_t)per;
        at += per * a->layers_count;
    }
    lay->size = (uint32_t)sw__align16(at);
}

static sw__mrun* sw__mruns(sw_animator_instance* in) {
    return (sw__mrun*)(void*)((char*)in + in->machines_offset);
}
static const sw__mrun* sw__mruns_c(const sw_animator_instance* in) {
    return (const sw__mrun*)(const void*)((const char*)in + in->machines_offset);
}
static sw__lrun* sw__lruns(sw_animator_instance* in) {
    return (sw__lrun*)(void*)((char*)in + in->layers_offset);
}
static sw_animator_contribution* sw__contribs(sw_animator_instance* in, uint32_t layer) {
    return (sw_animator_contribution*)(void*)((char*)in + in->contribs_offset) +
           (size_t)layer * in->max_contrib;
}
static float* sw__iparams(sw_animator_instance* in) {
    return (float*)(void*)((char*)in + in->params_offset);
}
/* Sampling cache k (of all layers') and its words. */
static sw__cslot* sw__cslot_at(sw_animator_instance* in, uint32_t k) {
    return (sw__cslot*)(void*)((char*)in + in->caches_offset) + k;
}
static uint32_t* sw__cursors(sw_animator_instance* in, uint32_t k) {
    return (uint32_t*)(void*)((char*)in + in->cursors_offset) + (size_t)k * in->cursors;
}
static sw_xform4* sw__hist(sw_animator_instance* in, uint32_t layer, uint32_t k) {
    char* base = (char*)in + in->inert_offset + (size_t)layer * in->inert_layer_bytes;
    return (sw_xform4*)(void*)base + (size_t)k * in->packets;
}
static float* sw__inert(sw_animator_instance* in, uint32_t layer) {
    char* base = (char*)in + in->inert_offset + (size_t)layer * in->inert_layer_bytes;
    return (float*)(void*)(base + 2u * sizeof(sw_xform4) * in->packets);
}

static bool sw__inst_matches(const sw_animator_instance* in, const sw_animator_bound* b) {
    const sw_animator* a = b->def;
    return in->magic == SW__INSTANCE_MAGIC && in->def_size == a->size &&
           in->machines_count == a->machines_count && in->layers_count == a->layers_count &&
           in->packets == b->packets && in->params_count == a->params_count &&
           in->max_contrib == a->max_contrib && in->keep < SW_ANIMATOR_KEEP_COUNT &&
           in->cursors == b->cursors[in->keep] &&
           in->caches == b->caches_first[in->keep][a->layers_count];
}

static bool sw__bound_ok(const sw_animator_bound* b) {
    return b && b->magic == SW__BOUND_MAGIC && b->def && b->def->magic == SW__ANIMATOR_MAGIC;
}

size_t sw_animator_instance_size_keeping(const sw_animator_bound* b, sw_animator_keep keep) {
    if (!sw__bound_ok(b) || (uint32_t)keep >= SW_ANIMATOR_KEEP_COUNT) return 0;
    sw__inst_layout lay;
    sw__inst_layout_of(b, (uint32_t)keep, &lay);
    return lay.size;
}

size_t sw_animator_instance_size(const sw_animator_bound* b) {
    return sw_animator_instance_size_keeping(b, SW_ANIMATOR_KEEP_CURSORS);
}

/* ---- small math ----------------------------------------------------------------- */

/* floor(x), bit for bit, with an integer conversion for 0 < x < 2^52 (the
 * usual normalized times), where it truncates, which is floor there. */
static double sw__floor(double x) {
    if (x > 0.0 && x < 4503599627370496.0) return (double)(int64_t)x;
    return floor(x);
}

typedef struct sw__ground {
    float x, z, yaw;
} sw__ground;

static sw__ground sw__ground_mul(sw__ground a, sw__ground b) {
    float c = cosf(a.yaw), s = sinf(a.yaw);
    sw__ground r = {a.x + c * b.x + s * b.z, a.z - s * b.x + c * b.z, a.yaw + b.yaw};
    return r;
}

static float sw__wrap_pi(float a) {
    const float pi = (float)SW__PI;
    while (a > pi)
        a -= 2.0f * pi;
    while (a < -pi)
        a += 2.0f * pi;
    return a;
}

/* a^-1 * b */
static sw__ground sw__ground_rel(sw__ground a, sw__ground b) {
    float dx = b.x - a.x, dz = b.z - a.z;
    float c = cosf(a.yaw), s = sinf(a.yaw);
    sw__ground r = {c * dx - s * dz, s * dx + c * dz, sw__wrap_pi(b.yaw - a.yaw)};
    return r;
}

static sw__ground sw__ground_pow(sw__ground g, uint64_t k) {
    sw__ground r = {0.0f, 0.0f, 0.0f};
    while (k) {
        if (k & 1u) r = sw__ground_mul(r, g);
        g = sw__ground_mul(g, g);
        k >>= 1;
    }
    return r;
}

static float sw__twist_yaw(sw_quat q) {
    if (q.y == 0.0f && q.w == 0.0f) return 0.0f;
    return 2.0f * atan2f(q.y, q.w);
}

static sw_quat sw__yaw_quat(float yaw) {
    return sw_quat_make(0.0f, sinf(0.5f * yaw), 0.0f, cosf(0.5f * yaw));
}

/* Ground transform of the root joint of `clip` at `time` (any codec: the
 * joint as the sampling job gives it). */
static sw__ground sw__root_ground(const sw_animator_bound* b, const sw_clip* c, float time) {
    sw_xform local = sw__clip_sample_joint(c, b->skeleton, b->root_joint, time);
    sw_xform m = sw_xform_mul(b->root_parent, local);
    sw__ground g = {m.t.x, m.t.z, sw__twist_yaw(m.r)};
    return g;
}

/* Removes the ground transform from the root joint of a sampled pose. */
static void sw__root_fix(const sw_animator_bound* b, sw_xform4* pose) {
    sw_xform local = sw_pose_get(pose, b->root_joint);
    sw_xform m = sw_xform_mul(b->root_parent, local);
    float yaw = sw__twist_yaw(m.r);
    sw_quat inv = sw__yaw_quat(-yaw);
    m.t = sw_quat_rotate(inv, sw_vec3_make(0.0f, m.t.y, 0.0f));
    m.r = sw_quat_normalize(sw_quat_mul(inv, m.r));
    sw_pose_set(pose, b->root_joint, sw_xform_mul(b->root_parent_inv, m));
}

/* ---- parameters and blend spaces ------------------------------------------------------ */

static float sw__state_speed(const sw_animator* a, const float* params, uint32_t state) {
    const sw__anim_state* s = &sw__anim_states(a)[state];
    float k = s->speed;
    if (s->speed_param != SW_ANIMATOR_NONE) {
        float p = params[s->speed_param];
        k *= p > 0.0f ? p : 0.0f;
    }
    return k;
}

static float sw__clip_duration(const sw_animator_bound* b, uint32_t slot) {
    return sw__bound_clips(b)[slot]->duration;
}

/* Member weights of blend space `bi` at the parameters (sum 1). */
static void sw__bspace_weights(const sw_animator* a, uint32_t bi, const float* params, float* w) {
    const sw__anim_bspace* bs = &sw__anim_bspaces(a)[bi];
    const sw__anim_member* m = &sw__anim_members(a)[bs->first_member];
    const uint32_t n = bs->members_count;
    float px = params[bs->param_x];
    for (uint32_t i = 0; i < n; ++i)
        w[i] = 0.0f;
    if (n == 1) {
        w[0] = 1.0f;
        return;
    }
    if (bs->param_y == SW_ANIMATOR_NONE) { /* sorted by x */
        if (px <= m[0].x) {
            w[0] = 1.0f;
            return;
        }
        if (px >= m[n - 1u].x) {
            w[n - 1u] = 1.0f;
            return;
        }
        uint32_t k = 0;
        while (k + 2u < n && m[k + 1u].x <= px)
            ++k;
        float u = (px - m[k].x) / (m[k + 1u].x - m[k].x);
        w[k] = 1.0f - u;
        w[k + 1u] = u;
        return;
    }
    float py = params[bs->param_y];
    float sum = 0.0f;
    const float pr = sqrtf(px * px + py * py);
    for (uint32_t i = 0; i < n; ++i) {
        float h = 1.0f;
        float qx = px - m[i].x, qy = py - m[i].y;
        const float ri = sqrtf(m[i].x * m[i].x + m[i].y * m[i].y);
        for (uint32_t j = 0; j < n; ++j) {
            if (j == i) continue;
            float ex = m[j].x - m[i].x, ey = m[j].y - m[i].y;
            if (bs->directional) {
                /* polar: (radial difference / mean radius, 2 * signed angle) */
                const float rj = sqrtf(m[j].x * m[j].x + m[j].y * m[j].y);
                const float mean = 0.5f * (ri + rj);
                float aij = 0.0f, aip = 0.0f;
                if (ri > 0.0f && rj > 0.0f && pr > 0.0f) {
                    aij = atan2f(m[i].x * m[j].y - m[i].y * m[j].x,
                                 m[i].x * m[j].x + m[i].y * m[j].y);
                    aip = atan2f(m[i].x * py - m[i].y * px, m[i].x * px + m[i].y * py);
                    /* opposite members: either way round leads to j; measure p's
                     * angle unsigned so both sides are treated alike */
                    if (fabsf(aij) > 3.14159f) {
                        aij = 3.14159265f;
                        aip = fabsf(aip);
                    }
                }
                ex = (rj - ri) / mean;
                ey = 2.0f * aij;
                qx = (pr - ri) / mean;
                qy = 2.0f * aip;
            }
            float v = 1.0f - (qx * ex + qy * ey) / (ex * ex + ey * ey);
            if (v < h) h = v;
        }
        w[i] = h > 0.0f ? h : 0.0f;
        sum += w[i];
    }
    if (sum > 0.0f) {
        for (uint32_t i = 0; i < n; ++i)
            w[i] /= sum;
    } else { /* cannot happen for distinct points; keep a valid pose */
        w[0] = 1.0f;
    }
}

static const double* sw__marks(const sw_animator_bound* b, uint32_t bi, uint32_t member) {
    const double* base = (const double*)(const void*)((const char*)b + b->marks_offset);
    return base + b->marks_index[bi] + (size_t)member * (SW__ANIM_MAX_MARKS + 1u);
}

/* Member's normalized clip time (cycles, unwrapped) at phase p of a blend
 * space with k > 0 sync markers per cycle. */
static double sw__synced_ntime(const sw_animator_bound* b, uint32_t bi, uint32_t k, uint32_t member,
                               double p) {
    const double* u = sw__marks(b, bi, member);
    double cyc = sw__floor(p);
    double psi = (p - cyc) * (double)k;
    uint32_t s = (uint32_t)psi;
    if (s >= k) s = k - 1u;
    double f = psi - (double)s;
    return cyc + u[s] + f * (u[s + 1u] - u[s]);
}

/* Member's normalized clip time (cycles, unwrapped) at blend space phase p
 * (p itself without sync markers). */
static inline double sw__member_ntime(const sw_animator_bound* b, uint32_t bi, uint32_t member,
                                      double p) {
    const uint32_t k = b->marks_count[bi];
    return k == 0 ? p : sw__synced_ntime(b, bi, k, member, p);
}

/* Advances a blend space phase by `dt` seconds at `speed`. */
static double sw__bspace_advance(const sw_animator_bound* b, uint32_t bi, const float* w, double p,
                                 double dt) {
    const sw_animator* a = b->def;
    const sw__anim_bspace* bs = &sw__anim_bspaces(a)[bi];
    const sw__anim_member* m = &sw__anim_members(a)[bs->first_member];
    uint32_t k = b->marks_count[bi];
    double len = 0.0;
    for (uint32_t i = 0; i < bs->members_count; ++i) {
        len += (double)w[i] * (double)sw__clip_duration(b, m[i].clip);
    }
    if (!(len > 0.0) || !(dt > 0.0)) return p;
    if (dt / len > SW__MAX_STEP) dt = SW__MAX_STEP * len; /* see SW__MAX_STEP */
    if (k == 0) return p + dt / len;
    /* Segment by segment: segment s lasts sum w_i * d_i * (u_i[s+1] - u_i[s]). */
    double cycles = sw__floor(dt / len);
    double rest = dt - cycles * len;
    p += cycles;
    for (uint32_t guard = 0; guard < 2u * k + 2u && rest > 0.0; ++guard) {
        double cyc = sw__floor(p);
        double psi = (p - cyc) * (double)k;
        uint32_t s = (uint32_t)psi;
        if (s >= k) s = k - 1u;
        double seg = 0.0;
        for (uint32_t i = 0; i < bs->members_count; ++i) {
            const double* u = sw__marks(b, bi, i);
            seg += (double)w[i] * (double)sw__clip_duration(b, m[i].clip) * (u[s + 1u] - u[s]);
        }
        double left = ((double)(s + 1u) - psi) * seg; /* seconds to the segment's end */
        if (rest < left) {
            p = cyc + (psi + rest / seg) / (double)k;
            rest = 0.0;
        } else {
            p = cyc + (double)(s + 1u) / (double)k;
            rest -= left;
        }
    }
    return p;
}

/* ---- machines ------------------------------------------------------------------------ */

typedef struct sw__ctx {
    const sw_animator* a;
    const sw_animator_bound* b;
    sw_animator_instance* in;
    float* params;     /* caller's (triggers cleared here) or NULL */
    const float* vals; /* parameter values used for weights */
    sw_animator_event* events;
    uint32_t capacity;
    uint32_t count;
    uint32_t layer;
    float layer_weight;
    bool root_motion;
    bool moved; /* a clock or fade of the layer moved, or a transition fired */
    bool quiet; /* the entry being collected steps inside its quiet span */
    double rm_x, rm_z, rm_yaw, rm_w;
} sw__ctx;

static void sw__emit(sw__ctx* c, const sw_animator_event* e) {
    if (c->count < c->capacity) c->events[c->count] = *e;
    if (c->count < UINT32_MAX) c->count++;
}

/* Member weights of blend space `bi` at the instance's parameters, kept in
 * the instance until another space's are asked for or the parameters
 * change (an update with other values, or a fired transition clearing a
 * trigger, forgets them). */
static const float* sw__space_weights(sw__ctx* c, uint32_t bi) {
    if (c->in->w_space != bi) {
        sw__bspace_weights(c->a, bi, c->vals, c->in->w);
        c->in->w_space = bi;
    }
    return c->in->w;
}

static float sw__entry_weight(const sw__mrun* r, uint32_t i) {
    if (r->count <= 1) return 1.0f;
    float alpha = r->duration > 0.0f ? r->elapsed / r->duration : 1.0f;
    if (alpha > 1.0f) alpha = 1.0f;
    if (i + 1u == r->count) return alpha;
    return (1.0f - alpha) * r->e[i].snap;
}

static void sw__machine_stop(sw__ctx* c, uint32_t m);

/* Stops the nested machine of entry i's state unless another entry holds it. */
static void sw__entry_release(sw__ctx* c, sw__mrun* r, uint32_t i) {
    const sw__anim_state* s = &sw__anim_states(c->a)[r->e[i].state];
    if (s->motion != SW_ANIMATOR_MOTION_MACHINE) return;
    for (uint32_t k = 0; k < r->count; ++k) {
        if (k != i && r->e[k].state == r->e[i].state) return;
    }
    sw__machine_stop(c, s->target);
}

static void sw__machine_stop(sw__ctx* c, uint32_t m) {
    sw__mrun* r = &sw__mruns(c->in)[m];
    if (!r->playing) return;
    for (uint32_t i = 0; i < r->count; ++i) {
        const sw__anim_state* s = &sw__anim_states(c->a)[r->e[i].state];
        if (s->motion == SW_ANIMATOR_MOTION_MACHINE) sw__machine_stop(c, s->target);
    }
    memset(r, 0, sizeof *r);
}

static void sw__machine_reset(sw__ctx* c, uint32_t m) {
    sw__mrun* r = &sw__mruns(c->in)[m];
    memset(r, 0, sizeof *r);
    r->playing = 1;
    r->count = 1;
    r->e[0].state = sw__anim_machines(c->a)[m].entry;
    r->e[0].snap = 1.0f;
    const sw__anim_state* s = &sw__anim_states(c->a)[r->e[0].state];
    if (s->motion == SW_ANIMATOR_MOTION_MACHINE) sw__machine_reset(c, s->target);
}

/* Makes `to` the newest state of machine m, at normalized time `offset`. */
static void sw__machine_enter(sw__ctx* c, uint32_t m, uint32_t to, float duration, uint32_t mode,
                              uint32_t interrupt, float offset) {
    sw__mrun* r = &sw__mruns(c->in)[m];
    const bool cut = duration <= 0.0f || mode == SW_ANIMATOR_TRANSITION_MODE_INERTIALIZE;
    sw__lruns(c->in)[sw__anim_machines(c->a)[m].layer].weights_valid = 0;
    if (cut) {
        sw__entry keep[SW_ANIMATOR_MAX_FADES];
        uint32_t n = r->count;
        memcpy(keep, r->e, sizeof keep);
        for (uint32_t i = 0; i < n; ++i) {
            const sw__anim_state* s = &sw__anim_states(c->a)[keep[i].state];
            if (s->motion == SW_ANIMATOR_MOTION_MACHINE && keep[i].state != to) {
                sw__machine_stop(c, s->target);
            }
        }
        r->count = 0;
    } else {
        float sum = 0.0f;
        for (uint32_t i = 0; i < r->count; ++i) {
            r->e[i].snap = sw__entry_weight(r, i);
        }
        if (r->count == SW_ANIMATOR_MAX_FADES) {
            sw__entry_release(c, r, 0);
            memmove(&r->e[0], &r->e[1], sizeof(sw__entry) * (SW_ANIMATOR_MAX_FADES - 1u));
            r->count--;
        }
        for (uint32_t i = 0; i < r->count; ++i)
            sum += r->e[i].snap;
        for (uint32_t i = 0; i < r->count; ++i) {
            r->e[i].snap = sum > 0.0f ? r->e[i].snap / sum : 1.0f / (float)r->count;
        }
    }
    const sw__anim_state* ts = &sw__anim_states(c->a)[to];
    bool nested_playing =
        ts->motion == SW_ANIMATOR_MOTION_MACHINE && sw__mruns(c->in)[ts->target].playing;
    sw__entry* e = &r->e[r->count++];
    memset(e, 0, sizeof *e);
    e->state = to;
    e->ntime = e->prev = (double)offset;
    e->snap = cut ? 1.0f : 0.0f;
    r->playing = 1;
    r->elapsed = 0.0f;
    r->duration = cut ? 0.0f : duration;
    r->interrupt = interrupt;
    if (ts->motion == SW_ANIMATOR_MOTION_MACHINE && !nested_playing) {
        sw__machine_reset(c, ts->target);
    }
    if (mode == SW_ANIMATOR_TRANSITION_MODE_INERTIALIZE && duration > 0.0f &&
        c->a->has_inertialize) {
        sw__lrun* l = &sw__lruns(c->in)[sw__anim_machines(c->a)[m].layer];
        l->inert = 1;
        l->inert_elapsed = 0.0f;
        l->inert_duration = duration;
    }
}

/* Seconds of machine m per second of its layer: product of the owning states' speeds. */
static float sw__machine_rate(const sw__ctx* c, uint32_t m) {
    float k = 1.0f;
    for (uint32_t guard = 0; guard < SW_ANIMATOR_MAX_MACHINES; ++guard) {
        uint32_t owner = sw__anim_machines(c->a)[m].owner_state;
        if (owner == SW_ANIMATOR_NONE) break;
        k *= sw__state_speed(c->a, c->vals, owner);
        m = sw__anim_states(c->a)[owner].machine;
    }
    return k;
}

static void sw__machine_advance(sw__ctx* c, uint32_t m, float dt) {
    sw__mrun* r = &sw__mruns(c->in)[m];
    const float mdt = dt * sw__machine_rate(c, m);
    c->moved = c->moved || r->count > 1;
    for (uint32_t i = 0; i < r->count; ++i) {
        sw__entry* e = &r->e[i];
        const sw__anim_state* s = &sw__anim_states(c->a)[e->state];
        const double sdt = (double)mdt * (double)sw__state_speed(c->a, c->vals, e->state);
        const double before = e->ntime;
        e->prev = e->ntime;
        if (s->motion == SW_ANIMATOR_MOTION_CLIP) {
            float d = sw__clip_duration(c->b, s->target);
            if (d > 0.0f) {
                double step = sdt / (double)d;
                e->ntime += step < SW__MAX_STEP ? step : SW__MAX_STEP;
            } else if (s->once) {
                e->ntime = 1.0;
            }
        } else if (s->motion == SW_ANIMATOR_MOTION_BLEND_SPACE) {
            e->ntime =
                sw__bspace_advance(c->b, s->target, sw__space_weights(c, s->target), e->ntime, sdt);
        } else {
            const sw__mrun* n = &sw__mruns(c->in)[s->target];
            if (n->playing && n->count > 0) {
                e->ntime = n->e[n->count - 1u].ntime;
                e->prev = n->e[n->count - 1u].prev;
            }
        }
        if (s->once && e->ntime > 1.0) e->ntime = 1.0;
        if (s->once && e->prev > 1.0) e->prev = 1.0;
        c->moved = c->moved || e->ntime != before;
    }
    if (r->count > 1) {
        sw__lruns(c->in)[c->layer].weights_valid = 0; /* the fade moves them */
        r->elapsed += mdt;
        if (!(r->elapsed < r->duration)) {
            sw__entry last = r->e[r->count - 1u];
            for (uint32_t i = 0; i + 1u < r->count; ++i) {
                const sw__anim_state* s = &sw__anim_states(c->a)[r->e[i].state];
                if (s->motion == SW_ANIMATOR_MOTION_MACHINE && r->e[i].state != last.state) {
                    bool other = false;
                    for (uint32_t k = i + 1u; k + 1u < r->count; ++k) {
                        other = other || r->e[k].state == r->e[i].state;
                    }
                    if (!other) sw__machine_stop(c, s->target);
                }
            }
            r->e[0] = last;
            r->e[0].snap = 1.0f;
            r->count = 1;
            r->elapsed = 0.0f;
            r->duration = 0.0f;
        }
    }
}

/* Total weight of each machine of the layer (owners first; 0: not
 * playing) into its sw__mrun.weight, unless they stand already. */
static void sw__machine_weights(const sw__ctx* c) {
    sw__lrun* lr = &sw__lruns(c->in)[c->layer];
    if (lr->weights_valid) return;
    const uint32_t* order = sw__anim_order(c->a);
    sw__mrun* runs = sw__mruns(c->in);
    for (uint32_t i = 0; i < c->a->machines_count; ++i) {
        uint32_t m = order[i];
        const sw__anim_machine* md = &sw__anim_machines(c->a)[m];
        if (md->layer != c->layer) continue;
        sw__mrun* r = &runs[m];
        r->weight = 0.0f;
        if (!r->playing) continue;
        if (md->owner_state == SW_ANIMATOR_NONE) {
            r->weight = 1.0f;
            continue;
        }
        uint32_t pm = sw__anim_states(c->a)[md->owner_state].machine;
        const sw__mrun* pr = &runs[pm];
        float sum = 0.0f;
        for (uint32_t k = 0; k < pr->count; ++k) {
            if (pr->e[k].state == md->owner_state) sum += sw__entry_weight(pr, k);
        }
        r->weight = pr->weight * sum;
    }
    lr->weights_valid = 1;
}

/* ---- events and root motion of one playing clip ------------------------------------------ */

/* Index of the first of the n events (sorted by time) at or after clip
 * time `from` (n: none). */
static uint32_t sw__first_event(const sw_clip_event* ev, uint32_t n, float from) {
    uint32_t i = 0;
    while (i < n && ev[i].time < from)
        ++i;
    return i;
}

/* The clip's events in [from, to) (and at its end, with to_end). They are
 * sorted by time: past those before `from`, the first that is not in ends
 * the window (a later one is not earlier). */
static void sw__clip_events(sw__ctx* c, const sw_clip* clip, uint32_t slot, uint32_t state,
                            float weight, float from, float to, bool to_end) {
    const sw_clip_event* ev = sw_clip_events(clip);
    const float d = clip->duration;
    const uint32_t n = clip->events_count;
    for (uint32_t i = sw__first_event(ev, n, from); i < n; ++i) {
        const float t = ev[i].time;
        if (!(t < to) && !(to_end && t == d && from < d)) break;
        sw_animator_event e = {SW_ANIMATOR_EVENT_KIND_CLIP, c->layer, state, slot, i,
                               sw_clip_event_name(clip, i), t,        weight};
        sw__emit(c, &e);
    }
}

/* Playing clip `slot` went from normalized time na to nb (cycles) with weight w. */
static void sw__clip_progress(sw__ctx* c, uint32_t slot, uint32_t state, float w, double na,
                              double nb) {
    const sw_clip* clip = sw__bound_clips(c->b)[slot];
    const float d = clip->duration;
    if (!(nb > na) || !(d > 0.0f) || !(w > 0.0f)) return;
    const double ca = sw__floor(na), cb = nb < ca + 1.0 ? ca : sw__floor(nb); /* nb > na */
    const bool events =
        !c->quiet && w * c->layer_weight >= c->a->event_threshold && clip->events_count > 0;
    sw__ground acc = {0.0f, 0.0f, 0.0f};
    /* first (partial) cycle */
    float fa = (float)((na - ca) * (double)d);
    if (cb == ca) {
        float fb = (float)((nb - ca) * (double)d);
        if (events) sw__clip_events(c, clip, slot, state, w, fa, fb, false);
        if (c->root_motion) {
            acc = sw__ground_rel(sw__root_ground(c->b, clip, fa), sw__root_ground(c->b, clip, fb));
        }
    } else {
        if (events) sw__clip_events(c, clip, slot, state, w, fa, d, true);
        sw__ground g0 = {0.0f, 0.0f, 0.0f}, gd = g0;
        if (c->root_motion) {
            g0 = sw__root_ground(c->b, clip, 0.0f);
            gd = sw__root_ground(c->b, clip, d);
            acc = sw__ground_rel(sw__root_ground(c->b, clip, fa), gd);
        }
        double full = cb - ca - 1.0; /* whole cycles between */
        if (full > 0.0) {
            if (events) {
                uint64_t k = (uint64_t)full;
                for (uint64_t i = 0; i < k; ++i) {
                    if (i >= SW__CYCLES_LOOP || c->count >= c->capacity) {
                        /* count the rest without writing */
                        uint64_t more = (k - i) * clip->events_count;
                        uint64_t total = (uint64_t)c->count + more;
                        c->count = total > UINT32_MAX ? UINT32_MAX : (uint32_t)total;
                        break;
                    }
                    sw__clip_events(c, clip, slot, state, w, 0.0f, d, true);
                }
            }
            if (c->root_motion) {
                acc = sw__ground_mul(acc, sw__ground_pow(sw__ground_rel(g0, gd), (uint64_t)full));
            }
        }
        float fb = (float)((nb - cb) * (double)d);
        if (fb > 0.0f) {
            if (events) sw__clip_events(c, clip, slot, state, w, 0.0f, fb, false);
            if (c->root_motion) {
                acc = sw__ground_mul(acc, sw__ground_rel(g0, sw__root_ground(c->b, clip, fb)));
            }
        }
    }
    if (c->root_motion) {
        c->rm_x += (double)w * acc.x;
        c->rm_z += (double)w * acc.z;
        c->rm_yaw += (double)w * acc.yaw;
        c->rm_w += (double)w;
    }
}

/* Longest quiet span of a clip state or an unsynced blend space state at
 * entry e's time: from it, up to the first event of one of its clips that
 * a window starting there would report (the window's start clip time as
 * sw__clip_progress computes it, float; an event at the end of a cycle
 * counts at the cycle's end). 1e-6 cycles short of it, so that a window
 * ending before the span's end, with the rounding of its end to clip time,
 * ends before that event's time. Nothing is noted past 2^20 cycles (where
 * that rounding grows) or with sync markers. */
static void sw__note_quiet(const sw__ctx* c, sw__entry* e, const sw__anim_state* s) {
    const double nt = e->ntime, cyc = sw__floor(nt);
    e->quiet_from = e->quiet = 0.0;
    if (!(cyc >= 0.0 && cyc < 1048576.0)) return;
    const sw__anim_member* members = NULL;
    uint32_t count = 1;
    if (s->motion == SW_ANIMATOR_MOTION_BLEND_SPACE) {
        const sw__anim_bspace* bs = &sw__anim_bspaces(c->a)[s->target];
        if (c->b->marks_count[s->target] != 0) return;
        members = &sw__anim_members(c->a)[bs->first_member];
        count = bs->members_count;
    }
    double quiet = INFINITY;
    for (uint32_t j = 0; j < count; ++j) {
        const sw_clip* clip = sw__bound_clips(c->b)[members ? members[j].clip : s->target];
        const float d = clip->duration;
        const uint32_t n = clip->events_count;
        if (n == 0 || !(d > 0.0f)) continue; /* no events reported */
        const sw_clip_event* ev = sw_clip_events(clip);
        const float from = (float)((nt - cyc) * (double)d);
        const uint32_t i = sw__first_event(ev, n, from);
        const double at = i < n ? cyc + (double)ev[i].time / (double)d
                                : cyc + 1.0 + (double)ev[0].time / (double)d;
        quiet = at < quiet ? at : quiet;
    }
    e->quiet_from = nt;
    e->quiet = quiet - 1e-6;
}

/* Forgets the entries' quiet spans (those of another bound's clips). */
static void sw__forget_quiet(sw_animator_instance* in, const sw_animator_bound* b) {
    for (uint32_t m = 0; m < in->machines_count; ++m) {
        for (uint32_t k = 0; k < SW_ANIMATOR_MAX_FADES; ++k)
            sw__mruns(in)[m].e[k].quiet_from = sw__mruns(in)[m].e[k].quiet = 0.0;
    }
    in->quiet_with = (uint64_t)(uintptr_t)b;
}

static void sw__collect(sw__ctx* c) {
    const uint32_t* order = sw__anim_order(c->a);
    for (uint32_t i = 0; i < c->a->machines_count; ++i) {
        uint32_t m = order[i];
        sw__mrun* r = &sw__mruns(c->in)[m];
        if (sw__anim_machines(c->a)[m].layer != c->layer || !(r->weight > 0.0f)) continue;
        for (uint32_t k = 0; k < r->count; ++k) {
            sw__entry* e = &r->e[k];
            const sw__anim_state* s = &sw__anim_states(c->a)[e->state];
            /* a step inside a quiet span reports no event: without root
             * motion it has nothing to add */
            c->quiet = e->quiet_from <= e->prev && e->ntime < e->quiet;
            if (c->quiet && !c->root_motion) continue;
            float we = r->weight * sw__entry_weight(r, k);
            if (s->motion == SW_ANIMATOR_MOTION_CLIP) {
                sw__clip_progress(c, s->target, e->state, we, e->prev, e->ntime);
            } else if (s->motion == SW_ANIMATOR_MOTION_BLEND_SPACE) {
                const sw__anim_bspace* bs = &sw__anim_bspaces(c->a)[s->target];
                const float* w = sw__space_weights(c, s->target);
                for (uint32_t j = 0; j < bs->members_count; ++j) {
                    if (!(w[j] > 0.0f)) continue;
                    sw__clip_progress(c, sw__anim_members(c->a)[bs->first_member + j].clip,
                                      e->state, we * w[j],
                                      sw__member_ntime(c->b, s->target, j, e->prev),
                                      sw__member_ntime(c->b, s->target, j, e->ntime));
                }
            } else {
                continue;
            }
            if (!c->quiet) sw__note_quiet(c, e, s);
        }
    }
}

/* ---- transitions ------------------------------------------------------------------------- */

static bool sw__exit_reached(const sw__anim_state* s, const sw__entry* e, float exit_time) {
    double x = (double)exit_time;
    if (!(e->ntime >= x)) return false;
    if (s->once || x > 1.0) return true;
    return floor(e->ntime - x) != floor(e->prev - x) || e->prev < x;
}

/* Newest entry of machine run r playing `state`, or NULL. */
static const sw__entry* sw__entry_of(const sw__mrun* r, uint32_t state) {
    for (uint32_t k = r->count; k-- > 0;) {
        if (r->e[k].state == state) return &r->e[k];
    }
    return NULL;
}

/* Normalized time nt inside its cycle, as the pose shows it: the end of a
 * cycle is 1 (not 0), a once state past its end is 1. */
static double sw__cycle_time(double nt, bool once) {
    double frac = nt - sw__floor(nt);
    if (nt > 0.0 && frac == 0.0) frac = 1.0;
    if (once && nt >= 1.0) frac = 1.0;
    return frac;
}

/* The source state's exit time and time window hold (see the header). */
static bool sw__times_hold(const sw__ctx* c, const sw__mrun* r, uint32_t state,
                           const sw__anim_transition* t) {
    if (!t->has_exit && !t->has_window) return true;
    const sw__entry* e = sw__entry_of(r, state);
    if (!e) return false;
    const sw__anim_state* s = &sw__anim_states(c->a)[state];
    if (t->has_exit && !sw__exit_reached(s, e, t->exit_time)) return false;
    if (!t->has_window) return true;
    const double u = sw__cycle_time(e->ntime, s->once);
    return u >= (double)t->window_start && u <= (double)t->window_end;
}

static bool sw__conditions(const sw__ctx* c, const sw__anim_transition* t) {
    const sw__anim_cond* conds = sw__anim_conds(c->a) + t->first_cond;
    for (uint32_t i = 0; i < t->conds_count; ++i) {
        float p = c->vals[conds[i].param];
        float v = conds[i].value;
        bool ok;
        switch (conds[i].op) {
        case SW_ANIMATOR_OP_GREATER:
            ok = p > v;
            break;
        case SW_ANIMATOR_OP_LESS:
            ok = p < v;
            break;
        case SW_ANIMATOR_OP_EQUAL:
            ok = p == v;
            break;
        case SW_ANIMATOR_OP_NOT_EQUAL:
            ok = p != v;
            break;
        case SW_ANIMATOR_OP_FALSE:
            ok = p == 0.0f;
            break;
        default:
            ok = p != 0.0f;
            break; /* TRUE, TRIGGER */
        }
        if (!ok) return false;
    }
    return true;
}

static void sw__fire(sw__ctx* c, uint32_t m, const sw__anim_transition* t) {
    const sw__anim_cond* conds = sw__anim_conds(c->a) + t->first_cond;
    for (uint32_t i = 0; i < t->conds_count; ++i) {
        if (conds[i].op == SW_ANIMATOR_OP_TRIGGER) {
            if (c->params) c->params[conds[i].param] = 0.0f;
            sw__iparams(c->in)[conds[i].param] = 0.0f;
        }
    }
    c->in->w_space = SW_ANIMATOR_NONE;
    c->moved = true;
    sw__machine_enter(c, m, t->to, t->duration, t->mode, t->interrupt, t->offset);
    sw_animator_event e = {
        SW_ANIMATOR_EVENT_KIND_ENTER,        c->layer, t->to, SW_ANIMATOR_NONE, SW_ANIMATOR_NONE,
        sw_animator_state_name(c->a, t->to), 0.0f,     0.0f};
    sw__emit(c, &e);
}

static void sw__machine_transitions(sw__ctx* c, uint32_t m) {
    const sw__mrun* r = &sw__mruns_c(c->in)[m];
    if (!r->playing || r->count == 0) return;
    const bool fading = r->count > 1;
    if (fading && r->interrupt == SW_ANIMATOR_INTERRUPT_NONE) return;
    const uint32_t front = r->e[r->count - 1u].state;
    uint32_t from = front;
    if (fading && r->interrupt == SW_ANIMATOR_INTERRUPT_CURRENT) from = r->e[r->count - 2u].state;
    const sw__anim_machine* md = &sw__anim_machines(c->a)[m];
    const sw__anim_transition* tr = sw__anim_transitions(c->a) + md->first_transition;
    for (uint32_t pass = 0; pass < 2; ++pass) {
        for (uint32_t i = 0; i < md->transitions_count; ++i) {
            const sw__anim_transition* t = &tr[i];
            if (pass == 0 && t->from != SW_ANIMATOR_NONE) continue;
            if (pass == 1 && t->from != from) continue;
            if (pass == 0 && t->to == front && !t->to_self) continue;
            if (!sw__times_hold(c, r, pass == 0 ? front : from, t)) continue;
            if (!sw__conditions(c, t)) continue;
            sw__fire(c, m, t);
            return;
        }
    }
}

/* ---- contributions ----------------------------------------------------------------------- */

static void sw__build_contribs(sw__ctx* c) {
    static const float one = 1.0f;
    sw_animator_contribution* out = sw__contribs(c->in, c->layer);
    sw__lrun* lr = &sw__lruns(c->in)[c->layer];
    uint32_t n = 0;
    sw__machine_weights(c);
    const uint32_t* order = sw__anim_order(c->a);
    for (uint32_t i = 0; i < c->a->machines_count; ++i) {
        uint32_t m = order[i];
        const sw__mrun* r = &sw__mruns_c(c->in)[m];
        if (sw__anim_machines(c->a)[m].layer != c->layer || !(r->weight > 0.0f)) continue;
        for (uint32_t k = 0; k < r->count; ++k) {
            const sw__entry* e = &r->e[k];
            const sw__anim_state* s = &sw__anim_states(c->a)[e->state];
            float we = r->weight * sw__entry_weight(r, k);
            if (!(we > 0.0f)) continue;
            uint32_t members = 1;
            const float* w = &one;
            if (s->motion == SW_ANIMATOR_MOTION_BLEND_SPACE) {
                members = sw__anim_bspaces(c->a)[s->target].members_count;
                w = sw__space_weights(c, s->target);
            } else if (s->motion != SW_ANIMATOR_MOTION_CLIP) {
                continue;
            }
            for (uint32_t j = 0; j < members; ++j) {
                if (!(w[j] > 0.0f) || n >= c->in->max_contrib) continue;
                uint32_t slot = s->target;
                double nt = e->ntime;
                if (s->motion == SW_ANIMATOR_MOTION_BLEND_SPACE) {
                    const sw__anim_bspace* bs = &sw__anim_bspaces(c->a)[s->target];
                    slot = sw__anim_members(c->a)[bs->first_member + j].clip;
                    nt = sw__member_ntime(c->b, s->target, j, e->ntime);
                }
                const double frac = sw__cycle_time(nt, s->once);
                float d = sw__clip_duration(c->b, slot);
                sw_animator_contribution o;
                o.layer = c->layer;
                o.state = e->state;
                o.clip = slot;
                o.weight = we * w[j];
                o.phase = (float)frac;
                o.time = (float)(frac * (double)d);
                if (o.time > d) o.time = d;
                if (n >= lr->contrib_count || memcmp(&out[n], &o, sizeof o) != 0) {
                    c->in->pose_changed = 1;
                }
                out[n++] = o;
            }
        }
    }
    if (n != lr->contrib_count) c->in->pose_changed = 1;
    lr->contrib_count = n;
    c->in->built_with = (uint64_t)(uintptr_t)c->b;
}

/* Sets the current layer's weight and rebuilds its contributions; marks the
 * instance's pose changed when either differs (bit for bit) from before or
 * the layer inertializes (its offsets move every update). */
static void sw__layer_refresh(sw__ctx* c, float weight) {
    sw__lrun* lr = &sw__lruns(c->in)[c->layer];
    if (memcmp(&lr->weight, &weight, sizeof weight) != 0 || lr->inert != 0) {
        c->in->pose_changed = 1;
    }
    lr->weight = weight;
    lr->stale = 0;
    sw__build_contribs(c);
}

static float sw__layer_weight(const sw_animator* a, uint32_t l, const float* vals) {
    const sw__anim_layer* ld = &sw__anim_layers(a)[l];
    float w = ld->weight;
    if (ld->weight_param != SW_ANIMATOR_NONE) w = vals[ld->weight_param];
    if (!(w > 0.0f)) w = 0.0f;
    if (w > 1.0f) w = 1.0f;
    return w;
}

/* The context of one call; its weight arrays are filled when first used. */
static void sw__ctx_init(sw__ctx* c, sw_animator_instance* in, const sw_animator_bound* b) {
    c->a = b->def;
    c->b = b;
    c->in = in;
    c->params = NULL;
    c->vals = sw__iparams(in);
    c->events = NULL;
    c->capacity = 0;
    c->count = 0;
    c->layer = 0;
    c->layer_weight = 0.0f;
    c->root_motion = false;
    c->moved = false;
    c->quiet = false;
    c->rm_x = c->rm_z = c->rm_yaw = c->rm_w = 0.0;
}

/* Rebuilds the layers the updates since their last build left stale. Only
 * evaluate and the inspection calls read a layer's weight and
 * contributions, so an update whose pose is not evaluated (an off-screen
 * character) does not build them; built later from the instance's state
 * (parameters, entries) they are those the last update would have built. */
static void sw__build_stale(sw_animator_instance* in, const sw_animator_bound* b) {
    uint32_t l = 0;
    while (l < in->layers_count && !sw__lruns(in)[l].stale)
        ++l;
    if (l == in->layers_count) return;
    sw__ctx c;
    sw__ctx_init(&c, in, b);
    for (; l < in->layers_count; ++l) {
        if (!sw__lruns(in)[l].stale) continue;
        c.layer = l;
        sw__layer_refresh(&c, sw__layer_weight(b->def, l, c.vals));
    }
}

/* ---- public: instance ----------------------------------------------------------------------- */

sw_result sw_animator_instance_init(void* mem, size_t size, const sw_animator_bound* b,
                                    sw_animator_instance** out) {
    return sw_animator_instance_init_keeping(mem, size, b, SW_ANIMATOR_KEEP_CURSORS, out);
}

sw_result sw_animator_instance_init_keeping(void* mem, size_t size, const sw_animator_bound* b,
                                            sw_animator_keep keep, sw_animator_instance** out) {
    if (!mem || !out || !sw__bound_ok(b) || (uint32_t)keep >= SW_ANIMATOR_KEEP_COUNT)
        return SW_RESULT_INVALID_ARGUMENT;
    if (!sw__aligned16(mem)) return SW_RESULT_MISALIGNED;
    sw__inst_layout lay;
    sw__inst_layout_of(b, (uint32_t)keep, &lay);
    if (size < lay.size) return SW_RESULT_BUFFER_TOO_SMALL;
    memset(mem, 0, lay.size);
    sw_animator_instance* in = (sw_animator_instance*)mem;
    const sw_animator* a = b->def;
    in->magic = SW__INSTANCE_MAGIC;
    in->size = lay.size;
    in->def_size = a->size;
    in->machines_count = a->machines_count;
    in->layers_count = a->layers_count;
    in->packets = b->packets;
    in->params_count = a->params_count;
    in->max_contrib = a->max_contrib;
    in->keep = (uint32_t)keep;
    in->cursors = b->cursors[keep];
    in->caches = b->caches_first[keep][a->layers_count];
    in->machines_offset = lay.machines;
    in->layers_offset = lay.layers;
    in->contribs_offset = lay.contribs;
    in->params_offset = lay.params;
    in->caches_offset = lay.caches;
    in->cursors_offset = lay.cursors;
    for (uint32_t k = 0; k < in->caches; ++k)
        sw__cslot_at(in, k)->clip = SW_ANIMATOR_NONE;
    in->inert_offset = lay.inert;
    in->inert_layer_bytes = lay.inert_layer;
    in->w_space = SW_ANIMATOR_NONE;
    sw_animator_params_reset(a, sw__iparams(in), a->params_count);
    sw__ctx c;
    sw__ctx_init(&c, in, b);
    for (uint32_t l = 0; l < a->layers_count; ++l) {
        sw__machine_reset(&c, sw__anim_layers(a)[l].machine);
    }
    for (uint32_t l = 0; l < a->layers_count; ++l)
        sw__lruns(in)[l].stale = 1;
    sw__build_stale(in, b);
    in->pose_changed = 1;
    *out = in;
    return SW_RESULT_OK;
}

/* True when the last update (with this bound) moved nothing and this one
 * has its parameters (the caller checked them) and dt: the update is a
 * function of the instance's state, the parameters and dt. An update in
 * which no clock or fade moved, no transition fired, no event was reported
 * and no layer inertializes leaves every entry's start time at its time,
 * so the next update with the same inputs sees what it saw (the same
 * steps, exit times, conditions) and moves nothing either: it would leave
 * the instance as it is, with no events and no root motion (a frozen or
 * paused character). */
static bool sw__update_still(const sw_animator_instance* in, const sw_animator_bound* b, float dt) {
    return in->still_with == (uint64_t)(uintptr_t)b && memcmp(&dt, &in->last_dt, sizeof dt) == 0;
}

sw_result sw_animator_update(sw_animator_instance* inst, const sw_animator_bound* bound,
                             float* params, uint32_t params_count, float dt,
                             sw_animator_event* events, uint32_t events_capacity,
                             uint32_t* events_count, sw_animator_root_motion* root_motion) {
    if (!inst || !sw__bound_ok(bound) || !events_count || (!params && params_count > 0) ||
        (!events && events_capacity > 0) || !isfinite(dt) || dt < 0.0f) {
        return SW_RESULT_INVALID_ARGUMENT;
    }
    return sw__animator_step(inst, bound, params, params_count, dt, events, events_capacity,
                             events_count, root_motion);
}

sw_result sw__animator_step(sw_animator_instance* inst, const sw_animator_bound* bound,
                            float* params, uint32_t params_count, float dt,
                            sw_animator_event* events, uint32_t events_capacity,
                            uint32_t* events_count, sw_animator_root_motion* root_motion) {
    if (!sw__inst_matches(inst, bound)) return SW_RESULT_INVALID_ARGUMENT;
    const sw_animator* a = bound->def;
    if (params_count < a->params_count) return SW_RESULT_BUFFER_TOO_SMALL;
    const float* kept = sw__iparams(inst);
    bool same_params = true; /* bit for bit */
    for (uint32_t i = 0; i < a->params_count; ++i) {
        if (isnan(params[i])) return SW_RESULT_BAD_DATA;
        same_params = same_params && memcmp(&params[i], &kept[i], sizeof(float)) == 0;
    }
    sw__ctx c;
    sw__ctx_init(&c, inst, bound);
    c.params = params;
    c.events = events;
    c.capacity = events_capacity;
    /* The contributions are a function of the parameter values, the
     * machines' entries and the bound: when none of them changed (a paused
     * or frozen character), rebuilding them would give the same ones. */
    const bool same = inst->built_with == (uint64_t)(uintptr_t)bound && same_params;
    inst->frame++;
    if (same && sw__update_still(inst, bound, dt)) {
        *events_count = 0;
        if (root_motion) memset(root_motion, 0, sizeof *root_motion);
        return SW_RESULT_OK;
    }
    if (!same_params) {
        memcpy(sw__iparams(inst), params, sizeof(float) * a->params_count);
        inst->w_space = SW_ANIMATOR_NONE;
    }
    inst->last_dt = dt;
    if (inst->quiet_with != (uint64_t)(uintptr_t)bound) sw__forget_quiet(inst, bound);
    const uint32_t* order = sw__anim_order(a);
    bool still = true; /* see sw__update_still */
    for (uint32_t l = 0; l < a->layers_count; ++l) {
        c.layer = l;
        c.layer_weight = sw__layer_weight(a, l, c.vals);
        c.root_motion = l == 0 && bound->root_joint != SW_ANIMATOR_NONE;
        c.moved = false;
        sw__lrun* lr = &sw__lruns(inst)[l];
        if (lr->inert == 2) lr->inert_elapsed += dt;
        /* 1. times, deepest machines first */
        for (uint32_t i = a->machines_count; i-- > 0;) {
            uint32_t m = order[i];
            if (sw__anim_machines(a)[m].layer != l || !sw__mruns(inst)[m].playing) continue;
            sw__machine_advance(&c, m, dt);
        }
        /* 2. events and root motion at the new weights */
        sw__machine_weights(&c);
        sw__collect(&c);
        /* 3. finished */
        for (uint32_t i = 0; i < a->machines_count; ++i) {
            uint32_t m = order[i];
            sw__mrun* r = &sw__mruns(inst)[m];
            if (sw__anim_machines(a)[m].layer != l || !r->playing || r->count == 0) continue;
            sw__entry* e = &r->e[r->count - 1u];
            const sw__anim_state* s = &sw__anim_states(a)[e->state];
            if (s->once && e->ntime >= 1.0 && !e->finished) {
                e->finished = 1;
                sw_animator_event ev = {SW_ANIMATOR_EVENT_KIND_FINISHED,
                                        l,
                                        e->state,
                                        SW_ANIMATOR_NONE,
                                        SW_ANIMATOR_NONE,
                                        sw_animator_state_name(a, e->state),
                                        0.0f,
                                        r->weight * sw__entry_weight(r, r->count - 1u)};
                sw__emit(&c, &ev);
            }
        }
        /* 4. transitions, owners first */
        for (uint32_t i = 0; i < a->machines_count; ++i) {
            uint32_t m = order[i];
            if (sw__anim_machines(a)[m].layer != l) continue;
            sw__machine_transitions(&c, m);
        }
        if (c.moved || !same || lr->inert != 0) lr->stale = 1; /* see sw__build_stale */
        if (lr->inert != 0) inst->pose_changed = 1;            /* its offsets move every update */
        still = still && !c.moved && lr->inert == 0;
    }
    still = still && c.count == 0;
    inst->still_with = still ? (uint64_t)(uintptr_t)bound : 0u;
    *events_count = c.count;
    if (root_motion) {
        memset(root_motion, 0, sizeof *root_motion);
        if (c.rm_w > 0.0) {
            root_motion->translation.x = (float)(c.rm_x / c.rm_w);
            root_motion->translation.z = (float)(c.rm_z / c.rm_w);
            root_motion->yaw = (float)(c.rm_yaw / c.rm_w);
        }
    }
    return SW_RESULT_OK;
}

sw_result sw_animator_play(sw_animator_instance* inst, const sw_animator_bound* bound,
                           uint32_t state, float fade) {
    if (!inst || !sw__bound_ok(bound) || !sw__inst_matches(inst, bound) ||
        state >= bound->def->states_count || !isfinite(fade) || fade < 0.0f) {
        return SW_RESULT_INVALID_ARGUMENT;
    }
    const sw_animator* a = bound->def;
    uint32_t m = sw__anim_states(a)[state].machine;
    if (!sw__mruns(inst)[m].playing) return SW_RESULT_NOT_FOUND;
    const sw__mrun* r = &sw__mruns(inst)[m];
    if (sw__anim_states(a)[state].motion == SW_ANIMATOR_MOTION_MACHINE &&
        r->e[r->count - 1u].state == state) {
        return SW_RESULT_OK; /* already the current state; its machine keeps playing */
    }
    sw__ctx c;
    sw__ctx_init(&c, inst, bound);
    c.layer = sw__anim_machines(a)[m].layer;
    sw__machine_enter(&c, m, state, fade, SW_ANIMATOR_TRANSITION_MODE_CROSSFADE,
                      SW_ANIMATOR_INTERRUPT_NEXT, 0.0f);
    inst->still_with = 0;
    sw__layer_refresh(&c, sw__layer_weight(a, c.layer, c.vals));
    return SW_RESULT_OK;
}

sw_result sw_animator_seek(sw_animator_instance* inst, const sw_animator_bound* bound,
                           uint32_t machine, double normalized_time) {
    if (!inst || !sw__bound_ok(bound) || !sw__inst_matches(inst, bound) ||
        machine >= bound->def->machines_count || !isfinite(normalized_time) ||
        normalized_time < 0.0) {
        return SW_RESULT_INVALID_ARGUMENT;
    }
    const sw_animator* a = bound->def;
    sw__mrun* r = &sw__mruns(inst)[machine];
    if (!r->playing || r->count == 0) return SW_RESULT_NOT_FOUND;
    sw__entry* e = &r->e[r->count - 1u];
    const sw__anim_state* s = &sw__anim_states(a)[e->state];
    if (s->motion == SW_ANIMATOR_MOTION_MACHINE) return SW_RESULT_INVALID_ARGUMENT;
    double t = normalized_time < SW__MAX_STEP ? normalized_time : SW__MAX_STEP;
    if (s->once && t > 1.0) t = 1.0;
    e->ntime = t;
    e->prev = t;
    if (t < 1.0) e->finished = 0;
    inst->still_with = 0;
    sw__ctx c;
    sw__ctx_init(&c, inst, bound);
    c.layer = sw__anim_machines(a)[machine].layer;
    sw__layer_refresh(&c, sw__layer_weight(a, c.layer, c.vals));
    return SW_RESULT_OK;
}

/* ---- evaluate ---------------------------------------------------------------------------------
 */

typedef struct sw__scratch_layout {
    uint32_t poses;   /* max_contrib + 4 poses: contributions, layer, acc, tmp, ref */
    uint32_t ident;   /* identity pose */
    uint32_t weights; /* 2 * packets * 4 floats */
    uint32_t layers;  /* sw_blend_layer[max_contrib] */
    uint32_t size;
} sw__scratch_layout;

static void sw__scratch_layout_of(const sw_animator_bound* b, sw__scratch_layout* lay) {
    uint64_t pose = sizeof(sw_xform4) * (uint64_t)b->packets;
    uint64_t at = 0;
    lay->poses = (uint32_t)sw__layout_take(&at, pose * ((uint64_t)b->def->max_contrib + 4u), 16u);
    lay->ident = (uint32_t)sw__layout_take(&at, pose, 16u);
    lay->weights =
        (uint32_t)sw__layout_take(&at, 2u * 4u * sizeof(float) * (uint64_t)b->packets, 16u);
    lay->layers =
        (uint32_t)sw__layout_take(&at, sizeof(sw_blend_layer) * (uint64_t)b->def->max_contrib, 16u);
    lay->size = (uint32_t)at;
}

size_t sw_animator_scratch_size(const sw_animator_bound* b) {
    if (!sw__bound_ok(b)) return 0;
    sw__scratch_layout lay;
    sw__scratch_layout_of(b, &lay);
    return lay.size;
}

static sw_vec3 sw__rotvec(sw_quat q) { /* axis * angle, q on the w >= 0 hemisphere */
    if (q.w < 0.0f) q = sw_quat_negate(q);
    float s = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z);
    if (!(s > 1e-12f)) return sw_vec3_make(2.0f * q.x, 2.0f * q.y, 2.0f * q.z);
    float angle = 2.0f * atan2f(s, q.w);
    return sw_vec3_scale(sw_vec3_make(q.x, q.y, q.z), angle / s);
}

static sw_quat sw__from_rotvec(sw_vec3 v) {
    float angle = sw_vec3_length(v);
    if (!(angle > 1e-12f)) {
        return sw_quat_normalize(sw_quat_make(0.5f * v.x, 0.5f * v.y, 0.5f * v.z, 1.0f));
    }
    return sw_quat_from_axis_angle(v, angle);
}

/* Quintic decay setup for magnitude x0 >= 0 with velocity v0 along it. */
static void sw__inert_setup(float x0, float v0, float duration, float* out) {
    float T = duration;
    if (v0 > 0.0f) v0 = 0.0f;
    if (v0 < 0.0f && -5.0f * x0 / v0 < T) T = -5.0f * x0 / v0;
    float a0 = 0.0f;
    if (T > 0.0f) {
        a0 = (-8.0f * v0 * T - 20.0f * x0) / (T * T);
        if (a0 < 0.0f) a0 = 0.0f;
    }
    out[0] = x0, out[1] = v0, out[2] = a0, out[3] = T;
}

static float sw__inert_eval(const float* k, float t) {
    float x0 = k[0], v0 = k[1], a0 = k[2], T = k[3];
    if (!(x0 > 0.0f) || !(T > 0.0f) || t >= T) return 0.0f;
    float T2 = T * T, T3 = T2 * T, T4 = T3 * T, T5 = T4 * T;
    float A = -(a0 * T2 + 6.0f * v0 * T + 12.0f * x0) / (2.0f * T5);
    float B = (3.0f * a0 * T2 + 16.0f * v0 * T + 30.0f * x0) / (2.0f * T4);
    float C = -(3.0f * a0 * T2 + 12.0f * v0 * T + 20.0f * x0) / (2.0f * T3);
    float x = (((((A * t + B) * t + C) * t + 0.5f * a0) * t) + v0) * t + x0;
    return x > 0.0f ? x : 0.0f;
}

static void sw__inert_record(sw_animator_instance* in, const sw_animator_bound* b, uint32_t l,
                             const sw_xform4* target) {
    sw__lrun* lr = &sw__lruns(in)[l];
    const uint32_t joints = b->skeleton->joints_count;
    float* k = sw__inert(in, l);
    const bool have = lr->hist_count >= 1 && lr->hist_frame + 1u == in->frame;
    const bool vel = have && lr->hist_count >= 2 && lr->hist_dt[0] > 0.0f;
    const sw_xform4* h0 = sw__hist(in, l, 0);
    const sw_xform4* h1 = sw__hist(in, l, 1);
    const float dt_now = in->last_dt;
    if (!have) {
        lr->inert = 0;
        return;
    }
    for (uint32_t j = 0; j < joints; ++j) {
        float* o = k + (size_t)j * SW__INERT_FLOATS;
        sw_xform p0 = sw_pose_get(h0, j), tg = sw_pose_get(target, j);
        sw_vec3 v = sw_vec3_make(0.0f, 0.0f, 0.0f);
        sw_vec3 w = v;
        if (vel) {
            sw_xform p1 = sw_pose_get(h1, j);
            v = sw_vec3_scale(sw_vec3_sub(p0.t, p1.t), 1.0f / lr->hist_dt[0]);
            w = sw_vec3_scale(sw__rotvec(sw_quat_mul(p0.r, sw_quat_conjugate(p1.r))),
                              1.0f / lr->hist_dt[0]);
        }
        sw_vec3 src_t = sw_vec3_add(p0.t, sw_vec3_scale(v, dt_now));
        sw_quat src_r = sw_quat_mul(sw__from_rotvec(sw_vec3_scale(w, dt_now)), p0.r);
        sw_vec3 x = sw_vec3_sub(src_t, tg.t);
        float x0 = sw_vec3_length(x);
        sw_vec3 dir = x0 > 0.0f ? sw_vec3_scale(x, 1.0f / x0) : sw_vec3_make(1.0f, 0.0f, 0.0f);
        o[0] = dir.x, o[1] = dir.y, o[2] = dir.z;
        sw__inert_setup(x0, sw_vec3_dot(v, dir), lr->inert_duration, o + 3);
        sw_vec3 r = sw__rotvec(sw_quat_mul(src_r, sw_quat_conjugate(tg.r)));
        float r0 = sw_vec3_length(r);
        sw_vec3 axis = r0 > 0.0f ? sw_vec3_scale(r, 1.0f / r0) : sw_vec3_make(1.0f, 0.0f, 0.0f);
        o[7] = axis.x, o[8] = axis.y, o[9] = axis.z;
        sw__inert_setup(r0, sw_vec3_dot(w, axis), lr->inert_duration, o + 10);
    }
    lr->inert = 2;
}

static void sw__inert_apply(sw_animator_instance* in, const sw_animator_bound* b, uint32_t l,
                            sw_xform4* pose) {
    const sw__lrun* lr = &sw__lruns(in)[l];
    const float* k = sw__inert(in, l);
    for (uint32_t j = 0; j < b->skeleton->joints_count; ++j) {
        const float* o = k + (size_t)j * SW__INERT_FLOATS;
        float xt = sw__inert_eval(o + 3, lr->inert_elapsed);
        float xr = sw__inert_eval(o + 10, lr->inert_elapsed);
        if (xt == 0.0f && xr == 0.0f) continue;
        sw_xform x = sw_pose_get(pose, j);
        x.t = sw_vec3_add(x.t, sw_vec3_scale(sw_vec3_make(o[0], o[1], o[2]), xt));
        if (xr != 0.0f) {
            x.r = sw_quat_normalize(
                sw_quat_mul(sw_quat_from_axis_angle(sw_vec3_make(o[7], o[8], o[9]), xr), x.r));
        }
        sw_pose_set(pose, j, x);
    }
}

/* Keeps layer l's output `pose` as the newest history pose (NULL: the same
 * pose as the newest one, which then stays). */
static void sw__inert_history(sw_animator_instance* in, uint32_t l, const sw_xform4* pose) {
    sw__lrun* lr = &sw__lruns(in)[l];
    const size_t bytes = sizeof(sw_xform4) * in->packets;
    if (lr->hist_count > 0 && lr->hist_frame == in->frame) {
        if (pose) memcpy(sw__hist(in, l, 0), pose, bytes);
        return;
    }
    memcpy(sw__hist(in, l, 1), sw__hist(in, l, 0), bytes);
    if (pose) memcpy(sw__hist(in, l, 0), pose, bytes);
    lr->hist_dt[1] = lr->hist_dt[0];
    lr->hist_dt[0] = in->last_dt;
    lr->hist_frame = in->frame;
    if (lr->hist_count < 2) lr->hist_count++;
}

/* True when a transition of a machine played in layer l inertializes: only
 * such a layer needs its output history, so only such a layer is evaluated
 * at weight 0 (its output is not used then). */
static bool sw__layer_inertializes(const sw_animator* a, uint32_t l) {
    if (!a->has_inertialize) return false;
    const sw__anim_transition* tr = sw__anim_transitions(a);
    for (uint32_t m = 0; m < a->machines_count; ++m) {
        const sw__anim_machine* md = &sw__anim_machines(a)[m];
        if (md->layer != l) continue;
        for (uint32_t t = 0; t < md->transitions_count; ++t) {
            if (tr[md->first_transition + t].mode == SW_ANIMATOR_TRANSITION_MODE_INERTIALIZE) {
                return true;
            }
        }
    }
    return false;
}

/* The parts of the scratch memory during one evaluate. */
typedef struct sw__eval {
    sw_animator_instance* in;
    const sw_animator_bound* b;
    uint32_t P;            /* packets */
    sw_xform4* poses;      /* max_contrib sampled poses */
    sw_xform4* layer_pose; /* the current layer's blend (layers after the first) */
    sw_xform4* acc;        /* the layers so far (out with a single layer) */
    sw_xform4* tmp;        /* a non-additive sample in an additive layer; a layer blend */
    sw_xform4* ref;        /* the first frame of such a clip */
    sw_xform4* ident;      /* identity pose, filled by the first additive layer */
    float* jw0;            /* per-lane weights of a masked override blend */
    float* jw1;
    sw_blend_layer* bl; /* the blend job's inputs */
    const sw_xform4* rest;
    const sw__subset* s; /* the joint subset worked out (s->keep NULL: every joint) */
    bool outside_rest;   /* out holds rest values outside s's span */
    bool ident_ready;
} sw__eval;

/* The subset a sampling job of clip slot `slot` gets from the animator:
 * raw clips skip the left-out joints' tracks; frames clips get its span
 * apart (e->s); a quantized clip gets none when it keeps every joint its
 * animated tracks move (decoding with the subset would only test each
 * track). The blend reads the kept joints, and puts rest values in the
 * others. */
static const uint8_t* sw__eval_keep(const sw__eval* e, uint32_t slot) {
    const uint8_t* keep = e->s->keep;
    return keep && e->b->keep_end[slot] <= e->s->prefix ? NULL : keep;
}

/* Gives the n contributions cs of layer l their sampling caches, use[i]
 * the instance's cache k or SW_ANIMATOR_NONE (a clip without one, or no
 * cache left): first the cache that last sampled the contribution's clip
 * (one contribution per cache), then to the cached clips still without one
 * a cache no contribution took (it starts over on its new clip). Returns
 * false, use untouched, when the layer has no caches. */
static bool sw__eval_claim(const sw__eval* e, uint32_t l, const sw_animator_contribution* cs,
                           uint32_t n, uint32_t* use) {
    const uint32_t keep = e->in->keep, first = e->b->caches_first[keep][l];
    const uint32_t count = e->b->caches_first[keep][l + 1u] - first;
    if (count == 0) return false;
    uint64_t taken = 0; /* count <= max_contrib <= 64 */
    for (uint32_t i = 0; i < n; ++i) {
        use[i] = SW_ANIMATOR_NONE;
        for (uint32_t j = 0; j < count && sw__bound_cached(e->b, keep, cs[i].clip); ++j) {
            if (!((taken >> j) & 1u) && sw__cslot_at(e->in, first + j)->clip == cs[i].clip) {
                taken |= (uint64_t)1u << j;
                use[i] = first + j;
                break;
            }
        }
    }
    for (uint32_t i = 0; i < n; ++i) {
        if (use[i] != SW_ANIMATOR_NONE || !sw__bound_cached(e->b, keep, cs[i].clip)) continue;
        for (uint32_t j = 0; j < count; ++j) {
            if (!((taken >> j) & 1u)) {
                taken |= (uint64_t)1u << j;
                use[i] = first + j;
                break;
            }
        }
    }
    return true;
}

/* Samples contribution c at its time into out, through the instance's
 * sampling cache k (SW_ANIMATOR_NONE: a cold seek); with a subset, the
 * layer's blend job puts the rest values back in the left-out lanes the
 * sampler leaves (sw__sample_job_run_for_blend). */
static sw_result sw__eval_sample(const sw__eval* e, uint32_t k, const sw_animator_contribution* c,
                                 sw_xform4* out) {
    const sw_clip* clip = sw__bound_clips(e->b)[c->clip];
    sw_sample_job sj = {.clip = clip,
                        .skeleton = e->b->skeleton,
                        .time = c->time,
                        .out = out,
                        .out_count = e->P,
                        .keep = sw__eval_keep(e, c->clip)};
    if (k == SW_ANIMATOR_NONE) return sw__sample_job_run_for_blend(&sj, e->s);
    sw__cslot* slot = sw__cslot_at(e->in, k);
    sw_sample_cache cache;
    sw_sample_cache_init(&cache, sw__cursors(e->in, k), e->in->cursors);
    cache.table = sw__bound_tables(e->b)[c->clip];
    if (slot->clip != SW_ANIMATOR_NONE) {
        cache.clip = sw__bound_clips(e->b)[slot->clip];
        cache.time = slot->time;
    }
    sj.cache = &cache;
    sw_result r = sw__sample_job_run_for_blend(&sj, e->s);
    if (r == SW_RESULT_OK) { /* as the job left the cache: it may have emptied it */
        slot->clip = cache.clip ? c->clip : SW_ANIMATOR_NONE;
        slot->time = cache.time;
    }
    return r;
}

/* Samples the contributions of layer l and blends them into out (additive
 * layers: deltas blended over the identity pose). With a subset, the
 * samples and deltas are only written and read within the span of kept
 * joints (the blend job's), the blend puts rest values outside. */
static sw_result sw__eval_layer(sw__eval* e, uint32_t l, bool additive, sw_xform4* out) {
    const sw__anim_layer* ld = &sw__anim_layers(e->b->def)[l];
    const uint32_t n = sw__lruns(e->in)[l].contrib_count, P = e->P;
    const sw_animator_contribution* cs = sw__contribs(e->in, l);
    uint32_t use[SW_ANIMATOR_MAX_CONTRIBUTIONS];
    const bool cached = sw__eval_claim(e, l, cs, n, use);
    for (uint32_t i = 0; i < n; ++i) {
        const sw_clip* clip = sw__bound_clips(e->b)[cs[i].clip];
        sw_xform4* dst = e->poses + (size_t)i * P;
        const bool delta = additive && !(clip->flags & SW_CLIP_FLAG_ADDITIVE);
        sw_result r =
            sw__eval_sample(e, cached ? use[i] : SW_ANIMATOR_NONE, &cs[i], delta ? e->tmp : dst);
        if (r != SW_RESULT_OK) return r;
        if (delta) {
            const sw_xform4* reference = e->rest;
            if (ld->reference == SW_ANIMATOR_REFERENCE_FIRST_FRAME) {
                sw_sample_job sj = {.clip = clip,
                                    .skeleton = e->b->skeleton,
                                    .out = e->ref,
                                    .out_count = P,
                                    .keep = sw__eval_keep(e, cs[i].clip)};
                r = sw__sample_job_run_for_blend(&sj, e->s);
                if (r != SW_RESULT_OK) return r;
                reference = e->ref;
            }
            /* the blend's span (sw__sample_job_run_for_blend) */
            const uint32_t p = e->s->first, end = e->s->end;
            sw_make_additive_job mj = {e->tmp + p, reference + p, end - p, dst + p, end - p};
            r = p < end ? sw_make_additive_job_run(&mj) : SW_RESULT_OK;
            if (r != SW_RESULT_OK) return r;
        } else if (!additive && e->b->root_joint != SW_ANIMATOR_NONE &&
                   sw__subset_keeps(e->s->keep, e->b->root_joint)) {
            sw__root_fix(e->b, dst);
        }
        e->bl[i].pose = dst;
        e->bl[i].weight = cs[i].weight;
        e->bl[i].joint_weights = NULL;
        e->bl[i].mode = SW_BLEND_MODE_DEFAULT;
    }
    if (additive && !e->ident_ready) {
        for (uint32_t i = 0; i < P; ++i)
            sw_xform4_identity(&e->ident[i]);
        e->ident_ready = true;
    }
    if (n == 0) {
        memcpy(out, additive ? e->ident : e->rest, sizeof(sw_xform4) * P);
        return SW_RESULT_OK;
    }
    sw_blend_job bj;
    memset(&bj, 0, sizeof bj);
    bj.layers = e->bl;
    bj.layers_count = n;
    bj.rest_pose = additive ? e->ident : e->rest;
    bj.packets_count = P;
    bj.out = out;
    bj.out_count = P;
    /* the subset e->s in place of bj.keep (evaluate checked it); out's
     * packets outside its span hold rest values when the caller says so of
     * its output pose, which a single layer (never additive) blends into */
    return sw__blend_job_run_subset(&bj, sw__soa_best(), e->s, e->outside_rest && out == e->acc);
}

/* Records, applies (to pose, the layer's blend) and keeps the history of
 * layer l's inertialization. */
static void sw__eval_inertia(sw__eval* e, uint32_t l, sw_xform4* pose) {
    sw__lrun* lr = &sw__lruns(e->in)[l];
    if (lr->inert == 1) sw__inert_record(e->in, e->b, l, pose);
    if (lr->inert == 2) {
        if (lr->inert_elapsed >= lr->inert_duration)
            lr->inert = 0;
        else
            sw__inert_apply(e->in, e->b, l, pose);
    }
    sw__inert_history(e->in, l, pose);
}

/* Puts layer l (l > 0, weight w > 0) over e->acc: additive in place,
 * override through a two-layer blend with its mask. */
static sw_result sw__eval_combine(sw__eval* e, uint32_t l, bool additive, float w) {
    const uint32_t P = e->P;
    const float* masks = (const float*)(const void*)((const char*)e->b + e->b->masks_offset);
    const float* mask = e->b->mask_index[l] == SW_ANIMATOR_NONE
                            ? NULL
                            : masks + (size_t)e->b->mask_index[l] * P * 4u;
    if (additive) {
        sw_apply_additive_job aj = {e->acc, e->layer_pose, P, w, mask, e->acc, P};
        return sw_apply_additive_job_run(&aj);
    }
    sw_blend_layer two[2];
    memset(two, 0, sizeof two);
    two[0].pose = e->acc;
    two[1].pose = e->layer_pose;
    if (mask) {
        for (uint32_t j = 0; j < P * 4u; ++j) {
            e->jw1[j] = w * mask[j];
            e->jw0[j] = 1.0f - e->jw1[j];
        }
        two[0].weight = 1.0f;
        two[1].weight = 1.0f;
        two[0].joint_weights = e->jw0;
        two[1].joint_weights = e->jw1;
    } else {
        two[0].weight = 1.0f - w;
        two[1].weight = w;
    }
    sw_blend_job bj;
    memset(&bj, 0, sizeof bj);
    bj.layers = two;
    bj.layers_count = 2;
    bj.rest_pose = e->rest;
    bj.packets_count = P;
    bj.out = e->tmp;
    bj.out_count = P;
    sw_result r = sw__blend_job_run_subset(&bj, sw__soa_best(), e->s, false);
    if (r == SW_RESULT_OK) memcpy(e->acc, e->tmp, sizeof(sw_xform4) * P);
    return r;
}

sw_result sw_animator_evaluate(sw_animator_instance* inst, const sw_animator_bound* bound,
                               void* scratch, size_t scratch_size, sw_xform4* out,
                               uint32_t out_count) {
    return sw_animator_evaluate_subset(inst, bound, NULL, scratch, scratch_size, out, out_count);
}

sw_result sw_animator_evaluate_subset(sw_animator_instance* inst, const sw_animator_bound* bound,
                                      const uint8_t* keep, void* scratch, size_t scratch_size,
                                      sw_xform4* out, uint32_t out_count) {
    if (!inst || !sw__bound_ok(bound) || !scratch || !out) return SW_RESULT_INVALID_ARGUMENT;
    if (!sw__inst_matches(inst, bound)) return SW_RESULT_INVALID_ARGUMENT;
    if (!sw__aligned16(scratch) || !sw__aligned16(out)) return SW_RESULT_MISALIGNED;
    sw__scratch_layout lay;
    sw__scratch_layout_of(bound, &lay);
    if (scratch_size < lay.size || out_count < bound->packets) return SW_RESULT_BUFFER_TOO_SMALL;
    const size_t pose_bytes = sizeof(sw_xform4) * bound->packets;
    if (sw__overlaps(out, pose_bytes, scratch, lay.size) ||
        sw__overlaps(out, pose_bytes, inst, inst->size) ||
        sw__overlaps(out, pose_bytes, keep, keep ? bound->packets : 0u) ||
        sw__overlaps(scratch, lay.size, keep, keep ? bound->packets : 0u)) {
        return SW_RESULT_OVERLAP;
    }
    const sw__subset s = sw__subset_of(keep, bound->packets);
    return sw__animator_evaluate_with(inst, bound, &s, false, scratch, out);
}

sw_result sw__animator_evaluate_with(sw_animator_instance* inst, const sw_animator_bound* bound,
                                     const sw__subset* s, bool outside_rest, void* scratch,
                                     sw_xform4* out) {
    const uint8_t* keep = s->keep;
    sw__scratch_layout lay;
    sw__scratch_layout_of(bound, &lay);
    const size_t pose_bytes = sizeof(sw_xform4) * bound->packets;
    sw__build_stale(inst, bound);
    if (inst->cached_with != (uint64_t)(uintptr_t)bound) { /* the caches hold another's clips */
        for (uint32_t k = 0; k < inst->caches; ++k)
            sw__cslot_at(inst, k)->clip = SW_ANIMATOR_NONE;
        inst->cached_with = (uint64_t)(uintptr_t)bound;
    }
    const sw_animator* a = bound->def;
    const uint32_t P = bound->packets;
    char* base = (char*)scratch;
    sw__eval e;
    memset(&e, 0, sizeof e);
    e.in = inst;
    e.b = bound;
    e.P = P;
    e.poses = (sw_xform4*)(void*)(base + lay.poses);
    e.layer_pose = e.poses + (size_t)a->max_contrib * P;
    /* one layer blends straight into out (which only the blend job writes,
     * after its checks: out stays untouched on failure) */
    e.acc = a->layers_count == 1u ? out : e.layer_pose + P;
    e.tmp = e.layer_pose + 2u * (size_t)P;
    e.ref = e.tmp + P;
    e.ident = (sw_xform4*)(void*)(base + lay.ident);
    e.jw0 = (float*)(void*)(base + lay.weights);
    e.jw1 = e.jw0 + (size_t)P * 4u;
    e.bl = (sw_blend_layer*)(void*)(base + lay.layers);
    e.rest = sw_skeleton_rest_pose(bound->skeleton);
    e.s = s;
    e.outside_rest = outside_rest;
    for (uint32_t l = 0; l < a->layers_count; ++l) {
        const bool additive = sw__anim_layers(a)[l].mode == SW_ANIMATOR_LAYER_MODE_ADDITIVE;
        const float w = sw__lruns(inst)[l].weight;
        /* a layer at weight 0 changes nothing (unless it keeps inertialization history) */
        const bool inert_layer = sw__layer_inertializes(a, l);
        if (l > 0 && !(w > 0.0f) && !inert_layer) continue;
        /* layer 0 straight into the layers so far */
        sw_xform4* layer_out = l == 0 ? e.acc : e.layer_pose;
        sw_result r = sw__eval_layer(&e, l, additive, layer_out);
        if (r != SW_RESULT_OK) return r;
        if (inert_layer) sw__eval_inertia(&e, l, layer_out);
        if (l > 0 && w > 0.0f) {
            r = sw__eval_combine(&e, l, additive, w);
            if (r != SW_RESULT_OK) return r;
        }
    }
    /* the layers over the first and inertialization offsets ran on every
     * joint (a single layer, never additive, blended into out, where its
     * blend job left the others at rest already) */
    if (keep && (e.acc != out || a->has_inertialize)) sw__subset_fill_rest(keep, e.rest, e.acc, P);
    if (e.acc != out) memcpy(out, e.acc, pose_bytes);
    inst->pose_changed = 0;
    return SW_RESULT_OK;
}

bool sw_animator_pose_changed(const sw_animator_instance* inst, const sw_animator_bound* bound) {
    if (!inst || !sw__bound_ok(bound) || !sw__inst_matches(inst, bound)) return true;
    sw__build_stale((sw_animator_instance*)(uintptr_t)inst, bound); /* see the header */
    return inst->pose_changed;
}

sw_result sw_animator_reuse_pose(sw_animator_instance* inst, const sw_animator_bound* bound) {
    if (sw_animator_pose_changed(inst, bound)) return SW_RESULT_INVALID_ARGUMENT;
    /* Unchanged inputs mean no inertialization ran since the last evaluate
     * (an active one marks every update changed), so each inertializing
     * layer's output is its newest history pose. */
    for (uint32_t l = 0; l < bound->def->layers_count; ++l) {
        if (sw__layer_inertializes(bound->def, l)) sw__inert_history(inst, l, NULL);
    }
    return SW_RESULT_OK;
}

/* ---- inspection ----------------------------------------------------------------------------- */

uint32_t sw_animator_contributions(const sw_animator_instance* inst, const sw_animator_bound* bound,
                                   sw_animator_contribution* out, uint32_t capacity) {
    if (!inst || !sw__bound_ok(bound) || !sw__inst_matches(inst, bound)) return 0;
    sw_animator_instance* in = (sw_animator_instance*)(uintptr_t)inst;
    sw__build_stale(in, bound); /* see the header */
    uint32_t n = 0;
    for (uint32_t l = 0; l < inst->layers_count; ++l) {
        const sw_animator_contribution* cs = sw__contribs(in, l);
        for (uint32_t i = 0; i < sw__lruns(in)[l].contrib_count; ++i) {
            if (out && n < capacity) out[n] = cs[i];
            ++n;
        }
    }
    return n;
}

uint32_t sw_animator_states(const sw_animator_instance* inst, const sw_animator_bound* bound,
                            sw_animator_state_info* out, uint32_t capacity) {
    if (!inst || !sw__bound_ok(bound) || !sw__inst_matches(inst, bound)) return 0;
    uint32_t n = 0;
    for (uint32_t m = 0; m < inst->machines_count; ++m) {
        const sw__mrun* r = &sw__mruns_c(inst)[m];
        if (!r->playing) continue;
        for (uint32_t k = 0; k < r->count; ++k) {
            if (out && n < capacity) {
                out[n].machine = m;
                out[n].state = r->e[k].state;
                out[n].weight = sw__entry_weight(r, k);
                out[n].normalized_time = r->e[k].ntime;
                out[n].current = k + 1u == r->count;
            }
            ++n;
        }
    }
    return n;
}

bool sw_animator_machine_fade(const sw_animator_instance* inst, const sw_animator_bound* bound,
                              uint32_t machine, sw_animator_fade_info* out) {
    if (!inst || !out || !sw__bound_ok(bound) || !sw__inst_matches(inst, bound) ||
        machine >= inst->machines_count) {
        return false;
    }
    const sw__mrun* r = &sw__mruns_c(inst)[machine];
    if (!r->playing || r->count < 2) return false;
    out->from = r->e[r->count - 2u].state;
    out->to = r->e[r->count - 1u].state;
    out->elapsed = r->elapsed;
    out->duration = r->duration;
    out->progress = sw__entry_weight(r, r->count - 1u);
    return true;
}

uint32_t sw_animator_current_state(const sw_animator_instance* inst, const sw_animator_bound* bound,
                                   uint32_t machine) {
    if (!inst || !sw__bound_ok(bound) || !sw__inst_matches(inst, bound) ||
        machine >= inst->machines_count) {
        return SW_ANIMATOR_NONE;
    }
    const sw__mrun* r = &sw__mruns_c(inst)[machine];
    if (!r->playing || r->count == 0) return SW_ANIMATOR_NONE;
    return r->e[r->count - 1u].state;
}

float sw_animator_layer_weight(const sw_animator_instance* inst, const sw_animator_bound* bound,
                               uint32_t layer) {
    if (!inst || !sw__bound_ok(bound) || !sw__inst_matches(inst, bound) ||
        layer >= inst->layers_count) {
        return 0.0f;
    }
    /* a function of the parameters (what evaluate reads once it is built) */
    const float* vals = (const float*)(const void*)((const char*)inst + inst->params_offset);
    return sw__layer_weight(bound->def, layer, vals);
}
