/* The frames codec's format (layout: sinew/codecs/codec.h), owned by its
 * decoder (src/runtime/codecs) and its builder (src/tools/builders/frames.c)
 * together: the rate limit, frame count and the frame interval of a time.
 * Not installed. */
#ifndef SINEW_SHARED_CODEC_FRAMES_FORMAT_H
#define SINEW_SHARED_CODEC_FRAMES_FORMAT_H

#include "sinew/codecs/codec.h"

/* Largest frame rate a frames payload may use (frames per second). */
#define SW__FRAMES_MAX_RATE 1000.0f

/* Frames of a clip of `duration` seconds at `rate`: max(2, ceil(duration *
 * rate - 1e-3) + 1), or SW_CLIP_MAX_KEYS + 1 when that is above the limit
 * (also for a rate that is not finite and > 0). Exported by the shared
 * runtime: the tools' frames builder (a static library) calls it. */
SINEW_API uint32_t sw__frames_count(float duration, float rate);

/* Frame interval of time t (clamped to [0, duration]) in a payload of
 * frames_count >= 2 frames: frames i and i + 1 at fraction u in [0, 1]. */
typedef struct sw__frames_pos {
    uint32_t i;
    float u;
} sw__frames_pos;
sw__frames_pos sw__frames_locate(uint32_t frames_count, float rate, float duration, float t);

#endif
