/* sinew/showcase/character.h: the built-in default characters.
 *
 * So that `sinew demo` and the viewer run on a fresh machine with no files,
 * sinew generates its characters in code:
 * - a humanoid ("sinew_humanoid", about 1.75 m, +Y up, facing +Z) with a
 *   skinned mesh made from its bones and four locomotion clips, "idle",
 *   "walk", "jog" and "run", made procedurally with the library's own gait,
 *   spring and IK code: feet plant without sliding at each clip's speed, and
 *   the clips carry "LeftFootDown" / "RightFootDown" events for sync markers
 *   (the left foot lands at 0, the right at half the cycle) and
 *   "LeftFootUp" / "RightFootUp" where each plant ends; between a foot's
 *   down and up events its ankle holds still in world space (to float
 *   precision at the keys, within 2 mm between them at a run).
 *   The root joint "Hips" carries the root motion (forward along +Z).
 *   Each clip is exactly one gait cycle: a whole number of frames at 30 Hz,
 *   cubic keys (glTF CUBICSPLINE) with tangents taken from the generator;
 *   the pose at the duration equals the pose at 0 with the Hips moved
 *   speed * duration along +Z, so the clips loop seamlessly. Rest pose:
 *   T-pose, every local rest rotation identity, ankles 7 cm above the
 *   ground, and the idle clip keeps both feet still.
 *   Joint names follow the CMU/Mixamo convention: Hips, Spine, Spine1, Neck,
 *   Head, LeftShoulder, LeftArm, LeftForeArm, LeftHand, LeftUpLeg, LeftLeg,
 *   LeftFoot, LeftToeBase and their Right twins.
 * - a multi-legged creature ("sinew_spider") for the walker: a body joint
 *   "Body" and 8 legs "Leg<i>_Coxa", "Leg<i>_Femur", "Leg<i>_Tibia",
 *   "Leg<i>_Tip" (i = 0..7, even on the left (+X), legs 2k and 2k + 1 a
 *   mirrored pair, pair 0 at the front), with a skinned mesh and no clips
 *   (the walker moves it). The body sits 8 cm above the ground and every
 *   tip touches the ground (y = 0) at rest, 31 cm from the body's axis.
 * Meshes: capsules around the bones, every joint in the palette (palette
 * entry i is joint i), up to 3 influences per vertex, normals, no UVs.
 * Both need only the runtime (they compile for the WebAssembly viewer).
 * Any other skeleton can be drawn as its bones (sw_showcase_bones_mesh).
 */
#ifndef SINEW_SHOWCASE_CHARACTER_H
#define SINEW_SHOWCASE_CHARACTER_H

#include "sinew/tools/builders/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Number of locomotion clips of the humanoid: idle, walk, jog, run. Their
 * speeds are 0, 1.4, 3.0 and 5.0 m/s. */
#define SW_SHOWCASE_HUMANOID_CLIPS 4

/* Builds the default humanoid: skeleton, one skinned mesh and the clips
 * idle, walk, jog, run (in that order), allocated with `alloc` (NULL: libc).
 * `speeds` (optional) receives each clip's forward speed in m/s: the root
 * motion of one cycle divided by the clip's duration.
 * Memory: free with sw_scene_free and the same allocator.
 * Fails: INVALID_ARGUMENT (NULL out); OUT_OF_MEMORY; or the result of a
 * builder with err naming its check (a defect: the data is generated). On
 * failure *out is zeroed with nothing left allocated. */
SINEW_API sw_result sw_showcase_humanoid(const sw_allocator* alloc, sw_scene* out,
                                         float speeds[SW_SHOWCASE_HUMANOID_CLIPS], sw_error* err);

/* Number of get-up clips of the humanoid: "getup_face_up" (from lying on
 * the back, head toward -Z) and "getup_face_down" (from lying on the belly,
 * head toward +Z), in that order (sw_ragdoll_facing's UP and DOWN). */
#define SW_SHOWCASE_GETUP_CLIPS 2

/* Builds the default humanoid's get-up clips into out[0] (face up) and
 * out[1] (face down), allocated with `alloc` (NULL: libc). `humanoid` is a
 * scene made by sw_showcase_humanoid (its skeleton and its idle clip, the
 * first). Each clip is keyframed poses (lying, pushing up, a squat over the
 * feet) blended with smoothstep weights and sampled at 30 Hz (linear keys),
 * the Hips translation in model space (no root motion: the clip plays where
 * it is placed, the ankles over model z = 0 once the feet are down); it ends
 * exactly in the idle clip's pose at time 0, reached with zero velocity, so
 * it hands over to idle without a pop. No joint dips more than 3 cm into the
 * ground (y = 0) below its body's surface.
 * Memory: free each with sw_clip_destroy and the same allocator.
 * Fails: INVALID_ARGUMENT (NULL argument; a scene that is not the built-in
 * humanoid: other joint count or no clips); OUT_OF_MEMORY; a builder's
 * result with err. On failure out[] is NULL with nothing left allocated. */
SINEW_API sw_result sw_showcase_humanoid_getup(const sw_scene* humanoid, const sw_allocator* alloc,
                                               const sw_clip* out[SW_SHOWCASE_GETUP_CLIPS],
                                               sw_error* err);

/* Builds the default eight-legged creature: skeleton and one skinned mesh,
 * no clips. Memory and failures as sw_showcase_humanoid. */
SINEW_API sw_result sw_showcase_spider(const sw_allocator* alloc, sw_scene* out, sw_error* err);

/* Builds a skinned mesh ("bones") that draws `skel` as its bones, for a
 * character that comes without a mesh: a capsule from each joint to each of
 * its children, bound to the joint alone (weight 1), placed in the rest pose
 * (bind space, the skeleton's own units). Sizes follow the skeleton's
 * extent E, the largest side of its rest-pose joint bounds (so a file in
 * centimetres or inches gets the same figure as one in metres): a capsule's
 * radius is 15% of its bone, between 0.6% and 2% of E; bones shorter than
 * 0.1% of E are left out. Every joint is in the palette (entry i is joint
 * i). *bones_count (optional) receives the number of capsules.
 * Memory: *out allocated with `alloc` (NULL: libc); free it with
 * sw_mesh_destroy and the same allocator.
 * Fails: INVALID_ARGUMENT (NULL skel or out; no bone: one joint, or all in
 * one place); LIMIT (more than 1024 joints, a palette's limit);
 * OUT_OF_MEMORY; BAD_DATA (a rest model matrix that cannot be inverted).
 * On failure *out is NULL and *bones_count 0. */
SINEW_API sw_result sw_showcase_bones_mesh(const sw_skeleton* skel, const sw_allocator* alloc,
                                           const sw_mesh** out, uint32_t* bones_count,
                                           sw_error* err);

#ifdef __cplusplus
}
#endif

#endif
