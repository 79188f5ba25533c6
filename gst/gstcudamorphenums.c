/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudamorphenums.h"
#include "base/gstcudaplanefilterenums.h"

#include "morph/morph.h"
#include "reconstruct/reconstruct.h"
#include "attribute/attribute.h"
#include "morph/se.h"

/* The GEnums are cast to the core enums: keep the values in step. */
G_STATIC_ASSERT ((int) GST_CUDA_MORPH_OPERATION_ERODE == (int) CM_MORPH_ERODE);
G_STATIC_ASSERT ((int) GST_CUDA_MORPH_OPERATION_GRADIENT ==
    (int) CM_MORPH_GRADIENT);
G_STATIC_ASSERT (CM_MORPH_OP_COUNT == 7);
/* the reconstruction operations follow, in cm_recon_op's order */
#define RECON_OP_AT(gst_op, cm_op) G_STATIC_ASSERT ((int) (gst_op) - \
    (int) GST_CUDA_MORPH_OPERATION_FILL_HOLES == (int) (cm_op))
G_STATIC_ASSERT ((int) GST_CUDA_MORPH_OPERATION_FILL_HOLES ==
    CM_MORPH_OP_COUNT);
RECON_OP_AT (GST_CUDA_MORPH_OPERATION_FILL_HOLES, CM_RECON_FILL_HOLES);
RECON_OP_AT (GST_CUDA_MORPH_OPERATION_CLEAR_BORDER, CM_RECON_CLEAR_BORDER);
RECON_OP_AT (GST_CUDA_MORPH_OPERATION_OPEN_REC, CM_RECON_OPEN);
RECON_OP_AT (GST_CUDA_MORPH_OPERATION_CLOSE_REC, CM_RECON_CLOSE);
RECON_OP_AT (GST_CUDA_MORPH_OPERATION_HMAX, CM_RECON_HMAX);
RECON_OP_AT (GST_CUDA_MORPH_OPERATION_HMIN, CM_RECON_HMIN);
RECON_OP_AT (GST_CUDA_MORPH_OPERATION_HDOME, CM_RECON_HDOME);
RECON_OP_AT (GST_CUDA_MORPH_OPERATION_HBASIN, CM_RECON_HBASIN);
G_STATIC_ASSERT (CM_RECON_OP_COUNT == 8);
/* then the area operations, in cm_attr_op's order */
G_STATIC_ASSERT ((int) GST_CUDA_MORPH_OPERATION_AREA_OPEN ==
    (int) GST_CUDA_MORPH_OPERATION_HBASIN + 1);
#define ATTR_OP_AT(gst_op, cm_op) G_STATIC_ASSERT ((int) (gst_op) - \
    (int) GST_CUDA_MORPH_OPERATION_AREA_OPEN == (int) (cm_op))
ATTR_OP_AT (GST_CUDA_MORPH_OPERATION_AREA_OPEN, CM_ATTR_OPEN);
ATTR_OP_AT (GST_CUDA_MORPH_OPERATION_AREA_CLOSE, CM_ATTR_CLOSE);
G_STATIC_ASSERT (CM_ATTR_OP_COUNT == 2);
G_STATIC_ASSERT ((int) GST_CUDA_MORPH_SHAPE_RECT == (int) CM_SHAPE_RECT);
G_STATIC_ASSERT ((int) GST_CUDA_MORPH_SHAPE_LINE == (int) CM_SHAPE_LINE);
G_STATIC_ASSERT ((int) GST_CUDA_MORPH_SHAPE_CUSTOM == (int) CM_SHAPE_CUSTOM);
G_STATIC_ASSERT (CM_SHAPE_COUNT == 7);

GST_CUDA_MORPHOLOGY_DEFINE_ENUM_TYPE (gst_cuda_morph_operation,
    GstCudaMorphOperation,
    {GST_CUDA_MORPH_OPERATION_ERODE, "Erosion (minimum over the element)",
        "erode"},
    {GST_CUDA_MORPH_OPERATION_DILATE, "Dilation (maximum over the element)",
        "dilate"},
    {GST_CUDA_MORPH_OPERATION_OPEN, "Opening (erosions, then dilations)",
        "open"},
    {GST_CUDA_MORPH_OPERATION_CLOSE, "Closing (dilations, then erosions)",
        "close"},
    {GST_CUDA_MORPH_OPERATION_TOPHAT,
        "White top-hat (image minus opening): small bright details",
        "tophat"},
    {GST_CUDA_MORPH_OPERATION_BLACKHAT,
        "Black top-hat (closing minus image): small dark details",
        "blackhat"},
    {GST_CUDA_MORPH_OPERATION_GRADIENT,
        "Morphological gradient (dilation minus erosion): edges",
        "gradient"},
    {GST_CUDA_MORPH_OPERATION_FILL_HOLES,
        "Fill holes: dark regions not connected to the frame's border are "
        "raised to the level of their surroundings", "fill-holes"},
    {GST_CUDA_MORPH_OPERATION_CLEAR_BORDER,
        "Clear border: bright objects touching the frame's border are "
        "removed", "clear-border"},
    {GST_CUDA_MORPH_OPERATION_OPEN_REC,
        "Opening by reconstruction: bright objects the structuring element "
        "does not fit in vanish, the others keep their exact shape",
        "open-rec"},
    {GST_CUDA_MORPH_OPERATION_CLOSE_REC,
        "Closing by reconstruction: dark objects the structuring element "
        "does not fit in are filled, the others keep their exact shape",
        "close-rec"},
    {GST_CUDA_MORPH_OPERATION_HMAX,
        "H-maxima: bright peaks lowered by dome-height, peaks no higher "
        "than that flattened", "hmax"},
    {GST_CUDA_MORPH_OPERATION_HMIN,
        "H-minima: dark basins raised by dome-height, basins no deeper "
        "than that filled", "hmin"},
    {GST_CUDA_MORPH_OPERATION_HDOME,
        "H-domes (image minus hmax): the top dome-height levels of each "
        "bright peak", "hdome"},
    {GST_CUDA_MORPH_OPERATION_HBASIN,
        "H-basins (hmin minus image): the bottom dome-height levels of each "
        "dark basin", "hbasin"},
    {GST_CUDA_MORPH_OPERATION_AREA_OPEN,
        "Area opening: bright structures (connected through connectivity "
        "neighbours) of fewer than min-area pixels are lowered to their "
        "surroundings, whatever their shape; larger ones are kept exactly",
        "area-open"},
    {GST_CUDA_MORPH_OPERATION_AREA_CLOSE,
        "Area closing: dark structures of fewer than min-area pixels are "
        "raised to their surroundings, whatever their shape; larger ones "
        "are kept exactly", "area-close"});

GST_CUDA_MORPHOLOGY_DEFINE_ENUM_TYPE (gst_cuda_morph_shape, GstCudaMorphShape,
    {GST_CUDA_MORPH_SHAPE_RECT, "Rectangle of width x height", "rect"},
    {GST_CUDA_MORPH_SHAPE_CROSS,
        "Cross: centre row and column of width x height", "cross"},
    {GST_CUDA_MORPH_SHAPE_DIAMOND, "Diamond |dx|+|dy| <= radius", "diamond"},
    {GST_CUDA_MORPH_SHAPE_DISK, "Exact disk dx^2+dy^2 <= radius^2", "disk"},
    {GST_CUDA_MORPH_SHAPE_OCTAGON,
        "Octagon: |dx|,|dy| <= radius, |dx|+|dy| <= radius + radius/2",
        "octagon"},
    {GST_CUDA_MORPH_SHAPE_LINE, "Line of length pixels at angle degrees",
        "line"},
    {GST_CUDA_MORPH_SHAPE_CUSTOM, "Custom 0/1 mask (mask property)",
        "custom"});
