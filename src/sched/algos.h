/* Prototypes of the registered algorithms, generated from algos.def: every algorithm file
 * includes this header, so a definition whose signature drifts from the registry's is a compile
 * error. Internal, not installed. */
#ifndef HETCOLL_ALGOS_H
#define HETCOLL_ALGOS_H

#include "hetcoll/algo.h"

#define HC_ALGO(coll, ident, name, flags, max_nodes, desc, paper)                                  \
    int hc__algo_##ident(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out);
#include "algos.def"
#undef HC_ALGO

#endif
