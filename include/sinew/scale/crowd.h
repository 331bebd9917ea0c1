/* sinew/scale/crowd.h: many characters through the full pipeline, on a worker pool, with LOD.
 *
 * A crowd is a set of characters sharing one skeleton and one bound animator
 * (sinew/animator/animator.h). Each character has its own animator instance and
 * parameters, a world position (used only for LOD), and outputs: the local
 * pose (SoA), model-space matrices and, optionally, a skinning palette.
 * Everything is allocated once by sw_crowd_create; sw_crowd_update allocates
 * nothing, takes no lock per character and reads no clock.
 *
 *     sw_crowd_desc d = { .bound = bound, .characters_count = 1000, .threads = 2,
 *                         .levels = levels, .levels_count = 3 };
 *     sw_crowd* crowd = NULL;
 *     sw_crowd_create(&d, NULL, &crowd, &err);
 *     sw_pool* pool = NULL;
 *     sw_pool_create(2, NULL, &pool);
 *     for (i...) { sw_crowd_params(crowd, i)[speed] = ...; sw_crowd_set_position(crowd, i, p); }
 *     each frame:
 *         sw_crowd_update(crowd, dt, camera_position, pool);   // pool may be NULL
 *         ... draw with sw_crowd_model(crowd, i) or sw_crowd_palette(crowd, i) ...
 *         sw_crowd_feed_time(crowd, measured_seconds_of_that_update);  // optional budget
 *
 * Per character and frame (on a worker): the LOD level is chosen from the
 * distance to the viewpoint plus the budget bias; then the animator is
 * advanced and evaluated for the joints its level keeps and the optional
 * post callback edits the evaluated local pose (IK, ...), or, between the
 * keys of a sliced character, the two finished key poses are interpolated
 * (see update-rate slicing below); joints the level leaves out are put at
 * rest; local-to-model; the palette (unless the character is not shown or
 * unchanged: see below).
 * Characters start where their instances are (all in the entry state at time
 * 0 after create): to spread phases, advance sw_crowd_instance(crowd, i) with
 * sw_animator_update before the first sw_crowd_update.
 *
 * LOD levels (desc.levels, sorted by distance; level 0 is the nearest): level
 * l applies from levels[l].distance metres on; the budget bias, as far as
 * the character's priority lets it (see Budget), is added to the level found
 * (clamped to the last level).
 *
 * Update-rate slicing (level rate n > 1): the animator is evaluated only on
 * a character's key frames, those where (frame + character) % n == 0, so the
 * characters at one rate are spread evenly over n frames. It is evaluated
 * AHEAD: at a key frame the character shows pose A, the evaluation made at
 * the previous key, which is the pose for the current time; the animator is
 * then advanced by the frames up to the next key (ONE animator update of
 * that many dts, with the current parameters) and evaluated into pose B. The
 * frames in between show the per-joint interpolation of A and B
 * (translations and scales lerped, rotations nlerped on one hemisphere).
 * So there is no lag in time; parameter changes show up to n - 1 frames late.
 * The post callback runs on A and B when they are evaluated (so at keys
 * only, on the pose for the time of the next key: IK targets it reads at a
 * key are those it applies n frames later), and the frames in between
 * interpolate its results. With desc.post_every_frame it runs instead on the
 * pose shown every frame (the interpolated poses are then of the raw
 * evaluations), at the cost of the callback on every frame.
 * With a constant dt and constant parameters the pose shown at a key frame is
 * that of evaluating the animator every frame up to the rounding of the
 * animator clock (one update of n dts instead of n of dt; the first key is
 * bit-identical), except while a transition runs (its conditions are checked
 * once per key, and inertialization offsets use the poses of previous
 * evaluations). So a sliced character costs per frame about 1/n of an
 * animator update, evaluation and post callback, plus the interpolation,
 * local-to-model and palette. The animator's clock
 * follows the sum of dts: a dt change is corrected at the next key. A rate
 * change takes effect at the character's next key. Rate-1 characters are
 * evaluated every frame, with no delay.
 *
 * Joint LOD: every joint has a detail value (desc.joint_detail, or derived by
 * sw_crowd_joint_detail: 1 for the joints of small leaf chains such as
 * fingers and toes, 0 for the rest). A level with joint_cut c > 0 keeps the
 * joints whose detail is below c and whose parent it keeps
 * (sw_joint_subset_from_detail); the others are left out of the work: their
 * tracks are not decoded (every codec), blended or converted (the animator
 * evaluates with sw_animator_evaluate_subset, local-to-model takes them at
 * their rest matrices), so a level costs less the fewer joints it keeps.
 * Left-out joints hold their rest local transform (after the post callback
 * too), so they follow their parent rigidly at their rest offset and
 * skinning stays valid; kept joints are exactly those of a full evaluation.
 * Palette entries cost one multiply each at every level.
 *
 * Budget: with desc.budget > 0 (seconds per frame), sw_crowd_feed_time takes
 * the measured time of a frame: above the budget the bias goes up one step
 * at once; after `budget_patience` frames in a row below budget_low * budget
 * it goes down one step. Priorities (sw_crowd_set_priority, 0 by default;
 * higher is more important) decide who pays: with k distinct priorities in
 * use and L levels, the bias runs 0 .. k * (L - 1); the characters of the
 * lowest priority in use are demoted first, by min(bias, L - 1) levels, and
 * those of the r-th lowest (r from 0) by min(max(bias - r * (L - 1), 0),
 * L - 1). So a budget drops the least important characters to the coarsest
 * level before it touches the next priority. With one priority in use (the
 * default) the bias is the number of levels every character is demoted.
 *
 * Dirty flags: a shown rate-1 character whose animator inputs did not
 * change since its last evaluation (sw_animator_pose_changed false: same
 * clips, times, weights; a paused or frozen actor, a state held on its last
 * frame, parameters that move nothing), whose joint cut is the same and
 * that was not marked by sw_crowd_mark_dirty keeps its outputs: no
 * evaluate, post callback, joint LOD, local-to-model or palette (counted in
 * stats.unchanged). A sliced character's key B is then a copy of A. The
 * outputs are bit-identical to evaluating. The crowd cannot see what a post
 * callback reads (IK targets): with a post callback, characters are only
 * kept when desc.post_marks_dirty promises that the caller marks a
 * character dirty whenever those inputs change. Mark a character dirty too
 * after writing its instance other than through the animator calls (a
 * restored snapshot).
 *
 * Visibility: a character is shown when its caller flag is set
 * (sw_crowd_set_visible, default true) and its bounding sphere
 * (sw_crowd_set_bounds; default the box around the rest joints) is inside
 * every plane of the view (sw_crowd_set_view; none: everywhere), or when it
 * is forced (sw_crowd_set_force: bones that drive gameplay). A character
 * that is not shown advances its animator as if it were (clock, states,
 * transitions, triggers, root motion) but gets no evaluate, post callback
 * or outputs (counted in stats.hidden); its outputs keep the last shown
 * frame's. When it is shown again its pose is evaluated at once (or kept
 * when its inputs did not change since), so no stale frame is shown; a
 * sliced character resumes with an evaluation of its own time. An
 * inertialized transition starting while its inputs changed off-screen
 * finds no history and cuts.
 *
 * Root motion and events: the root motion of the animator updates done in a
 * frame is composed per character (sw_crowd_root_motion; a sliced character
 * gets that of the frames up to its next key at the key). Events are not
 * reported.
 *
 * Determinism: outputs depend only on the inputs and the dt / viewpoint /
 * fed-time sequence, never on the pool or its thread count (tests check
 * byte-identical outputs for 1, 2, 3 and 8 threads).
 *
 * Threads: sw_crowd_update runs the characters on the pool; the post
 * callback runs on the workers, concurrently for different characters.
 * Between updates the caller may read outputs and write parameters and
 * positions from any one thread.
 */
#ifndef SINEW_CROWD_H
#define SINEW_CROWD_H

#include "sinew/animator/animator.h"
#include "sinew/scale/pool.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SW_CROWD_MAX_CHARACTERS (1u << 20)
#define SW_CROWD_MAX_LEVELS 8
#define SW_CROWD_MAX_RATE 64
#define SW_CROWD_MAX_PALETTE 1024
#define SW_CROWD_DEFAULT_DETAIL_FRACTION 0.08f
#define SW_CROWD_MAX_PLANES 8
#define SW_CROWD_MAX_PRIORITY 7

typedef struct sw_crowd sw_crowd;

/* A half-space of the view, world space: p is inside when
 * dot(normal, p) + d >= 0 (a sphere when >= -radius; normal of length 1). */
typedef struct sw_crowd_plane {
    sw_vec3 normal;
    float d;
} sw_crowd_plane;

typedef struct sw_crowd_level {
    float distance;     /* metres from the viewpoint where this level starts (>= 0) */
    uint32_t rate;      /* evaluate every rate-th frame, 1..SW_CROWD_MAX_RATE; 0 means 1 */
    uint32_t joint_cut; /* joints with detail >= joint_cut stay at rest; 0: none */
} sw_crowd_level;

/* Called per character on each local pose the animator evaluates (or, with
 * desc.post_every_frame, on each frame's pose), before joint LOD and
 * local-to-model, on worker `worker`; may edit pose[0..packets_count).
 * For a sliced character the evaluated pose is the look-ahead key (see
 * update-rate slicing at the top). */
typedef void (*sw_crowd_post_fn)(void* user, uint32_t character, sw_xform4* pose,
                                 uint32_t packets_count, uint32_t worker);

typedef struct sw_crowd_desc {
    const sw_animator_bound* bound; /* required; must outlive the crowd */
    uint32_t characters_count;      /* 1..SW_CROWD_MAX_CHARACTERS */
    uint32_t threads;               /* most participants of a pool given to update; 0 means 1 */
    const sw_crowd_level* levels;   /* sorted by distance; NULL/0: one level, full rate */
    uint32_t levels_count;          /* 0..SW_CROWD_MAX_LEVELS */
    const uint8_t* joint_detail;    /* optional, joints_count values; NULL: derived
                                     * (sw_crowd_joint_detail, default fraction) */
    const sw_mat4* inverse_bind;    /* optional palette: palette_count matrices (copied) */
    const uint16_t* palette_joints; /* optional: skeleton joint per palette entry (copied);
                                     * NULL: entry i is joint i */
    uint32_t palette_count;         /* 0: no palette; else 1..SW_CROWD_MAX_PALETTE */
    sw_crowd_post_fn post;          /* optional */
    void* post_user;
    float budget;     /* seconds per frame for sw_crowd_feed_time; 0: no budget */
    float budget_low; /* fraction of the budget below which detail comes back; 0 means 0.8 */
    uint32_t
        budget_patience;   /* frames below budget_low * budget before one level back; 0 means 30 */
    bool post_every_frame; /* false: post runs on evaluated poses only (keys); true: on
                            * every frame's pose, interpolated ones included */
    bool post_marks_dirty; /* the post callback depends only on its pose and on inputs
                            * whose changes the caller reports with sw_crowd_mark_dirty;
                            * false: a post callback disables the dirty flags */
    /* what each character's instance keeps (sw_animator_keep; 0: cursors).
     * SW_ANIMATOR_KEEP_KEYS speeds up small crowds of quantized clips and
     * slows large ones (their caches' memory traffic, docs/animator.md) */
    sw_animator_keep keep;
} sw_crowd_desc;

/* Counts of the last sw_crowd_update. */
typedef struct sw_crowd_stats {
    uint32_t evaluations;  /* animator evaluate calls */
    uint32_t interpolated; /* characters shown by interpolation */
    uint32_t unchanged;    /* evaluations avoided: inputs unchanged (outputs or key A kept) */
    uint32_t hidden;       /* characters not shown: animator advanced, no pose work */
    uint32_t per_level[SW_CROWD_MAX_LEVELS]; /* characters at each level */
} sw_crowd_stats;

/* Derives joint detail values from the rest pose: joint j gets 1 when its
 * subtree is a single chain (each joint at most one child) whose length from
 * j's parent to the chain's tip is below `fraction` (0 means
 * SW_CROWD_DEFAULT_DETAIL_FRACTION) of the skeleton's size (the diagonal of
 * the box around the rest joint positions in model space): fingers, toes,
 * short end bones. Other joints (and roots) get 0.
 * Returns how many joints got 1; writes out[0..joints_count).
 * Fails (returns 0, out untouched): NULL arguments, out_count < joints_count. */
SINEW_API uint32_t sw_crowd_joint_detail(const sw_skeleton* skeleton, float fraction, uint8_t* out,
                                         uint32_t out_count);

/* Creates a crowd: per character an animator instance (entry states, time 0),
 * default parameters, position (0, 0, 0), and output buffers; per worker the
 * animator scratch. Memory: one allocation from `alloc` (NULL: libc), freed
 * by sw_crowd_destroy; the bound object is referenced, the palette inputs
 * and joint detail copied.
 * Fails: INVALID_ARGUMENT (NULL desc, bound or out; inverse_bind NULL with a
 * palette_count or the reverse; an unknown keep); LIMIT (characters_count 0 or above the
 * maximum, threads above SW_POOL_MAX_THREADS, levels_count above the
 * maximum, a rate above SW_CROWD_MAX_RATE, palette_count above the maximum);
 * BAD_DATA (level distances negative, not finite or decreasing; a palette
 * joint out of range; budget or budget_low negative or not finite, budget_low
 * above 1); OUT_OF_MEMORY; and failures of sw_animator_instance_init.
 * err (optional) names the check. *out is NULL on failure. */
SINEW_API sw_result sw_crowd_create(const sw_crowd_desc* desc, const sw_allocator* alloc,
                                    sw_crowd** out, sw_error* err);

/* Frees the crowd (NULL: no-op) with the allocator given to create. */
SINEW_API void sw_crowd_destroy(sw_crowd* crowd);

/* Advances every character by dt seconds and builds its outputs (see the
 * top), with `viewpoint` (world space) for the LOD distances, on `pool`
 * (NULL: on the calling thread).
 * Fails (nothing changed): INVALID_ARGUMENT (NULL crowd; dt negative or not
 * finite; a viewpoint not finite); LIMIT (a pool with more participants than
 * desc.threads); any failure of the animator (then the frame is incomplete).
 */
SINEW_API sw_result sw_crowd_update(sw_crowd* crowd, float dt, sw_vec3 viewpoint, sw_pool* pool);

/* Budget controller: feeds the measured time (seconds) of the last frame and
 * returns the LOD bias used from the next update on (see the top). Without a
 * budget (desc.budget 0), or for a NULL crowd or a time that is negative or
 * not finite, nothing changes. */
SINEW_API uint32_t sw_crowd_feed_time(sw_crowd* crowd, float seconds);

/* The current LOD bias (0 for NULL): see Budget at the top. */
SINEW_API uint32_t sw_crowd_lod_bias(const sw_crowd* crowd);

/* Character accessors. i must be < characters_count (else NULL / zero).
 * Params: the character's parameter array (sw_crowd_params_count floats),
 * written by the caller between updates, read (and triggers cleared) by
 * update. Instance: for inspection or to desynchronise phases before the
 * first update. Outputs are valid after an update until the next one:
 * local pose (packets_count packets, local space), model matrices
 * (joints_count, model space, the character's root at the origin) and the
 * palette (palette_count, NULL without one). */
SINEW_API uint32_t sw_crowd_characters_count(const sw_crowd* crowd);
SINEW_API uint32_t sw_crowd_params_count(const sw_crowd* crowd);
SINEW_API float* sw_crowd_params(sw_crowd* crowd, uint32_t i);
SINEW_API sw_animator_instance* sw_crowd_instance(sw_crowd* crowd, uint32_t i);
SINEW_API void sw_crowd_set_position(sw_crowd* crowd, uint32_t i, sw_vec3 position);
SINEW_API sw_vec3 sw_crowd_position(const sw_crowd* crowd, uint32_t i);
SINEW_API const sw_xform4* sw_crowd_local_pose(const sw_crowd* crowd, uint32_t i);
SINEW_API const sw_mat4* sw_crowd_model(const sw_crowd* crowd, uint32_t i);
SINEW_API const sw_mat4* sw_crowd_palette(const sw_crowd* crowd, uint32_t i);
/* LOD level used by the character at the last update. */
SINEW_API uint32_t sw_crowd_character_level(const sw_crowd* crowd, uint32_t i);
/* Root motion of the animator updates done for the character in the last
 * update, composed (translation in the character frame at the first of them). */
SINEW_API sw_animator_root_motion sw_crowd_root_motion(const sw_crowd* crowd, uint32_t i);
/* Joint detail values in use (joints_count). */
SINEW_API const uint8_t* sw_crowd_joint_details(const sw_crowd* crowd);
/* Marks character i dirty: its pose is evaluated (post callback, outputs)
 * at the next update where it is shown. */
SINEW_API void sw_crowd_mark_dirty(sw_crowd* crowd, uint32_t i);
/* The caller's visibility flag of character i (default true). */
SINEW_API void sw_crowd_set_visible(sw_crowd* crowd, uint32_t i, bool visible);
/* Priority of character i for the budget: 0 (default) .. SW_CROWD_MAX_PRIORITY,
 * higher keeps detail longer (see Budget at the top); used from the next
 * update on. Fails (nothing changed): INVALID_ARGUMENT (NULL crowd, i out of
 * range), LIMIT (priority above SW_CROWD_MAX_PRIORITY). */
SINEW_API sw_result sw_crowd_set_priority(sw_crowd* crowd, uint32_t i, uint32_t priority);
/* Priority of character i (0 for NULL or i out of range). */
SINEW_API uint32_t sw_crowd_priority(const sw_crowd* crowd, uint32_t i);
/* Force flag of character i (default false): evaluated even when not visible. */
SINEW_API void sw_crowd_set_force(sw_crowd* crowd, uint32_t i, bool force);
/* Bounding sphere of character i: centre relative to its position (world
 * axes, metres) and radius. Fails: INVALID_ARGUMENT (NULL crowd, i out of
 * range), BAD_DATA (not finite, radius negative); nothing changed. */
SINEW_API sw_result sw_crowd_set_bounds(sw_crowd* crowd, uint32_t i, sw_vec3 center, float radius);
/* Whether character i was shown (visible or forced) at the last update. */
SINEW_API bool sw_crowd_character_shown(const sw_crowd* crowd, uint32_t i);
/* The view used from the next update on: `count` planes (copied; 0: every
 * character inside). Fails (view unchanged): INVALID_ARGUMENT (NULL crowd,
 * NULL planes with a count), LIMIT (count above SW_CROWD_MAX_PLANES),
 * BAD_DATA (a value not finite). */
SINEW_API sw_result sw_crowd_set_view(sw_crowd* crowd, const sw_crowd_plane* planes,
                                      uint32_t count);
/* The 6 planes of a view-projection matrix's frustum (world to clip space,
 * OpenGL clip volume -w <= x, y, z <= w), normalized, in out[0..6): left,
 * right, bottom, top, near, far. Returns 6, or 0 (out partly written) for
 * NULL arguments or a degenerate or non-finite matrix. */
SINEW_API uint32_t sw_crowd_frustum_planes(const sw_mat4* view_proj, sw_crowd_plane out[6]);
/* Counts of the last update (zeroed for NULL). */
SINEW_API void sw_crowd_get_stats(const sw_crowd* crowd, sw_crowd_stats* out);

#ifdef __cplusplus
}
#endif

#endif
