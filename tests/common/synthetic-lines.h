/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Synthetic images with oriented linear structures for the linear
 * spectrum (cuda/linspectrum/linspectrum.h): one implementation shared by the core
 * tests, the GPU tests and the examples. Plain C on host images, no GLib.
 *
 * Angles follow linspectrum.h: degrees counter-clockwise from +x with the
 * image y axis pointing down, so a structure drawn at theta is found by the
 * spectrum at theta. The images are deterministic: the same arguments give
 * the same samples. Grey values are designed for 8 bits and multiplied by
 * 257 in 16-bit images. */
#pragma once

#include <stdint.h>
#include "cm-image.h"
#include "morph/se.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bright parallel lines (Gaussian profile, sigma 1.2 px, peak about 230)
 * every `period` pixels at theta degrees, one of them through the image
 * centre, on a dark background (30 + uniform noise 0..19 from seed). The
 * spectrum of openings peaks at theta. */
void synth_parallel_lines (const cm_image * img, double theta, double period,
    uint64_t seed);

/* A white page (about 245) with dark staves and note heads, rotated by
 * theta about the image centre: staves every 70 px of 5 lines 8 px apart,
 * each line about 1 px of ink plus anti-aliasing, 40 px side and 30 px top
 * and bottom margins (in page coordinates), note heads of 7 x 5 px on the
 * lines, noise 0..11 from seed. This is the skewed music sheet of paper 000
 * section 6.1.3: the spectrum of closings by a long segment is smallest at
 * theta. Skews below about 0.6 degrees are biased towards 0 by up to 0.3
 * degrees (the exactly horizontal scan lines at 0 keep long stretches of a
 * thin, almost horizontal line), so tests use larger ones. */
void synth_staff_page (const cm_image * img, double theta, uint64_t seed);

/* The segment of the linear spectrum's definition at angle 0, 45, 90 or
 * 135 (degrees): offsets (t, 0), (t, -t), (0, t) or (t, t) for
 * t = -(L / 2) .. L - 1 - L / 2, origin at t = 0 (index L / 2 of the
 * segment). Other angles, or a failure: NULL. Free with cm_se_free. */
cm_se *synth_segment_se (int length, int angle);

#ifdef __cplusplus
}
#endif
