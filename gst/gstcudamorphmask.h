/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudamorph's mask property: the text of a custom structuring element
 * checked when it is set, and what is wrong with it said in words (the
 * core only returns a status). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* TRUE when @mask makes a valid custom structuring element; else FALSE
 * and *@problem (g_free) says why, naming the row. */
gboolean gst_cuda_morph_check_mask (const gchar * mask, gchar ** problem);

G_END_DECLS
