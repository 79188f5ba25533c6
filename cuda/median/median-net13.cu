/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* 13 x 13 median / minimum / maximum by pruned selection networks whose
 * sorted columns and merged lists are shared by the 4 outputs of a thread
 * (Szántó & Fehér, paper 001 section 3.3 "BMS2"; Adams 2021, "Fast median
 * filters using separable sorting networks"). The network itself is built
 * at compile time: median-nb.cuh, kernels: median-net.cuh. One file per
 * window size so that the builds run in parallel. */
#include "median-net.cuh"

cudaError_t
med_net13_launch (int variant, int narrow, const med_args *a,
    cudaStream_t stream)
{
  return med_net_square<13, 4, 6144> (variant, narrow, a, stream);
}
