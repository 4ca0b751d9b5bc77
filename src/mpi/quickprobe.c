/* The quick probe of hc_comm_create when no platform is given: the link probe
 * (probe_links.c, the same as `hetcoll-mpi probe --links` with its defaults), so that the
 * runtime plans with the sites, their shared uplinks and the gap tables of the site pairs. It
 * costs O(C) rounds of small messages and O(C^2) timed transfers for C sites, not a transfer per
 * pair of ranks. Every rank builds the same platform from the same (broadcast) measurements. */
#include "mpi_internal.h"
#include "netprobe.h"

int hc__mpi_quick_probe(MPI_Comm comm, hc_platform_t **out)
{
    hc__links_opts_t o;
    hc__links_opts_init(&o);
    hc__links_result_t r;
    int rc = hc__links_probe_run(comm, &o, &r);
    if (rc == HC_OK)
        rc = hc__links_to_platform(&r, out);
    hc__links_result_free(&r);
    return hc__mpi_err(rc);
}
