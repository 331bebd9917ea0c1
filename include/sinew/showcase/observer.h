/* sinew/showcase/observer.h: the motion of a recorded showcase run as an
 * outside observer sees it (issue #15), from the recorded output poses in
 * world space only (what demo.glb plays), with no controller's state:
 *   - feet: per humanoid actor, the ankle joints (named "...Foot" or
 *     "...Ankle") and ball joints ("...Toe..." or "...Ball"); a joint is
 *     planted while it is within SW_SHOWCASE_OBSERVER_PLANTED of its lowest
 *     height of the run, a planted span is a run of 2 frames or more, and
 *     the span's sliding is the largest horizontal (x, z) distance from the
 *     joint's position at the span's first frame;
 *   - lowest: per actor, the lowest joint height over every frame (y, metres;
 *     negative under the ground plane).
 * tests/observer/measure.mjs measures the same with three.js from demo.glb. */
#ifndef SINEW_SHOWCASE_OBSERVER_H
#define SINEW_SHOWCASE_OBSERVER_H

#include "sinew/showcase/recording.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SW_SHOWCASE_OBSERVER_PLANTED 0.01f /* m above a joint's lowest height */
#define SW_SHOWCASE_OBSERVER_MAX_FEET 48

typedef struct sw_showcase_observer_foot {
    uint32_t actor;  /* actor index (sw_showcase_get_actor) */
    uint32_t joint;  /* the actor's joint */
    bool ball;       /* a ball/toe joint (false: an ankle) */
    uint32_t spans;  /* planted spans */
    float slide_max; /* m, the largest span's sliding (0 without spans) */
    float slide_median;
    float worst_from, worst_to; /* s, the span of slide_max */
} sw_showcase_observer_foot;

typedef struct sw_showcase_observer {
    uint32_t frames;
    uint32_t actors_count;
    float lowest[SW_SHOWCASE_MAX_ACTORS];          /* m, lowest joint height per actor */
    uint32_t lowest_joint[SW_SHOWCASE_MAX_ACTORS]; /* which joint */
    float lowest_time[SW_SHOWCASE_MAX_ACTORS];     /* s, when */
    uint32_t feet_count;                           /* feet beyond the maximum are not measured */
    sw_showcase_observer_foot feet[SW_SHOWCASE_OBSERVER_MAX_FEET];
} sw_showcase_observer;

/* Measures the recording of `scene` (frames at `fps`, finite and > 0) into *out (above);
 * scratch allocated with `alloc` (NULL: libc) and freed before returning.
 * Fails: INVALID_ARGUMENT (NULL argument, fps, no frame, another scene's
 * actors); OUT_OF_MEMORY;
 * a local-to-model failure. */
SINEW_API sw_result sw_showcase_observe(const sw_showcase* scene, const sw_showcase_recording* rec,
                                        double fps, const sw_allocator* alloc,
                                        sw_showcase_observer* out);

#ifdef __cplusplus
}
#endif

#endif
