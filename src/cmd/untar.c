/* untar.c — `fsgauge untar`: the untar suite (suite/untar/untar.c). */
#include "cmd/cmd.h"
#include "suite/suite.h"

int cmd_untar(int argc, char **argv)
{
	return suite_main(&suite_untar, argc, argv);
}
