/* cf_colscan.h - a column's surface height: the top y in [ymin, ymax] whose value is > 0, or
 * ymin - 1 where none, searched from the top down in windows of w rows aligned to multiples of
 * w in absolute y (clipped to [ymin, ylast]); inside a window the rows run upward, as a chunk
 * fill's interpolation does, so a row's value can be the same running sum. Used by the map's
 * device path on the CPU side (host/api/map_device.c: the columns of chunks a device filled) and
 * by the generated OpenCL sample kernel (k_map_samples, host/opencl/emit.c: a work item per sample).
 *
 * A template: the includer defines, before including it,
 *   CF_CS_CTX            the context parameter's declaration
 *   CF_CS_ARG            the context argument (its name)
 *   CF_CS_T              the value type (float or double)
 *   CF_CS_ROW(y, first)  the value at row y; first is 1 at a window's first row, where a running
 *                        sum must start again (every row of a window is asked, bottom up)
 */
#ifndef CF_COLSCAN_H
#define CF_COLSCAN_H

CF_INLINE cf_i32 cf_colscan(CF_CS_CTX, cf_i32 ymin, cf_i32 ylast, cf_i32 ymax, cf_i32 w)
{
    cf_i32 top = ymin - 1;
    if (ymax > ylast) ymax = ylast;
    for (cf_i64 wb = cf_floordiv(ymax, w) * w; ymax >= ymin && wb + w > ymin; wb -= w) {
        cf_i32 ys = wb < ymin ? ymin : (cf_i32)wb, ye = wb + w - 1 > ylast ? ylast : (cf_i32)(wb + w - 1);
        for (cf_i32 y = ys; y <= ye; y++) {
            CF_CS_T v = CF_CS_ROW(y, y == ys);
            if (v > (CF_CS_T)0 && y <= ymax) top = y;
        }
        if (top >= ymin) break;
    }
    return top;
}

#endif
