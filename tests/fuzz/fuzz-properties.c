/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libFuzzer target: the property parsers of cudamorph, cudamedian,
 * cudalinspectrum, cudablobs and cudatemporal (CPU backend), then a frame
 * through each.
 *
 * The input is a list of records (element, property, how, payload):
 * strings through gst_util_set_object_arg () (enum nicks, numbers, masks),
 * raw ints, uints and doubles (NaN, infinities, huge) through
 * g_object_set_property (). Refusals warn (the warnings are swallowed
 * here). After every record the values read back must be valid: within
 * their GParamSpec, the mask a valid custom SE, the median sides odd, the
 * angles of cudalinspectrum each valid alone, cudablobs' connectivity 4
 * or 8. After the records one small frame of a random size goes through
 * each element (GstHarness) and must come out (GST_FLOW_OK, a buffer),
 * except that cudalinspectrum started with angles that are no valid set
 * together, and cudablobs started with a nonzero max-area below
 * min-area, refuse it with one element error. Needs GST_PLUGIN_PATH (set by
 * the meson test; defaults to the build's gst/). */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gst/gst.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "linspectrum/linspectrum.h"
#include "morph/se.h"

#define CHECK(cond) do { if (!(cond)) { \
      fprintf (stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); \
      abort (); } } while (0)

enum
{
  EL_MORPH, EL_MEDIAN, EL_LIN, EL_BLOBS, EL_TEMPORAL, N_ELEMENTS
};

static const char *const names[N_ELEMENTS] = { "cudamorph", "cudamedian",
  "cudalinspectrum", "cudablobs", "cudatemporal"
};

static GstHarness *harness[N_ELEMENTS];
static GstElement *elements[N_ELEMENTS];
static GParamSpec **props[N_ELEMENTS];
static guint n_props[N_ELEMENTS];

static void
swallow (const gchar * domain, GLogLevelFlags level, const gchar * msg,
    gpointer data)
{
}

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  static const char *const domains[] = { NULL, "GLib-GObject", "GLib",
    "GStreamer"
  };

  /* the plugin in this process, only this build's */
  g_setenv ("GST_REGISTRY_FORK", "no", TRUE);
  g_setenv ("GST_PLUGIN_SYSTEM_PATH_1_0", "", TRUE);
  g_setenv ("GST_PLUGIN_PATH", FUZZ_PLUGIN_DIR, FALSE);
  gst_init (NULL, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (domains); i++)
    g_log_set_handler (domains[i], G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE,
        swallow, NULL);

  for (int e = 0; e < N_ELEMENTS; e++) {
    GstElement *el = gst_element_factory_make (names[e], NULL);

    if (el == NULL) {
      fprintf (stderr, "cannot create %s: GST_PLUGIN_PATH?\n", names[e]);
      abort ();
    }
    props[e] = g_object_class_list_properties (G_OBJECT_GET_CLASS (el),
        &n_props[e]);
    gst_object_unref (el);
  }
  return 0;
}

static unsigned
take (const uint8_t ** d, size_t * n)
{
  unsigned v = 0;

  if (*n > 0) {
    v = **d;
    (*d)++;
    (*n)--;
  }
  return v;
}

static void
take_bytes (const uint8_t ** d, size_t * n, void *out, size_t len)
{
  memset (out, 0, len);
  len = len < *n ? len : *n;
  memcpy (out, *d, len);
  *d += len;
  *n -= len;
}

/* A small signed number from the next size (1 or 2) bytes */
static int
take_small (const uint8_t ** d, size_t * n, size_t size)
{
  int8_t s8;
  int16_t s16;

  if (size == 1) {
    take_bytes (d, n, &s8, sizeof (s8));
    return s8;
  }
  take_bytes (d, n, &s16, sizeof (s16));
  return s16;
}

/* The values read back are valid. */
static void
check_element (int e)
{
  GstElement *el = elements[e];

  for (guint i = 0; i < n_props[e]; i++) {
    GParamSpec *ps = props[e][i];
    GValue v = G_VALUE_INIT;
    gchar *str;

    if (!(ps->flags & G_PARAM_READABLE))
      continue;
    g_value_init (&v, ps->value_type);
    g_object_get_property (G_OBJECT (el), ps->name, &v);
    str = G_VALUE_HOLDS_DOUBLE (&v) ?
        g_strdup_printf ("%a", g_value_get_double (&v)) :
        g_strdup_value_contents (&v);
    if (g_param_value_validate (ps, &v)) {
      fprintf (stderr, "%s: %s reads back %s, outside its range\n",
          names[e], ps->name, str);
      abort ();
    }
    g_free (str);
    if (G_IS_PARAM_SPEC_DOUBLE (ps))
      CHECK (!isnan (g_value_get_double (&v)));
    g_value_unset (&v);
  }
  if (e == EL_MORPH) {
    gchar *mask;
    cm_se *se = NULL;
    gint connectivity;
    guint min_area;

    g_object_get (el, "mask", &mask, "connectivity", &connectivity,
        "min-area", &min_area, NULL);
    CHECK (cm_se_new_custom (&se, mask) == CM_OK);
    CHECK (connectivity == 4 || connectivity == 8);
    CHECK (min_area >= 1);
    cm_se_free (se);
    g_free (mask);
  } else if (e == EL_MEDIAN) {
    gint w, h;

    g_object_get (el, "width", &w, "height", &h, NULL);
    CHECK (w % 2 == 1 && h % 2 == 1);
  } else if (e == EL_BLOBS) {
    gint connectivity;

    g_object_get (el, "connectivity", &connectivity, NULL);
    CHECK (connectivity == 4 || connectivity == 8);
  } else if (e == EL_LIN) {
    /* each angle alone is valid; the three together are judged at the
     * next frame, whatever the order they were set in */
    gdouble amin, amax, step;
    guint len;

    g_object_get (el, "length", &len, "angle-min", &amin, "angle-max", &amax,
        "angle-step", &step, NULL);
    CHECK (len >= 1 && len <= CM_LINSPECTRUM_MAX_LENGTH);
    CHECK (isfinite (amin) && isfinite (amax) && isfinite (step));
    CHECK (step > 0.0);
  }
}

/* gst_util_set_object_arg () without its leak: GStreamer 1.22 does not
 * unset the GValue when the string does not parse, which loses the
 * allocation of a GstValueArray (the roi property) */
static void
set_from_string (GObject * obj, GParamSpec * ps, const char *str)
{
  GValue v = G_VALUE_INIT;
  const char *open = strchr (str, '<');

  /* GStreamer 1.22 also leaks the inner array of a nested array that does
   * not parse (gst_value_deserialize of "<<1>" alone loses 208 bytes):
   * nested arrays are left to test-roi, which checks that the element
   * refuses those that parse */
  if (GST_IS_PARAM_SPEC_ARRAY_LIST (ps) && open && strchr (open + 1, '<'))
    return;
  g_value_init (&v, ps->value_type);
  if (gst_value_deserialize_with_pspec (&v, str, ps))
    g_object_set_property (obj, ps->name, &v);
  g_value_unset (&v);
}

static void
set_one (const uint8_t ** d, size_t * n)
{
  int e = take (d, n) % N_ELEMENTS;
  GParamSpec *ps = props[e][take (d, n) % n_props[e]];
  unsigned how = take (d, n) % 4;
  GObject *obj = G_OBJECT (elements[e]);

  if (!(ps->flags & G_PARAM_WRITABLE) || strcmp (ps->name, "name") == 0 ||
      strcmp (ps->name, "parent") == 0)
    return;
  /* the CPU backend only: no device in the fuzzing build */
  if (strcmp (ps->name, "backend") == 0 || strcmp (ps->name, "qos") == 0)
    return;

  if (how == 0 || ps->value_type == G_TYPE_STRING) {
    char buf[64];
    size_t len = take (d, n) % sizeof (buf);

    take_bytes (d, n, buf, len);
    buf[len] = '\0';
    if (ps->value_type == G_TYPE_STRING && how == 1) {
      /* a mask of 0, 1 and ; */
      for (size_t i = 0; i < len; i++)
        buf[i] = "01;"[(uint8_t) buf[i] % 3];
    }
    set_from_string (obj, ps, buf);
  } else {
    GValue v = G_VALUE_INIT;

    g_value_init (&v, ps->value_type);
    if (G_IS_PARAM_SPEC_DOUBLE (ps)) {
      double x;

      if (how == 1)
        take_bytes (d, n, &x, sizeof (x));
      else
        x = take_small (d, n, 2) / 16.0;
      g_value_set_double (&v, x);
    } else if (G_IS_PARAM_SPEC_INT (ps) || G_IS_PARAM_SPEC_ENUM (ps)) {
      int32_t x;

      if (how == 1)
        take_bytes (d, n, &x, sizeof (x));
      else
        x = take_small (d, n, 1);
      if (G_IS_PARAM_SPEC_INT (ps))
        g_value_set_int (&v, x);
      else
        g_value_set_enum (&v, x);
    } else if (G_IS_PARAM_SPEC_UINT (ps)) {
      uint32_t x = 0;         /* one byte or four: the rest zero */

      take_bytes (d, n, &x, how == 1 ? 4 : 1);
      g_value_set_uint (&v, x);
    } else if (G_IS_PARAM_SPEC_BOOLEAN (ps)) {
      g_value_set_boolean (&v, take (d, n) & 1);
    } else {
      g_value_unset (&v);
      return;
    }
    g_object_set_property (obj, ps->name, &v);
    g_value_unset (&v);
  }
  check_element (e);
}

/* Whether the angles of cudalinspectrum make a valid set of orientations
 * together (judged when the element configures, at the first frame). */
static gboolean
lin_angles_valid (GstElement * el)
{
  cm_linspectrum_desc desc;

  memset (&desc, 0, sizeof (desc));
  g_object_get (el, "angle-min", &desc.angle_min, "angle-max",
      &desc.angle_max, "angle-step", &desc.angle_step, NULL);
  desc.length = 1;
  desc.op = CM_MORPH_OPEN;
  return cm_linspectrum_desc_check (&desc) == CM_OK;
}

/* Whether cudablobs' area limits are valid together (judged at the first
 * frame: min-area 0 acts as 1, max-area 0 is no limit) */
static gboolean
blobs_areas_valid (GstElement * el)
{
  guint min_area, max_area;

  g_object_get (el, "min-area", &min_area, "max-area", &max_area, NULL);
  return max_area == 0 || max_area >= MAX (min_area, 1u);
}

/* Returns whether the frame was expected to be refused: cudalinspectrum
 * starting with an invalid set of orientations, cudablobs with invalid
 * area limits (an element error). */
static gboolean
push_frame (int e, const uint8_t ** d, size_t * n)
{
  static const char *const formats[] = { "GRAY8", "GRAY16_LE", "I420",
    "NV12", "RGBA"
  };
  /* the analysers take grey and YUV only */
  int nf = e == EL_LIN || e == EL_BLOBS ? 4 : 5;
  const char *format = formats[take (d, n) % nf];
  int w = 1 + take (d, n) % 12, h = 1 + take (d, n) % 12;
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1", format, w, h);
  GstVideoInfo info;
  GstBuffer *in, *out;

  gst_video_info_set_format (&info, gst_video_format_from_string (format), w,
      h);
  gst_harness_set_src_caps_str (harness[e], caps);
  g_free (caps);
  in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  gst_buffer_memset (in, 0, take (d, n), GST_VIDEO_INFO_SIZE (&info));
  if ((e == EL_LIN && !lin_angles_valid (elements[e])) ||
      (e == EL_BLOBS && !blobs_areas_valid (elements[e]))) {
    CHECK (gst_harness_push (harness[e], in) != GST_FLOW_OK);
    return TRUE;
  }
  CHECK (gst_harness_push (harness[e], in) == GST_FLOW_OK);
  out = gst_harness_pull (harness[e]);
  CHECK (out != NULL);
  gst_buffer_unref (out);
  return FALSE;
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  const uint8_t *d = data;
  size_t n = size;
  GstEvent *ev;
  GstMessage *msg;
  GstBus *bus;

  /* fresh elements for every input: a crash replays from its input alone */
  for (int e = 0; e < N_ELEMENTS; e++) {
    elements[e] = gst_object_ref_sink (gst_element_factory_make (names[e],
            NULL));
    gst_util_set_object_arg (G_OBJECT (elements[e]), "backend", "cpu");
    harness[e] = gst_harness_new_with_element (elements[e], "sink", "src");
    bus = gst_bus_new ();
    gst_element_set_bus (elements[e], bus);
    gst_object_unref (bus);
  }
  for (int r = 0; r < 12 && n > 0; r++)
    set_one (&d, &n);
  for (int e = 0; e < N_ELEMENTS; e++) {
    gboolean refused = push_frame (e, &d, &n);
    guint errors = 0;

    bus = gst_element_get_bus (elements[e]);
    while ((msg = gst_bus_pop (bus)) != NULL) {
      if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
        GError *err = NULL;

        gst_message_parse_error (msg, &err, NULL);
        fprintf (stderr, "%s: element error: %s\n", names[e],
            err ? err->message : "?");
        g_clear_error (&err);
        errors++;
      }
      gst_message_unref (msg);
    }
    CHECK (refused ? errors == 1 : errors == 0);
    gst_element_set_bus (elements[e], NULL);
    gst_object_unref (bus);
    while ((ev = gst_harness_try_pull_event (harness[e])) != NULL)
      gst_event_unref (ev);
    gst_harness_teardown (harness[e]);
    gst_object_unref (elements[e]);
  }
  return 0;
}
