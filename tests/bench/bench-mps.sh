#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Many cameras as separate processes, with and without NVIDIA's MPS
# (Multi-Process Service): the NV12 CUDA-memory chain of bench-streams.sh
# at 1920x1080 in N processes started together (bench-processes.sh), first
# as they are, then with an MPS control daemon of this user's own (private
# pipe and log folders, so that no other process joins it; the card's
# settings are not touched), which is stopped at the end.
#
#   tests/bench/bench-mps.sh BUILD_DIR [N ...]
set -uo pipefail
# shellcheck source=tests/bench/bench-cameras.sh
. "$(dirname "$0")/bench-cameras.sh"
bench_args '4,11p' "$@"
command -v nvidia-cuda-mps-control >/dev/null ||
  { echo "nvidia-cuda-mps-control not found: MPS cannot be measured here"; exit 77; }
chain=$bench_chain
args=("${bench_size[@]}" --format NV12 --memory cuda)
sum_of() { sed -nE 's/.*processes: ([0-9.]+) frames\/s in all.*/\1/p' | tail -1; }

declare -A plain
for n in "${counts[@]}"; do
  plain[$n]=$(tests/bench/bench-processes.sh "$build" "$n" "${args[@]}" "$chain" 2>&1 | sum_of)
done

mps=$(mktemp -d)
export CUDA_MPS_PIPE_DIRECTORY=$mps/pipe CUDA_MPS_LOG_DIRECTORY=$mps/log
mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
if ! nvidia-cuda-mps-control -d; then
  echo "the MPS control daemon did not start"; rm -rf "$mps"; exit 1
fi
declare -A with
for n in "${counts[@]}"; do
  with[$n]=$(tests/bench/bench-processes.sh "$build" "$n" "${args[@]}" "$chain" 2>&1 | sum_of)
done
echo quit | nvidia-cuda-mps-control
sleep 1
tail -5 "$CUDA_MPS_LOG_DIRECTORY/control.log" 2>/dev/null
rm -rf "$mps"

echo "## N processes, NV12 CUDA memory, 3 elements, 1920x1080 (frames/s, all processes)"
echo "| N | without MPS | with MPS |"
echo "| --- | --- | --- |"
for n in "${counts[@]}"; do
  echo "| $n | ${plain[$n]:-failed} | ${with[$n]:-failed} |"
done
