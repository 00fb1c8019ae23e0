// Vertical grid and metric fields of diffusion (internal to the runtime).
#ifndef FUSEC_RUNTIME_METRICS_H
#define FUSEC_RUNTIME_METRICS_H

#include "fusec/coefficients.h"

namespace fusec {

// Fills vct_a, end_index_of_damping_layer, topography, z_ifc, wgtfac_c, theta_ref_mc and the
// zd_* fields of `out`. `cell_average` is the (C, C2E2CO) bilinear averaging operator. Fails
// on an invalid vertical configuration or a mountain so high that model levels cross.
Status compute_vertical_metrics(const Grid &grid, const CoefficientConfig &config,
                                const NeighborArray<double> &cell_average,
                                DiffusionCoefficients &out);

} // namespace fusec

#endif // FUSEC_RUNTIME_METRICS_H
