/*
 * cmd.h — one thin cmd_<name>() per subcommand: parse options, build the
 * workload, run, write results.  Each returns an enum exit_code value;
 * only main.c and cmd/ exit.
 */
#ifndef FSGAUGE_CMD_H
#define FSGAUGE_CMD_H

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary; /* one line for `fsgauge --help` */
};

/* The table of subcommands, terminated by a NULL name (main.c). */
extern const struct command commands[];

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_devcheck(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_iozone(int argc, char **argv);
int cmd_io(int argc, char **argv);
int cmd_untar(int argc, char **argv);
int cmd_bonnie(int argc, char **argv);
int cmd_clean(int argc, char **argv);

#endif
