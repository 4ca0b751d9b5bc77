/* The algorithm registry, generated from algos.def (prototypes and table from one list). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../core/internal.h"
#include "algos.h"

static const hc_algo_info_t table[] = {
#define HC_ALGO(coll, ident, name, flags, max_nodes, desc, paper)                                  \
    {HC_COLL_##coll, name, desc, paper, hc__algo_##ident, flags, max_nodes},
#include "algos.def"
#undef HC_ALGO
};

size_t hc_algo_count(void)
{
    return sizeof table / sizeof table[0];
}

const hc_algo_info_t *hc_algo_get(size_t i)
{
    return i < hc_algo_count() ? &table[i] : NULL;
}

void hc_algo_names(hc_coll_t coll, char *buf, size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    for (size_t i = 0; i < hc_algo_count(); i++) {
        if (table[i].coll != coll)
            continue;
        int w = snprintf(buf + used, len > used ? len - used : 0, "%s%s", used ? ", " : "",
                         table[i].name);
        if (w < 0 || (size_t)w >= (len > used ? len - used : 0))
            break;
        used += (size_t)w;
    }
}

/* Former names of renamed algorithms, still accepted by hc_algo_find (so by the CLI's --algo
 * and the runtime's HETCOLL_ALGO_*): "ecef-laT" differed from "ecef-lat" by case only. */
static const struct {
    hc_coll_t coll;
    const char *alias, *name;
} aliases[] = {
    {HC_COLL_BCAST, "ecef-laT", "ecef-lamax"},
};

int hc_algo_find(hc_coll_t coll, const char *name, const hc_algo_info_t **out)
{
    for (size_t i = 0; i < hc_algo_count(); i++) {
        if (table[i].coll == coll && strcmp(table[i].name, name) == 0) {
            *out = &table[i];
            return HC_OK;
        }
    }
    for (size_t a = 0; a < sizeof aliases / sizeof aliases[0]; a++)
        if (aliases[a].coll == coll && strcmp(aliases[a].alias, name) == 0)
            return hc_algo_find(coll, aliases[a].name, out);
    char names[1024];
    hc_algo_names(coll, names, sizeof names);
    return hc__error(HC_ERR_UNKNOWN, "unknown %s algorithm '%s' (valid: %s)", hc_coll_name(coll),
                     name, names);
}

void hc_algo_opts_init(hc_algo_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = (uint32_t)sizeof *o;
    o->seed = 1;
    o->hierarchy = -1;
}

int hc_schedule_compute(const hc_problem_t *pb, const char *algo, const hc_algo_opts_t *opts,
                        hc_schedule_t **out)
{
    *out = NULL;
    const hc_algo_info_t *info;
    HC__TRY(hc_problem_check(pb));
    HC__TRY(hc_algo_find(pb->coll, algo, &info));
    hc_algo_opts_t o; /* the caller's options read up to its struct_size */
    hc_algo_opts_init(&o);
    if (opts)
        HC__TRY(hc__opts_read(&o, sizeof o, opts, "hc_algo_opts_t"));
    opts = &o;
    hc_schedule_t *s = NULL;
    int rc = info->fn(pb, opts, &s);
    if (rc != HC_OK) {
        hc_schedule_destroy(s);
        return rc;
    }
    /* `auto`-style algorithms name the winner themselves; keep what they set. */
    if (s->algorithm[0] == '\0')
        snprintf(s->algorithm, sizeof s->algorithm, "%s", info->name);
    /* One bound per problem (the strongest valid for every schedule of it), in every schedule,
     * whatever the algorithm computed for itself. */
    double lb;
    rc = hc_lower_bound(pb, &lb);
    if (rc != HC_OK) {
        hc_schedule_destroy(s);
        return rc;
    }
    s->lower_bound = lb;
    hc_schedule_finish(s);
    *out = s;
    return HC_OK;
}

const char *hc_version(void)
{
    return HETCOLL_VERSION_STRING;
}

int hc_api_version(void)
{
    return HC_API_VERSION;
}
