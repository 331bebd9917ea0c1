/* Shared by the harness's files (not used by the CLI). */
#ifndef SINEW_BENCH_HARNESS_INTERNAL_H
#define SINEW_BENCH_HARNESS_INTERNAL_H

#include "bench.h"
#include "runtime/core/internal.h"
#include "sinew/tools/builders/scene.h"
#include "sinew/tools/readers/asset.h"

/* A rig: skeleton, its two clips on every codec, the IK chains. */
typedef struct bench_rig {
    char name[64];
    char file[1024]; /* "" for the built-in humanoid */
    sw_asset asset;
    sw_scene scene;
    const sw_skeleton* skel;
    const sw_clip* clips[BENCH_CODECS][2];
    /* each clip's shared table (sw_sample_table_init; NULL: none), which
     * every character's cache of that clip reads */
    uint32_t* tables[BENCH_CODECS][2];
    uint64_t codec_bytes[BENCH_CODECS];
    float codec_error[BENCH_CODECS];
    float codec_rate[BENCH_CODECS]; /* samples per second (raw: 0, keys as stored) */
    uint32_t chains[2][3];          /* start, mid, end joints of the two IK chains */
} bench_rig;

/* Loads a rig: the file (RobotExpressive or an asset with its clip and chain
 * names) or, with path NULL, the built-in humanoid; then the codecs, their
 * errors measured by bench_measure. False on failure (reported). */
bool bench_rig_load(bench_rig* g, const char* path);
/* The rig g in its detail-major order (sw_joint_order_by_detail of detail,
 * g's joints_count values): skeleton and raw clips reordered, then the
 * codecs built and measured as by bench_rig_load. False on failure
 * (reported). Free with bench_rig_free. */
bool bench_rig_reorder(const bench_rig* g, const uint8_t* detail, bench_rig* out);
void bench_rig_free(bench_rig* g);

/* Largest distance, world units, between the points of `test` and of the raw
 * clip i of the rig, at the raw clip's sample times (sw_compress_sample_rate:
 * its key rate, the times the compressor bounds its error at): for
 * each joint compared, its origin and the three points BENCH_SHELL away along
 * its model axes. test_model(ctx, t, out) writes the tested model matrices
 * of the joints in `joints` (count of them, sinew joint indices) at t into
 * out. NAN when a job failed. */
typedef bool (*bench_model_fn)(void* ctx, float t, sw_mat4* out);
double bench_measure(const bench_rig* g, int clip, const uint32_t* joints, uint32_t count,
                     bench_model_fn test_model, void* ctx);

/* Local-to-model of a local pose of the rig on kernel path ops: all joints,
 * or the sub-tree of `root`. */
sw_result bench_rig_l2m(const bench_rig* g, const sw__soa_ops* ops, const sw_xform4* pose,
                        sw_mat4* model, bool subtree, uint32_t root);
/* Two-bone IK of the rig's chain k towards `target` (pole point `pole`),
 * written into pose; *reached as the job reports it (may be NULL). */
sw_result bench_rig_ik(const bench_rig* g, uint32_t k, const sw_mat4* model, sw_vec3 target,
                       sw_vec3 pole, sw_xform4* pose, bool* reached);
/* An IK target for chain k of a pose with model matrices `m`: the end joint
 * moved by a random offset of up to a quarter of the limb's length per axis;
 * the pole point lies beyond the mid joint, away from the start-end midpoint. */
void bench_place_target(const bench_rig* g, const sw_mat4* m, uint32_t k, uint32_t* rng,
                        sw_vec3* target, sw_vec3* pole);
/* xorshift32: a float in [0, 1). */
float bench_rand(uint32_t* s);
double bench_now_ns(void);
void bench_error(const char* fmt, ...);

/* ozz's side loaded for a rig: both modules that were built and found. */
typedef struct bench_ozz_side {
    const bench_ozz_api* api[BENCH_OZZ_BUILDS]; /* NULL: that build absent */
    bench_ozz* oz[BENCH_OZZ_BUILDS];
    uint32_t joints;
    uint32_t* to_sinew; /* ozz joint -> sinew joint */
    uint32_t armature;  /* sinew joint whose model space is ozz's model space */
    char note[512];     /* why absent */
} bench_ozz_side;

/* Loads ozz's side for the rig (RobotExpressive) from the modules and the
 * converted files in `data` (NULL: the build folder's). False, with the
 * reason in side->note, when ozz is absent or does not match the rig. */
bool bench_ozz_open(bench_ozz_side* side, const bench_rig* g, const char* data);
void bench_ozz_close(bench_ozz_side* side);
/* ozz's measured error against the raw clips (max of both), bench_measure's rule. */
double bench_ozz_error(bench_ozz_side* side, const bench_rig* g);
/* A point of sinew's model space in ozz's, given the armature's model matrix. */
sw_vec3 bench_ozz_point(const sw_mat4* armature_inverse, sw_vec3 p);

/* Every row of one rig at every count; prints "row", "ozzrow", "ik" and
 * "ozzik" lines. ozz may be NULL. False on failure (reported). */
bool bench_rows_all(const bench_rig* g, int rig_slot, bench_ozz_side* ozz, bool quick, FILE* out,
                    double frame_ns[BENCH_CODECS]);

/* One side (bench_side_names) of one stage (the headline codec for the
 * sampling stages) over `chars` characters set up as the rows set them up,
 * warmed by one frame, then run `frames` times inside bench_profile_run;
 * prints one line: "profile STAGE on SIDE: C characters x F frames, T ns
 * per character-frame" (per solve for IK). ozz may be NULL for sinew's
 * sides. False on failure (reported). */
bool bench_rows_profile(const bench_rig* g, bench_ozz_side* ozz, int stage, int side,
                        uint32_t chars, uint32_t frames, FILE* out);

/* The rig's two clips of `codec` in one blend space (parameter "blend" from
 * 0 to 1, state speed parameter "rate"), bound to the rig's skeleton (crowd.c).
 * m owns the definition and the bound memory: free with bench_mix_free (also
 * after a failure). Returns the first failing step's result. */
typedef struct bench_mix {
    const sw_animator* def;
    void* mem;
    size_t size;
    const sw_animator_bound* bound;
} bench_mix;
sw_result bench_mix_bind(const bench_rig* g, int codec, bench_mix* m, sw_error* err);
void bench_mix_free(bench_mix* m);

/* The crowd figures of one rig on `codec`; prints "crowd", "crowdpair" and
 * "crowdbudget" lines. False on failure (reported). */
bool bench_crowd_all(const bench_rig* g, int rig_slot, int codec, bool quick, FILE* out);

/* The joint LOD figures of one rig (lod.c), run in its detail-major joint
 * order by depth: per codec and level, the cost of a crowd whose characters
 * all use that level; prints "crowdlod" lines. False on failure (reported). */
bool bench_lod_all(const bench_rig* g, int rig_slot, bool quick, FILE* out);

/* The CPU skinning rows (skin.c): RobotExpressive's meshes when `asset` is
 * set, then the synthetic cylinder; prints "skinset" and "skin" lines.
 * False on failure (reported). */
bool bench_skin_all(const char* asset, bool quick, FILE* out);

#endif
