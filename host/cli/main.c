/* main.c - the chunkfill command line: the command table and main(). Each row names a
 * command, the function that runs it (in the file of its family), the line of
 * `chunkfill --help` and the text of `chunkfill NAME --help`. A client of
 * include/chunkfill.h only (cli.h lists the files).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

const cli_command cli_commands[] = {
    {"sample", cmd_sample, "evaluate a density function at block positions (single-point path)", usage_sample},
    {"fill", cmd_fill, "fill chunk volumes (vanilla's chunk fill) into a NumPy .npy file", usage_fill},
    {"biome", cmd_biome, "biome ids at quarts, blocks, a 1:4 grid (fill --biomes: the biomes of chunks)", usage_biome},
    {"structures", cmd_structures, "structure starts of an area from the packs' structure sets (JSON lines)", usage_structures},
    {"locate", cmd_locate, "the start of a structure nearest to a point, as the game's /locate structure (JSON)", usage_locate},
    {"spawn", cmd_spawn, "the 1.18+ climate spawn search's point of a seed (JSON)", usage_spawn},
    {"pregen", cmd_pregen, "fill an area into region files (Anvil .mca or .npy) with a manifest (MPI: chunkfill-mpi)", usage_pregen},
    {"plan", cmd_plan, "print the fill plan of a pack (stages, node counts, cache classes)", usage_plan},
    {"render", cmd_render, "draw a shaded-relief map of the exact terrain surface (PNG)", usage_render},
    {"slice", cmd_slice, "draw a vertical cross-section of the density (PNG)", usage_slice},
    {"tiles", cmd_tiles, "write a pyramid of map tiles and a viewer (DIR/L/Z/X/Y.png, DIR/index.html)", usage_tiles},
    {"columns", cmd_columns, "per-column map data at a stride (height, top block, biome, fluid) into a .npy", usage_columns},
    {"at", cmd_at, "what is at a block column: height, block, biome, fluid (as /at and columns)", usage_at},
    {"emit", cmd_emit, "print the generated OpenCL C program of a pack", usage_emit},
    {"check", cmd_check, "fill on an OpenCL device and on the CPU and compare every block", usage_check},
    {"devices", cmd_devices, "list the OpenCL devices", usage_devices},
    {"serve", cmd_serve, "answer fill requests over TCP or a Unix socket (host/net/PROTOCOL.md)", usage_serve},
    {"info", cmd_info, "compile a pack and print graph statistics", usage_info},
    {"nodes", cmd_nodes, "list the density function node kinds", usage_nodes},
    {0},
};

#ifndef CF_VERSION
#define CF_VERSION "unknown"
#endif

static void usage_main(FILE *f)
{
    fputs("usage: chunkfill COMMAND [OPTIONS]\ncommands:\n", f);
    for (const cli_command *c = cli_commands; c->name; c++) fprintf(f, "  %-8s %s\n", c->name, c->summary);
    fputs("Run 'chunkfill COMMAND --help' for the options of a command; 'chunkfill --version' for the version.\n", f);
}

int main(int argc, char **argv)
{
    if (argc < 2) return usage_main(stderr), 2;
    const char *c = argv[1];
    if (strcmp(c, "help") == 0 && argc == 3) { /* chunkfill help CMD: the command's help, as CMD --help */
        for (const cli_command *k = cli_commands; k->name; k++)
            if (strcmp(argv[2], k->name) == 0) {
                char *args[] = {argv[0], argv[2], (char *)"--help", NULL};
                cli_command_name = k->name;
                return k->run(3, args);
            }
        fprintf(stderr, "chunkfill: help: unknown command '%s' (see chunkfill --help)\n", argv[2]);
        return 2;
    }
    if (strcmp(c, "--help") == 0 || strcmp(c, "-h") == 0 || strcmp(c, "help") == 0) return usage_main(stdout), 0;
    if (strcmp(c, "--version") == 0) return printf("chunkfill %s\n", CF_VERSION), fflush(stdout) != 0;
    const char *names[64];
    size_t n = 0;
    for (const cli_command *k = cli_commands; k->name; k++) {
        if (strcmp(c, k->name) == 0) {
            cli_command_name = k->name;
            return k->run(argc, argv);
        }
        if (n < 62) names[n++] = k->name;
    }
    names[n++] = "--help", names[n++] = "--version";
    const char *near = cli_near(c, names, n);
    if (near && c[0] == '-') fprintf(stderr, "chunkfill: unknown option '%s'; did you mean %s? (see chunkfill --help)\n", c, near);
    else if (near) fprintf(stderr, "chunkfill: unknown command '%s'; did you mean %s? (see chunkfill --help)\n", c, near);
    else fprintf(stderr, "chunkfill: unknown command '%s' (see chunkfill --help)\n", c);
    return 2;
}
