/* Two-bone IK: law of cosines, pole, softness, twist, end orientation. */
#include "ik_internal.h"
#include "runtime/simd/simd4.h"

/* The checks of sw_ik_two_bone_job_validate but the bone lengths (the solve
 * makes those itself, from the positions it reads anyway). */
static sw_result sw__two_bone_check(const sw_ik_two_bone_job* job) {
    if (!job) return SW_RESULT_INVALID_ARGUMENT;
    const sw_result r = sw__ik_check_pose(job->skeleton, job->model, job->model_count,
                                          job->root_transform, job->pose, job->pose_count);
    if (r != SW_RESULT_OK) return r;
    /* x - x is 0 for finite x, NaN otherwise: one test for all the numbers
     * (0 only when every one is 0, whatever the order of the sums). */
    const sw_vec3 p = job->pole;
    const sw_quat e = job->end_rotation;
    const sw__ik_q4 tt = sw__ik_q4_make(sw__ik_v3_of(job->target), job->twist);
    const sw__ik_q4 pp = sw__ik_q4_make(sw__ik_v3_of(p), 0.0f), ee = sw__ik_q4_of(e);
    const sw__ik_q4 zero = sw__ik_q4_add(
        sw__ik_q4_add(sw__ik_q4_sub(tt, tt), sw__ik_q4_sub(pp, pp)), sw__ik_q4_sub(ee, ee));
    if (!(sw__ik_q4_dot(zero, zero) == 0.0f)) return SW_RESULT_INVALID_ARGUMENT;
    switch (job->pole_mode) {
    case SW_IK_POLE_MODE_NONE:
    case SW_IK_POLE_MODE_TARGET:
        break;
    case SW_IK_POLE_MODE_DIRECTION:
        if (!(sw_vec3_dot(p, p) > 0.0f)) return SW_RESULT_INVALID_ARGUMENT;
        break;
    default:
        return SW_RESULT_INVALID_ARGUMENT;
    }
    if (!sw__ik_unit_weight(job->weight) || !sw__ik_unit_weight(job->end_rotation_weight) ||
        !(job->softness >= 0.0f) || !(job->softness < 1.0f))
        return SW_RESULT_INVALID_ARGUMENT;
    if (job->end_rotation_weight > 0.0f && !(sw_quat_dot(e, e) > 0.0f))
        return SW_RESULT_INVALID_ARGUMENT;
    const sw_skeleton* skel = job->skeleton;
    const uint32_t s = job->start_joint, m = job->mid_joint, e_j = job->end_joint;
    if (s >= skel->joints_count || m >= skel->joints_count || e_j >= skel->joints_count)
        return SW_RESULT_INVALID_ARGUMENT;
    /* Usually each joint is the next one's parent: no walk. */
    const int16_t* parents = sw_skeleton_parents(skel);
    if ((parents[m] != (int32_t)s && !sw__ik_is_ancestor(skel, s, m)) ||
        (parents[e_j] != (int32_t)m && !sw__ik_is_ancestor(skel, m, e_j)))
        return SW_RESULT_INVALID_ARGUMENT;
    if (job->reached && sw__ik_overlaps_inputs(job->reached, sizeof(bool), job->skeleton,
                                               job->model, job->root_transform, job->pose))
        return SW_RESULT_OVERLAP;
    return SW_RESULT_OK;
}

sw_result sw_ik_two_bone_job_validate(const sw_ik_two_bone_job* job) {
    const sw_result r = sw__two_bone_check(job);
    if (r != SW_RESULT_OK) return r;
    const uint32_t chain[3] = {job->start_joint, job->mid_joint, job->end_joint};
    return sw__ik_check_lengths(job->model, chain, 3);
}

/* Distance the limb reaches for a target at distance d, with full reach L,
 * shortest reach lmin and softness s in [0, 1). */
static float sw__two_bone_reach(float d, float lmin, float L, float s) {
    if (s > 0.0f) {
        const float soft_start = L * (1.0f - s);
        if (d > soft_start) {
            const float width = L * s;
            d = soft_start + width * (1.0f - expf(-(d - soft_start) / width));
        }
    }
    if (d > L) d = L;
    if (d < lmin) d = lmin;
    return d;
}

/* (cos(h), sin(h)) up to a common positive factor, for the half angle h of
 * an angle with cosine c and sine s up to a common positive factor r
 * (r = |(c, s)|): (r + c, s), or when c < 0, where r + c loses its digits,
 * (s, r - c) (the same direction, or its opposite: the same rotation). */
static void sw__half_angle(float c, float s, float r, float* hc, float* hs) {
    const bool pos = c >= 0.0f;
    *hc = pos ? r + c : s;
    *hs = pos ? s : r - c;
}

/* Square roots and reciprocals four at a time: the solve's come in
 * independent groups, and one SIMD instruction costs what one scalar one
 * does. Both are correctly rounded on every path (simd4.h), so every path
 * gives the same bits. */
#if SW__SIMD4_AVAILABLE
/* The squared lengths of a, b, c and d into sq and their square roots into
 * len: the four products transposed, each lane summed x, y, z (as
 * sw__ik_v3_dot), with no vector built from scalars. */
static void sw__len4(sw__ik_v3 a, sw__ik_v3 b, sw__ik_v3 c, sw__ik_v3 d, float sq[4],
                     float len[4]) {
    sw__v4 x = sw__v4_mul(a, a), y = sw__v4_mul(b, b), z = sw__v4_mul(c, c), w = sw__v4_mul(d, d);
    SW__V4_TRANSPOSE(x, y, z, w);
    const sw__v4 s = sw__v4_add(sw__v4_add(x, y), z);
    sw__v4_storeu(sq, s);
    sw__v4_storeu(len, sw__v4_sqrt(s));
}
static void sw__sqrt4(float a, float b, float c, float d, float out[4]) {
    sw__v4_storeu(out, sw__v4_sqrt(sw__v4_set(a, b, c, d)));
}
static void sw__rcp4(float a, float b, float c, float d, float out[4]) {
    sw__v4_storeu(out, sw__v4_div(sw__v4_set1(1.0f), sw__v4_set(a, b, c, d)));
}
#else
static void sw__sqrt4(float a, float b, float c, float d, float out[4]) {
    out[0] = sqrtf(a), out[1] = sqrtf(b), out[2] = sqrtf(c), out[3] = sqrtf(d);
}
static void sw__len4(sw__ik_v3 a, sw__ik_v3 b, sw__ik_v3 c, sw__ik_v3 d, float sq[4],
                     float len[4]) {
    sq[0] = sw_vec3_dot(a, a), sq[1] = sw_vec3_dot(b, b), sq[2] = sw_vec3_dot(c, c);
    sq[3] = sw_vec3_dot(d, d);
    sw__sqrt4(sq[0], sq[1], sq[2], sq[3], len);
}
static void sw__rcp4(float a, float b, float c, float d, float out[4]) {
    out[0] = 1.0f / a, out[1] = 1.0f / b, out[2] = 1.0f / c, out[3] = 1.0f / d;
}
#endif

/* Step 1 for a limb within 1e-4 rad of straight (its bend-plane normal
 * would be rounding noise): the normal of the plane of the limb (ab, of
 * length lab) and the pole's perpendicular part, or any normal. */
static sw_vec3 sw__two_bone_straight_normal(sw_vec3 ab, float lab, bool has_pole,
                                            sw_vec3 pole_perp) {
    const sw_vec3 limb = sw_vec3_scale(ab, 1.0f / lab);
    const sw_vec3 pp =
        has_pole ? sw_vec3_sub(pole_perp, sw_vec3_scale(limb, sw_vec3_dot(pole_perp, limb)))
                 : sw_vec3_make(0.0f, 0.0f, 0.0f);
    /* The mid joint lies on the side m with n = m x limb (see step 3). */
    return sw_vec3_length(pp) > 1e-6f ? sw_vec3_normalize(sw_vec3_cross(pp, limb))
                                      : sw__ik_perpendicular(limb);
}

/* The new start-end direction f = e / |e| for e = ab + lbc (ab^ cos b1 + k
 * sin b1), ab^ = ab / lab and k = n x ab^ (the mid joint bends towards k),
 * where lbc cos b1 = (c1^2 - s1^2) / (4 lab) and lbc sin b1 = c1 s1 / (2
 * lab) for the mid joint's new half angle (c1, s1), c1^2 = cc and s1^2 = ss
 * (the products they are the roots of, so that e's part along ab^ does not
 * wait for the roots): no need to turn bc by t_mid first. inv_lab = 1 /
 * lab; |e| = d but for rounding (inv_d = 1 / d), which from d below 1e-3 of
 * the reach on is no longer small next to it: there |e| is measured. */
static sw__ik_v3 sw__two_bone_new_dir(sw__ik_v3 ab, sw__ik_v3 n, float lab, float inv_lab, float cc,
                                      float ss, float c1, float s1, float inv_d, bool measure) {
    const sw__ik_v3 ab_unit = sw__ik_v3_scale(ab, inv_lab);
    const sw__ik_v3 k = sw__ik_v3_cross(n, ab_unit);
    const float e_par = lab + 0.25f * (cc - ss) * inv_lab;
    const float cs = c1 * s1;
    if (!measure)
        return sw__ik_v3_add(sw__ik_v3_scale(ab_unit, e_par * inv_d),
                             sw__ik_v3_scale(k, cs * (0.5f * inv_lab * inv_d)));
    const sw__ik_v3 e =
        sw__ik_v3_add(sw__ik_v3_scale(ab_unit, e_par), sw__ik_v3_scale(k, cs * (0.5f * inv_lab)));
    return sw__ik_v3_scale(e, 1.0f / sqrtf(sw__ik_v3_dot(e, e)));
}

/* Step 2: the rotation q1 taking the start-end direction f onto u, not
 * normalized; *norm2 = |q1|^2. */
static sw__ik_q4 sw__two_bone_aim(sw__ik_v3 f, sw__ik_v3 u, float* norm2) {
    const sw__ik_v3 h = sw__ik_v3_add(f, u);
    const float h2 = sw__ik_v3_dot(h, h);
    if (h2 >= 1e-12f) {
        /* Near opposite directions (as sw_quat_from_to) |f x u| is small
         * next to its rounding error, whose part along f would tilt the
         * turn: removed. With |q1|^2 = |f + u|^2 >= 1/2 (f and u less than
         * 139 degrees apart) that rounding, about 1e-7 of |f| |u|, turns u
         * by at most about 3e-7 rad, as the solve's other roundings do, and
         * the removal (a dependent dot product, scale and subtraction) is
         * left out. */
        sw__ik_v3 fu = sw__ik_v3_cross(f, u);
        if (h2 < 0.5f) fu = sw__ik_v3_sub(fu, sw__ik_v3_scale(f, sw__ik_v3_dot(fu, f)));
        const sw__ik_q4 q = sw__ik_q4_make(fu, 0.5f * h2);
        *norm2 = sw__ik_q4_dot(q, q);
        return q;
    }
    *norm2 = 1.0f;
    return sw__ik_q4_of(sw_quat_from_to(sw__ik_v3_get(f), sw__ik_v3_get(u)));
}

/* Step 3: q1 (|q1|^2 = qq) followed by the roll about u taking the bend
 * normal n onto the pole's (p: the pole's perpendicular part, of unit
 * length: a far pole cannot overflow the products; pu = p x u, the pole's
 * normal); *norm2 multiplied by the roll's |.|^2. */
static sw__ik_q4 sw__two_bone_roll(sw__ik_q4 q1, sw__ik_v3 n, sw__ik_v3 u, sw__ik_v3 p,
                                   sw__ik_v3 pu, float qq, float* norm2) {
    /* n turned by q1 = (v, w), times |q1|^2, is n1 = a n + b v + c (v x n)
     * with a = w^2 - v.v, b = 2 v.n and c = 2 w. The roll's cosine is
     * n1.(p x u) and its sine (n1 x (p x u)).u = -n1.p, both times |n1| =
     * |q1|^2; as (v x n).y = v.(n x y) for any y, each is a sum of products
     * of a, b and c with dot products of v and vectors known before q1 is,
     * which run side by side instead of after n1. */
    const sw__ik_v3 v = sw__ik_q4_xyz(q1);
    const float w = sw__ik_q4_w(q1);
    const float a = w * w - sw__ik_v3_dot(v, v), b = 2.0f * sw__ik_v3_dot(v, n), c = 2.0f * w;
    const float rc = a * sw__ik_v3_dot(n, pu) + b * sw__ik_v3_dot(v, pu) +
                     c * sw__ik_v3_dot(v, sw__ik_v3_cross(n, pu));
    const float rs = -(a * sw__ik_v3_dot(n, p) + b * sw__ik_v3_dot(v, p) +
                       c * sw__ik_v3_dot(v, sw__ik_v3_cross(n, p)));
    float hc, hs;
    sw__half_angle(rc, rs, qq, &hc, &hs);
    *norm2 *= hc * hc + hs * hs;
    /* (u hs, hc) * q1 = hc q1 + hs ((u, 0) * q1): the product made before
     * (hc, hs) is known, two scales and a sum after. */
    const sw__ik_q4 uq = sw__ik_q4_mul(sw__ik_q4_make(u, 0.0f), q1);
    return sw__ik_q4_add(sw__ik_q4_scale(q1, hc), sw__ik_q4_scale(uq, hs));
}

/* The pole's offset from the start joint a (zero without a pole). */
static sw__ik_v3 sw__two_bone_pole(const sw_ik_two_bone_job* job, sw__ik_v3 a) {
    switch (job->pole_mode) {
    case SW_IK_POLE_MODE_TARGET:
        return sw__ik_v3_sub(sw__ik_v3_of(job->pole), a);
    case SW_IK_POLE_MODE_DIRECTION:
        return sw__ik_v3_of(job->pole);
    default:
        return sw__ik_v3_zero();
    }
}

/* The solve's rotations (sw_ik_two_bone_rotations in registers). */
typedef struct sw__two_bone_rots {
    sw__ik_q4 start, mid;
    float start2; /* |start|^2 as the solve tracked it (before `unit`) */
    bool reached;
} sw__two_bone_rots;

/* The solve of a checked job (all but the bone lengths, checked here).
 * Trigonometry-free: the angles enter only through the half-angle cosines
 * and sines the quaternions need.
 * - Mid joint: with m = |lab - lbc| and L = lab + lbc, the law of cosines
 *   for the new bend b1 (pi minus the interior angle) gives
 *   cos^2(b1 / 2) = (d - m)(d + m) / (4 lab lbc) and
 *   sin^2(b1 / 2) = (L - d)(L + d) / (4 lab lbc), both products free of
 *   cancellation; the current bend b0 has cosine ab.bc and sine |ab x bc|
 *   (times lab lbc). The turn b1 - b0 about the bend normal n has
 *   cos((b1 - b0) / 2) and sin((b1 - b0) / 2) from the angle differences.
 * - Start joint: q1, the shortest rotation taking the new start-end
 *   direction f onto the target direction u, (f x u, 1 + f.u) (not
 *   normalized), then the roll about u taking the turned bend normal onto
 *   the pole's, from its cosine and sine (sw__half_angle). Only the product
 *   is normalized (the roll's angle does not depend on the length of q1),
 *   and only with `unit`: the run's write-back normalizes anyway.
 * Vectors and quaternions in registers (sw__ik_v3, sw__ik_q4). */
static sw_result sw__two_bone_solve(const sw_ik_two_bone_job* job, sw__two_bone_rots* out,
                                    bool unit) {
    const sw_mat4* model = job->model;
    const sw__ik_v3 a = sw__ik_v3_pos(&model[job->start_joint]);
    const sw__ik_v3 b = sw__ik_v3_pos(&model[job->mid_joint]);
    const sw__ik_v3 c = sw__ik_v3_pos(&model[job->end_joint]);
    const sw__ik_v3 ab = sw__ik_v3_sub(b, a), bc = sw__ik_v3_sub(c, b);
    const sw__ik_v3 cr = sw__ik_v3_cross(ab, bc);
    const sw__ik_v3 at = sw__ik_v3_sub(sw__ik_v3_of(job->target), a);
    float sq[4], r1[4], r2[4];
    sw__len4(ab, bc, cr, at, sq, r1);
    const float lab2 = sq[0], lbc2 = sq[1], dist2 = sq[3];
    /* sw__ik_check_lengths on the chain: finite positions, bones at least
     * SW__IK_MIN_BONE long (and their squares finite). A non-finite
     * coordinate makes ab or bc infinite or NaN, so the squared lengths
     * check the positions too. */
    const float min2 = SW__IK_MIN_BONE * SW__IK_MIN_BONE;
    if (!(lab2 >= min2) || !(lbc2 >= min2) || !(lab2 < INFINITY) || !(lbc2 < INFINITY))
        return SW_RESULT_BAD_DATA;
    /* The pole's part perpendicular to the start-target axis u has length
     * |pd x at| / |at|, free of cancellation and known before u is. */
    const sw__ik_v3 pd = sw__two_bone_pole(job, a);
    sw__ik_v3 px = sw__ik_v3_cross(pd, at);
    const float lab = r1[0], lbc = r1[1], cr_len = r1[2], dist = r1[3];
    const float reach = lab + lbc, rr = lab * lbc;
    /* 1 / 0 gives infinity (no trap); the branches below skip those. */
    sw__rcp4(dist, cr_len, rr, 1.0f, r2);
    const float inv_dist = r2[0], inv_cr = r2[1], inv_rr = r2[2];

    /* Direction to the target; on the start joint, the limb's own. */
    sw__ik_v3 u;
    float pole_scale = inv_dist, pole_scale2 = dist2;
    if (dist > 1e-6f * reach) {
        u = sw__ik_v3_scale(at, inv_dist);
    } else {
        const sw_vec3 ac = sw__ik_v3_get(sw__ik_v3_sub(c, a));
        u = sw__ik_v3_of(
            sw_vec3_normalize(sw_vec3_length(ac) > 1e-6f * reach ? ac : sw__ik_v3_get(ab)));
        px = sw__ik_v3_cross(pd, u);
        pole_scale = pole_scale2 = 1.0f;
    }
    const float m = fabsf(lab - lbc);
    const float d = sw__two_bone_reach(dist, m, reach, job->softness);
    /* Square roots the mid joint's new half angle needs, and the pole's
     * perpendicular length (as |pd x at|); 1 / d for the new start-end
     * direction f (sw__two_bone_new_dir). */
    const float px2 = sw__ik_v3_dot(px, px);
    const float cc = (d - m) * (d + m), ss = (reach - d) * (reach + d);
    sw__sqrt4(cc, ss, px2, 1.0f, r1);
    const float inv_d = 1.0f / d;
    const float c1 = r1[0], s1 = r1[1], px_len = r1[2];

    /* Pole: its part perpendicular to the start-target axis (none when
     * within 1e-4 of collinear, or no pole), as u x (pd x u) = (u x px) /
     * |at| (no cancellation), and its unit direction p. */
    const bool has_pole = px2 > 1e-8f * sw__ik_v3_dot(pd, pd) * pole_scale2;
    const sw__ik_v3 u_px = sw__ik_v3_cross(u, px);

    /* 1. Mid joint about its hinge: the current bend-plane normal. A limb
     * within 1e-4 rad of straight has none worth trusting (its direction
     * would be rounding noise): take the plane of the limb and the pole, or
     * any. */
    const sw__ik_v3 n = cr_len > 1e-4f * rr
                            ? sw__ik_v3_scale(cr, inv_cr)
                            : sw__ik_v3_of(sw__two_bone_straight_normal(
                                  sw__ik_v3_get(ab), lab, has_pole,
                                  has_pole ? sw__ik_v3_get(sw__ik_v3_scale(u_px, pole_scale))
                                           : sw_vec3_make(0.0f, 0.0f, 0.0f)));
    /* The current bend's half angle (c0, s0) scaled to at most 2 (|.|^2 =
     * q0), the new one's (c1, s1) to |.|^2 = L^2 - m^2 = 4 lab lbc: the
     * turn's (mc, ms) is sqrt(4 rr q0) long. */
    float c0, s0;
    sw__half_angle(sw__ik_v3_dot(ab, bc) * inv_rr, cr_len * inv_rr, 1.0f, &c0, &s0);
    const float minv = unit ? 1.0f / sqrtf(4.0f * rr * (c0 * c0 + s0 * s0)) : 1.0f;
    const float mc = (c1 * c0 + s1 * s0) * minv, ms = (s1 * c0 - c1 * s0) * minv;
    const sw__ik_q4 t_mid = sw__ik_q4_make(sw__ik_v3_scale(n, ms), mc);
    const sw__ik_v3 f =
        sw__two_bone_new_dir(ab, n, lab, lbc * inv_rr, cc, ss, c1, s1, inv_d, !(d > 1e-3f * reach));

    /* 2. Start joint: point the limb at the target, q1 ~ (f x u, 1 + f.u)
     * with 1 + f.u = |f + u|^2 / 2, which keeps its digits when f and u are
     * nearly opposite (as sw_quat_from_to, which takes an exactly opposite
     * or zero f). */
    /* |t_start|^2, tracked so that the normalization at the end need not
     * wait for the last product. */
    float norm2;
    sw__ik_q4 t_start = sw__two_bone_aim(f, u, &norm2);
    const float qq = norm2;
    /* 3. About the start-target axis: the bend-plane normal n (= mid side x
     * limb direction) onto the pole's, so the mid joint lies on the pole's
     * side. Using the normal rather than the mid joint's offset keeps this
     * continuous through full extension, where the offset vanishes. */
    if (has_pole) {
        /* p x u = ((u x px) x u) / |px| = px / |px| (px is perpendicular to
         * u, which has unit length). */
        const float inv_px = 1.0f / px_len;
        const sw__ik_v3 p = sw__ik_v3_scale(u_px, inv_px);
        t_start = sw__two_bone_roll(t_start, n, u, p, sw__ik_v3_scale(px, inv_px), qq, &norm2);
    }
    /* A unit turn: the length stays. */
    if (job->twist != 0.0f)
        t_start = sw__ik_q4_mul(sw__ik_q4_of(sw_quat_from_axis_angle(sw__ik_v3_get(u), job->twist)),
                                t_start);
    if (unit) t_start = sw__ik_q4_scale(t_start, 1.0f / sqrtf(norm2));

    /* The end lands at a + u * |e| with |e| = d (the mid turn makes the
     * start-end distance d), so its distance to the target is |dist - d|. */
    out->reached = fabsf(dist - d) <= 1e-4f * reach;
    out->start = t_start;
    out->start2 = norm2;
    out->mid = t_mid;
    return SW_RESULT_OK;
}

sw_result sw_ik_two_bone_job_solve(const sw_ik_two_bone_job* job, sw_ik_two_bone_rotations* out) {
    if (!out) return SW_RESULT_INVALID_ARGUMENT;
    sw_result res = sw__two_bone_check(job);
    if (res != SW_RESULT_OK) return res;
    if (sw__ik_overlaps_inputs(out, sizeof *out, job->skeleton, job->model, job->root_transform,
                               job->pose))
        return SW_RESULT_OVERLAP;
    /* Solved into a copy: on failure *out stays untouched. */
    sw__two_bone_rots rots;
    res = sw__two_bone_solve(job, &rots, true);
    if (res == SW_RESULT_OK)
        *out = (sw_ik_two_bone_rotations){.start = sw__ik_q4_get(rots.start),
                                          .mid = sw__ik_q4_get(rots.mid),
                                          .reached = rots.reached};
    return res;
}

sw_result sw_ik_two_bone_job_run(const sw_ik_two_bone_job* job) {
    sw_result res = sw__two_bone_check(job);
    if (res != SW_RESULT_OK) return res;
    /* Each joint's turn is expressed in the input frame (the parent's turn
     * cancels in conj(P') * T' * P'), so both use the input parent rotations.
     * The write-back's inputs (the parents' matrices and the joints' local
     * rotations) are asked for before the solve, which then hides the wait
     * when they are far (many characters). */
    const sw_skeleton* skel = job->skeleton;
    const sw_mat4* model = job->model;
    const sw_mat4* start_parent =
        sw__ik_parent_matrix(skel, model, job->root_transform, job->start_joint);
    const sw_mat4* mid_parent =
        sw__ik_parent_matrix(skel, model, job->root_transform, job->mid_joint);
    sw__ik_prefetch_m(start_parent);
    sw__ik_prefetch_m(mid_parent);
    sw__ik_prefetch_rot(job->pose, job->start_joint);
    sw__ik_prefetch_rot(job->pose, job->mid_joint);
    sw__two_bone_rots rots;
    /* Not normalized: the write-back normalizes its product anyway, and
     * the solve's last square root leaves the critical path. */
    res = sw__two_bone_solve(job, &rots, false);
    if (res != SW_RESULT_OK) return res;
    if (job->reached) *job->reached = rots.reached;
    const float w = job->weight;
    if (!(w > 0.0f)) return SW_RESULT_OK;
    /* The start turn's |.|^2 from the solve, ready before the turn is (the
     * mid turn is ready early: its write-back measures). */
    sw__ik_write_m(job->pose, job->start_joint, start_parent, rots.start, rots.start2, true, w);
    sw__ik_write_m(job->pose, job->mid_joint, mid_parent, rots.mid,
                   sw__ik_q4_dot(rots.mid, rots.mid), false, w);

    const float ew = w * job->end_rotation_weight;
    if (ew > 0.0f) {
        /* The end's parent has turned by T_start^w * T_mid^w (both in model
         * space: t_mid about the mid joint before the start turned). */
        const sw_quat ident = sw_quat_identity();
        const sw_quat ts = sw_quat_normalize(sw__ik_q4_get(rots.start));
        const sw_quat tm = sw_quat_normalize(sw__ik_q4_get(rots.mid));
        const sw_quat ts_w = w < 1.0f ? sw_quat_slerp(ident, ts, w) : ts;
        const sw_quat tm_w = w < 1.0f ? sw_quat_slerp(ident, tm, w) : tm;
        const sw_quat moved = sw_quat_mul(ts_w, tm_w);
        const sw_quat p_end =
            sw_quat_mul(moved, sw__ik_parent_rot(skel, model, job->root_transform, job->end_joint));
        const sw_quat r_end =
            sw_quat_normalize(sw_quat_mul(moved, sw__ik_rot(model, job->end_joint)));
        const sw_quat t_end =
            sw_quat_mul(sw_quat_normalize(job->end_rotation), sw_quat_conjugate(r_end));
        sw__ik_write(job->pose, job->end_joint, p_end, t_end, ew);
    }
    return SW_RESULT_OK;
}
