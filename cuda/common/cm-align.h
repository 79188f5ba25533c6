/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Sizes rounded up to a cache line: how the CPU backends lay out their
 * rows and scratch (a band's arrays, padded rows), so that what follows
 * stays aligned for the vectorised passes. */
#pragma once

#include <stddef.h>

/* @n rounded up to a multiple of 64 */
static inline size_t
cm_align64 (size_t n)
{
  return (n + 63) & ~(size_t) 63;
}
