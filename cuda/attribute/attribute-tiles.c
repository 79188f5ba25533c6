/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The CUDA plan's default tile heights (attribute.h), host code that
 * tests/core runs without a GPU. */
#include "attribute.h"

/* The larger a tile, the more of its components are known large before
 * the seams, but the longer its merges' chains: a tile of at least twice
 * min_area pixels (in smaller ones, merges on noise walk nearly their
 * whole chains before they know a component large) */
int
cm_attr_tile_rows_base (uint32_t min_area)
{
  return min_area <= 512 ? 32 : min_area <= 1024 ? 64 : CM_ATTR_TILE_MAX_ROWS;
}

/* Halved when the grid would not fill the device twice over (the tiles'
 * time is then their slowest block's) and the half still holds twice
 * min_area (docs/design.md) */
int
cm_attr_tile_rows (uint32_t min_area, int width, int height, int resident)
{
  int rows = cm_attr_tile_rows_base (min_area);
  double tiles = (double) ((width + CM_ATTR_TILE_COLS - 1) /
      CM_ATTR_TILE_COLS) *
      ((height + rows - 1) / rows);

  if (resident <= 0 ||
      (uint64_t) CM_ATTR_TILE_COLS * (rows / 2) < 2ull * min_area)
    return rows;
  return tiles < 2.0 * resident ? rows / 2 : rows;
}
