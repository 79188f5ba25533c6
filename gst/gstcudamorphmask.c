/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudamorph's mask property checked (gstcudamorphmask.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudamorphmask.h"

#include "morph/se.h"

/* Says in words what is wrong with a mask that cm_se_new_custom () refused
 * (the core only returns a status). */
static gchar *
gst_cuda_morph_describe_mask_problem (const gchar * mask, cm_status status)
{
  gchar **rows = g_strsplit (mask, ";", -1);
  gchar *problem = NULL;
  guint n_rows = g_strv_length (rows);
  gint cols = -1, ones = 0;
  guint r;

  for (r = 0; r < n_rows && problem == NULL; r++) {
    const gchar *p;
    gint n = 0;

    for (p = rows[r]; *p && problem == NULL; p++) {
      if (*p == '0' || *p == '1') {
        n++;
        ones += *p == '1';
      } else if (!g_ascii_isspace (*p)) {
        problem = g_strdup_printf ("row %u contains '%c'; only '0', '1', "
            "';' and spaces are allowed", r + 1, *p);
      }
    }
    if (problem)
      break;
    if (n == 0)
      problem = g_strdup_printf ("row %u is empty", r + 1);
    else if (cols >= 0 && n != cols)
      problem = g_strdup_printf ("row %u has %d columns but row 1 has %d",
          r + 1, n, cols);
    else if (n > CM_SE_MAX_CUSTOM)
      problem = g_strdup_printf ("row %u has %d columns, at most %d are "
          "allowed", r + 1, n, CM_SE_MAX_CUSTOM);
    cols = n;
  }
  if (problem == NULL && n_rows > CM_SE_MAX_CUSTOM)
    problem = g_strdup_printf ("%u rows, at most %d are allowed", n_rows,
        CM_SE_MAX_CUSTOM);
  if (problem == NULL && ones == 0)
    problem = g_strdup ("no pixel is set (the mask needs at least one 1)");
  if (problem == NULL)
    problem = g_strdup (cm_status_string (status));

  g_strfreev (rows);
  return problem;
}

gboolean
gst_cuda_morph_check_mask (const gchar * mask, gchar ** problem)
{
  cm_se *se = NULL;
  cm_status status;

  if (mask == NULL || *mask == '\0') {
    *problem = g_strdup ("the mask is empty");
    return FALSE;
  }

  status = cm_se_new_custom (&se, mask);
  if (status == CM_OK) {
    cm_se_free (se);
    return TRUE;
  }

  *problem = gst_cuda_morph_describe_mask_problem (mask, status);
  return FALSE;
}
