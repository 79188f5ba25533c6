# Instruments copies of cuda/reconstruct/reconstruct.cu and reconstruct-sweeps.cuh (1e2353c) for
# per-pass counts (rows and walks swept and written, atomics) and times (globaltimer at each
# barrier), printed by the kernel at its end; used for recon/callK-stats-*.txt. Never built.
#   python3 pass-stats.py reconstruct.cu out.cu reconstruct-sweeps.cuh out.cuh
# instrument the final reconstruct.cu + sweeps copy: per pass rows swept/wrote, walks swept/wrote, time
import re, sys
src, dst, hsrc, hdst = sys.argv[1:5]
s = open(src).read(); h = open(hsrc).read()
def sub(t, old, new, cnt=1):
    assert t.count(old) == cnt, (old, t.count(old))
    return t.replace(old, new)
h = sub(h, '#pragma once\n', '''#pragma once
#include <stdio.h>
#define SMAX 400
__device__ unsigned st_c[SMAX][4];
__device__ unsigned long long st_t[SMAX + 1];
__device__ int st_pass;
__device__ const int *st_band;
''')
h = sub(h, '''  if (!was)
    return false;
''', '''  if (!was)
    return false;
  if (lane == 0)
    atomicAdd (&st_c[min (*(volatile int *) &st_pass, SMAX - 1)][flag >= st_band ? 2 : 0], 1u);
''')
s = sub(s, '#include "reconstruct-sweeps.cuh"\n', '''#include "reconstruct-sweeps.cuh"
static __device__ __forceinline__ unsigned long long gtime () { unsigned long long t; asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
#define STATW(i, w) do { if ((w) && lane == 0 && pass < SMAX) atomicAdd (&st_c[pass][i], 1u); } while (0)
''')
s = sub(s, '  for (int pass = 0;; pass++) {\n', '  if (blockIdx.x == 0 && threadIdx.x == 0) { st_t[SMAX] = gtime (); st_pass = 0; st_band = a.band_dirty; }\n  grid.sync ();\n  for (int pass = 0;; pass++) {\n')
s, n = re.subn(r'changed \|= (sweep_band<[^;]*;)', r'{ const bool w_ = \1 changed |= w_; STATW (3, w_); }', s); assert n == 2
s, n = re.subn(r'changed \|= (sweep_row<[^;]*;)', r'{ const bool w_ = \1 changed |= w_; STATW (1, w_); }', s); assert n == 1
s = sub(s, '    grid.sync ();\n    if (__ldcg', '    grid.sync ();\n    if (blockIdx.x == 0 && threadIdx.x == 0 && pass < SMAX) { st_t[pass] = gtime (); st_pass = pass + 1; }\n    if (__ldcg')
s = sub(s, '''      if (blockIdx.x == 0 && threadIdx.x == 0)
        a.flags[FLAG_PASSES] = pass + 1;
''', '''      if (blockIdx.x == 0 && threadIdx.x == 0) {
        a.flags[FLAG_PASSES] = pass + 1;
        printf ("STATS %s T%d C%d %dx%d passes %d total_us %.1f\\n", EROSION ? "ero" : "dil", (int) sizeof (T), CONN8 ? 8 : 4, a.width, a.height, pass + 1, (st_t[min (pass, SMAX - 1)] - st_t[SMAX]) * 1e-3);
        for (int p = 0; p <= pass && p < SMAX; p++) {
          printf ("P %d %u %u %u %u %.1f\\n", p, st_c[p][0], st_c[p][1], st_c[p][2], st_c[p][3], (st_t[p] - (p ? st_t[p - 1] : st_t[SMAX])) * 1e-3);
          st_c[p][0] = st_c[p][1] = st_c[p][2] = st_c[p][3] = 0;
        }
      }
''')
open(dst, 'w').write(s); open(hdst, 'w').write(h)
