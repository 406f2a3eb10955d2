/* io.c — `fsgauge io`: the io suite, fio's options (suite/io/io.c). */
#include "cmd/cmd.h"
#include "suite/suite.h"

int cmd_io(int argc, char **argv)
{
	return suite_main(&suite_io, argc, argv);
}
