/* run.c — `fsgauge run`: the run suite (suite/run/run.c). */
#include "cmd/cmd.h"
#include "suite/suite.h"

int cmd_run(int argc, char **argv)
{
	return suite_main(&suite_run, argc, argv);
}
