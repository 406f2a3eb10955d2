/* verify.c — `fsgauge verify`: the verify suite (suite/verify/verify.c). */
#include "cmd/cmd.h"
#include "suite/suite.h"

int cmd_verify(int argc, char **argv)
{
	return suite_main(&suite_verify, argc, argv);
}
