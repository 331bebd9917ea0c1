/* sinew/sinew.h: the whole runtime API in one include. */
#ifndef SINEW_SINEW_H
#define SINEW_SINEW_H

#include "additive.h"
#include "animator.h"
#include "archive.h"
#include "base.h"
#include "blend.h"
#include "chain.h"
#include "clip.h"
#include "codec.h"
#include "crowd.h"
#include "foot.h"
#include "hit.h"
#include "ik.h"
#include "local_to_model.h"
#include "math.h"
#include "mesh.h"
#include "mirror.h"
#include "pool.h"
#include "ragdoll.h"
#include "retarget.h"
#include "sample.h"
#include "skeleton.h"
#include "skinning.h"
#include "spine.h"
#include "spring.h"
#include "walker.h"

#endif
