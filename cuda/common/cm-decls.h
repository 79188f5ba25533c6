/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The core's declarations with C linkage for C++ and CUDA callers, as
 * GLib's G_BEGIN_DECLS (the core has no GLib). */
#pragma once

#ifdef __cplusplus
#define CM_BEGIN_DECLS extern "C" {
#define CM_END_DECLS }
#else
#define CM_BEGIN_DECLS
#define CM_END_DECLS
#endif
