/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Median / rank filter of any window of up to 64 samples at any rank: one
 * full Batcher odd-even merge sorting network per output (Batcher 1968, as
 * used for the median by Szántó & Fehér, paper 001 section 3.3), the
 * window padded with the maximum to 16, 32 or 64 inputs, rank k taken by
 * a multiplexer tree. Two outputs per register (median-net.cuh). */
#include "median-net.cuh"

int
med_net_sort_size (int n)
{
  if (n <= 16)
    return 16;
  if (n <= 32)
    return 32;
  if (n <= 64)
    return 64;
  return 0;
}

template <class PR>
static cudaError_t
med_net_sort_run (const med_args *a, const med_sort_offsets *o,
    cudaStream_t stream)
{
  constexpr int OW = MED_SORT_NW * MED_SORT_TX;
  dim3 block (32, MED_SORT_NW);
  dim3 grid ((unsigned) ((a->width + OW - 1) / OW),
      (unsigned) ((a->height + 63) / 64));
  size_t smem = med_net_sort_smem (a->ww, a->wh);

  med_net_sort_kernel<PR><<<grid, block, smem, stream>>> (*a, *o);
  return cudaGetLastError ();
}

cudaError_t
med_net_sort_launch (int nmax, const med_args *a, cudaStream_t stream)
{
  const int OW = MED_SORT_NW * MED_SORT_TX;
  const int n = a->ww * a->wh, S = (OW + a->ww - 1) | 1;
  med_sort_offsets o;

  if (n > nmax || n > 64 || med_net_sort_smem (a->ww, a->wh) > 48 * 1024)
    return cudaErrorInvalidValue;
  for (int i = 0; i < 64; i++)
    o.off[i] = i < n ? (i / a->ww) * S + i % a->ww : 0;
  switch (nmax) {
    case 16:
      return med_net_sort_run<med_sort_prog<16, 1024>> (a, &o, stream);
    case 32:
      return med_net_sort_run<med_sort_prog<32, 2048>> (a, &o, stream);
    case 64:
      return med_net_sort_run<med_sort_prog<64, 4096>> (a, &o, stream);
    default:
      return cudaErrorInvalidValue;
  }
}
