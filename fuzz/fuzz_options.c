/*
 * fuzz_options.c — libFuzzer harness for command-line parsing: the input
 * is split at newlines into arguments for `fsgauge run`, `list` or `show`
 * (chosen by the first byte).  No crash, leak or hang on any command line.
 *
 * Nothing may touch storage: every argument that could name a target
 * directory (-d and its bundles, --dir and its abbreviations, "dir=" in
 * -s, "--") or a path is dropped and "-d /nonexistent/fsgauge-fuzz" is
 * appended, so a command line that parses stops at the missing target.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

const struct command commands[] = {
	{ "run", cmd_run, "" },
	{ "list", cmd_list, "" },
	{ "show", cmd_show, "" },
	{ NULL, NULL, NULL },
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	/* keep stdout quiet: usage text for every input (fuzz/run.sh also
	 * passes -close_fd_mask to silence the commands' stderr; libFuzzer's
	 * and the sanitizers' reports still get through) */
	if (!getenv("FUZZ_VERBOSE") && !freopen("/dev/null", "w", stdout))
		return 0;
	return 0;
}

static int unsafe(const char *a)
{
	/* "dir" anywhere: --dir, -s dir=..., -s $dir=...; a '/' anywhere: a
	 * workload path could be /dev/zero or a FIFO (parsing is fuzzed by
	 * fuzz_workload; here only the command line matters) */
	if (!strcmp(a, "--") || strstr(a, "dir") || strchr(a, '/'))
		return 1;
	/* -d, or a bundle of short options containing d */
	if (a[0] == '-' && a[1] != '-' && strchr(a, 'd'))
		return 1;
	/* --d, --di, --dir (getopt_long takes unambiguous abbreviations) */
	if (!strncmp(a, "--d", 3) && strncmp(a, "--da", 4) && strncmp(a, "--dr", 4))
		return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf, *argv[66];
	int argc = 0;
	const struct command *cmd;

	if (size < 1 || size > 4096)
		return 0;
	cmd = &commands[data[0] % 3];
	buf = malloc(size);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = 0;
	argv[argc++] = (char *)cmd->name;
	for (char *p = buf, *nl; p && argc < 62; p = nl) {
		nl = strchr(p, '\n');
		if (nl)
			*nl++ = 0;
		if (!unsafe(p))
			argv[argc++] = p;
	}
	if (cmd->fn == cmd_run) {
		argv[argc++] = "-d";
		argv[argc++] = "/nonexistent/fsgauge-fuzz";
	}
	argv[argc] = NULL;
	msg_quiet = 0;
	cmd->fn(argc, argv);
	free(buf);
	return 0;
}
