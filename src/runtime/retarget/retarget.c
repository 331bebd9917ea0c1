/* Retargeting: a source local pose onto a target skeleton through model-space
 * rest orientations, root translation scaled, optional two-bone IK limbs. */
#include "sinew/retarget/retarget.h"

#include <string.h>

#include "runtime/core/internal.h"
#include "sinew/core/local_to_model.h"
#include "sinew/ik/ik.h"

static bool sw__retarget_is_ancestor(const sw_skeleton* s, uint32_t a, uint32_t j) {
    const int16_t* parents = sw_skeleton_parents(s);
    int32_t k = parents[j];
    while (k >= 0) {
        if ((uint32_t)k == a) return true;
        k = parents[k];
    }
    return false;
}

/* Model-space rest transforms of every joint (composed TRS). */
static void sw__retarget_rest_model(const sw_skeleton* s, sw_xform* out) {
    const sw_xform4* rest = sw_skeleton_rest_pose(s);
    const int16_t* parents = sw_skeleton_parents(s);
    for (uint32_t j = 0; j < s->joints_count; ++j) {
        const sw_xform local = sw_pose_get(rest, j);
        out[j] = parents[j] < 0 ? local : sw_xform_mul(out[parents[j]], local);
        out[j].r = sw_quat_normalize(out[j].r);
    }
}

/* Height of joint `root` above the lowest of the given joints (model rest). */
static float sw__retarget_height(const sw_xform* model, const sw_retarget_pair* pairs,
                                 uint32_t count, bool target, uint32_t root) {
    float lowest = model[root].t.y;
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t j = target ? pairs[i].target : pairs[i].source;
        if (model[j].t.y < lowest) lowest = model[j].t.y;
    }
    return model[root].t.y - lowest;
}

sw_result sw_retarget_map_init(const sw_retarget_map_desc* desc, sw_retarget_map* map,
                               sw_error* err) {
    if (!desc || !map || !desc->source || !desc->target || !desc->pairs)
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments", 0, -1);
    if (desc->pairs_count == 0) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "pairs", 0, -1);
    if (desc->limbs_count > 0 && !desc->limbs)
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "limbs", 0, -1);
    if (!(desc->root_scale >= 0.0f) || !isfinite(desc->root_scale))
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "root_scale >= 0", 0, -1);
    if (!isfinite(desc->source_ground) || !isfinite(desc->target_ground))
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "ground finite", 0, -1);
    if (desc->limbs_count > SW_RETARGET_MAX_LIMBS)
        return sw__fail(err, SW_RESULT_LIMIT, "limbs <= SW_RETARGET_MAX_LIMBS", 0, -1);
    const sw_skeleton* src = desc->source;
    const sw_skeleton* tgt = desc->target;
    const uint32_t sn = src->joints_count, tn = tgt->joints_count;
    if (sn == 0 || sn > SW_SKELETON_MAX_JOINTS || tn == 0 || tn > SW_SKELETON_MAX_JOINTS)
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "skeleton joints", 0, -1);
    int16_t seen[SW_SKELETON_MAX_JOINTS];
    for (uint32_t t = 0; t < tn; ++t)
        seen[t] = -1;
    int32_t root_target = -1, root_source = -1;
    for (uint32_t i = 0; i < desc->pairs_count; ++i) {
        const sw_retarget_pair p = desc->pairs[i];
        if (p.source >= sn || p.target >= tn)
            return sw__fail(err, SW_RESULT_BAD_DATA, "pair joint in range", 0, (int64_t)i);
        if (seen[p.target] >= 0)
            return sw__fail(err, SW_RESULT_BAD_DATA, "target joint mapped once", 0, (int64_t)i);
        seen[p.target] = (int16_t)p.source;
    }
    /* The root pair: most mapped joints below it, first on a tie. */
    uint32_t below[SW_SKELETON_MAX_JOINTS];
    memset(below, 0, sizeof below);
    const int16_t* tparents = sw_skeleton_parents(tgt);
    for (uint32_t t = tn; t-- > 0;) {
        if (tparents[t] >= 0) below[tparents[t]] += below[t] + (seen[t] >= 0 ? 1u : 0u);
    }
    for (uint32_t t = 0; t < tn; ++t) {
        if (seen[t] >= 0 && (root_target < 0 || below[t] > below[root_target])) {
            root_target = (int32_t)t;
            root_source = seen[t];
        }
    }
    sw_xform smodel[SW_SKELETON_MAX_JOINTS];
    sw_xform tmodel[SW_SKELETON_MAX_JOINTS];
    sw__retarget_rest_model(src, smodel);
    sw__retarget_rest_model(tgt, tmodel);
    for (uint32_t i = 0; i < desc->limbs_count; ++i) {
        const sw_retarget_limb l = desc->limbs[i];
        if (l.start >= tn || l.mid >= tn || l.end >= tn ||
            !sw__retarget_is_ancestor(tgt, l.start, l.mid) ||
            !sw__retarget_is_ancestor(tgt, l.mid, l.end))
            return sw__fail(err, SW_RESULT_BAD_DATA, "limb joints in ancestor order", 0,
                            (int64_t)i);
        if (l.source_end >= sn)
            return sw__fail(err, SW_RESULT_BAD_DATA, "limb source in range", 0, (int64_t)i);
    }
    float scale = desc->root_scale;
    if (scale == 0.0f && desc->limbs_count > 0) {
        /* the root's height above the limbs' ends (feet) */
        float ht = 0.0f, hs = 0.0f;
        for (uint32_t i = 0; i < desc->limbs_count; ++i) {
            ht += tmodel[root_target].t.y - tmodel[desc->limbs[i].end].t.y;
            hs += smodel[root_source].t.y - smodel[desc->limbs[i].source_end].t.y;
        }
        if (!(ht > 1e-6f) || !(hs > 1e-6f) || !isfinite(ht / hs))
            return sw__fail(err, SW_RESULT_BAD_DATA, "root height > 0", 0, -1);
        scale = ht / hs;
    } else if (scale == 0.0f) {
        const float ht = sw__retarget_height(tmodel, desc->pairs, desc->pairs_count, true,
                                             (uint32_t)root_target);
        const float hs = sw__retarget_height(smodel, desc->pairs, desc->pairs_count, false,
                                             (uint32_t)root_source);
        if (!(ht > 1e-6f) || !(hs > 1e-6f) || !isfinite(ht / hs))
            return sw__fail(err, SW_RESULT_BAD_DATA, "root height > 0", 0, -1);
        scale = ht / hs;
    }
    memset(map, 0, sizeof *map);
    map->source_joints_count = sn;
    map->target_joints_count = tn;
    map->pairs_count = desc->pairs_count;
    map->limbs_count = desc->limbs_count;
    map->root_target = root_target;
    map->root_source = root_source;
    map->root_scale = scale;
    map->source_ground = desc->source_ground;
    map->target_ground = desc->target_ground;
    for (uint32_t t = 0; t < tn; ++t) {
        map->source_of[t] = seen[t];
        map->target_rest_model[t] = tmodel[t].r;
    }
    for (uint32_t t = 0; t < tn; ++t)
        map->placed[t] =
            (uint8_t)(seen[t] >= 0 && ((int32_t)t == root_target ||
                                       !sw__retarget_is_ancestor(tgt, (uint32_t)root_target, t)));
    for (uint32_t s = 0; s < sn; ++s)
        map->source_rest_model[s] = smodel[s].r;
    const int16_t* sparents = sw_skeleton_parents(src);
    for (uint32_t t = 0; t < tn; ++t) {
        map->delta_scale[t] = 0.0f;
        if (seen[t] < 0) continue;
        const int32_t sp = sparents[seen[t]], tp = tparents[t];
        const float ss = sp < 0 ? 1.0f : smodel[sp].s.x, ts = tp < 0 ? 1.0f : tmodel[tp].s.x;
        if (ts != 0.0f && isfinite(ss / ts)) map->delta_scale[t] = scale * ss / ts;
    }
    for (uint32_t i = 0; i < desc->limbs_count; ++i)
        map->limbs[i] = desc->limbs[i];
    return SW_RESULT_OK;
}

/* Target model position for a source model position (see the header). */
static sw_vec3 sw__retarget_place(const sw_retarget_map* map, sw_vec3 p) {
    p.y -= map->source_ground;
    p = sw_vec3_scale(p, map->root_scale);
    p.y += map->target_ground;
    return p;
}

size_t sw_retarget_scratch_size(const sw_retarget_map* map) {
    if (!map) return 0;
    return (size_t)sw__align16(map->source_joints_count * sizeof(sw_xform)) +
           (size_t)sw__align16(map->target_joints_count * sizeof(sw_xform)) +
           map->target_joints_count * sizeof(sw_mat4);
}

sw_result sw_retarget_job_validate(const sw_retarget_job* job) {
    if (!job || !job->map || !job->source || !job->target || !job->source_pose || !job->scratch ||
        !job->out)
        return SW_RESULT_INVALID_ARGUMENT;
    const sw_retarget_map* map = job->map;
    if (job->source->joints_count != map->source_joints_count ||
        job->target->joints_count != map->target_joints_count || map->pairs_count == 0)
        return SW_RESULT_INVALID_ARGUMENT;
    if (!(job->ik_weight >= 0.0f && job->ik_weight <= 1.0f)) return SW_RESULT_INVALID_ARGUMENT;
    if (job->source_pose_count < job->source->packets_count ||
        job->out_count < job->target->packets_count ||
        job->scratch_size < sw_retarget_scratch_size(map))
        return SW_RESULT_BUFFER_TOO_SMALL;
    if (!sw__aligned16(job->source_pose) || !sw__aligned16(job->out) ||
        !sw__aligned16(job->scratch))
        return SW_RESULT_MISALIGNED;
    const size_t out_bytes = job->target->packets_count * sizeof(sw_xform4);
    const size_t in_bytes = job->source->packets_count * sizeof(sw_xform4);
    const void* inputs[4] = {job->source_pose, job->map, job->source, job->target};
    const size_t sizes[4] = {in_bytes, sizeof *map, job->source->size, job->target->size};
    for (int i = 0; i < 4; ++i) {
        if (sw__overlaps(job->out, out_bytes, inputs[i], sizes[i]) ||
            sw__overlaps(job->scratch, job->scratch_size, inputs[i], sizes[i]))
            return SW_RESULT_OVERLAP;
    }
    if (sw__overlaps(job->out, out_bytes, job->scratch, job->scratch_size))
        return SW_RESULT_OVERLAP;
    return SW_RESULT_OK;
}

/* Model rotation of the parent of j in the local pose (identity for a root). */
static sw_quat sw__retarget_parent_rotation(const sw_skeleton* s, const sw_xform4* pose,
                                            uint32_t j) {
    const int16_t* parents = sw_skeleton_parents(s);
    sw_quat q = sw_quat_identity();
    for (int32_t a = parents[j]; a >= 0; a = parents[a])
        q = sw_quat_mul(sw_pose_get(pose, (uint32_t)a).r, q);
    return sw_quat_normalize(q);
}

/* Target joint t's local transform: its rest pose, turned by its source's
 * model rotation change, moved by the source's translation change (scaled
 * into the target's frame) or placed at the source's position; tmodel
 * holds the model transforms of t's ancestors. */
static sw_xform sw__retarget_joint(const sw_retarget_job* job, const sw_xform* smodel,
                                   const sw_xform* tmodel, uint32_t t) {
    const sw_retarget_map* map = job->map;
    sw_xform local = sw_pose_get(sw_skeleton_rest_pose(job->target), t);
    const int32_t parent = sw_skeleton_parents(job->target)[t];
    const int32_t s = map->source_of[t];
    if (s < 0) return local;
    const sw_quat d = sw_quat_mul(smodel[s].r, sw_quat_conjugate(map->source_rest_model[s]));
    const sw_quat q = sw_quat_normalize(sw_quat_mul(d, map->target_rest_model[t]));
    local.r =
        parent < 0 ? q : sw_quat_normalize(sw_quat_mul(sw_quat_conjugate(tmodel[parent].r), q));
    const sw_vec3 ds = sw_vec3_sub(sw_pose_get(job->source_pose, (uint32_t)s).t,
                                   sw_pose_get(sw_skeleton_rest_pose(job->source), (uint32_t)s).t);
    if (ds.x != 0.0f || ds.y != 0.0f || ds.z != 0.0f) {
        const int32_t sp = sw_skeleton_parents(job->source)[s];
        const sw_quat ps = sp < 0 ? sw_quat_identity() : map->source_rest_model[sp];
        const sw_quat pt = parent < 0 ? sw_quat_identity() : map->target_rest_model[parent];
        const sw_vec3 dt = sw_quat_rotate(sw_quat_mul(sw_quat_conjugate(pt), ps), ds);
        local.t = sw_vec3_add(local.t, sw_vec3_scale(dt, map->delta_scale[t]));
    }
    if (map->placed[t]) {
        const sw_vec3 pos = sw__retarget_place(map, smodel[s].t);
        local.t = parent < 0 ? pos : sw_xform_point(sw_xform_inverse(tmodel[parent]), pos);
    }
    return local;
}

/* Lowers the target's root where a limb's goal is out of the limb's reach
 * (mats: the target's model matrices; tmodel its model transforms). */
static void sw__retarget_drop_root(const sw_retarget_job* job, const sw_xform* smodel,
                                   const sw_xform* tmodel, const sw_mat4* mats) {
    const sw_retarget_map* map = job->map;
    float drop = 0.0f;
    for (uint32_t i = 0; i < map->limbs_count; ++i) {
        const sw_retarget_limb l = map->limbs[i];
        const sw_vec3 a =
            sw_vec3_make(mats[l.start].m[12], mats[l.start].m[13], mats[l.start].m[14]);
        const sw_vec3 b = sw_vec3_make(mats[l.mid].m[12], mats[l.mid].m[13], mats[l.mid].m[14]);
        const sw_vec3 c = sw_vec3_make(mats[l.end].m[12], mats[l.end].m[13], mats[l.end].m[14]);
        const float reach =
            0.999f * (sw_vec3_length(sw_vec3_sub(b, a)) + sw_vec3_length(sw_vec3_sub(c, b)));
        const sw_vec3 g = sw__retarget_place(map, smodel[l.source_end].t);
        const float hx = g.x - a.x, hz = g.z - a.z;
        const float h2 = hx * hx + hz * hz;
        if (!(h2 < reach * reach)) continue;
        const float need = a.y - g.y - sqrtf(reach * reach - h2);
        if (need > drop) drop = need;
    }
    if (!(drop > 0.0f)) return;
    const uint32_t r = (uint32_t)map->root_target;
    const int16_t parent = sw_skeleton_parents(job->target)[r];
    sw_xform root = sw_pose_get(job->out, r);
    sw_vec3 down = sw_vec3_make(0.0f, -drop * job->ik_weight, 0.0f);
    if (parent >= 0) {
        const sw_xform pm = tmodel[parent];
        down = sw_vec3_scale(sw_quat_rotate(sw_quat_conjugate(pm.r), down), 1.0f / pm.s.x);
    }
    root.t = sw_vec3_add(root.t, down);
    sw_pose_set(job->out, r, root);
}

/* Two-bone IK on each limb towards its source end's placed position; the
 * end joint keeps its retargeted model rotation. */
static void sw__retarget_limbs(const sw_retarget_job* job, const sw_local_to_model_job* l2m,
                               const sw_xform* smodel, const sw_xform* tmodel, sw_mat4* mats) {
    const sw_retarget_map* map = job->map;
    const sw_skeleton* tgt = job->target;
    for (uint32_t i = 0; i < map->limbs_count; ++i) {
        const sw_retarget_limb l = map->limbs[i];
        if (sw_local_to_model_job_run(l2m) != SW_RESULT_OK) break;
        const sw_ik_two_bone_job leg = {
            .skeleton = tgt,
            .model = mats,
            .model_count = tgt->joints_count,
            .start_joint = l.start,
            .mid_joint = l.mid,
            .end_joint = l.end,
            .target = sw__retarget_place(map, smodel[l.source_end].t),
            .pole_mode = SW_IK_POLE_MODE_NONE,
            .weight = job->ik_weight,
            .pose = job->out,
            .pose_count = job->out_count,
        };
        /* A limb the solver refuses (a bone of zero length) keeps its FK pose. */
        if (sw_ik_two_bone_job_run(&leg) != SW_RESULT_OK) continue;
        /* The end joint gets back its retargeted model rotation. */
        sw_xform end = sw_pose_get(job->out, l.end);
        const sw_quat pr = sw__retarget_parent_rotation(tgt, job->out, l.end);
        end.r = sw_quat_normalize(sw_quat_mul(sw_quat_conjugate(pr), tmodel[l.end].r));
        sw_pose_set(job->out, l.end, end);
    }
}

sw_result sw_retarget_job_run(const sw_retarget_job* job) {
    const sw_result vr = sw_retarget_job_validate(job);
    if (vr != SW_RESULT_OK) return vr;
    const sw_retarget_map* map = job->map;
    const sw_skeleton* src = job->source;
    const sw_skeleton* tgt = job->target;
    const uint32_t sn = src->joints_count, tn = tgt->joints_count;
    char* scratch = (char*)job->scratch;
    sw_xform* smodel = (sw_xform*)(void*)scratch;
    const size_t smodel_bytes = (size_t)sw__align16(sn * sizeof(sw_xform));
    sw_xform* tmodel = (sw_xform*)(void*)(scratch + smodel_bytes);
    sw_mat4* mats =
        (sw_mat4*)(void*)(scratch + smodel_bytes + (size_t)sw__align16(tn * sizeof(sw_xform)));

    const int16_t* sparents = sw_skeleton_parents(src);
    for (uint32_t j = 0; j < sn; ++j) {
        const sw_xform local = sw_pose_get(job->source_pose, j);
        smodel[j] = sparents[j] < 0 ? local : sw_xform_mul(smodel[sparents[j]], local);
        smodel[j].r = sw_quat_normalize(smodel[j].r);
    }
    const int16_t* tparents = sw_skeleton_parents(tgt);
    for (uint32_t p = 0; p < tgt->packets_count; ++p)
        sw_xform4_identity(&job->out[p]);
    for (uint32_t t = 0; t < tn; ++t) {
        const sw_xform local = sw__retarget_joint(job, smodel, tmodel, t);
        const int32_t parent = tparents[t];
        tmodel[t] = parent < 0 ? local : sw_xform_mul(tmodel[parent], local);
        tmodel[t].r = sw_quat_normalize(tmodel[t].r);
        sw_pose_set(job->out, t, local);
    }
    if (job->ik_weight > 0.0f && map->limbs_count > 0) {
        const sw_local_to_model_job l2m = {
            .skeleton = tgt,
            .local = job->out,
            .local_count = job->out_count,
            .out = mats,
            .out_count = tn,
        };
        if (sw_local_to_model_job_run(&l2m) == SW_RESULT_OK && map->root_target >= 0) {
            sw__retarget_drop_root(job, smodel, tmodel, mats);
        }
        sw__retarget_limbs(job, &l2m, smodel, tmodel, mats);
    }
    return SW_RESULT_OK;
}
