/* bonnie.c — `fsgauge bonnie`: the bonnie suite (suite/bonnie/bonnie.c). */
#include "cmd/cmd.h"
#include "suite/suite.h"

int cmd_bonnie(int argc, char **argv)
{
	return suite_main(&suite_bonnie, argc, argv);
}
