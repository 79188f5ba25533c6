/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Registered GEnums of the cudamorph element. The numeric values equal the
 * matching core enums (cm_morph_op, cm_shape) so that they convert with a
 * cast; the reconstruction operations are cm_recon_op offset by
 * GST_CUDA_MORPH_OPERATION_FILL_HOLES, the area operations cm_attr_op
 * offset by GST_CUDA_MORPH_OPERATION_AREA_OPEN. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

/**
 * GstCudaMorphOperation:
 * @GST_CUDA_MORPH_OPERATION_ERODE: erosion (minimum over the element)
 * @GST_CUDA_MORPH_OPERATION_DILATE: dilation (maximum over the element)
 * @GST_CUDA_MORPH_OPERATION_OPEN: erosions followed by dilations
 * @GST_CUDA_MORPH_OPERATION_CLOSE: dilations followed by erosions
 * @GST_CUDA_MORPH_OPERATION_TOPHAT: white top-hat, image minus opening
 * @GST_CUDA_MORPH_OPERATION_BLACKHAT: black top-hat, closing minus image
 * @GST_CUDA_MORPH_OPERATION_GRADIENT: dilation minus erosion
 * @GST_CUDA_MORPH_OPERATION_FILL_HOLES: dark regions that do not touch the
 *     frame's border are filled (reconstruction by erosion from the border)
 * @GST_CUDA_MORPH_OPERATION_CLEAR_BORDER: bright objects that touch the
 *     frame's border are removed (image minus its reconstruction from the
 *     border)
 * @GST_CUDA_MORPH_OPERATION_OPEN_REC: opening by reconstruction: the
 *     erosion regrown under the image, bright objects the element does not
 *     fit in vanish, the others keep their exact shape
 * @GST_CUDA_MORPH_OPERATION_CLOSE_REC: closing by reconstruction, the dual
 *     for dark objects
 * @GST_CUDA_MORPH_OPERATION_HMAX: h-maxima transform: every bright peak
 *     lowered by dome-height, peaks lower than that flattened
 * @GST_CUDA_MORPH_OPERATION_HMIN: h-minima transform: every dark basin
 *     raised by dome-height, basins shallower than that filled
 * @GST_CUDA_MORPH_OPERATION_HDOME: h-domes, image minus hmax: the top
 *     dome-height levels of every bright peak
 * @GST_CUDA_MORPH_OPERATION_HBASIN: h-basins, hmin minus image: the bottom
 *     dome-height levels of every dark basin
 * @GST_CUDA_MORPH_OPERATION_AREA_OPEN: area opening: bright structures of
 *     fewer than min-area pixels are removed, whatever their shape, the
 *     others kept exactly
 * @GST_CUDA_MORPH_OPERATION_AREA_CLOSE: area closing, the dual for dark
 *     structures
 *
 * The operation of cudamorph: grey-level morphology with the structuring
 * element (erode ... gradient), morphological reconstruction with the
 * 4 or 8 neighbours of #GstCudaMorph:connectivity (fill-holes ...
 * hbasin), or an area opening or closing through the same neighbours
 * (area-open, area-close). The reconstruction values follow the core's
 * cm_recon_op in the same order, from
 * @GST_CUDA_MORPH_OPERATION_FILL_HOLES on, and the area values cm_attr_op,
 * from @GST_CUDA_MORPH_OPERATION_AREA_OPEN on.
 */
typedef enum
{
  GST_CUDA_MORPH_OPERATION_ERODE = 0,
  GST_CUDA_MORPH_OPERATION_DILATE = 1,
  GST_CUDA_MORPH_OPERATION_OPEN = 2,
  GST_CUDA_MORPH_OPERATION_CLOSE = 3,
  GST_CUDA_MORPH_OPERATION_TOPHAT = 4,
  GST_CUDA_MORPH_OPERATION_BLACKHAT = 5,
  GST_CUDA_MORPH_OPERATION_GRADIENT = 6,
  GST_CUDA_MORPH_OPERATION_FILL_HOLES = 7,
  GST_CUDA_MORPH_OPERATION_CLEAR_BORDER = 8,
  GST_CUDA_MORPH_OPERATION_OPEN_REC = 9,
  GST_CUDA_MORPH_OPERATION_CLOSE_REC = 10,
  GST_CUDA_MORPH_OPERATION_HMAX = 11,
  GST_CUDA_MORPH_OPERATION_HMIN = 12,
  GST_CUDA_MORPH_OPERATION_HDOME = 13,
  GST_CUDA_MORPH_OPERATION_HBASIN = 14,
  GST_CUDA_MORPH_OPERATION_AREA_OPEN = 15,
  GST_CUDA_MORPH_OPERATION_AREA_CLOSE = 16
} GstCudaMorphOperation;

/**
 * GstCudaMorphShape:
 * @GST_CUDA_MORPH_SHAPE_RECT: width x height rectangle
 * @GST_CUDA_MORPH_SHAPE_CROSS: centre row and centre column of width x height
 * @GST_CUDA_MORPH_SHAPE_DIAMOND: |dx| + |dy| <= radius
 * @GST_CUDA_MORPH_SHAPE_DISK: dx^2 + dy^2 <= radius^2 (exact)
 * @GST_CUDA_MORPH_SHAPE_OCTAGON: square of radius/2 dilated by a diamond
 * @GST_CUDA_MORPH_SHAPE_LINE: line of length pixels at angle degrees
 * @GST_CUDA_MORPH_SHAPE_CUSTOM: the mask property
 *
 * The structuring element shape of cudamorph.
 */
typedef enum
{
  GST_CUDA_MORPH_SHAPE_RECT = 0,
  GST_CUDA_MORPH_SHAPE_CROSS = 1,
  GST_CUDA_MORPH_SHAPE_DIAMOND = 2,
  GST_CUDA_MORPH_SHAPE_DISK = 3,
  GST_CUDA_MORPH_SHAPE_OCTAGON = 4,
  GST_CUDA_MORPH_SHAPE_LINE = 5,
  GST_CUDA_MORPH_SHAPE_CUSTOM = 6
} GstCudaMorphShape;

#define GST_TYPE_CUDA_MORPH_OPERATION (gst_cuda_morph_operation_get_type ())
GType gst_cuda_morph_operation_get_type (void);

#define GST_TYPE_CUDA_MORPH_SHAPE (gst_cuda_morph_shape_get_type ())
GType gst_cuda_morph_shape_get_type (void);

G_END_DECLS
