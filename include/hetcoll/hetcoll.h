/* hetcoll: network-aware collective communication on heterogeneous clusters and grids.
 * Umbrella header: include this one. */
#ifndef HETCOLL_H
#define HETCOLL_H

#define HETCOLL_VERSION_MAJOR 0
#define HETCOLL_VERSION_MINOR 2
#define HETCOLL_VERSION_PATCH 0
#define HETCOLL_VERSION_STRING "0.2.0"

/* The API level these headers describe: raised whenever a public declaration changes (a field,
 * a function, a constant). Compare with hc_api_version() at run time (docs/architecture.md,
 * "ABI"). */
#define HC_API_VERSION 25

#include "algo.h"
#include "cost.h"
#include "directory.h"
#include "forecast.h"
#include "matrix.h"
#include "platform.h"
#include "links.h"
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
/* The library's HC_API_VERSION: a program built with newer headers than the library it runs
 * with sees a smaller number. */
int hc_api_version(void);

#ifdef __cplusplus
}
#endif
#endif
