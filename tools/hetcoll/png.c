/* PNG output: the SVG is converted by librsvg's rsvg-convert (Debian package librsvg2-bin),
 * run as a child process. Why librsvg and not a renderer of our own or cairo directly: the
 * pictures are SVG first (diff-able, zoomable, tested with xmllint) and librsvg is the SVG
 * renderer of GNOME and Debian, packaged and maintained, with text layout through Pango; cairo
 * alone would need a second drawing path for every picture. Running the tool (rather than
 * linking librsvg) keeps the CLI's only link dependency the hetcoll library. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pictures.h"

extern char **environ;

#define RSVG "rsvg-convert"

int cli_png_check(void)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    const char *p = path;
    while (*p) {
        const char *colon = strchr(p, ':');
        size_t n = colon ? (size_t)(colon - p) : strlen(p);
        char buf[4096];
        if (n > 0 && n + sizeof RSVG + 1 < sizeof buf) {
            memcpy(buf, p, n);
            snprintf(buf + n, sizeof buf - n, "/%s", RSVG);
            if (access(buf, X_OK) == 0)
                return CLI_OK;
        }
        if (!colon)
            break;
        p = colon + 1;
    }
    return cli_error("--png: %s not found on the PATH (install the Debian package librsvg2-bin)",
                     RSVG);
}

int cli_svg_to_png(const char *svg_path)
{
    size_t n = strlen(svg_path);
    char *png = malloc(n + 5);
    if (!png)
        return cli_error("out of memory");
    memcpy(png, svg_path, n + 1);
    if (n >= 4 && strcmp(png + n - 4, ".svg") == 0)
        png[n - 4] = '\0';
    strcat(png, ".png");
    char *argv[] = {RSVG, "--background-color=white", "-o", png, (char *)svg_path, NULL};
    pid_t pid;
    int rc = posix_spawnp(&pid, RSVG, NULL, NULL, argv, environ);
    if (rc != 0) {
        cli_error("%s: cannot run %s (Debian package librsvg2-bin): %s", png, RSVG, strerror(rc));
        free(png);
        return CLI_ERROR;
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR) {
            cli_error("%s: waiting for %s: %s", png, RSVG, strerror(errno));
            free(png);
            return CLI_ERROR;
        }
    }
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        cli_error("%s: %s failed on %s (%s %d)", png, RSVG, svg_path,
                  WIFEXITED(st) ? "exit status" : "signal",
                  WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
        free(png);
        return CLI_ERROR;
    }
    free(png);
    return CLI_OK;
}
