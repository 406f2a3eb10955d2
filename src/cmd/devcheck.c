/*
 * devcheck.c — `fsgauge devcheck DEVICE [--write] [--allow-write-device]
 * [--force-destroy-data]`: say what fsgauge knows about a block device and
 * whether a suite would be allowed to read or write it, by the same
 * checks (util/blockdev.c) every device-capable suite applies.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "suite/options.h"
#include "util/blockdev.h"
#include "util/util.h"

static const struct suite_opt devcheck_opts[] = {
	{ "write", 0, 'w', OPTARG_NONE, NULL, "check for writing (default: reading)" },
	{ "allow-write-device", 0, 'A', OPTARG_NONE, NULL,
	  "with --write: allow writing to a block device" },
	{ "force-destroy-data", 0, 'F', OPTARG_NONE, NULL,
	  "with --write: allow it even when mounted, in use or\nholding data" },
	{ "help", 'h', 'h', OPTARG_NONE, NULL, "this help" },
	{ 0 },
};

static void devcheck_usage(FILE *f)
{
	fprintf(f, "usage: fsgauge devcheck DEVICE [options]\n"
		   "\n"
		   "Shows whether DEVICE is mounted, used as swap or by another driver, and\n"
		   "carries a file-system or partition-table signature, then applies the rules\n"
		   "every suite applies before touching a device.\n"
		   "\n"
		   "options:\n");
	opt_help_table(f, devcheck_opts);
	fprintf(f, "\n"
		   "The size is 'unknown' when the device cannot be opened for reading.\n"
		   "\n"
		   "exit status: 0 allowed, 2 refused or usage error, 3 cannot inspect or open\n"
		   "the device (a mounted device cannot be opened for writing even with\n"
		   "--force-destroy-data: the kernel refuses the exclusive open).\n");
}

int cmd_devcheck(int argc, char **argv)
{
	struct opt_parser op;
	const char *arg;
	struct blockdev_policy p = { 0 };
	struct blockdev_info bi;
	struct stat st;
	const char *dev;
	int c, ret, anchor, rfd;

	opt_parser_init(&op, argv[0], 0, devcheck_opts, NULL, 0);
	while ((c = opt_next(&op, argc, argv, &arg)) > 0) {
		switch (c) {
		case 'w':
			p.write = 1;
			break;
		case 'A':
			p.allow_write = 1;
			break;
		case 'F':
			p.force_destroy = 1;
			break;
		default: /* 'h' */
			opt_parser_free(&op);
			devcheck_usage(stdout);
			return EXIT_OK;
		}
	}
	opt_parser_free(&op);
	if (c < 0)
		return EXIT_USAGE;
	if ((p.allow_write || p.force_destroy) && !p.write) {
		const char *which = !p.force_destroy ? "--allow-write-device"
				    : !p.allow_write ? "--force-destroy-data"
						     : "--allow-write-device and --force-destroy-data";

		msg_err("%s only appl%s with --write (devcheck checks reading by default)", which,
			p.allow_write && p.force_destroy ? "y" : "ies");
		return EXIT_USAGE;
	}
	if (optind + 1 != argc) {
		msg_err("devcheck needs exactly one device");
		return EXIT_USAGE;
	}
	dev = argv[optind];
	if (!*dev) {
		msg_err("devcheck needs a device, not an empty name");
		return EXIT_USAGE;
	}
	/* what is shown and what is decided are about one device: both come
	 * from this anchor, whatever the path names meanwhile */
	anchor = blockdev_anchor(dev, &st);
	if (anchor == -ENOTBLK) {
		msg_err("'%s' is not a block device", dev);
		return EXIT_USAGE;
	}
	if (anchor < 0) {
		err_errno(anchor, "cannot inspect '%s'", dev);
		return EXIT_SYSTEM;
	}
	rfd = blockdev_reopen(anchor, O_RDONLY);
	ret = blockdev_inspect(rfd >= 0 ? rfd : anchor, &bi);
	if (rfd >= 0)
		close(rfd);
	if (ret < 0) {
		err_errno(ret, "cannot inspect '%s'", dev);
		close(anchor);
		return EXIT_SYSTEM;
	}
	printf("device: %s (%u:%u)\n", dev, major(bi.rdev), minor(bi.rdev));
	if (bi.size_known)
		printf("size: %llu\n", (unsigned long long)bi.size);
	else
		printf("size: unknown\n");
	printf("mounted: %s%s\n", bi.mounted ? "yes, on " : "no", bi.mounted ? bi.mountpoint : "");
	printf("swap: %s\n", bi.swap ? "yes" : "no");
	printf("holder: %s\n", bi.held ? bi.holder : "none");
	if (bi.has_signature > 0)
		printf("signature: %s\n", bi.signature);
	else if (!bi.has_signature)
		printf("signature: none\n");
	else if (rfd < 0)
		printf("signature: unknown (cannot read the device: %s)\n", strerror(-rfd));
	else
		printf("signature: unknown (cannot read the device)\n");
	fflush(stdout);
	/* the same open (O_EXCL for writing) and checks as the suites';
	 * nothing is read or written */
	ret = blockdev_open_anchor(anchor, dev, &p, 0);
	close(anchor);
	if (ret == BLOCKDEV_REFUSED) {
		printf("%s: refused\n", p.write ? "write" : "read");
		return EXIT_USAGE;
	}
	if (ret < 0) {
		printf("%s: refused at open\n", p.write ? "write" : "read");
		return EXIT_SYSTEM;
	}
	close(ret);
	printf("%s: allowed\n", p.write ? "write" : "read");
	return EXIT_OK;
}
