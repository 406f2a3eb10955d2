/*
 * devcheck.c — `fsgauge devcheck DEVICE [--write] [--allow-write-device]
 * [--force-destroy-data]`: say what fsgauge knows about a block device and
 * whether a suite would be allowed to read or write it, by the same
 * checks (util/blockdev.c) every device-capable suite applies.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "util/blockdev.h"
#include "util/util.h"

static void devcheck_usage(FILE *f)
{
	fprintf(f, "usage: fsgauge devcheck DEVICE [options]\n"
		   "\n"
		   "Shows whether DEVICE is mounted, used as swap or by another driver, and\n"
		   "carries a file-system or partition-table signature, then applies the rules\n"
		   "every suite applies before touching a device.\n"
		   "\n"
		   "options:\n"
		   "      --write                check for writing (default: reading)\n"
		   "      --allow-write-device   allow writing to a block device\n"
		   "      --force-destroy-data   allow it even when mounted, in use or holding data\n"
		   "  -h, --help                 this help\n"
		   "\n"
		   "exit status: 0 allowed, 2 refused or usage error, 3 cannot inspect or open\n"
		   "the device (a mounted device cannot be opened for writing even with\n"
		   "--force-destroy-data: the kernel refuses the exclusive open).\n");
}

int cmd_devcheck(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "write", no_argument, NULL, 'w' },
		{ "allow-write-device", no_argument, NULL, 'A' },
		{ "force-destroy-data", no_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct blockdev_policy p = { 0 };
	struct blockdev_info bi;
	const char *dev;
	int c, ret;

	optind = 0; /* 0, not 1: glibc then also forgets a half-parsed option bundle */
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
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
		case 'h':
			devcheck_usage(stdout);
			return EXIT_OK;
		default:
			fprintf(stderr, "try 'fsgauge devcheck --help'\n");
			return EXIT_USAGE;
		}
	}
	if (optind + 1 != argc) {
		msg_err("devcheck needs exactly one device");
		return EXIT_USAGE;
	}
	dev = argv[optind];
	ret = blockdev_inspect(dev, &bi);
	if (ret == -ENOTBLK) {
		msg_err("'%s' is not a block device", dev);
		return EXIT_USAGE;
	}
	if (ret < 0) {
		err_errno(ret, "cannot inspect '%s'", dev);
		return EXIT_SYSTEM;
	}
	printf("device: %s (%u:%u)\n", dev, major(bi.rdev), minor(bi.rdev));
	printf("size: %llu\n", (unsigned long long)bi.size);
	printf("mounted: %s%s%s\n", bi.mounted ? "yes, on " : "no", bi.mounted ? bi.mountpoint : "",
	       "");
	printf("swap: %s\n", bi.swap ? "yes" : "no");
	printf("holder: %s\n", bi.held ? bi.holder : "none");
	printf("signature: %s\n", bi.has_signature > 0 ? bi.signature
				  : bi.has_signature == 0 ? "none"
							  : "unknown (cannot read the device)");
	fflush(stdout);
	if (blockdev_check(dev, &p) < 0) {
		printf("%s: refused\n", p.write ? "write" : "read");
		return EXIT_USAGE;
	}
	/* the checks passed: the open itself (O_EXCL for writing) is the
	 * last guard, as it is for the suites; nothing is read or written */
	ret = blockdev_open(dev, &p, 0);
	if (ret < 0) {
		printf("%s: refused at open\n", p.write ? "write" : "read");
		return EXIT_SYSTEM;
	}
	close(ret);
	printf("%s: allowed\n", p.write ? "write" : "read");
	return EXIT_OK;
}
