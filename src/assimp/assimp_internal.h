/* Internal entry points of the assimp importer, for its tests. Not installed. */
#ifndef SINEW_TOOLS_ASSIMP_INTERNAL_H
#define SINEW_TOOLS_ASSIMP_INTERNAL_H

#include "sinew/assimp/assimp_import.h"

/* sw_assimp_import_file with assimp told to keep FBX pivot helper nodes
 * (IMPORT_FBX_PRESERVE_PIVOTS 1) while the importer still folds them unless
 * options->keep_pivots: the only way to reach the folding of
 * "$AssimpFbx$" nodes with the files at hand, since assimp collapses them
 * itself otherwise. */
sw_result sw__assimp_import_file_pivots(const char* path, const sw_assimp_options* options,
                                        const sw_allocator* alloc, sw_scene* out, sw_error* err);

#endif
