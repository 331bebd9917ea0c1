/* sinew/showcase/character.h: the built-in default characters.
 *
 * So that `sinew demo` and the viewer run on a fresh machine with no files,
 * sinew generates its characters in code:
 * - a humanoid ("sinew_humanoid", about 1.75 m, +Y up, facing +Z) with a
 *   skinned mesh made from its bones and four locomotion clips, "idle",
 *   "walk", "jog" and "run", made procedurally with the library's own gait,
 *   spring and IK code: feet plant without sliding at each clip's speed, and
 *   the clips carry "LeftFootDown" / "RightFootDown" events for sync markers.
 *   The root joint "Hips" carries the root motion (forward along +Z).
 *   Joint names follow the CMU/Mixamo convention: Hips, Spine, Spine1, Neck,
 *   Head, LeftShoulder, LeftArm, LeftForeArm, LeftHand, LeftUpLeg, LeftLeg,
 *   LeftFoot, LeftToeBase and their Right twins.
 * - a multi-legged creature ("sinew_spider") for the walker: a body joint
 *   "Body" and 8 legs "Leg<i>_Coxa", "Leg<i>_Femur", "Leg<i>_Tibia",
 *   "Leg<i>_Tip" (i = 0..7, even on the left), with a skinned mesh and no
 *   clips (the walker moves it).
 * Both need only the runtime (they compile for the WebAssembly viewer).
 */
#ifndef SINEW_SHOWCASE_CHARACTER_H
#define SINEW_SHOWCASE_CHARACTER_H

#include "../tools/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Walking speeds of the locomotion clips in metres per second, in the order
 * idle, walk, jog, run (idle is 0). */
#define SW_SHOWCASE_HUMANOID_CLIPS 4

/* Builds the default humanoid: skeleton, one skinned mesh and the clips
 * idle, walk, jog, run (in that order), allocated with `alloc` (NULL: libc).
 * `speeds` (optional) receives each clip's forward speed in m/s.
 * Memory: free with sw_scene_free and the same allocator.
 * Fails: OUT_OF_MEMORY, or the result of a builder with err naming its
 * check (a defect: the data is generated). */
SINEW_API sw_result sw_showcase_humanoid(const sw_allocator* alloc, sw_scene* out,
                                         float speeds[SW_SHOWCASE_HUMANOID_CLIPS],
                                         sw_error* err);

/* Builds the default eight-legged creature: skeleton and one skinned mesh,
 * no clips. Memory and failures as sw_showcase_humanoid. */
SINEW_API sw_result sw_showcase_spider(const sw_allocator* alloc, sw_scene* out, sw_error* err);

#ifdef __cplusplus
}
#endif

#endif
