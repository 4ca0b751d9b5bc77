/* `hetcoll probe` and `hetcoll monitor`: the MPI parts live in the separate executable
 * `hetcoll-mpi` (src/mpi, built only when MPI is found), so that this CLI never links MPI.
 * These subcommands exec `hetcoll-mpi` from the directory of this binary with the same
 * arguments; under mpirun, every rank execs it in place and MPI_Init sees mpirun's
 * environment, so `mpirun -np 8 hetcoll probe ...` works. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int cmd_probe(int argc, char **argv);
int cmd_monitor(int argc, char **argv);

static int exec_mpi_tool(int argc, char **argv)
{
    char self[4096], tool[4200];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    int found = 0;
    if (n > 0) {
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        if (slash) {
            *slash = '\0';
            snprintf(tool, sizeof tool, "%s/hetcoll-mpi", self);
            found = access(tool, X_OK) == 0;
        }
    }
    if (found) {
        char **args = calloc((size_t)argc + 2, sizeof *args);
        if (!args)
            return cli_error("out of memory");
        args[0] = tool;
        for (int i = 0; i < argc; i++)
            args[i + 1] = argv[i];
        fflush(NULL);
        execv(tool, args);
        int e = errno;
        free(args);
        return cli_error("%s: cannot run it: %s", tool, strerror(e));
    }
    fprintf(stderr,
            "hetcoll: '%s' needs the MPI tool 'hetcoll-mpi', which is not installed next to "
            "this binary\n"
            "hetcoll: (it is built when CMake finds MPI). Run it as:\n"
            "hetcoll:   mpirun -np P hetcoll-mpi %s [options]   (see 'hetcoll-mpi %s --help')\n",
            argv[0], argv[0], argv[0]);
    return CLI_ERROR;
}

int cmd_probe(int argc, char **argv)
{
    return exec_mpi_tool(argc, argv);
}

int cmd_monitor(int argc, char **argv)
{
    return exec_mpi_tool(argc, argv);
}
