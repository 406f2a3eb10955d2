/* flowop.c — flowop type names; see workload.h. */
#include "workload/workload.h"

#include <string.h>

#include "util/util.h"

/* In enum order: flowop_type_name() indexes this table directly. */
static const char *const flowop_names[FO__COUNT] = {
	[FO_CREATEFILE] = "createfile",
	[FO_OPENFILE] = "openfile",
	[FO_CLOSEFILE] = "closefile",
	[FO_DELETEFILE] = "deletefile",
	[FO_STATFILE] = "statfile",
	[FO_RENAMEFILE] = "renamefile",
	[FO_MAKEDIR] = "makedir",
	[FO_REMOVEDIR] = "removedir",
	[FO_LISTDIR] = "listdir",
	[FO_READ] = "read",
	[FO_WRITE] = "write",
	[FO_READWHOLEFILE] = "readwholefile",
	[FO_WRITEWHOLEFILE] = "writewholefile",
	[FO_APPENDFILE] = "appendfile",
	[FO_APPENDFILERAND] = "appendfilerand",
	[FO_FSYNC] = "fsync",
	[FO_FSYNCSET] = "fsyncset",
	[FO_AIOWRITE] = "aiowrite",
	[FO_AIOWAIT] = "aiowait",
	[FO_HOG] = "hog",
	[FO_DELAY] = "delay",
	[FO_EVENTLIMIT] = "eventlimit",
	[FO_IOPSLIMIT] = "iopslimit",
	[FO_OPSLIMIT] = "opslimit",
	[FO_BWLIMIT] = "bwlimit",
	[FO_FINISHONCOUNT] = "finishoncount",
	[FO_FINISHONBYTES] = "finishonbytes",
	[FO_SEMBLOCK] = "semblock",
	[FO_SEMPOST] = "sempost",
	[FO_BLOCK] = "block",
	[FO_WAKEUP] = "wakeup",
	[FO_PRINT] = "print",
	[FO_TESTRANDVAR] = "testrandvar",
	[FO_COMPOSITE] = NULL, /* a composite has its own name */
	[FO_STONEWALL] = "stonewall",
	[FO_THREADDONE] = "threaddone",
	[FO_REPLAY] = "replay",
	[FO_PUTC] = "putc",
	[FO_GETC] = "getc",
	[FO_REWRITE] = "rewrite",
	[FO_SYNCFS] = "syncfs",
	[FO_RWMIX] = "rwmix",
};

const char *flowop_type_name(enum flowop_type t)
{
	if ((unsigned)t >= FO__COUNT)
		return NULL;
	return flowop_names[t];
}

int flowop_type_parse(const char *name)
{
	for (int i = 0; i < FO__COUNT; i++)
		if (flowop_names[i] && i != FO_REPLAY && strcmp(flowop_names[i], name) == 0)
			return i;
	return -1;
}
