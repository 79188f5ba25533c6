/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CM_CPU_CLONES before a function of a CPU backend's hot loops (the
 * median's, the temporal percentile's): on x86-64 with glibc it is built
 * three times, for AVX-512 (x86-64-v4), AVX2 and the baseline (SSE2),
 * and the processor's best is chosen once at load time (ifunc). Elsewhere (aarch64: NEON is the baseline), and with
 * CM_NO_CLONES, the one baseline build. Include after a libc header
 * (__GLIBC__). */
#pragma once

#if defined(__x86_64__) && defined(__GLIBC__) && !defined(CM_NO_CLONES) && \
    ((defined(__clang__) && __clang_major__ >= 14) || \
     (!defined(__clang__) && defined(__GNUC__) && __GNUC__ >= 11))
#define CM_CPU_CLONES \
  __attribute__ ((target_clones ("arch=x86-64-v4", "avx2", "default")))
#elif defined(__x86_64__) && defined(__GLIBC__) && !defined(CM_NO_CLONES) \
    && !defined(__clang__) && defined(__GNUC__) && __GNUC__ >= 6
#define CM_CPU_CLONES __attribute__ ((target_clones ("avx2", "default")))
#else
#define CM_CPU_CLONES
#endif
