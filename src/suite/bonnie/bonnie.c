/*
 * bonnie.c — `fsgauge bonnie`: bonnie++'s test suite on the fsgauge
 * engine, with bonnie++ 1.03/1.9x option meanings.
 *
 * Every bonnie++ test is one phase of threads running flowops through
 * runner_phase() (nothing here does I/O on the test files):
 *
 *   putc        createfile; putc x size/chunk; closefile
 *   put_block   deletefile; createfile; write x size/chunk; fsync; closefile
 *   rewrite     openfile; rewrite x size/chunk; fsync; closefile
 *   getc        openfile; getc x size/chunk; closefile
 *   get_block   openfile; read x size/chunk; closefile
 *   seeks       `seekers` threads: openfile; rewrite random value=10 x
 *               seeks/seekers; fsync; closefile
 *   seq_create  files x (createfile ordered; writewholefile; closefile),
 *               with -b an fsync dirsync (file, then directory) before
 *               the close
 *   seq_stat    files x (statfile ordered readdir), or with sizes
 *               (openfile ordered readdir; statfile fd; readwholefile;
 *               closefile)
 *   seq_del     files x deletefile ordered readdir (with -b: dirsync)
 *               (create and delete then syncfs, as bonnie++'s sync())
 *   ran_*       the same with `ordered random` (not readdir)
 *
 * each thread ending with `threaddone` (the file tests' per-file lists are
 * composites, timed as one operation per file),
 * on one chunked file (1 GiB chunk files, as bonnie++'s) and one fileset
 * of n*1024 files.  The figures (K/sec or /sec, %CP = process CPU over
 * elapsed time, the longest operation) are read back from each phase and
 * written as bonnie++'s table and CSV line by output/bonnie_fmt.c, and
 * the whole result as fsgauge's JSON.  Options and differences from
 * bonnie++: docs/bonnie.md.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/common.h"
#include "suite/bonnie/format.h"
#include "output/output.h"
#include "runner/fileset.h"
#include "runner/preflight.h"
#include "runner/runner.h"
#include "runner/verify.h"
#include "stats/env.h"
#include "util/outfile.h"
#include "util/rundir.h"
#include "util/size.h"
#include "util/util.h"
#include "workload/build.h"

#define MIB ((uint64_t)1024 * 1024)
#define GIB (MIB * 1024)
/* bonnie++'s file size without RAM to go by, and its largest chunk file */
#define DEFAULT_SIZE_MIB 300
#define CHUNK_FILE_SIZE GIB
/* a phase ends when its threads are done; this only bounds a runaway one */
#define PHASE_LIMIT_SECONDS 1e7
/* the System V semaphore set of -p/-y (bonnie++ uses 4711; ours is apart
 * so that the two never wait for each other by accident) */
#define DEFAULT_SEM_KEY 0x66736762 /* "fsgb" */

struct bonnie_opts {
	const char *dir;
	uint64_t size;	     /* bytes; 0: no I/O tests */
	int size_given;
	uint64_t chunk;
	uint64_t chunk_file; /* bytes per chunk file of the data file */
	unsigned seeks, seekers;
	uint64_t char_size;  /* per-character tests; 0: skipped */
	int char_given;	     /* -f SIZE */
	int fast;	     /* -f: no per-character tests */
	unsigned files;	     /* x 1024 */
	int64_t max_size, min_size;
	unsigned dirs;
	uint64_t file_chunk;
	uint64_t ram;	     /* bytes; 0: no check */
	int sync;	     /* -b */
	int direct;	     /* -D */
	unsigned count;	     /* -x */
	int quiet;
	const char *machine;
	const char *user, *group;
	int sem_procs;	     /* -p N (0: not given) */
	int sem_wait;	     /* -y: 's' semaphores, 'p' prompt, 0 none */
	key_t sem_key;
	enum bonnie_layout layout;
	enum bonnie_csv csv;
	int csv_given;
	const char *json, *label;
	int keep;
	uint64_t asked_chunk, asked_file_chunk; /* before --verify raised them */
	struct run_opts ro;
	char machine_buf[256];
};

static void bonnie_usage(FILE *f)
{
	fprintf(f,
		"usage: fsgauge bonnie [-d dir] [-s size[:chunk[:seeks[:seekers]]]]\n"
		"                      [-n number[:max[:min[:dirs[:chunk]]]]] [-m machine]\n"
		"                      [-r ram] [-x count] [-u user[:group]] [-g group] [-q]\n"
		"                      [-f [size]] [-b] [-D] [-z seed] [-p procs | -y [s|p]]\n"
		"                      [--format 103|19|64] [--csv 103|197|198|none]\n"
		"                      [--json FILE] [--label TEXT] [measurement options]\n"
		"\n"
		"Runs bonnie++'s tests on the fsgauge engine, inside a fresh run directory\n"
		"in the target (removed afterwards), and prints bonnie++'s table and CSV line.\n"
		"\n"
		"options (bonnie++'s):\n"
		"  -d DIR       directory to test in (default: the current directory)\n"
		"  -s SIZE[:CHUNK[:SEEKS[:SEEKERS]]]\n"
		"               file size for the I/O tests, MiB unless a unit is given\n"
		"               (default: twice the RAM, else %d MiB; 0 skips them); block\n"
		"               size, a power of two from 256 to 1m (default 8k); seeks\n"
		"               (default %d) and seeker threads (default %d)\n"
		"  -n NUMBER[:MAX[:MIN[:DIRS[:CHUNK]]]]\n"
		"               files for the create tests in units of 1024 (default 16;\n"
		"               0 skips them), their largest and smallest size in bytes\n"
		"               (default 0), directories to spread them over, write size\n"
		"  -r RAM       RAM in MiB: refuse a file size under twice this (default:\n"
		"               this machine's RAM; 0 disables the check)\n"
		"  -f [SIZE]    skip the per-character tests; with SIZE, run them on SIZE\n"
		"               (MiB unless a unit is given) instead of the whole file\n"
		"  -b           no write buffering: the data file is opened with O_DSYNC,\n"
		"               so every write reaches the device; each created file is\n"
		"               fsynced, then its directory, and the directory after\n"
		"               each delete\n"
		"  -D           O_DIRECT for the block tests (block write, rewrite, block\n"
		"               read, seeks)\n"
		"  -x COUNT     run the tests COUNT times; CSV lines only\n"
		"  -q           quiet: the CSV line alone on stdout, the table on stderr\n"
		"  -m NAME      machine name in the report (default: the host name)\n"
		"  -u USER[:GROUP], -g GROUP\n"
		"               when root, become this user (and group) before creating\n"
		"               anything\n"
		"  -z SEED      seed for every random choice (default 1)\n"
		"  -p PROCS     create the semaphores that let PROCS instances run each\n"
		"               test together, and exit ('-p -1' removes them)\n"
		"  -y [s|p]     wait before each test: for the other instances (s, the\n"
		"               default; see -p) or for Enter on stdin (p)\n"
		"\n"
		"fsgauge's options:\n"
		"      --format F     table layout: 103 (bonnie++ 1.03, default), 19 (1.9x,\n"
		"                     with latencies), 64 (bonnie-64: GB, M/sec)\n"
		"      --csv V        CSV line: 103, 197, 198 (what Debian's bon_csv2html\n"
		"                     reads), or none (default: 103 with --format 103, 198\n"
		"                     with 19, none with 64)\n"
		"      --json FILE    write the full result as JSON ('-': stdout, and the\n"
		"                     tables go to stderr)\n"
		"      --label TEXT   a label stored in the result\n"
		"      --engine NAME  I/O engine: psync (default), io_uring, null, or\n"
		"                     faulty:ENGINE:RULE (fault injection, docs/reliability.md)\n"
		"      --sem-key KEY  System V key of the -p/-y semaphores, 1 to 0xffffffff,\n"
		"                     decimal or 0x hex (default 0x%x)\n"
		"      --chunk-file SIZE\n"
		"                     split the data file in chunk files of SIZE bytes, a\n"
		"                     multiple of 4k (default 1g, as bonnie++)\n"
		"      --keep         keep the run directory and its files\n"
		"  -h, --help         this help\n"
		"\n",
		DEFAULT_SIZE_MIB, BONNIE_DEFAULT_SEEKS, BONNIE_DEFAULT_SEEKERS, DEFAULT_SEM_KEY);
	common_run_usage(f);
	fprintf(f, "\n"
		   "In bonnie: --repeat N is -x N; --direct is -D; --quiet is -q; --reuse\n"
		   "and --progress do not apply (every run makes its own files; bonnie\n"
		   "prints bonnie++'s progress lines).\n"
		   "\n"
		   "--verify stamps every block written (block write, putc, rewrite, seeks,\n"
		   "created files) with its file, offset in the whole file (chunk files\n"
		   "included), generation and checksum, and checks every block read (rewrite,\n"
		   "getc, block read, seeks, stat with sizes); rewrite and seeks write back\n"
		   "blocks stamped anew.  putc's file is not read back: block write replaces\n"
		   "it, as in bonnie++.  Block and write sizes under 4k are raised to 4k and\n"
		   "created files rounded up to whole 4 KiB blocks.  A mismatch is reported\n"
		   "with the (chunk) file and offset, stops the run and exits 1.\n"
		   "\n"
		   "exit status: 0 ok, 1 I/O or verify errors during the run, 2 usage error,\n"
		   "3 system error, 130 interrupted (what was measured is still printed).\n");
}

static int power_of_two_in(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v >= lo && v <= hi && (v & (v - 1)) == 0;
}

/* A small unsigned number ("5"); -1 on junk. */
static int parse_uint(const char *s, unsigned max, unsigned *out)
{
	uint64_t v;

	if (num_parse_u64(s, &v) < 0 || v > max)
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* Split "a:b:c" in place into at most n fields (missing ones NULL or
 * empty).  Returns the number of fields, or -1 when there are more. */
static int split_colons(char *s, char **f, int n)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		f[i] = NULL;
	for (;;) {
		char *colon = strchr(s, ':');

		if (k == n)
			return -1;
		f[k++] = s;
		if (!colon)
			return k;
		*colon = 0;
		s = colon + 1;
	}
}

static int parse_s(struct bonnie_opts *b, const char *arg)
{
	char buf[256], *f[4];
	int n;

	if (strlen(arg) >= sizeof(buf) || (n = split_colons(strcpy(buf, arg), f, 4)) < 0) {
		msg_err("invalid -s '%s' (expected size[:chunk[:seeks[:seekers]]])", arg);
		return -1;
	}
	if (size_parse_unit(f[0], MIB, &b->size) < 0) {
		msg_err("invalid -s size '%s' (expected MiB, or a size with a unit: 300, 2g)", f[0]);
		return -1;
	}
	b->size_given = 1;
	if (n > 1 && *f[1] && (size_parse(f[1], &b->chunk) < 0 ||
			       !power_of_two_in(b->chunk, 256, MIB))) {
		msg_err("invalid -s chunk size '%s' (expected a power of two from 256 to 1m)", f[1]);
		return -1;
	}
	if (n > 2 && *f[2] && (parse_uint(f[2], 1u << 30, &b->seeks) < 0 || !b->seeks)) {
		msg_err("invalid -s number of seeks '%s' (expected a positive integer)", f[2]);
		return -1;
	}
	if (n > 3 && *f[3] && (parse_uint(f[3], 1024, &b->seekers) < 0 || !b->seekers)) {
		msg_err("invalid -s number of seekers '%s' (expected 1 to 1024)", f[3]);
		return -1;
	}
	return 0;
}

static int parse_file_size(const char *s, int64_t *out, const char *what)
{
	uint64_t v;

	if (!strcmp(s, "-1") || !strcmp(s, "-2")) {
		msg_err("-n %s %s (hard or symbolic links instead of files) is not supported", what,
			s);
		return -1;
	}
	if (size_parse(s, &v) < 0 || v > (uint64_t)1 << 40) {
		msg_err("invalid -n %s size '%s' (expected bytes, or a size with a unit)", what, s);
		return -1;
	}
	*out = (int64_t)v;
	return 0;
}

static int parse_n(struct bonnie_opts *b, const char *arg)
{
	char buf[256], *f[5];
	int n;

	if (strlen(arg) >= sizeof(buf) || (n = split_colons(strcpy(buf, arg), f, 5)) < 0) {
		msg_err("invalid -n '%s' (expected number[:max[:min[:dirs[:chunk]]]])", arg);
		return -1;
	}
	if (parse_uint(f[0], 1u << 20, &b->files) < 0) {
		msg_err("invalid -n number '%s' (expected files in units of 1024: 0 to %u)", f[0],
			1u << 20);
		return -1;
	}
	if (n > 1 && *f[1] && parse_file_size(f[1], &b->max_size, "max") < 0)
		return -1;
	if (n > 2 && *f[2] && parse_file_size(f[2], &b->min_size, "min") < 0)
		return -1;
	if (n > 3 && *f[3] && (parse_uint(f[3], 1u << 20, &b->dirs) < 0 || !b->dirs)) {
		msg_err("invalid -n number of directories '%s' (expected a positive integer)", f[3]);
		return -1;
	}
	if (n > 4 && *f[4] && (size_parse(f[4], &b->file_chunk) < 0 ||
			       !power_of_two_in(b->file_chunk, 256, MIB))) {
		msg_err("invalid -n chunk size '%s' (expected a power of two from 256 to 1m)", f[4]);
		return -1;
	}
	return 0;
}

/* -f takes an optional size; "-f 20" as well as "-f20" (bonnie++ 1.9x
 * users write both), so a following word that is a size is its value. */
static int parse_f(struct bonnie_opts *b, const char *arg)
{
	b->char_given = 1;
	if (!arg) {
		b->fast = 1;
		return 0;
	}
	if (size_parse_unit(arg, MIB, &b->char_size) < 0) {
		msg_err("invalid -f size '%s' (expected MiB, or a size with a unit)", arg);
		return -1;
	}
	b->fast = b->char_size == 0;
	return 0;
}

static int looks_like_size(const char *s)
{
	return s && s[0] >= '0' && s[0] <= '9';
}

/* --- semaphores (-p/-y) ------------------------------------------------------ */

/* A --sem-key: the whole string, decimal or 0x hex, 1 to 0xffffffff (a
 * key_t is 32 bits; 0 is IPC_PRIVATE, a set no other instance can find).
 * 0 or -EINVAL. */
static int parse_sem_key(const char *s, key_t *key)
{
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *digits = hex ? s + 2 : s;
	unsigned long long v;
	char *end;

	if (!(hex ? isxdigit((unsigned char)*digits) : isdigit((unsigned char)*digits)))
		return -EINVAL;
	errno = 0;
	v = strtoull(digits, &end, hex ? 16 : 10);
	if (*end || errno == ERANGE || !v || v > 0xffffffffULL)
		return -EINVAL;
	*key = (key_t)(uint32_t)v;
	return 0;
}

union semun_arg {
	int val;
	struct semid_ds *buf;
	unsigned short *array;
};

/* -p N: a set of one semaphore per test, each at N; -p -1 removes it. */
static int sem_setup(key_t key, int procs)
{
	int id;

	if (procs < 0) {
		id = semget(key, 0, 0);
		if (id < 0 || semctl(id, 0, IPC_RMID) < 0) {
			err_errno(-errno, "cannot remove semaphore set 0x%x", (unsigned)key);
			return EXIT_SYSTEM;
		}
		return EXIT_OK;
	}
	unsigned short vals[BT__COUNT];
	union semun_arg a = { .array = vals };

	for (int i = 0; i < BT__COUNT; i++)
		vals[i] = (unsigned short)procs;
	/* 0666: instances that became another user (-u) use it too */
	id = semget(key, BT__COUNT, IPC_CREAT | 0666);
	if (id < 0 || semctl(id, 0, SETALL, a) < 0) {
		err_errno(-errno, "cannot create semaphore set 0x%x", (unsigned)key);
		return EXIT_SYSTEM;
	}
	return EXIT_OK;
}

/* Before test t: take one from its semaphore, then wait until every
 * instance has (the value reaches zero).  0, or -errno (-EINTR on a
 * signal). */
static int sem_sync(int id, int t)
{
	struct sembuf dec = { (unsigned short)t, -1, 0 }, zero = { (unsigned short)t, 0, 0 };

	if (semop(id, &dec, 1) < 0 || semop(id, &zero, 1) < 0)
		return -errno;
	return 0;
}

/* --- privileges (-u/-g) ------------------------------------------------------ */

static int lookup_group(const char *g, gid_t *out)
{
	struct group *gr = getgrnam(g);
	uint64_t v;

	if (gr) {
		*out = gr->gr_gid;
		return 0;
	}
	if (num_parse_u64(g, &v) == 0 && v < (uint64_t)(gid_t)-1) {
		*out = (gid_t)v;
		return 0;
	}
	msg_err("unknown group '%s'", g);
	return -1;
}

/* Resolve -u/-g as bonnie++ does (a user by name brings its primary
 * group; a number without a group gets group "nogroup") and become them.
 * Returns an exit code. */
static int drop_privileges(const char *user, const char *group, int quiet)
{
	struct passwd *pw = NULL;
	uid_t uid = geteuid();
	gid_t gid = getegid();
	uint64_t v;

	if (user) {
		pw = getpwnam(user);
		if (pw) {
			uid = pw->pw_uid;
			gid = pw->pw_gid;
		} else if (num_parse_u64(user, &v) == 0 && v < (uint64_t)(uid_t)-1) {
			uid = (uid_t)v;
			pw = getpwuid(uid);
			if (!group && lookup_group("nogroup", &gid) < 0)
				return EXIT_USAGE;
		} else {
			msg_err("unknown user '%s'", user);
			return EXIT_USAGE;
		}
	}
	if (group && lookup_group(group, &gid) < 0)
		return EXIT_USAGE;
	if (uid == geteuid() && gid == getegid())
		goto done;
	if (geteuid() != 0) {
		msg_err("cannot become uid %u, gid %u: -u and -g need root", (unsigned)uid,
			(unsigned)gid);
		return EXIT_USAGE;
	}
	if (setgroups(1, &gid) < 0 || setgid(gid) < 0 || setuid(uid) < 0) {
		err_errno(-errno, "cannot become uid %u, gid %u", (unsigned)uid, (unsigned)gid);
		return EXIT_SYSTEM;
	}
done:
	if (!quiet)
		fprintf(stderr, "Using uid:%u, gid:%u.\n", (unsigned)geteuid(), (unsigned)getegid());
	return EXIT_OK;
}

/* --- options ----------------------------------------------------------------- */

enum {
	OPT_BON_FORMAT = 0x2000,
	OPT_BON_CSV,
	OPT_BON_JSON,
	OPT_BON_LABEL,
	OPT_BON_ENGINE,
	OPT_BON_SEMKEY,
	OPT_BON_KEEP,
	OPT_BON_CHUNKFILE,
};

static int parse_options(struct bonnie_opts *b, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, OPT_BON_FORMAT },
		{ "csv", required_argument, NULL, OPT_BON_CSV },
		{ "json", required_argument, NULL, OPT_BON_JSON },
		{ "label", required_argument, NULL, OPT_BON_LABEL },
		{ "engine", required_argument, NULL, OPT_BON_ENGINE },
		{ "sem-key", required_argument, NULL, OPT_BON_SEMKEY },
		{ "keep", no_argument, NULL, OPT_BON_KEEP },
		{ "chunk-file", required_argument, NULL, OPT_BON_CHUNKFILE },
		{ "help", no_argument, NULL, 'h' },
		COMMON_RUN_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int c;

	optind = 1;
	/* '+': no permutation, so that "-f 20" can take the next word */
	while ((c = getopt_long(argc, argv, "+bd:f::g:hm:n:p:qr:s:u:x:y::z:D", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'b':
			b->sync = 1;
			break;
		case 'd':
			b->dir = optarg;
			break;
		case 'f':
			if (!optarg && looks_like_size(argv[optind]))
				optarg = argv[optind++];
			if (parse_f(b, optarg) < 0)
				return -1;
			break;
		case 'g':
			if (b->group) {
				msg_err("the group is given twice (-g, or -u user:group)");
				return -1;
			}
			b->group = optarg;
			break;
		case 'm':
			b->machine = optarg;
			break;
		case 'n':
			if (parse_n(b, optarg) < 0)
				return -1;
			break;
		case 'p':
			if (!strcmp(optarg, "-1")) {
				b->sem_procs = -1;
			} else if (num_parse_u64(optarg, &v) < 0 || v < 1 || v > 30000) {
				msg_err("invalid -p '%s' (expected a number of processes, or -1)", optarg);
				return -1;
			} else {
				b->sem_procs = (int)v;
			}
			break;
		case 'q':
			b->quiet = 1;
			break;
		case 'r':
			if (size_parse_unit(optarg, MIB, &b->ram) < 0) {
				msg_err("invalid -r '%s' (expected RAM in MiB, or a size with a unit; "
					"0 disables the check)",
					optarg);
				return -1;
			}
			break;
		case 's':
			if (parse_s(b, optarg) < 0)
				return -1;
			break;
		case 'u': {
			char *colon = strchr(optarg, ':');

			if (b->user) {
				msg_err("-u is given twice");
				return -1;
			}
			b->user = optarg;
			if (colon) {
				if (b->group) {
					msg_err("the group is given twice (-g, or -u user:group)");
					return -1;
				}
				*colon = 0;
				b->group = colon + 1;
			}
			if (!*b->user || (b->group && !*b->group)) {
				msg_err("invalid -u (expected user or user:group)");
				return -1;
			}
			break;
		}
		case 'x':
			if (parse_uint(optarg, 100000, &b->count) < 0 || !b->count) {
				msg_err("invalid -x '%s' (expected a number of runs, 1 or more)", optarg);
				return -1;
			}
			break;
		case 'y':
			if (!optarg && argv[optind] && (!strcmp(argv[optind], "s") ||
							!strcmp(argv[optind], "p")))
				optarg = argv[optind++];
			if (optarg && strcmp(optarg, "s") && strcmp(optarg, "p")) {
				msg_err("invalid -y '%s' (expected s for semaphores or p to prompt)",
					optarg);
				return -1;
			}
			b->sem_wait = optarg ? optarg[0] : 's';
			break;
		case 'z':
			if (num_parse_u64(optarg, &b->ro.seed) < 0) {
				msg_err("invalid -z '%s' (expected a non-negative integer)", optarg);
				return -1;
			}
			break;
		case 'D':
			b->direct = 1;
			break;
		case OPT_BON_FORMAT:
			if (!strcmp(optarg, "103") || !strcmp(optarg, "1.03"))
				b->layout = BONNIE_TXT_103;
			else if (!strcmp(optarg, "19") || !strcmp(optarg, "1.9") ||
				 !strcmp(optarg, "197") || !strcmp(optarg, "1.97"))
				b->layout = BONNIE_TXT_19;
			else if (!strcmp(optarg, "64"))
				b->layout = BONNIE_TXT_64;
			else {
				msg_err("invalid --format '%s' (expected 103, 19 or 64)", optarg);
				return -1;
			}
			break;
		case OPT_BON_CSV:
			b->csv_given = 1;
			if (!strcmp(optarg, "103") || !strcmp(optarg, "1.03"))
				b->csv = BONNIE_CSV_103;
			else if (!strcmp(optarg, "197") || !strcmp(optarg, "1.97"))
				b->csv = BONNIE_CSV_197;
			else if (!strcmp(optarg, "198") || !strcmp(optarg, "1.98"))
				b->csv = BONNIE_CSV_198;
			else if (!strcmp(optarg, "none"))
				b->csv = BONNIE_CSV_NONE;
			else {
				msg_err("invalid --csv '%s' (expected 103, 197, 198 or none)", optarg);
				return -1;
			}
			break;
		case OPT_BON_JSON:
			b->json = optarg;
			break;
		case OPT_BON_LABEL:
			b->label = optarg;
			break;
		case OPT_BON_ENGINE:
			if (!engine_find_checked(optarg))
				return -1;
			b->ro.engine = optarg;
			break;
		case OPT_BON_SEMKEY:
			if (parse_sem_key(optarg, &b->sem_key) < 0) {
				msg_err("invalid --sem-key '%s' (expected a System V key from 1 to "
					"0xffffffff, decimal or 0x hex)",
					optarg);
				return -1;
			}
			break;
		case OPT_BON_KEEP:
			b->keep = 1;
			break;
		case OPT_BON_CHUNKFILE:
			if (size_parse(optarg, &b->chunk_file) < 0 || !b->chunk_file ||
			    b->chunk_file % DATA_BLOCK) {
				msg_err("invalid --chunk-file '%s' (expected a size that is a multiple "
					"of 4k)",
					optarg);
				return -1;
			}
			break;
		case 'h':
			bonnie_usage(stdout);
			return 1;
		case OPT_REUSE:
			msg_err("--reuse does not apply to bonnie: every run makes its own files");
			return -1;
		case OPT_PROGRESS:
			msg_err("--progress does not apply to bonnie: it prints bonnie++'s progress "
				"lines (-q to silence them)");
			return -1;
		case OPT_REPEAT:
			if (common_run_opt(c, optarg, &b->ro) < 0)
				return -1;
			b->count = b->ro.repeat; /* --repeat N is -x N */
			break;
		case OPT_QUIET:
			b->quiet = 1; /* --quiet is -q */
			break;
		default: {
			int r = common_run_opt(c, optarg, &b->ro);

			if (r > 0)
				break;
			if (r == 0)
				fprintf(stderr, "try 'fsgauge bonnie --help'\n");
			return -1;
		}
		}
	}
	/* --direct means -D here: O_DIRECT for the block tests only */
	if (b->ro.direct) {
		b->direct = 1;
		b->ro.direct = 0;
	}
	b->ro.repeat = 0; /* the runs are bonnie's loop (-x), not the runner's */
	if (optind < argc) {
		msg_err("unexpected argument '%s' (bonnie takes options only)", argv[optind]);
		return -1;
	}
	if (b->sem_procs && b->sem_wait) {
		msg_err("-p creates the semaphores and -y uses them: give one or the other");
		return -1;
	}
	return 0;
}

/* Defaults and the checks bonnie++ makes, with its rules (the size
 * follows the RAM when -s is not given; under twice the RAM is refused
 * unless -r 0). */
static int check_options(struct bonnie_opts *b)
{
	uint64_t ram_mib = b->ram / MIB;

	if (!b->size_given) {
		uint64_t mib = DEFAULT_SIZE_MIB;

		if (ram_mib && mib < ram_mib * 2)
			mib = ram_mib * 2;
		if (mib % 1024 > 512) /* bonnie++ rounds up to a whole GiB */
			mib += 1024 - mib % 1024;
		b->size = mib * MIB;
	}
	if (!b->size && !b->files) {
		msg_err("nothing to do: -s 0 skips the I/O tests and -n 0 the file tests");
		return -1;
	}
	/* --verify checks whole 4 KiB blocks: smaller operations would leave
	 * blocks half written by each, so they are raised to a block, as the
	 * other suites round their I/O out to whole blocks */
	b->asked_chunk = b->chunk;
	b->asked_file_chunk = b->file_chunk;
	if (b->ro.verify) {
		b->chunk = MAX(b->chunk, (uint64_t)DATA_BLOCK);
		b->file_chunk = MAX(b->file_chunk, (uint64_t)DATA_BLOCK);
		if (b->chunk != b->asked_chunk && b->size)
			fprintf(stderr, "note: --verify checks whole 4 KiB blocks: the I/O tests use "
					"blocks of 4096 bytes, not %llu\n",
				(unsigned long long)b->asked_chunk);
		if (b->file_chunk != b->asked_file_chunk && b->files && b->max_size)
			fprintf(stderr, "note: --verify checks whole 4 KiB blocks: the created files "
					"are written 4096 bytes at a time, not %llu\n",
				(unsigned long long)b->asked_file_chunk);
	}
	if (b->size && b->size % b->chunk) {
		msg_err("file size %llu is not a multiple of the chunk size %llu%s",
			(unsigned long long)b->size, (unsigned long long)b->chunk,
			b->chunk != b->asked_chunk ? " (4k under --verify)" : "");
		return -1;
	}
	if (b->size && b->size / b->chunk_file >= FILESET_MAX_CHUNKS) {
		msg_err("--chunk-file %llu makes more than %d chunk files of %llu bytes",
			(unsigned long long)b->chunk_file, FILESET_MAX_CHUNKS,
			(unsigned long long)b->size);
		return -1;
	}
	if (b->size && b->ram && b->size < 2 * b->ram) {
		msg_err("file size %lluM is less than twice the RAM (%lluM): the tests would measure "
			"the page cache; use -s %lluM or more, or -r 0 to disable this check",
			(unsigned long long)(b->size / MIB), (unsigned long long)ram_mib,
			(unsigned long long)(2 * ram_mib));
		return -1;
	}
	if (b->fast)
		b->char_size = 0;
	else if (!b->char_given)
		b->char_size = b->size; /* bonnie++ 1.03: the per-character tests use the file */
	if (b->char_size > b->size) {
		msg_err("-f size %llu is larger than the file size %llu (-s)",
			(unsigned long long)b->char_size, (unsigned long long)b->size);
		return -1;
	}
	if (b->char_size % b->chunk) {
		msg_err("-f size %llu is not a multiple of the chunk size %llu",
			(unsigned long long)b->char_size, (unsigned long long)b->chunk);
		return -1;
	}
	if (b->max_size < b->min_size) {
		msg_err("-n: the largest file size (%lld) is smaller than the smallest (%lld)",
			(long long)b->max_size, (long long)b->min_size);
		return -1;
	}
	if (b->files && b->dirs > (uint64_t)b->files * 512) {
		msg_err("-n: %u directories for %u files (at most %u: two files or more each)",
			b->dirs, b->files * 1024, b->files * 512);
		return -1;
	}
	if (b->seekers > b->seeks) {
		msg_err("-s: %u seekers for %u seeks", b->seekers, b->seeks);
		return -1;
	}
	if (common_run_check(&b->ro) < 0)
		return -1;
	if (!b->csv_given)
		b->csv = b->layout == BONNIE_TXT_103 ? BONNIE_CSV_103
			 : b->layout == BONNIE_TXT_19 ? BONNIE_CSV_198
						      : BONNIE_CSV_NONE;
	if (!b->machine) {
		struct utsname u;

		snprintf(b->machine_buf, sizeof(b->machine_buf), "%s",
			 uname(&u) == 0 ? u.nodename : "localhost");
		b->machine = b->machine_buf;
	}
	return 0;
}

/* --- building the tests ------------------------------------------------------ */

/* The workload: the data file (chunked as bonnie++'s) and the files of
 * the create tests, both created by the tests themselves. */
struct bonnie_model {
	struct workload *w;
	struct wl_fileset *data, *files;
};

static void model_build(struct bonnie_model *m, const struct bonnie_opts *b, const char *rundir)
{
	memset(m, 0, sizeof(*m));
	m->w = wl_new("bonnie");
	m->w->quit_mode = QUIT_ALLDONE; /* a thread out of files ends, never waits */
	workload_set_var(m->w, "dir", rundir);
	if (b->size) {
		m->data = wl_add_file(m->w, "Bonnie", (int64_t)b->size);
		m->data->chunksize = wl_int((int64_t)b->chunk_file);
	}
	if (b->files) {
		int64_t n = (int64_t)b->files * 1024;
		int64_t width = b->dirs > 1 ? (n + b->dirs - 1) / b->dirs : n;
		struct wl_val size = wl_int(b->max_size);

		if (b->max_size != b->min_size) {
			/* bonnie++: uniform over min..max inclusive; the runner
			 * rounds samples to the nearest integer */
			struct randvar *rv = wl_add_randvar(m->w, RV_UNIFORM);

			rv->min = (double)b->min_size - 0.5;
			rv->max = (double)b->max_size + 0.5;
			size = (struct wl_val){ .kind = WLV_RAND, .rv = rv };
		}
		m->files = wl_add_fileset(m->w, "files", n, size, width, 0);
	}
}

/* A thread of one pass: its flowops, then `threaddone` (end_thread()). */
static struct wl_thread *one_thread(struct wl_process *p, const char *name,
				    const struct bonnie_opts *b)
{
	return wl_add_thread(p, name, 1, (int64_t)MAX(b->chunk, b->file_chunk));
}

static void end_thread(struct wl_thread *t)
{
	wl_add_flowop(t, FO_THREADDONE, "done", NULL);
}

static struct wl_flowop *op(struct wl_thread *t, enum flowop_type type, const char *name,
			    struct wl_fileset *fs, int fd)
{
	struct wl_flowop *fo = wl_add_flowop(t, type, name, fs);

	if (fd)
		fo->fd = wl_int(fd);
	return fo;
}

/* A data-file open for the block tests: O_DIRECT with -D, O_DSYNC with -b. */
static void block_flags(struct wl_flowop *fo, const struct bonnie_opts *b)
{
	if (b->direct)
		fo->directio = wl_bool(1);
	if (b->sync)
		fo->dsync = wl_bool(1);
}

/* A composite flowop "file", run once per file and timed as one
 * operation (the per-file latency bonnie++ 1.9x reports); its children
 * are named "file.<name>". */
static struct wl_flowop *file_composite(struct wl_thread *t, int64_t nfiles)
{
	struct wl_flowop *c = wl_add_composite(t, "file");

	c->iters = wl_int(nfiles);
	return c;
}

static struct wl_flowop *child(struct wl_flowop *c, enum flowop_type type, const char *name,
			       struct wl_fileset *fs, int fd)
{
	char full[64];
	struct wl_flowop *fo;

	snprintf(full, sizeof(full), "file.%s", name);
	fo = wl_add_child(c, type, full, fs);
	if (fd)
		fo->fd = wl_int(fd);
	return fo;
}

/* A stat or delete pass: bonnie++'s random tests take the files in a
 * shuffled order, its sequential ones in the order readdir() lists them,
 * directory after directory. */
static struct wl_flowop *pass_order(struct wl_flowop *fo, int random)
{
	fo->ordered = wl_bool(1);
	if (random)
		fo->random = wl_bool(1);
	else
		fo->readdir = wl_bool(1);
	return fo;
}

/* How a test's figures are read back from its phase. */
enum amount_kind { AMOUNT_WRITTEN_KIB, AMOUNT_READ_KIB, AMOUNT_OPS };

struct test_desc {
	enum bonnie_test t;
	const char *progress; /* bonnie++'s progress message */
	const char *amount_op;
	enum amount_kind kind;
	const char *latency_op;
};

static const struct test_desc tests[BT__COUNT] = {
	{ BT_PUTC, "Writing with putc()...", "putc", AMOUNT_WRITTEN_KIB, "putc" },
	{ BT_PUT_BLOCK, "Writing intelligently...", "write", AMOUNT_WRITTEN_KIB, "write" },
	{ BT_REWRITE, "Rewriting...", "rewrite", AMOUNT_READ_KIB, "rewrite" },
	{ BT_GETC, "Reading with getc()...", "getc", AMOUNT_READ_KIB, "getc" },
	{ BT_GET_BLOCK, "Reading intelligently...", "read", AMOUNT_READ_KIB, "read" },
	{ BT_SEEKS, "Seeking...", "seek", AMOUNT_OPS, "seek" },
	{ BT_SEQ_CREATE, "Create files in sequential order...", "file.create", AMOUNT_OPS, "file" },
	{ BT_SEQ_STAT, "Stat files in sequential order...", "file.stat", AMOUNT_OPS, "file" },
	{ BT_SEQ_DEL, "Delete files in sequential order...", "file.delete", AMOUNT_OPS,
	  "file.delete" },
	{ BT_RAN_CREATE, "Create files in random order...", "file.create", AMOUNT_OPS, "file" },
	{ BT_RAN_STAT, "Stat files in random order...", "file.stat", AMOUNT_OPS, "file" },
	{ BT_RAN_DEL, "Delete files in random order...", "file.delete", AMOUNT_OPS, "file.delete" },
};

/* The processes of test t (one process; NULL when the test does not run).
 * `exists`: whether the data file exists before the test. */
static struct wl_process *test_build(enum bonnie_test tt, const struct bonnie_opts *b,
				     const struct bonnie_model *m, int exists)
{
	struct wl_process *p = wl_new_process(bonnie_test_name(tt), 1);
	int64_t blocks = (int64_t)(b->size / b->chunk);
	int64_t cblocks = (int64_t)(b->char_size / b->chunk);
	int64_t nfiles = (int64_t)b->files * 1024;
	int random = tt >= BT_RAN_CREATE;
	struct wl_thread *t;
	struct wl_flowop *fo, *c;

	switch (tt) {
	case BT_PUTC:
		t = one_thread(p, "putc", b);
		if (exists)
			op(t, FO_DELETEFILE, "delete", m->data, 0);
		op(t, FO_CREATEFILE, "create", m->data, 1);
		fo = op(t, FO_PUTC, "putc", NULL, 1);
		fo->iosize = wl_int((int64_t)b->chunk);
		fo->iters = wl_int(cblocks);
		op(t, FO_CLOSEFILE, "close", NULL, 1);
		break;
	case BT_PUT_BLOCK:
		t = one_thread(p, "put_block", b);
		if (exists)
			op(t, FO_DELETEFILE, "delete", m->data, 0);
		block_flags(op(t, FO_CREATEFILE, "create", m->data, 1), b);
		fo = op(t, FO_WRITE, "write", NULL, 1);
		fo->iosize = wl_int((int64_t)b->chunk);
		fo->iters = wl_int(blocks);
		op(t, FO_FSYNC, "fsync", NULL, 1);
		op(t, FO_CLOSEFILE, "close", NULL, 1);
		break;
	case BT_REWRITE:
		t = one_thread(p, "rewrite", b);
		block_flags(op(t, FO_OPENFILE, "open", m->data, 1), b);
		fo = op(t, FO_REWRITE, "rewrite", NULL, 1);
		fo->iosize = wl_int((int64_t)b->chunk);
		fo->iters = wl_int(blocks);
		op(t, FO_FSYNC, "fsync", NULL, 1);
		op(t, FO_CLOSEFILE, "close", NULL, 1);
		break;
	case BT_GETC:
		t = one_thread(p, "getc", b);
		op(t, FO_OPENFILE, "open", m->data, 1);
		fo = op(t, FO_GETC, "getc", NULL, 1);
		fo->iosize = wl_int((int64_t)b->chunk);
		fo->iters = wl_int(cblocks);
		op(t, FO_CLOSEFILE, "close", NULL, 1);
		break;
	case BT_GET_BLOCK:
		t = one_thread(p, "get_block", b);
		block_flags(op(t, FO_OPENFILE, "open", m->data, 1), b);
		fo = op(t, FO_READ, "read", NULL, 1);
		fo->iosize = wl_int((int64_t)b->chunk);
		fo->iters = wl_int(blocks);
		op(t, FO_CLOSEFILE, "close", NULL, 1);
		break;
	case BT_SEEKS:
		for (unsigned i = 0; i < b->seekers; i++) {
			char name[32];

			snprintf(name, sizeof(name), "seeker%u", i + 1);
			t = one_thread(p, name, b);
			block_flags(op(t, FO_OPENFILE, "open", m->data, 1), b);
			fo = op(t, FO_REWRITE, "seek", NULL, 1);
			fo->iosize = wl_int((int64_t)b->chunk);
			fo->random = wl_bool(1);
			fo->value = wl_int(10); /* every tenth block is dirtied and written back */
			fo->iters = wl_int(b->seeks / b->seekers + (i < b->seeks % b->seekers));
			op(t, FO_FSYNC, "fsync", NULL, 1);
			op(t, FO_CLOSEFILE, "close", NULL, 1);
		}
		break;
	case BT_SEQ_CREATE:
	case BT_RAN_CREATE:
		t = one_thread(p, bonnie_test_name(tt), b);
		c = file_composite(t, nfiles);
		fo = child(c, FO_CREATEFILE, "create", m->files, 1);
		fo->ordered = wl_bool(1);
		fo->random = wl_bool(random);
		if (b->max_size) {
			fo = child(c, FO_WRITEWHOLEFILE, "write", NULL, 1);
			fo->iosize = wl_int((int64_t)b->file_chunk);
		}
		if (b->sync) { /* -b: as bonnie++, fsync the file, then its directory */
			fo = child(c, FO_FSYNC, "fsync", NULL, 1);
			fo->dirsync = wl_bool(1);
		}
		child(c, FO_CLOSEFILE, "close", NULL, 1);
		/* bonnie++ ends the test with sync(), inside its time */
		op(t, FO_SYNCFS, "syncfs", m->files, 0);
		break;
	case BT_SEQ_STAT:
	case BT_RAN_STAT:
		t = one_thread(p, bonnie_test_name(tt), b);
		c = file_composite(t, nfiles);
		if (!b->max_size) {
			pass_order(child(c, FO_STATFILE, "stat", m->files, 0), random);
			break;
		}
		pass_order(child(c, FO_OPENFILE, "open", m->files, 1), random);
		child(c, FO_STATFILE, "stat", NULL, 1);
		fo = child(c, FO_READWHOLEFILE, "read", NULL, 1);
		fo->iosize = wl_int((int64_t)b->file_chunk);
		child(c, FO_CLOSEFILE, "close", NULL, 1);
		break;
	case BT_SEQ_DEL:
	case BT_RAN_DEL:
		t = one_thread(p, bonnie_test_name(tt), b);
		c = file_composite(t, nfiles);
		fo = pass_order(child(c, FO_DELETEFILE, "delete", m->files, 0), random);
		if (b->sync) /* -b: and fsync the directory, as bonnie++ */
			fo->dirsync = wl_bool(1);
		op(t, FO_SYNCFS, "syncfs", m->files, 0); /* as after the creates */
		break;
	default:
		wl_process_free(p);
		return NULL;
	}
	for (size_t i = 0; i < p->nthreads; i++)
		end_thread(p->threads[i]);
	return p;
}

static int test_runs(enum bonnie_test t, const struct bonnie_opts *b)
{
	if (t <= BT_SEEKS)
		return b->size && (t != BT_PUTC && t != BT_GETC ? 1 : b->char_size > 0);
	return b->files > 0;
}

/* --- figures ----------------------------------------------------------------- */

static const struct result_phase *phase_of(const struct result *r, const char *name)
{
	for (size_t i = r->nphases; i-- > 0;)
		if (!strcmp(r->phases[i].name, name))
			return &r->phases[i];
	return NULL;
}

static const struct result_op *op_of(const struct result_phase *p, const char *name)
{
	for (size_t i = 0; i < p->nops; i++)
		if (!strcmp(p->ops[i].name, name))
			return &p->ops[i];
	return NULL;
}

static void report_fill(struct bonnie_report *rep, const struct bonnie_opts *b,
			const struct result *res)
{
	memset(rep, 0, sizeof(*rep));
	rep->machine = b->machine;
	rep->file_size = b->size;
	rep->chunk_size = b->chunk;
	rep->seeks = b->seeks;
	rep->seekers = b->seekers;
	rep->concurrency = 1;
	rep->seed = b->ro.seed;
	rep->files = b->files;
	rep->max_size = b->max_size;
	rep->min_size = b->min_size;
	rep->dirs = b->dirs;
	rep->file_chunk = b->file_chunk;
	for (int i = 0; i < BT__COUNT; i++) {
		const struct test_desc *d = &tests[i];
		const struct result_phase *p = phase_of(res, bonnie_test_name(d->t));
		struct bonnie_figure *f = &rep->t[d->t];
		const struct result_op *a, *l;

		if (!p)
			continue;
		struct phase_totals tot;

		result_phase_totals(p, &tot);
		/* a test that failed is not a measurement: blank (the run
		 * stops in the test that failed, its last phase, which counts
		 * no operation error when it was a block failing --verify) */
		if (tot.errors || (res->stopped_on_error && p == &res->phases[res->nphases - 1]))
			continue;
		a = op_of(p, d->amount_op);
		l = op_of(p, d->latency_op);
		f->ran = 1;
		f->seconds = p->seconds;
		f->cpu_seconds = (double)(p->cpu_user_ns + p->cpu_sys_ns) / 1e9;
		if (a)
			f->amount = d->kind == AMOUNT_WRITTEN_KIB ? (double)a->st.bytes_written / 1024.0
				    : d->kind == AMOUNT_READ_KIB  ? (double)a->st.bytes_read / 1024.0
								  : (double)a->st.ops;
		if (l && l->st.lat.count)
			f->max_latency = (double)l->st.lat.max / 1e9;
	}
}

/* --- running ----------------------------------------------------------------- */

struct bonnie_run {
	struct bonnie_opts *b;
	struct rundir *rd;
	int sem_id;	  /* -y s */
	int stdin_closed; /* -y p met the end of stdin: warned once, no more waits */
};

/* Wait before test t as -y asks.  0, or -EINTR (a signal). */
static int test_sync(struct bonnie_run *br, enum bonnie_test t)
{
	char line[64];
	int r;

	if (br->b->sem_wait == 's') {
		r = sem_sync(br->sem_id, (int)t);
		if (r < 0) {
			if (r != -EINTR)
				err_errno(r, "cannot wait on semaphore set 0x%x",
					  (unsigned)br->b->sem_key);
			return r;
		}
	} else if (br->b->sem_wait == 'p' && !br->stdin_closed) {
		fprintf(stderr, "\n%s: press Enter to start\n", bonnie_test_name(t));
		/* a line, or the end of a longer one: one Enter per test */
		while (fgets(line, sizeof(line), stdin) && !strchr(line, '\n'))
			;
		if (runner_signalled())
			return -EINTR;
		if (feof(stdin) || ferror(stdin)) {
			/* nobody can press Enter any more (stdin is /dev/null, a
			 * used-up pipe, a closed terminal): not a signal, so the
			 * run goes on, without waiting, as it would without -y */
			msg_warn("-y p: %s, so the tests no longer wait for Enter",
				 ferror(stdin) ? "cannot read stdin" : "stdin is at its end");
			br->stdin_closed = 1;
		}
	}
	return 0;
}

/* The phase that removes the data file (reported as "remove_data"). */
static int remove_data(struct runner *rn, const struct bonnie_opts *b,
		       const struct bonnie_model *m)
{
	struct wl_process *p = wl_new_process("remove_data", 1);
	struct wl_thread *t;
	int ret;

	t = one_thread(p, "remove", b);
	op(t, FO_DELETEFILE, "delete", m->data, 0);
	end_thread(t);
	ret = runner_phase(rn, "remove_data", &p, 1, PHASE_LIMIT_SECONDS);
	wl_process_free(p);
	return ret;
}

/* One complete run of the tests into res.  Returns 0, -EINTR when a
 * signal stopped it, or -errno for a setup failure (message printed). */
static int bonnie_run_once(struct bonnie_run *br, struct result *res)
{
	struct bonnie_opts *b = br->b;
	struct bonnie_model m;
	struct runner *rn;
	int ret, exists = 0, quiet = b->quiet || b->count > 1;

	model_build(&m, b, br->rd->path);
	rn = runner_new(m.w, br->rd, &b->ro, res);
	ret = runner_create_filesets(rn);
	for (int i = 0; i <= BT__COUNT && ret == 0; i++) {
		enum bonnie_test t = i < BT__COUNT ? tests[i].t : BT__COUNT;
		struct wl_process *p;

		if (t > BT_SEEKS && exists) {
			/* bonnie++ removes its file after the I/O tests */
			ret = remove_data(rn, b, &m);
			exists = 0;
			if (ret < 0 || res->interrupted || res->stopped_on_error)
				break;
		}
		if (t == BT__COUNT || !test_runs(t, b))
			continue;
		ret = test_sync(br, t);
		if (ret < 0)
			break;
		p = test_build(t, b, &m, exists);
		if (!quiet)
			fprintf(stderr, "%s", tests[i].progress);
		ret = runner_phase(rn, bonnie_test_name(t), &p, 1, PHASE_LIMIT_SECONDS);
		wl_process_free(p);
		if (t == BT_PUTC || t == BT_PUT_BLOCK)
			exists = 1;
		if (ret < 0 || res->interrupted || res->stopped_on_error) {
			if (!quiet)
				fputc('\n', stderr);
			break;
		}
		if (!quiet)
			fprintf(stderr, t >= BT_SEQ_CREATE ? "done.\n" : "done\n");
	}
	runner_free(rn);
	workload_free(m.w);
	if (ret == -EINTR || runner_signalled()) {
		res->interrupted = 1;
		return -EINTR;
	}
	return ret;
}

static void record_params(struct result *res, const struct bonnie_opts *b)
{
	char buf[64];

	kv_add(&res->params, "machine", "%s", b->machine);
	kv_add(&res->params, "file_size", "%llu", (unsigned long long)b->size);
	kv_add(&res->params, "chunk_size", "%llu", (unsigned long long)b->chunk);
	kv_add(&res->params, "chunk_file_size", "%llu", (unsigned long long)b->chunk_file);
	kv_add(&res->params, "char_size", "%llu", (unsigned long long)b->char_size);
	kv_add(&res->params, "seeks", "%u", b->seeks);
	kv_add(&res->params, "seekers", "%u", b->seekers);
	kv_add(&res->params, "files", "%llu", (unsigned long long)b->files * 1024);
	kv_add(&res->params, "max_size", "%lld", (long long)b->max_size);
	kv_add(&res->params, "min_size", "%lld", (long long)b->min_size);
	kv_add(&res->params, "dirs", "%u", b->dirs);
	kv_add(&res->params, "file_chunk_size", "%llu", (unsigned long long)b->file_chunk);
	kv_add(&res->params, "ram", "%llu", (unsigned long long)b->ram);
	kv_add(&res->params, "sync", "%s", b->sync ? "true" : "false");
	kv_add(&res->params, "direct", "%s", b->direct ? "true" : "false");
	kv_add(&res->params, "count", "%u", b->count);
	kv_add(&res->params, "format", "%s",
	       b->layout == BONNIE_TXT_19 ? "19" : b->layout == BONNIE_TXT_64 ? "64" : "103");
	kv_add(&res->params, "engine", "%s", b->ro.engine);
	kv_add(&res->params, "seed", "%llu", (unsigned long long)b->ro.seed);
	kv_add(&res->params, "data", "%s", data_pattern_name(&b->ro.data, buf, sizeof(buf)));
}

/* Each test's bonnie++ figures as the phase's metrics in the JSON (for
 * -x, over all runs together: total amount over total time). */
static void add_metrics(struct result *res, const struct bonnie_report *rep)
{
	for (int i = 0; i < BT__COUNT; i++) {
		const struct bonnie_figure *f = &rep->t[i];
		struct result_phase *p = NULL;

		for (size_t k = 0; k < res->nphases; k++)
			if (!strcmp(res->phases[k].name, bonnie_test_name((enum bonnie_test)i)))
				p = &res->phases[k];
		if (!p || !f->ran || !(f->seconds > 0))
			continue;
		result_phase_add_metric(p, "bonnie_rate", i <= BT_GET_BLOCK && i != BT_SEEKS
						       ? "K/sec" : "/sec",
					f->amount / f->seconds);
		result_phase_add_metric(p, "bonnie_cpu", "%", f->cpu_seconds / f->seconds * 100.0);
		result_phase_add_metric(p, "bonnie_max_latency", "us", f->max_latency * 1e6);
		result_phase_add_metric(p, "bonnie_too_fast", "", bonnie_too_fast(f));
	}
}

/* Flowops a thread of a test runs, at most (the table at the top: a file
 * test's composite with its createfile, writewholefile, fsync, closefile
 * and syncfs, then threaddone): for the preflight's memory figure. */
#define BONNIE_MAX_FLOWS 8

/* Before the tests: free space for the data file or the created files
 * (bonnie++ removes the one before making the others), inodes for the
 * files, the directories and the data file's chunks, the threads (the
 * seekers) and their memory (buffers of the chunk size, their state,
 * the table of the files).  Nothing to check on the disk for the null
 * engine, which creates nothing. */
static int preflight(const struct bonnie_opts *b, const struct rundir *rd)
{
	struct preflight_needs n = { 0 };
	/* under --verify a created file is whole 4 KiB blocks */
	double files = (double)b->files * 1024.0,
	       fbytes = files * (double)(b->ro.verify ? verify_align_up((uint64_t)b->max_size)
						      : (uint64_t)b->max_size),
	       chunks = b->size ? (double)((b->size - 1) / b->chunk_file + 1) : 0;
	double per = (double)MAX(MAX(b->chunk, b->file_chunk), 4096) +
		     (double)runner_worker_overhead(BONNIE_MAX_FLOWS);

	if (!(engine_spec_caps(b->ro.engine) & ENGINE_DISKLESS)) {
		n.bytes = MAX((double)b->size, fbytes);
		n.entries = files + (b->files ? (double)b->dirs + 1 : 0) + chunks;
	}
	n.threads = b->size && b->seekers > 1 ? b->seekers : 1;
	n.memory = n.threads * per + (files + 1) * (double)FILESET_ENTRY_BYTES;
	snprintf(n.what, sizeof(n.what), "the tests");
	snprintf(n.memory_detail, sizeof(n.memory_detail),
		 "%.0f threads x %.1f MiB + %.0f files x %zu bytes", n.threads, per / MIB, files,
		 (size_t)FILESET_ENTRY_BYTES);
	snprintf(n.lower_space, sizeof(n.lower_space), "use a smaller -s or -n, or another -d");
	snprintf(n.lower_inodes, sizeof(n.lower_inodes), "use fewer files (-n) or another -d");
	snprintf(n.lower_memory, sizeof(n.lower_memory),
		 "use fewer files (-n), fewer seekers or a smaller chunk size (-s)");
	return preflight_check(rd->fd, rd->parent, &n);
}

int cmd_bonnie(int argc, char **argv)
{
	struct bonnie_opts b = {
		.dir = ".",
		.chunk = BONNIE_DEFAULT_CHUNK,
		.chunk_file = CHUNK_FILE_SIZE,
		.seeks = BONNIE_DEFAULT_SEEKS,
		.seekers = BONNIE_DEFAULT_SEEKERS,
		.files = 16,
		.dirs = 1,
		.file_chunk = BONNIE_DEFAULT_CHUNK,
		.count = 1,
		.sem_key = DEFAULT_SEM_KEY,
		.layout = BONNIE_TXT_103,
		.ro = { .engine = "psync", .seed = 1, .on_error = ON_ERROR_STOP, .quiet = 1 },
	};
	struct rundir rd = { .fd = -1, .parent_fd = -1 };
	struct bonnie_run br = { .b = &b, .rd = &rd, .sem_id = -1 };
	struct result *acc = NULL;
	struct bonnie_report rep;
	int ret = EXIT_OK, r;

	b.ram = env_ram_bytes() / MIB * MIB;
	r = parse_options(&b, argc, argv);
	if (r)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	if (b.sem_procs)
		return sem_setup(b.sem_key, b.sem_procs);
	if (check_options(&b) < 0 || (b.json && outfile_check(b.json, "JSON result") < 0) ||
	    (b.json && !strcmp(b.json, "-") && outfile_claim_stdout() < 0))
		return EXIT_USAGE;
	if (b.sem_wait == 's') {
		br.sem_id = semget(b.sem_key, BT__COUNT, 0);
		if (br.sem_id < 0) {
			err_errno(-errno, "cannot use semaphore set 0x%x (create it with 'fsgauge "
					  "bonnie -p N' first)",
				  (unsigned)b.sem_key);
			return EXIT_USAGE;
		}
	}
	if (b.user || b.group) {
		ret = drop_privileges(b.user, b.group, b.quiet);
		if (ret != EXIT_OK)
			return ret;
	}
	runner_install_signals();
	ret = rundir_create(&rd, b.dir, b.ro.allow_shared_target ? RUNDIR_ALLOW_SHARED : 0);
	if (ret < 0)
		return rundir_create_status(ret);
	if (preflight(&b, &rd) < 0) {
		ret = EXIT_USAGE;
		goto out;
	}
	acc = result_new("bonnie", "bonnie");
	acc->label = b.label ? xstrdup(b.label) : NULL;
	acc->engine = xstrdup(b.ro.engine);
	acc->seed = b.ro.seed;
	common_run_params(&acc->params, &b.ro);
	record_params(acc, &b); /* after: -D is "direct" here */
	env_capture(&acc->env, rd.parent);
	if (b.count > 1)
		bonnie_fmt_csv_header(stdout, b.csv);
	for (unsigned k = 1; k <= b.count; k++) {
		/* one run into acc, or (-x) into its own result folded into acc
		 * as a repeat: the JSON then has each test once, with the
		 * figures of every run in its `repeats` */
		struct result *one = b.count == 1 ? acc : result_new("bonnie", "bonnie");

		r = bonnie_run_once(&br, one);
		report_fill(&rep, &b, one);
		if (b.count == 1 && one->nphases) {
			bonnie_fmt_text(b.quiet ? stderr : stdout, &rep, b.layout);
			fflush(b.quiet ? stderr : stdout);
		}
		if (one->nphases)
			bonnie_fmt_csv(stdout, &rep, b.csv);
		fflush(stdout);
		if (one != acc) {
			result_merge_repeat(acc, one);
			result_free(one);
		}
		if (r < 0 && r != -EINTR && !acc->nphases) {
			ret = r == -ENOSPC || r == -EINVAL || r == -EPERM ? EXIT_USAGE : EXIT_SYSTEM;
			break;
		}
		if (r < 0 || acc->interrupted || acc->stopped_on_error)
			break;
	}
	report_fill(&rep, &b, acc);
	add_metrics(acc, &rep);
	if (acc->interrupted) {
		msg_err("interrupted by a signal: partial results");
		ret = EXIT_INTERRUPTED;
	} else if (ret == EXIT_OK && acc->verify_errors) {
		msg_err("%llu blocks failed verification, %llu operation errors; first: %s",
			(unsigned long long)acc->verify_errors, (unsigned long long)acc->errors,
			acc->first_error ? acc->first_error : "?");
		ret = EXIT_RUN_ERRORS;
	} else if (ret == EXIT_OK && (acc->errors || acc->stopped_on_error)) {
		msg_err("%llu operation errors; first: %s", (unsigned long long)acc->errors,
			acc->first_error ? acc->first_error : "?");
		ret = EXIT_RUN_ERRORS;
	}
out:
	/* the run directory goes first: on a full file system its space is
	 * what lets the results be written */
	if (rundir_finish(&rd, b.keep, 1) < 0 && ret == EXIT_OK)
		ret = EXIT_SYSTEM;
	if (b.json && acc && (acc->nphases || acc->interrupted) &&
	    output_json_file(acc, b.json) < 0 && ret == EXIT_OK)
		ret = EXIT_SYSTEM;
	result_free(acc);
	return ret;
}
