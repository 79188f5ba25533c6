# SPDX-License-Identifier: LGPL-2.1-or-later
# Source on the GPU machine (docs/gpu-host.md), from the bundle that
# scripts/gpu-host/prepare.sh wrote (it copies this file there):
#   source .gpu-host/env.sh
# Unpacks the bundled Debian GStreamer into .gpu-host/root (first time
# only) and points the loader, GStreamer and pkg-config at it.
GPU_HOST=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ ! -d "$GPU_HOST/root/usr" ]; then
  mkdir -p "$GPU_HOST/root"
  for f in "$GPU_HOST"/debs/*.deb; do dpkg -x "$f" "$GPU_HOST/root"; done
fi
_lib=$GPU_HOST/root/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$_lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export GST_PLUGIN_SYSTEM_PATH=$_lib/gstreamer-1.0
export GST_PLUGIN_SCANNER=$_lib/gstreamer1.0/gstreamer-1.0/gst-plugin-scanner
export GST_REGISTRY=$GPU_HOST/registry.bin
export PATH=$GPU_HOST/root/usr/bin:/usr/local/cuda/bin:$PATH
export PKG_CONFIG_PATH=$GPU_HOST/pc
[ -f /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json ] &&
  export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
unset _lib
