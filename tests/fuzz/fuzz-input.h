/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the fuzz targets of the core share: the abort that the fuzzer
 * reports, and the input read a byte at a time. */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define CHECK(cond) do { if (!(cond)) abort (); } while (0)

typedef struct
{
  const uint8_t *d;
  size_t n;
} Bytes;

/* the next byte modulo @below (0: the byte), 0 once the input is spent */
static inline unsigned
take (Bytes * b, unsigned below)
{
  unsigned v = 0;

  if (b->n > 0) {
    v = b->d[0];
    b->d++;
    b->n--;
  }
  return below ? v % below : v;
}
