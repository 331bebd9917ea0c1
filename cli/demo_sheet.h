/* sinew demo's picture (demo.png): a contact sheet drawn by the software
 * rasterizer. The top row is an overview of the whole scene, every actor
 * named above its head and the time in the corner; below it one close-up
 * per actor (props and targets aside: the humanoids, the spider, the
 * caterpillar, the arm, the ragdolls), each at its own time spread over
 * the run, the camera looking from the scene camera's direction and fitted
 * to the actor's joints, with the actor's name and the time drawn. With
 * the default close-up size (320x320) a standing humanoid is about 250 px
 * tall. */
#ifndef SINEW_CLI_DEMO_SHEET_H
#define SINEW_CLI_DEMO_SHEET_H

#include <stdbool.h>
#include <stdint.h>

#include "sinew/showcase/scene.h"
#include "sinew/tools/writers/raster.h"

#define DEMO_SHEET_COLUMNS 3

typedef struct demo_sheet {
    sw_raster tile;     /* one close-up */
    sw_raster overview; /* the top row: COLUMNS close-ups wide */
    uint8_t* pixels;    /* the sheet, width * height palette indices */
    uint32_t width, height;
    uint32_t tiles;       /* close-ups */
    uint32_t* tile_actor; /* per close-up: the actor shown */
    uint32_t* tile_frame; /* per close-up: the frame it shows */
    uint32_t overview_frame;
} demo_sheet;

/* Sizes the sheet for the scene's actors: close-ups of tile_w x tile_h,
 * spread over `frames` frames. False (after printing the error) when out
 * of memory. */
bool demo_sheet_init(demo_sheet* s, const sw_showcase* sc, uint32_t tile_w, uint32_t tile_h,
                     uint32_t frames);

/* Draws what frame `frame` (at `time` seconds) holds for the sheet: the
 * overview and any close-up scheduled then. False after printing a
 * drawing failure. */
bool demo_sheet_frame(demo_sheet* s, const sw_showcase* sc, uint32_t frame, double time);

void demo_sheet_free(demo_sheet* s);

#endif
