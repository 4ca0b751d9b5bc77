/* `hetcoll platform export --simgrid`: a hetcoll platform as a SimGrid platform (XML, version
 * 4.1) plus an SMPI hostfile (rank r = node r). See docs/formats.md, "SimGrid export". */
#ifndef HETCOLL_SIMGRID_EXPORT_H
#define HETCOLL_SIMGRID_EXPORT_H

#include <stdio.h>

#include "hetcoll/hetcoll.h"

typedef enum { SG_FORM_AUTO = 0, SG_FORM_CLUSTER, SG_FORM_MATRIX } sg_form_t;

typedef struct sg_export_opts {
    sg_form_t form; /* AUTO: cluster form when the platform has that structure, else matrix */
    /* Inter-cluster links (cluster form). 0: one FATPIPE link per ordered cluster pair (every
     * flow gets the pair's bandwidth, as in hetcoll's per-pair model). 1: SHARED links (the
     * flows between two sites share the pair's bandwidth, like a real WAN). */
    int shared_backbone;
    /* > 0: add one SHARED backbone link of this capacity (B/s) per ordered cluster pair behind
     * the per-pair FATPIPE link, so a single flow still gets the pair's bandwidth but the
     * flows between two sites together get at most this. */
    double backbone_bw;
} sg_export_opts_t;

/* Write the platform XML to `xml` and, when `hosts` is not NULL, the hostfile (one SimGrid
 * host name per line, node order). *form_out (may be NULL) receives the form written.
 * Returns an hc status (HC_ERR_VALUE with a detail when the forced cluster form does not fit). */
int sg_export(const hc_platform_t *p, const sg_export_opts_t *o, FILE *xml, FILE *hosts,
              sg_form_t *form_out);

#endif
