// The ozz-animation side of `sinew bench`: see ozz_side.h. Written against
// ozz 0.16.0's public runtime API (built by scripts/anchors).
#include "ozz_side.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "../bench_util.h"
#include "ozz/animation/runtime/animation.h"
#include "ozz/animation/runtime/blending_job.h"
#include "ozz/animation/runtime/ik_two_bone_job.h"
#include "ozz/animation/runtime/local_to_model_job.h"
#include "ozz/animation/runtime/sampling_job.h"
#include "ozz/animation/runtime/skeleton.h"
#include "ozz/base/io/archive.h"
#include "ozz/base/io/stream.h"
#include "ozz/base/maths/simd_math.h"
#include "ozz/base/maths/simd_quaternion.h"
#include "ozz/base/maths/soa_transform.h"

namespace oa = ozz::animation;
namespace om = ozz::math;

struct bench_ozz {
    oa::Skeleton skeleton;
    oa::Animation clips[2];
    int chains[2][3];
    om::SimdFloat4 mid_axis[2]; // bend axis of each chain's mid joint, its local space
};

struct bench_ozz_set {
    const bench_ozz* oz;
    uint32_t chars;
    int soa, joints;
    std::vector<om::SoaTransform> pose; // chars * 3 poses: layer 0, layer 1, blended
    std::vector<om::Float4x4> model;    // chars * joints
    std::vector<std::unique_ptr<oa::SamplingJob::Context>> context; // chars * 2
    oa::SamplingJob::Context seek_context;
    std::vector<float> time, weight; // chars * 2, chars
    std::vector<float> target, pole; // chars * 2 * 3
    std::vector<float> seeks;
    uint32_t seek_next;
    std::vector<bool> reached; // chars * 2, of the last IK
    bool failed;
};

template <typename T> static bool bench_ozz_read(const char* path, T* out) {
    ozz::io::File file(path, "rb");
    if (!file.opened()) return false;
    ozz::io::IArchive archive(&file);
    if (!archive.TestTag<T>()) return false;
    archive >> *out;
    return true;
}

static int bench_ozz_find(const oa::Skeleton& skel, const char* name) {
    for (int i = 0; i < skel.num_joints(); ++i)
        if (std::strcmp(skel.joint_names()[i], name) == 0) return i;
    return -1;
}

static om::SoaTransform* bench_ozz_pose(bench_ozz_set* s, uint32_t c, int k) {
    return s->pose.data() +
           (static_cast<size_t>(c) * 3u + static_cast<size_t>(k)) * static_cast<size_t>(s->soa);
}

static om::Float4x4* bench_ozz_model(bench_ozz_set* s, uint32_t c) {
    return s->model.data() + static_cast<size_t>(c) * static_cast<size_t>(s->joints);
}

static void bench_ozz_sample(bench_ozz_set* s, int clip, float time,
                             oa::SamplingJob::Context* context, om::SoaTransform* out) {
    const oa::Animation& anim = s->oz->clips[clip];
    oa::SamplingJob job;
    job.animation = &anim;
    job.context = context;
    job.ratio = anim.duration() > 0.f ? time / anim.duration() : 0.f;
    job.output = ozz::span<om::SoaTransform>(out, static_cast<size_t>(s->soa));
    s->failed |= !job.Run();
}

static void bench_ozz_blend(bench_ozz_set* s, uint32_t c) {
    oa::BlendingJob::Layer layers[2];
    layers[0].transform =
        ozz::span<const om::SoaTransform>(bench_ozz_pose(s, c, 0), static_cast<size_t>(s->soa));
    layers[0].weight = 1.f - s->weight[c];
    layers[1].transform =
        ozz::span<const om::SoaTransform>(bench_ozz_pose(s, c, 1), static_cast<size_t>(s->soa));
    layers[1].weight = s->weight[c];
    oa::BlendingJob job;
    job.layers = layers;
    job.rest_pose = s->oz->skeleton.joint_rest_poses();
    job.output = ozz::span<om::SoaTransform>(bench_ozz_pose(s, c, 2), static_cast<size_t>(s->soa));
    s->failed |= !job.Run();
}

// Local-to-model of character c's blended pose: every joint, or (from >= 0)
// the joint `from` and its descendants.
static void bench_ozz_l2m(bench_ozz_set* s, uint32_t c, int from) {
    oa::LocalToModelJob job;
    job.skeleton = &s->oz->skeleton;
    job.input =
        ozz::span<const om::SoaTransform>(bench_ozz_pose(s, c, 2), static_cast<size_t>(s->soa));
    job.output = ozz::span<om::Float4x4>(bench_ozz_model(s, c), static_cast<size_t>(s->joints));
    if (from >= 0) job.from = from;
    s->failed |= !job.Run();
}

// Multiplies joint j's local rotation in the SoA pose by q (local space).
static void bench_ozz_rotate(om::SoaTransform* pose, int j, const om::SimdQuaternion& q) {
    om::SoaTransform& packet = pose[j / 4];
    om::SimdFloat4 rows[4];
    om::Transpose4x4(&packet.rotation.x, rows);
    const om::SimdQuaternion r = om::SimdQuaternion{rows[j & 3]} * q;
    rows[j & 3] = r.xyzw;
    om::Transpose4x4(rows, &packet.rotation.x);
}

// Two-bone IK of chain k of character c from its model matrices; the start
// and mid corrections are written into its blended local pose.
static void bench_ozz_ik(bench_ozz_set* s, uint32_t c, int k) {
    const int* ch = s->oz->chains[k];
    const om::Float4x4* m = bench_ozz_model(s, c);
    om::SimdQuaternion start_correction, mid_correction;
    bool reached = false;
    oa::IKTwoBoneJob job;
    const size_t i = 3u * (2u * c + static_cast<uint32_t>(k));
    job.target = om::simd_float4::Load3PtrU(&s->target[i]);
    job.pole_vector = om::simd_float4::Load3PtrU(&s->pole[i]) - m[ch[0]].cols[3];
    job.mid_axis = s->oz->mid_axis[k];
    job.start_joint = &m[ch[0]];
    job.mid_joint = &m[ch[1]];
    job.end_joint = &m[ch[2]];
    job.start_joint_correction = &start_correction;
    job.mid_joint_correction = &mid_correction;
    job.reached = &reached;
    s->failed |= !job.Run();
    om::SoaTransform* pose = bench_ozz_pose(s, c, 2);
    bench_ozz_rotate(pose, ch[0], start_correction);
    bench_ozz_rotate(pose, ch[1], mid_correction);
    s->reached[2u * c + static_cast<uint32_t>(k)] = reached;
}

static float bench_ozz_advance(bench_ozz_set* s, uint32_t c, int clip) {
    const float d = s->oz->clips[clip].duration();
    float& t = s->time[2u * c + static_cast<uint32_t>(clip)];
    t += 1.0f / 60.0f;
    if (t > d) t = d > 0.f ? std::fmod(t, d) : 0.f;
    return t;
}

static void bench_ozz_character(bench_ozz_set* s, int stage, uint32_t c) {
    switch (stage) {
    case BENCH_STAGE_SEQUENTIAL:
        bench_ozz_sample(s, 0, bench_ozz_advance(s, c, 0), s->context[2u * c].get(),
                         bench_ozz_pose(s, c, 0));
        break;
    case BENCH_STAGE_SEEK: {
        const float u = s->seeks[s->seek_next];
        s->seek_next = (s->seek_next + 1u) % static_cast<uint32_t>(s->seeks.size());
        s->seek_context.Invalidate();
        bench_ozz_sample(s, 0, u * s->oz->clips[0].duration(), &s->seek_context,
                         bench_ozz_pose(s, c, 0));
        break;
    }
    case BENCH_STAGE_BLEND:
    case BENCH_STAGE_BLEND_FLOOR: // ozz has no floor: its blend, in the floor row's rotation
        bench_ozz_blend(s, c);
        break;
    case BENCH_STAGE_L2M:
        bench_ozz_l2m(s, c, -1);
        break;
    case BENCH_STAGE_IK:
        bench_ozz_ik(s, c, 0);
        bench_ozz_ik(s, c, 1);
        break;
    default: // BENCH_STAGE_FRAME
        for (int i = 0; i < 2; ++i)
            bench_ozz_sample(s, i, bench_ozz_advance(s, c, i), s->context[2u * c + i].get(),
                             bench_ozz_pose(s, c, i));
        bench_ozz_blend(s, c);
        bench_ozz_l2m(s, c, -1);
        for (int k = 0; k < 2; ++k) {
            bench_ozz_ik(s, c, k);
            bench_ozz_l2m(s, c, s->oz->chains[k][0]);
        }
        break;
    }
}

// The bend axes of both chains (see bench_ozz_load). False when a job failed.
static bool bench_ozz_mid_axes(bench_ozz* oz) {
    const size_t joints = static_cast<size_t>(oz->skeleton.num_joints());
    std::vector<om::SoaTransform> local(static_cast<size_t>(oz->skeleton.num_soa_joints()));
    std::vector<om::Float4x4> model(joints);
    oa::SamplingJob::Context context(oz->skeleton.num_joints());
    float best[2] = {0.f, 0.f};
    for (int i = 0; i < 16; ++i) {
        oa::SamplingJob sample;
        sample.animation = &oz->clips[0];
        sample.context = &context;
        sample.ratio = static_cast<float>(i) / 16.f;
        sample.output = ozz::make_span(local);
        oa::LocalToModelJob l2m;
        l2m.skeleton = &oz->skeleton;
        l2m.input = ozz::make_span(local);
        l2m.output = ozz::make_span(model);
        if (!sample.Run() || !l2m.Run()) return false;
        for (int k = 0; k < 2; ++k) {
            const om::Float4x4& mid = model[static_cast<size_t>(oz->chains[k][1])];
            const om::SimdFloat4 a =
                om::Normalize3(model[static_cast<size_t>(oz->chains[k][0])].cols[3] - mid.cols[3]);
            const om::SimdFloat4 b =
                om::Normalize3(model[static_cast<size_t>(oz->chains[k][2])].cols[3] - mid.cols[3]);
            const om::SimdFloat4 axis = om::Cross3(a, b);
            const float bend = om::GetX(om::Length3(axis));
            if (bend > best[k]) {
                best[k] = bend;
                oz->mid_axis[k] = om::Normalize3(om::TransformVector(om::Invert(mid), axis));
            }
        }
    }
    return best[0] > 0.f && best[1] > 0.f;
}

static bench_ozz* bench_ozz_load(const char* dir, const char* const clips[2],
                                 const char* const chains[2][3], char* err, size_t cap) {
    std::unique_ptr<bench_ozz> oz(new (std::nothrow) bench_ozz);
    if (!oz) {
        std::snprintf(err, cap, "out of memory");
        return nullptr;
    }
    char path[1200];
    std::snprintf(path, sizeof path, "%s/skeleton.ozz", dir);
    if (!bench_ozz_read(path, &oz->skeleton)) {
        std::snprintf(err, cap, "%s: not an ozz skeleton", path);
        return nullptr;
    }
    for (int i = 0; i < 2; ++i) {
        std::snprintf(path, sizeof path, "%s/%s.ozz", dir, clips[i]);
        if (!bench_ozz_read(path, &oz->clips[i]) ||
            oz->clips[i].num_tracks() != oz->skeleton.num_joints()) {
            std::snprintf(err, cap, "%s: not an ozz animation of skeleton.ozz", path);
            return nullptr;
        }
    }
    for (int k = 0; k < 2; ++k)
        for (int j = 0; j < 3; ++j)
            if ((oz->chains[k][j] = bench_ozz_find(oz->skeleton, chains[k][j])) < 0) {
                std::snprintf(err, cap, "%s/skeleton.ozz: no joint %s", dir, chains[k][j]);
                return nullptr;
            }
    // Each chain's bend axis, in the mid joint's local space: the normal of
    // the plane the chain bends in, from the sample of clip 0 (at 16 times)
    // where the chain is bent the most.
    if (!bench_ozz_mid_axes(oz.get())) {
        std::snprintf(err, cap, "%s: sampling failed", dir);
        return nullptr;
    }
    return oz.release();
}

static void bench_ozz_free(bench_ozz* oz) {
    delete oz;
}

static uint32_t bench_ozz_joints(const bench_ozz* oz) {
    return static_cast<uint32_t>(oz->skeleton.num_joints());
}

static uint64_t bench_ozz_bytes(const bench_ozz* oz) {
    return oz->clips[0].size() + oz->clips[1].size();
}

static const char* bench_ozz_joint_name(const bench_ozz* oz, uint32_t joint) {
    return oz->skeleton.joint_names()[joint];
}

static float bench_ozz_duration(const bench_ozz* oz, int clip) {
    return oz->clips[clip].duration();
}

static bool bench_ozz_model_at(const bench_ozz* oz, int clip, float time, float* out) {
    const size_t soa = static_cast<size_t>(oz->skeleton.num_soa_joints());
    const size_t joints = static_cast<size_t>(oz->skeleton.num_joints());
    std::vector<om::SoaTransform> local(soa);
    std::vector<om::Float4x4> model(joints);
    oa::SamplingJob::Context context(oz->clips[clip].num_tracks());
    oa::SamplingJob sample;
    sample.animation = &oz->clips[clip];
    sample.context = &context;
    sample.ratio = oz->clips[clip].duration() > 0.f ? time / oz->clips[clip].duration() : 0.f;
    sample.output = ozz::make_span(local);
    oa::LocalToModelJob l2m;
    l2m.skeleton = &oz->skeleton;
    l2m.input = ozz::make_span(local);
    l2m.output = ozz::make_span(model);
    const bool ok = sample.Run() && l2m.Run();
    for (size_t j = 0; j < joints; ++j)
        for (int c = 0; c < 4; ++c)
            om::StorePtrU(ok ? model[j].cols[c] : om::simd_float4::zero(), out + 16 * j + 4 * c);
    return ok;
}

static bench_ozz_set* bench_ozz_set_create(const bench_ozz* oz, uint32_t chars, const float* times,
                                           const float* weights, const float* targets,
                                           const float* poles, const float* seeks,
                                           uint32_t seek_count) {
    std::unique_ptr<bench_ozz_set> s(new (std::nothrow) bench_ozz_set);
    if (!s || seek_count == 0) return nullptr;
    s->oz = oz;
    s->chars = chars;
    s->soa = oz->skeleton.num_soa_joints();
    s->joints = oz->skeleton.num_joints();
    s->pose.resize(static_cast<size_t>(chars) * 3u * static_cast<size_t>(s->soa));
    s->model.resize(static_cast<size_t>(chars) * static_cast<size_t>(s->joints));
    s->context.resize(static_cast<size_t>(chars) * 2u);
    for (auto& c : s->context)
        c.reset(new oa::SamplingJob::Context(s->joints));
    s->seek_context.Resize(s->joints);
    s->time.assign(times, times + 2u * chars);
    s->weight.assign(weights, weights + chars);
    s->target.assign(targets, targets + 6u * chars);
    s->pole.assign(poles, poles + 6u * chars);
    s->seeks.assign(seeks, seeks + seek_count);
    s->seek_next = 0;
    s->reached.assign(static_cast<size_t>(chars) * 2u, false);
    s->failed = false;
    for (uint32_t c = 0; c < chars; ++c) {
        for (int i = 0; i < 2; ++i)
            bench_ozz_sample(s.get(), i, s->time[2u * c + static_cast<uint32_t>(i)],
                             s->context[2u * c + static_cast<uint32_t>(i)].get(),
                             bench_ozz_pose(s.get(), c, i));
        bench_ozz_blend(s.get(), c);
        bench_ozz_l2m(s.get(), c, -1);
    }
    return s->failed ? nullptr : s.release();
}

static void bench_ozz_set_free(bench_ozz_set* s) {
    delete s;
}

static double bench_ozz_stage_run(bench_ozz_set* s, int stage, uint32_t frames) {
    const double t0 = bench_thread_ns();
    for (uint32_t f = 0; f < frames; ++f)
        for (uint32_t c = 0; c < s->chars; ++c)
            bench_ozz_character(s, stage, c);
    const double ns = bench_thread_ns() - t0;
    if (s->failed) return -1.0;
    const double per = stage == BENCH_STAGE_IK ? 2.0 : 1.0;
    return ns / (static_cast<double>(frames) * static_cast<double>(s->chars) * per);
}

static void bench_ozz_ik_check(const bench_ozz_set* s, uint32_t* reached, double* worst) {
    *reached = 0;
    *worst = 0.0;
    for (uint32_t c = 0; c < s->chars; ++c) {
        const om::Float4x4* m = s->model.data() + static_cast<size_t>(c) * s->joints;
        for (uint32_t k = 0; k < 2u; ++k) {
            if (!s->reached[2u * c + k]) continue;
            const int* ch = s->oz->chains[k];
            const float limb = om::GetX(om::Length3(m[ch[1]].cols[3] - m[ch[0]].cols[3])) +
                               om::GetX(om::Length3(m[ch[2]].cols[3] - m[ch[1]].cols[3]));
            const om::SimdFloat4 target = om::simd_float4::Load3PtrU(&s->target[3u * (2u * c + k)]);
            const float d = om::GetX(om::Length3(m[ch[2]].cols[3] - target));
            ++*reached;
            if (limb > 0.f && d / limb > *worst) *worst = d / limb;
        }
    }
}

#ifdef __AVX2__
#define BENCH_OZZ_SIMD "avx2"
#else
#define BENCH_OZZ_SIMD "sse2"
#endif

static const bench_ozz_api bench_ozz_table = {
    BENCH_OZZ_SIMD,       bench_ozz_load,       bench_ozz_free,      bench_ozz_joints,
    bench_ozz_bytes,      bench_ozz_joint_name, bench_ozz_duration,  bench_ozz_model_at,
    bench_ozz_set_create, bench_ozz_set_free,   bench_ozz_stage_run, bench_ozz_ik_check,
};

extern "C" __attribute__((visibility("default"))) const bench_ozz_api* bench_ozz_api_get(void) {
    return &bench_ozz_table;
}
