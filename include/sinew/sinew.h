/* sinew/sinew.h: the whole runtime API in one include. */
#ifndef SINEW_SINEW_H
#define SINEW_SINEW_H

#include "sinew/animator/animator.h"
#include "sinew/codecs/codec.h"
#include "sinew/core/additive.h"
#include "sinew/core/archive.h"
#include "sinew/core/base.h"
#include "sinew/core/blend.h"
#include "sinew/core/clip.h"
#include "sinew/core/local_to_model.h"
#include "sinew/core/math.h"
#include "sinew/core/mesh.h"
#include "sinew/core/sample.h"
#include "sinew/core/skeleton.h"
#include "sinew/core/skin.h"
#include "sinew/core/skinning.h"
#include "sinew/ik/foot.h"
#include "sinew/ik/ik.h"
#include "sinew/physics/ragdoll.h"
#include "sinew/procedural/chain.h"
#include "sinew/procedural/hit.h"
#include "sinew/procedural/spine.h"
#include "sinew/procedural/spring.h"
#include "sinew/procedural/walker.h"
#include "sinew/retarget/mirror.h"
#include "sinew/retarget/retarget.h"
#include "sinew/scale/crowd.h"
#include "sinew/scale/pool.h"

#endif
