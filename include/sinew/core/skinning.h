/* sinew/core/skinning.h: the skinning palette job.
 *
 * out[i] = model[joints[i]] * inverse_bind[i]: the matrix that carries a
 * bind-pose vertex of mesh joint i to its animated model-space position.
 * `joints` maps mesh joints to skeleton joints (NULL: identity mapping).
 */
#ifndef SINEW_SKINNING_H
#define SINEW_SKINNING_H

#include "sinew/core/math.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sw_skinning_job {
    const sw_mat4* model; /* model-space matrices from local-to-model */
    uint32_t model_count;
    const uint16_t* joints;      /* optional: skeleton joint of each palette entry */
    const sw_mat4* inverse_bind; /* count matrices */
    uint32_t count;
    sw_mat4* out; /* count matrices; may not alias the inputs */
    uint32_t out_count;
} sw_skinning_job;

/* Fails: INVALID_ARGUMENT (NULL model, inverse_bind or out; count 0; a joint
 * index >= model_count, or count > model_count without a mapping);
 * BUFFER_TOO_SMALL; OVERLAP. */
SINEW_API sw_result sw_skinning_job_validate(const sw_skinning_job* job);
/* Validates, then writes the palette. */
SINEW_API sw_result sw_skinning_job_run(const sw_skinning_job* job);

#ifdef __cplusplus
}
#endif

#endif
