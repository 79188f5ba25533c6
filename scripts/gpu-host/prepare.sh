#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Packs a self-contained GStreamer (runtime, headers, flattened pkg-config
# files) from Debian's packages for a machine that has an NVIDIA GPU and
# the CUDA toolkit but no GStreamer (docs/gpu-host.md).
#
#   scripts/gpu-host/prepare.sh [PROJECT_ROOT]   (default: this repository)
#   GPU_HOST_SUITE=trixie GPU_HOST_OUT=.gpu-host-1.26 scripts/gpu-host/prepare.sh
#
# GPU_HOST_SUITE picks the Debian release whose GStreamer is packed:
# bookworm (default, GStreamer 1.22, GLib 2.74, as Debian 12 and CI) or
# trixie (GStreamer 1.26, GLib 2.84: stream-ordered CUDA memory,
# GstCudaStream, the analytics meta; its libraries need glibc 2.38 or
# later, as Ubuntu 24.04 has). GPU_HOST_EXTRA_DEBS adds Debian packages.
# Result: PROJECT_ROOT/.gpu-host/ or GPU_HOST_OUT (relative to
# PROJECT_ROOT; git-ignored). Carry that folder to the GPU machine next to
# the sources, then there:
#   source .gpu-host/env.sh && meson setup build-gpu && meson test -C build-gpu
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "${1:-$HERE/../..}" && pwd)
SUITE=${GPU_HOST_SUITE:-bookworm}
OUT=${GPU_HOST_OUT:-$ROOT/.gpu-host}
case $OUT in /*) ;; *) OUT=$ROOT/$OUT;; esac

# Debian packages whose files the GPU host needs (runtime + headers).
DEBS="libgstreamer1.0-0 libgstreamer1.0-dev gstreamer1.0-tools
 libgstreamer-plugins-base1.0-0 libgstreamer-plugins-base1.0-dev gstreamer1.0-plugins-base
 gstreamer1.0-plugins-good
 libgstreamer-plugins-bad1.0-0 libgstreamer-plugins-bad1.0-dev gstreamer1.0-plugins-bad
 libgstreamer-gl1.0-0
 libglib2.0-0 libglib2.0-dev libglib2.0-dev-bin
 libunwind8 libdw1 libelf1 liborc-0.4-0
 libgl1 libegl1 libglvnd0 libglx0 libgles2 libopengl0
 libwayland-client0 libwayland-cursor0 libwayland-egl1 libwayland-server0
 libx11-6 libx11-data libx11-xcb1 libxcb1 libxau6 libxdmcp6
 libgudev-1.0-0 libdrm2 libdrm-common libgbm1 libexpat1 libbsd0 libmd0
 libgl-dev
 ${GPU_HOST_EXTRA_DEBS:-}"

# pkg-config modules a build may ask for; flattened so no -dev chain is needed
# (gstreamer-analytics-1.0 exists from 1.24 on: the 1.26 bundle only).
MODULES="gstreamer-1.0 gstreamer-base-1.0 gstreamer-video-1.0 gstreamer-check-1.0
 gstreamer-app-1.0 gstreamer-cuda-1.0 gstreamer-gl-1.0 gstreamer-gl-prototypes-1.0
 gstreamer-allocators-1.0 gstreamer-analytics-1.0 glib-2.0 gobject-2.0 gio-2.0 gmodule-2.0
 gmodule-no-export-2.0"

pkg-config --exists gstreamer-1.0 gstreamer-video-1.0 || {
  echo "GStreamer development files are missing here: install the project's build dependencies first" >&2; exit 1; }
FOUND=""
for m in $MODULES; do
  if pkg-config --exists "$m"; then FOUND="$FOUND $m"
  elif [ "$SUITE" = bookworm ]; then echo "note: $m not installed here, left out" >&2; fi
done

rm -rf "$OUT/debs" "$OUT/pc"
mkdir -p "$OUT/debs" "$OUT/pc"
if [ "$SUITE" = bookworm ]; then
  (cd "$OUT/debs" && apt-get download $DEBS >/dev/null 2>&1) || {
    apt-get update -qq && (cd "$OUT/debs" && apt-get download $DEBS >/dev/null); }
else
  # the same Debian mirror this machine uses, another release, private apt state
  URI=$(grep -hoE '^(URIs:\s*|deb\s+(\[[^]]*\]\s+)?)\S+' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
    grep -v security | head -n1 | awk '{print $NF}' || true)
  [ -n "$URI" ] || { echo "no Debian mirror found in the apt sources" >&2; exit 1; }
  APTD=$(mktemp -d); trap 'rm -rf "$APTD"' EXIT
  mkdir -p "$APTD/lists/partial" "$APTD/cache/archives/partial" "$APTD/root"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $URI $SUITE main" > "$APTD/sources.list"
  A=(-o Dir::Etc::SourceList="$APTD/sources.list" -o Dir::Etc::SourceParts=/dev/null
     -o Dir::State::Lists="$APTD/lists" -o Dir::Cache="$APTD/cache")
  apt-get "${A[@]}" update -qq >/dev/null
  ALL=$(apt-cache "${A[@]}" pkgnames)
  NAMES=""
  for p in $DEBS; do   # 64-bit time_t renames (libglib2.0-0 -> libglib2.0-0t64)
    if grep -qx -- "${p}t64" <<<"$ALL"; then NAMES="$NAMES ${p}t64"; else NAMES="$NAMES $p"; fi
  done
  # GLib's headers moved to libgio-2.0-dev in trixie; its GIO needs a newer libmount
  for p in libgio-2.0-dev libmount1 libblkid1; do grep -qx "$p" <<<"$ALL" && NAMES="$NAMES $p"; done
  # shellcheck disable=SC2086
  (cd "$OUT/debs" && apt-get "${A[@]}" download $NAMES >/dev/null 2>&1) || {
    echo "apt-get download failed for $SUITE:$NAMES" >&2; exit 1; }
  for f in "$OUT"/debs/*.deb; do dpkg-deb -x "$f" "$APTD/root"; done
  # flatten from that release's .pc files; anything they lack falls back to this machine's
  # (private requirements used only for static links, e.g. sysprof-capture-4, get empty stubs)
  mkdir -p "$APTD/stub"
  export PKG_CONFIG_LIBDIR=$APTD/root/usr/lib/x86_64-linux-gnu/pkgconfig:$APTD/root/usr/share/pkgconfig:/usr/lib/x86_64-linux-gnu/pkgconfig:/usr/share/pkgconfig:$APTD/stub
  FOUND=""
  for m in $MODULES; do
    for _ in 1 2 3 4 5 6; do
      miss=$(pkg-config --print-errors --exists "$m" 2>&1 | grep -oP "Package '\K[^']+(?=', required by)" | head -n1 || true)
      [ -n "$miss" ] || break
      printf 'Name: %s\nDescription: stub\nVersion: 999\n' "$miss" > "$APTD/stub/$miss.pc"
    done
    if pkg-config --exists "$m"; then FOUND="$FOUND $m"; else echo "note: $m not in $SUITE, left out" >&2; fi
  done
fi

for m in $FOUND; do
  cf=$(pkg-config --cflags "$m" | sed 's#-I/usr/#-I${pcfiledir}/../root/usr/#g')
  # GL libraries come in only through gstreamer-gl's headers; nothing links them directly
  lb=$(pkg-config --libs "$m" | sed 's#-L/usr/#-L${pcfiledir}/../root/usr/#g; s#-lGLESv2##g; s#-lGL\b##g; s#-lEGL##g')
  cat > "$OUT/pc/$m.pc" <<PC
Name: $m
Description: $m (flattened for the GPU host)
Version: $(pkg-config --modversion "$m")
Cflags: $cf -I\${pcfiledir}/../root/usr/include
Libs: -L\${pcfiledir}/../root/usr/lib/x86_64-linux-gnu $lb
PC
done

cp "$HERE/env.sh" "$OUT/env.sh"
rm -rf "$OUT/root" "$OUT/registry.bin"
if [ -d "$ROOT/.git" ]; then
  mkdir -p "$ROOT/.git/info"
  grep -qx '/.gpu-host\*/' "$ROOT/.git/info/exclude" 2>/dev/null || echo '/.gpu-host*/' >> "$ROOT/.git/info/exclude"
fi
echo "ready: $OUT, GStreamer $(grep -m1 '^Version' "$OUT/pc/gstreamer-1.0.pc" | cut -d' ' -f2) ($(du -sh "$OUT" | cut -f1)); on the GPU host: source $(basename "$OUT")/env.sh"
