/* iozone.c — `fsgauge iozone`: the iozone suite (suite/iozone/iozone.c). */
#include "cmd/cmd.h"
#include "suite/suite.h"

int cmd_iozone(int argc, char **argv)
{
	return suite_main(&suite_iozone, argc, argv);
}
