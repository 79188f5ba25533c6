/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The elements' properties kept in settings structs, and controlled
 * properties (gstcudaplanefiltersettings.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include "gstcudaplanefiltersettings.h"
#include "gstcudaplanefiltererrors.h"

/* A GParamSpecDouble's value brought into its range (GLib <= 2.74 lets
 * through values a hair outside, which the core would refuse); NaN stays. */
gdouble
gst_cuda_plane_filter_double_in_range (const GValue * value,
    GParamSpec * pspec)
{
  GParamSpecDouble *dspec = G_PARAM_SPEC_DOUBLE (pspec);
  gdouble v = g_value_get_double (value);

  return isnan (v) ? v : CLAMP (v, dspec->minimum, dspec->maximum);
}

/* The checks of properties several elements have, before the object lock
 * is taken: FALSE, with a warning, for a value refused (the previous one
 * stays). connectivity (an int of 4 to 8): 4 or 8 only. */
gboolean
gst_cuda_plane_filter_connectivity_ok (GstElement * element,
    const GValue * value)
{
  if (g_value_get_int (value) == 4 || g_value_get_int (value) == 8)
    return TRUE;
  gst_cuda_plane_filter_refuse (element, "invalid connectivity %d: only 4 "
      "and 8 are allowed; keeping the previous connectivity",
      g_value_get_int (value));
  return FALSE;
}

/* percentile (a double): a hair outside the range comes back inside
 * (when stored); NaN stays NaN and is refused */
gboolean
gst_cuda_plane_filter_percentile_ok (GstElement * element,
    const GValue * value, GParamSpec * pspec)
{
  if (!isnan (gst_cuda_plane_filter_double_in_range (value, pspec)))
    return TRUE;
  gst_cuda_plane_filter_refuse (element, "percentile NaN is not a number; "
      "keeping the previous percentile");
  return FALSE;
}

#define STORE(type, v) G_STMT_START { type nv = (v); \
    changed = *(type *) p != nv; *(type *) p = nv; } G_STMT_END

/* @value into the field at @p, of the type of @pspec's values; TRUE when
 * the field's value changed */
static gboolean
field_store (gpointer p, const GValue * value, GParamSpec * pspec)
{
  gboolean changed = FALSE;

  switch (G_TYPE_FUNDAMENTAL (G_PARAM_SPEC_VALUE_TYPE (pspec))) {
    case G_TYPE_INT:
      STORE (gint, g_value_get_int (value));
      break;
    case G_TYPE_UINT:
      STORE (guint, g_value_get_uint (value));
      break;
    case G_TYPE_BOOLEAN:
      /* any non-zero gboolean is TRUE */
      STORE (gboolean, g_value_get_boolean (value) ? TRUE : FALSE);
      break;
    case G_TYPE_DOUBLE:
      /* NaN never equals itself: counted as a change, as it should be */
      STORE (gdouble, gst_cuda_plane_filter_double_in_range (value,
              pspec));
      break;
    case G_TYPE_ENUM:
      STORE (gint, g_value_get_enum (value));
      break;
    case G_TYPE_STRING:
      changed = g_strcmp0 (*(gchar **) p, g_value_get_string (value)) != 0;
      if (changed) {
        g_free (*(gchar **) p);
        *(gchar **) p = g_value_dup_string (value);
      }
      break;
    default:
      g_assert_not_reached ();
  }
  return changed;
}

#undef STORE

/* the field at @p into @value */
static void
field_load (gconstpointer p, GValue * value, GParamSpec * pspec)
{
  switch (G_TYPE_FUNDAMENTAL (G_PARAM_SPEC_VALUE_TYPE (pspec))) {
    case G_TYPE_INT:
      g_value_set_int (value, *(const gint *) p);
      break;
    case G_TYPE_UINT:
      g_value_set_uint (value, *(const guint *) p);
      break;
    case G_TYPE_BOOLEAN:
      g_value_set_boolean (value, *(const gboolean *) p);
      break;
    case G_TYPE_DOUBLE:
      g_value_set_double (value, *(const gdouble *) p);
      break;
    case G_TYPE_ENUM:
      g_value_set_enum (value, *(const gint *) p);
      break;
    case G_TYPE_STRING:
      g_value_set_string (value, *(gchar * const *) p);
      break;
    default:
      g_assert_not_reached ();
  }
}

/* instance_init: the fields of @settings at the defaults of their
 * properties, those @object's own class installed */
void
gst_cuda_plane_filter_settings_init (GObject * object, gpointer settings,
    const GstCudaPlaneFilterField * fields, guint n_fields)
{
  GParamSpec **specs;
  guint n_specs, i, j;

  specs = g_object_class_list_properties (G_OBJECT_GET_CLASS (object),
      &n_specs);
  for (i = 0; i < n_fields; i++) {
    for (j = 0; j < n_specs; j++) {
      if (specs[j]->owner_type == G_OBJECT_TYPE (object) &&
          specs[j]->param_id == fields[i].prop_id) {
        field_store (G_STRUCT_MEMBER_P (settings, fields[i].offset),
            g_param_spec_get_default_value (specs[j]), specs[j]);
        break;
      }
    }
  }
  g_free (specs);
}

/* set_property for the properties kept in @settings (under the object
 * lock); refuse bad values before. TRUE: one of @fields, and its value
 * changed (a value set again rebuilds nothing). */
gboolean
gst_cuda_plane_filter_settings_set (GObject * object, gpointer settings,
    const GstCudaPlaneFilterField * fields, guint n_fields, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  gboolean known = FALSE, changed = FALSE;
  guint i;

  GST_OBJECT_LOCK (object);
  for (i = 0; i < n_fields; i++) {
    if (fields[i].prop_id == prop_id) {
      changed |= field_store (G_STRUCT_MEMBER_P (settings, fields[i].offset),
          value, pspec);
      known = TRUE;
    }
  }
  GST_OBJECT_UNLOCK (object);

  if (!known)
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  return changed;
}

/* get_property for the properties kept in @settings. */
void
gst_cuda_plane_filter_settings_get (GObject * object,
    gconstpointer settings, const GstCudaPlaneFilterField * fields,
    guint n_fields, guint prop_id, GValue * value, GParamSpec * pspec)
{
  guint i;

  for (i = 0; i < n_fields; i++) {
    if (fields[i].prop_id == prop_id) {
      GST_OBJECT_LOCK (object);
      field_load (G_STRUCT_MEMBER_P (settings, fields[i].offset), value,
          pspec);
      GST_OBJECT_UNLOCK (object);
      return;
    }
  }
  G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

/* Controlled properties take their values at the buffer's stream time;
 * subclasses that override before_transform call it first. */
void
gst_cuda_plane_filter_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer)
{
  GstClockTime ts = gst_segment_to_stream_time (&trans->segment,
      GST_FORMAT_TIME, GST_BUFFER_TIMESTAMP (buffer));

  if (GST_CLOCK_TIME_IS_VALID (ts))
    gst_object_sync_values (GST_OBJECT (trans), ts);
}

