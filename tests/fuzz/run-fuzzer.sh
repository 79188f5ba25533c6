#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# run-fuzzer.sh TARGET ARTIFACT_DIR: runs a libFuzzer target for
# CM_FUZZ_SECONDS (default 60) from seed 1, crash inputs into ARTIFACT_DIR,
# and prints the number of executions. Fails when the target finds a crash.
set -u
target=$1
art=$2
mkdir -p "$art"
log="$art/log.txt"
# every GLib slice object its own malloc block, so that LeakSanitizer sees
# leaked GStreamer objects (GLib < 2.76; docs/RELIABILITY.md, ASan)
G_SLICE=always-malloc "$target" -seed=1 -max_total_time="${CM_FUZZ_SECONDS:-60}" -timeout=30 \
  -rss_limit_mb=4096 -max_len=4096 -print_final_stats=1 \
  -artifact_prefix="$art/" >"$log" 2>&1
rc=$?
grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ *DONE)' \
  "$log"
if [ $rc -ne 0 ]; then
  tail -60 "$log"
  ls "$art"
fi
# libFuzzer exits 77 on a finding, which meson would read as SKIP
[ $rc -eq 77 ] && rc=1
exit $rc
