/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A piece's debug category, made on its first use from any thread (a
 * piece may run before the element's class exists, as in the tests that
 * compile it on its own). Header only. */
#pragma once

#include <gst/gst.h>

#define GST_CUDA_PLANE_FILTER_DEBUG_INIT_ONCE(cat, name, description)    \
  G_STMT_START {                                                        \
    static gsize once = 0;                                              \
                                                                        \
    if (g_once_init_enter (&once)) {                                    \
      GST_DEBUG_CATEGORY_INIT (cat, name, 0, description);              \
      g_once_init_leave (&once, 1);                                     \
    }                                                                   \
  } G_STMT_END
