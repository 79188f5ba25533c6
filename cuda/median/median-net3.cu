/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* 3 x 3 median / minimum / maximum by pruned selection networks whose
 * sorted columns and merged lists are shared by the 16 outputs of a
 * thread (Szántó & Fehér, paper 001 section 3.3 "BMS2"; Adams 2021, "Fast
 * median filters using separable sorting networks"). The network itself
 * is built at compile time: median-nb.cuh, kernels: median-net.cuh. One
 * file per window size so that the builds run in parallel. */
#include "median-net.cuh"

cudaError_t
med_net3_launch (int variant, int narrow, const med_args *a,
    cudaStream_t stream)
{
  return med_net_square<3, 16, 1024> (variant, narrow, a, stream);
}
