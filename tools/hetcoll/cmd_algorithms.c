/* `hetcoll algorithms`: the registry as a table. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* Display width of a UTF-8 string (continuation bytes take no column). */
static size_t width_of(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static void cell(const char *s, size_t w)
{
    fputs(s, stdout);
    for (size_t i = width_of(s); i < w + 1; i++)
        putchar(' ');
}

static void help(FILE *f)
{
    fprintf(f,
            "Usage: hetcoll algorithms [--collective C]\n\n"
            "List the registered algorithms: collective, name, description, source paper.\n\n"
            "Options:\n"
            "  -c, --collective C   only alltoall, bcast, reduce or redistribute (default: all)\n"
            "  -h, --help           this help\n\n"
            "Example:\n"
            "  hetcoll algorithms --collective bcast\n");
}

int cmd_algorithms(int argc, char **argv)
{
    static const struct option longopts[] = {{"collective", required_argument, NULL, 'c'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    const char *cmd = "algorithms";
    int c, only = -1;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":c:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'c': {
            hc_coll_t coll;
            if (hc_coll_parse(optarg, &coll) != HC_OK)
                return cli_value_error(cmd,
                                       "unknown collective '%s' (valid: alltoall, bcast, reduce, "
                                       "redistribute)",
                                       optarg);
            only = (int)coll;
            break;
        }
        case 'h':
            help(stdout);
            return CLI_OK;
        default:
            return cli_bad_option(cmd, c, argv);
        }
    }
    if (optind < argc)
        return cli_usage_error(cmd, "unexpected argument '%s'", argv[optind]);
    size_t wname = 4, wpaper = 5;
    for (size_t i = 0; i < hc_algo_count(); i++) {
        const hc_algo_info_t *a = hc_algo_get(i);
        if (width_of(a->name) > wname)
            wname = width_of(a->name);
        if (width_of(a->paper) > wpaper)
            wpaper = width_of(a->paper);
    }
    cell("COLLECTIVE", 12);
    cell("NAME", wname);
    cell("PAPER", wpaper);
    puts("DESCRIPTION");
    for (int coll = 0; coll < HC_COLL_COUNT; coll++) {
        if (only >= 0 && coll != only)
            continue;
        for (size_t i = 0; i < hc_algo_count(); i++) {
            const hc_algo_info_t *a = hc_algo_get(i);
            if ((int)a->coll != coll)
                continue;
            cell(hc_coll_name(a->coll), 12);
            cell(a->name, wname);
            cell(a->paper, wpaper);
            puts(a->description);
        }
    }
    return CLI_OK;
}
