/* hetcoll: network-aware collective communication on heterogeneous clusters and grids.
 * Umbrella header: include this one. */
#ifndef HETCOLL_H
#define HETCOLL_H

#define HETCOLL_VERSION_MAJOR 0
#define HETCOLL_VERSION_MINOR 1
#define HETCOLL_VERSION_PATCH 0
#define HETCOLL_VERSION_STRING "0.1.0"

#include "algo.h"
#include "cost.h"
#include "directory.h"
#include "forecast.h"
#include "matrix.h"
#include "platform.h"
#include "problem.h"
#include "rng.h"
#include "schedule.h"
#include "sim.h"
#include "status.h"
#include "topo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Library version string (may differ from the header's when linked dynamically). */
const char *hc_version(void);

#ifdef __cplusplus
}
#endif
#endif
