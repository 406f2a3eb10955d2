/*
 * bonnie.c — the `bonnie` suite: bonnie++'s test suite on the fsgauge
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
 * written as bonnie++'s table and CSV line by format.c, and the whole
 * result as fsgauge's JSON (the figures as the metrics of
 * bonnie_metrics[]).  Options and differences from bonnie++:
 * docs/bonnie.md.
 *
 * This file is the suite on the session driver (suite/suite.h): its
 * options, their checks (bonnie++'s rules), -p/-y's semaphores, the -u/-g
 * privilege drop (ops->setup: after the shared checks, so --json's file
 * is checked as the user who started us, as before; before the run
 * directory, so that it and every file of the tests belong to the new
 * user), and the tests of one run (ops->run; -x/--repeat is the driver's
 * repeat loop, each run's table and CSV line printed by ops->after_run).
 * The model (the workload, each test's flowops, the figures read back,
 * what the tests need for the preflight) is model.c.
 */
#include <ctype.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "mpi/mpi.h"
#include "output/output.h"
#include "suite/shared.h"
#include "runner/fileset.h"
#include "runner/runner.h"
#include "runner/verify.h"
#include "stats/env.h"
#include "suite/bonnie/bonnie.h"
#include "suite/bonnie/format.h"
#include "suite/suite.h"
#include "util/size.h"
#include "util/util.h"

/* bonnie++'s file size without RAM to go by, and its largest chunk file */
#define DEFAULT_SIZE_MIB 300
#define CHUNK_FILE_SIZE GIB
/* the System V semaphore set of -p/-y (bonnie++ uses 4711; ours is apart
 * so that the two never wait for each other by accident) */
#define DEFAULT_SEM_KEY 0x66736762 /* "fsgb" */
#define STR_(x) #x
#define STR(x) STR_(x)

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
	BON_FORMAT = OPT_OWN,
	BON_CSV,
	BON_SEMKEY,
	BON_CHUNKFILE,
};

static const struct suite_opt bonnie_opts_table[] = {
	{ NULL, 'd', 'd', OPTARG_REQUIRED, "DIR",
	  "directory to test in (default: the current directory);\ngiven more than once, the tests run "
	  "in each at once, a\ntable line and CSV line each (docs/targets.md)" },
	{ NULL, 's', 's', OPTARG_REQUIRED, "SIZE[:CHUNK[:SEEKS[:SEEKERS]]]",
	  "file size for the I/O tests, MiB unless a unit is\ngiven (default: twice the RAM, "
	  "else " STR(DEFAULT_SIZE_MIB) " MiB; 0\nskips them); block size, a power of two from "
	  "256 to\n1m (default 8k); seeks (default " STR(BONNIE_DEFAULT_SEEKS)
	  ") and seeker\nthreads (default " STR(BONNIE_DEFAULT_SEEKERS) ")" },
	{ NULL, 'n', 'n', OPTARG_REQUIRED, "NUMBER[:MAX[:MIN[:DIRS[:CHUNK]]]]",
	  "files for the create tests in units of 1024 (default\n16; 0 skips them), their "
	  "largest and smallest size\nin bytes (default 0), directories to spread them\nover, "
	  "write size" },
	{ NULL, 'r', 'r', OPTARG_REQUIRED, "RAM",
	  "RAM in MiB: refuse a file size under twice this\n(default: this machine's RAM; 0 "
	  "disables the check)" },
	{ NULL, 'f', 'f', OPTARG_OPTIONAL, "SIZE",
	  "skip the per-character tests; with SIZE (-f SIZE or\n-fSIZE), run them on SIZE (MiB "
	  "unless a unit is\ngiven) instead of the whole file" },
	{ NULL, 'b', 'b', OPTARG_NONE, NULL,
	  "no write buffering: the data file is opened with\nO_DSYNC, so every write reaches the "
	  "device; each\ncreated file is fsynced, then its directory, and\nthe directory after "
	  "each delete" },
	{ "direct", 'D', 'D', OPTARG_NONE, NULL,
	  "O_DIRECT for the block tests (block write, rewrite,\nblock read, seeks)" },
	{ NULL, 'x', 'x', OPTARG_REQUIRED, "COUNT",
	  "run the tests COUNT times (--repeat N is -x N); CSV\nlines only" },
	{ "quiet", 'q', 'q', OPTARG_NONE, NULL,
	  "quiet: the CSV line alone on stdout, the table on\nstderr, no progress or \"limited by\" lines" },
	{ NULL, 'm', 'm', OPTARG_REQUIRED, "NAME",
	  "machine name in the report (default: the host name)" },
	{ NULL, 'u', 'u', OPTARG_REQUIRED, "USER[:GROUP]",
	  "when root, become this user (and group) before\ncreating anything" },
	{ NULL, 'g', 'g', OPTARG_REQUIRED, "GROUP", "when root, become this group (see -u)" },
	{ NULL, 'z', 'z', OPTARG_REQUIRED, "SEED", "seed for every random choice (default 1)" },
	{ NULL, 'p', 'p', OPTARG_REQUIRED, "PROCS",
	  "create the semaphores that let PROCS instances run\neach test together, and exit "
	  "('-p -1' removes them)" },
	{ NULL, 'y', 'y', OPTARG_OPTIONAL, "s|p",
	  "wait before each test: for the other instances (s,\nthe default; see -p) or for "
	  "Enter on stdin (p)" },
	{ "format", 0, BON_FORMAT, OPTARG_REQUIRED, "F",
	  "table layout: 103 (bonnie++ 1.03, default), 19\n(1.9x, with latencies), 64 "
	  "(bonnie-64: GB, M/sec)" },
	{ "csv", 0, BON_CSV, OPTARG_REQUIRED, "V",
	  "CSV line: 103, 197, 198 (what Debian's bon_csv2html\nreads), or none (default: 103 "
	  "with --format 103,\n198 with 19, none with 64)" },
	{ "sem-key", 0, BON_SEMKEY, OPTARG_REQUIRED, "KEY",
	  "System V key of the -p/-y semaphores, 1 to\n0xffffffff, decimal or 0x hex (default "
	  STR(DEFAULT_SEM_KEY) ")" },
	{ "chunk-file", 0, BON_CHUNKFILE, OPTARG_REQUIRED, "SIZE",
	  "split the data file in chunk files of SIZE bytes, a\nmultiple of 4k (default 1g, as "
	  "bonnie++)" },
	{ 0 },
};

/* The suite's state: its options, the model, -y's state, the figures. */
struct bonnie_suite {
	struct bonnie_opts b;
	struct bonnie_model m;
	int sem_id;	  /* -y s */
	int stdin_closed; /* -y p met the end of stdin: warned once, no more waits */
	/* the figures of one run: rep[0] all the targets (alone: bonnie++'s),
	 * rep[k] target k's (several targets) */
	struct bonnie_report *rep;
	size_t nrep;
};

static struct bonnie_suite *ctx(struct suite_session *s)
{
	return s->ctx;
}

/* -u USER[:GROUP] (split in place, as getopt leaves the argument). */
static int opt_user(struct bonnie_opts *b, const char *arg)
{
	char *colon = strchr(arg, ':');

	if (b->user) {
		msg_err("-u is given twice");
		return EXIT_USAGE;
	}
	b->user = arg;
	if (colon) {
		if (b->group) {
			msg_err("the group is given twice (-g, or -u user:group)");
			return EXIT_USAGE;
		}
		*colon = 0;
		b->group = colon + 1;
	}
	if (!*b->user || (b->group && !*b->group)) {
		msg_err("invalid -u (expected user or user:group)");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int opt_format(struct bonnie_opts *b, const char *arg)
{
	if (!strcmp(arg, "103") || !strcmp(arg, "1.03"))
		b->layout = BONNIE_TXT_103;
	else if (!strcmp(arg, "19") || !strcmp(arg, "1.9") || !strcmp(arg, "197") ||
		 !strcmp(arg, "1.97"))
		b->layout = BONNIE_TXT_19;
	else if (!strcmp(arg, "64"))
		b->layout = BONNIE_TXT_64;
	else {
		msg_err("invalid --format '%s' (expected 103, 19 or 64)", arg);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int opt_csv(struct bonnie_opts *b, const char *arg)
{
	b->csv_given = 1;
	if (!strcmp(arg, "103") || !strcmp(arg, "1.03"))
		b->csv = BONNIE_CSV_103;
	else if (!strcmp(arg, "197") || !strcmp(arg, "1.97"))
		b->csv = BONNIE_CSV_197;
	else if (!strcmp(arg, "198") || !strcmp(arg, "1.98"))
		b->csv = BONNIE_CSV_198;
	else if (!strcmp(arg, "none"))
		b->csv = BONNIE_CSV_NONE;
	else {
		msg_err("invalid --csv '%s' (expected 103, 197, 198 or none)", arg);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The options with a number or size of their own rules. */
static int opt_value(struct suite_session *s, struct bonnie_opts *b, int key, const char *arg)
{
	uint64_t v;

	switch (key) {
	case 'p':
		if (!strcmp(arg, "-1")) {
			b->sem_procs = -1;
		} else if (num_parse_u64(arg, &v) < 0 || v < 1 || v > 30000) {
			msg_err("invalid -p '%s' (expected a number of processes, or -1)", arg);
			return EXIT_USAGE;
		} else {
			b->sem_procs = (int)v;
		}
		return EXIT_OK;
	case 'r':
		if (size_parse_unit(arg, MIB, &b->ram) < 0) {
			msg_err("invalid -r '%s' (expected RAM in MiB, or a size with a unit; 0 "
				"disables the check)",
				arg);
			return EXIT_USAGE;
		}
		return EXIT_OK;
	case 'x':
		if (parse_uint(arg, 100000, &b->count) < 0 || !b->count) {
			msg_err("invalid -x '%s' (expected a number of runs, 1 or more)", arg);
			return EXIT_USAGE;
		}
		s->ro.repeat = b->count; /* the session's repeat loop, as --repeat */
		return EXIT_OK;
	case 'z':
		if (num_parse_u64(arg, &s->ro.seed) < 0) {
			msg_err("invalid -z '%s' (expected a non-negative integer)", arg);
			return EXIT_USAGE;
		}
		return EXIT_OK;
	case BON_SEMKEY:
		if (parse_sem_key(arg, &b->sem_key) < 0) {
			msg_err("invalid --sem-key '%s' (expected a System V key from 1 to "
				"0xffffffff, decimal or 0x hex)",
				arg);
			return EXIT_USAGE;
		}
		return EXIT_OK;
	case BON_CHUNKFILE:
		if (size_parse(arg, &b->chunk_file) < 0 || !b->chunk_file ||
		    b->chunk_file % DATA_BLOCK) {
			msg_err("invalid --chunk-file '%s' (expected a size that is a multiple of 4k)",
				arg);
			return EXIT_USAGE;
		}
		return EXIT_OK;
	default:
		return EXIT_USAGE;
	}
}

/* '+' parsing (OPTP_IN_ORDER): "-f 20" and "-y s" may take the next word. */
static int bonnie_option(struct suite_session *s, int key, const char *arg, int argc, char **argv)
{
	struct bonnie_opts *b = &ctx(s)->b;

	(void)argc;
	switch (key) {
	case 'b':
		b->sync = 1;
		return EXIT_OK;
	case 'd':
		suite_add_target(s, "-d", arg);
		return EXIT_OK;
	case 'f':
		if (!arg && looks_like_size(argv[optind]))
			arg = argv[optind++];
		return parse_f(b, arg) < 0 ? EXIT_USAGE : EXIT_OK;
	case 'g':
		if (b->group) {
			msg_err("the group is given twice (-g, or -u user:group)");
			return EXIT_USAGE;
		}
		b->group = arg;
		return EXIT_OK;
	case 'm':
		b->machine = arg;
		return EXIT_OK;
	case 'n':
		return parse_n(b, arg) < 0 ? EXIT_USAGE : EXIT_OK;
	case 'q':
		b->quiet = 1;
		s->quiet = 1;
		return EXIT_OK;
	case 's':
		return parse_s(b, arg) < 0 ? EXIT_USAGE : EXIT_OK;
	case 'u':
		return opt_user(b, arg);
	case 'y':
		if (!arg && argv[optind] && (!strcmp(argv[optind], "s") || !strcmp(argv[optind], "p")))
			arg = argv[optind++];
		if (arg && strcmp(arg, "s") && strcmp(arg, "p")) {
			msg_err("invalid -y '%s' (expected s for semaphores or p to prompt)", arg);
			return EXIT_USAGE;
		}
		b->sem_wait = arg ? arg[0] : 's';
		return EXIT_OK;
	case 'D':
		b->direct = 1;
		return EXIT_OK;
	case BON_FORMAT:
		return opt_format(b, arg);
	case BON_CSV:
		return opt_csv(b, arg);
	default:
		return opt_value(s, b, key, arg);
	}
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
	if (b->ro->verify) {
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

/* --- running ----------------------------------------------------------------- */

/* Wait before test t as -y asks.  0, or -EINTR (a signal). */
static int test_sync(struct bonnie_suite *br, enum bonnie_test t)
{
	char line[64];
	int r;

	if (br->b.sem_wait == 's') {
		r = sem_sync(br->sem_id, (int)t);
		if (r < 0) {
			if (r != -EINTR)
				err_errno(r, "cannot wait on semaphore set 0x%x",
					  (unsigned)br->b.sem_key);
			return r;
		}
	} else if (br->b.sem_wait == 'p' && !br->stdin_closed) {
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

/* The tests of one run into `one`, on the session's runner (its filesets
 * made).  0, -EINTR when a signal stopped it, or -errno for a setup
 * failure (message printed). */
static int bonnie_run(struct suite_session *s, struct runner *rn, struct result *one)
{
	struct bonnie_suite *bs = ctx(s);
	const struct bonnie_opts *b = &bs->b;
	struct wl_process **p = xcalloc(bs->m.ntargets, sizeof(*p));
	int ret = 0, exists = 0, quiet = b->quiet || b->count > 1 || mpi_rank() > 0;

	for (int i = 0; i <= BT__COUNT && ret == 0; i++) {
		enum bonnie_test t = (enum bonnie_test)i;

		if (t > BT_SEEKS && exists) {
			/* bonnie++ removes its file after the I/O tests */
			ret = bonnie_remove_data(rn, b, &bs->m);
			exists = 0;
			if (ret < 0 || one->interrupted || one->stopped_on_error)
				break;
		}
		if (t == BT__COUNT || !bonnie_test_runs(t, b))
			continue;
		ret = test_sync(bs, t);
		if (ret < 0)
			break;
		/* every target's process in one phase: each test starts on
		 * all of them at once and ends when the last is done (as
		 * bonnie++ -y's instances do) */
		for (size_t k = 0; k < bs->m.ntargets; k++)
			p[k] = bonnie_test_build(t, b, &bs->m, k, exists);
		if (!quiet)
			fprintf(stderr, "%s", bonnie_test_progress(t));
		ret = runner_phase(rn, bonnie_test_name(t), p, bs->m.ntargets, PHASE_LIMIT_SECONDS);
		for (size_t k = 0; k < bs->m.ntargets; k++)
			wl_process_free(p[k]);
		if (t == BT_PUTC || t == BT_PUT_BLOCK)
			exists = 1;
		if (ret < 0 || one->interrupted || one->stopped_on_error) {
			if (!quiet)
				fputc('\n', stderr);
			break;
		}
		if (!quiet)
			fprintf(stderr, t >= BT_SEQ_CREATE ? "done.\n" : "done\n");
	}
	free(p);
	return runner_signalled() ? -EINTR : ret;
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
	kv_add(&res->params, "engine", "%s", b->ro->engine);
	kv_add(&res->params, "seed", "%llu", (unsigned long long)b->ro->seed);
	kv_add(&res->params, "data", "%s", data_pattern_name(&b->ro->data, buf, sizeof(buf)));
}

/* Test i's figures as phase p's metrics, named NAME and NAME<sfx>. */
static void add_figure_metrics(struct result_phase *p, int i, const struct bonnie_figure *f,
			       const char *sfx)
{
	char name[64];

	if (!f->ran || !(f->seconds > 0))
		return;
	/* one unit per metric: K/sec for the I/O tests, /sec for the seeks
	 * and the file tests (bonnie_metrics[]) */
	if (i <= BT_GET_BLOCK) {
		snprintf(name, sizeof(name), "bonnie_kib_per_sec%s", sfx);
		result_phase_add_metric(p, name, "K/sec", f->amount / f->seconds);
	} else {
		snprintf(name, sizeof(name), "bonnie_per_sec%s", sfx);
		result_phase_add_metric(p, name, "/sec", f->amount / f->seconds);
	}
	snprintf(name, sizeof(name), "bonnie_cpu%s", sfx);
	result_phase_add_metric(p, name, "%", f->cpu_seconds / f->seconds * 100.0);
	snprintf(name, sizeof(name), "bonnie_max_latency%s", sfx);
	result_phase_add_metric(p, name, "us", f->max_latency * 1e6);
	snprintf(name, sizeof(name), "bonnie_too_fast%s", sfx);
	result_phase_add_metric(p, name, "", bonnie_too_fast(f));
}

/* Each test's bonnie++ figures as one run's phase metrics in the JSON
 * (with -x the session folds the runs: each metric keeps every run's
 * value, its value is their mean, with sd and confidence interval):
 * rep[0]'s under bonnie++'s names (with several targets, all of them
 * together), target K's (rep[K]) under the same names with "@K". */
static void add_metrics(struct result *res, const struct bonnie_report *rep, size_t nrep)
{
	for (int i = 0; i < BT__COUNT; i++) {
		struct result_phase *p = NULL;

		for (size_t k = 0; k < res->nphases; k++)
			if (!strcmp(res->phases[k].name, bonnie_test_name((enum bonnie_test)i)))
				p = &res->phases[k];
		if (!p)
			continue;
		for (size_t k = 0; k < nrep; k++)
			add_figure_metrics(p, i, &rep[k].t[i], rep[k].target);
	}
}
/* --- the session --------------------------------------------------------------- */

static void bonnie_init(struct suite_session *s)
{
	struct bonnie_suite *bs = ctx(s);

	bs->b = (struct bonnie_opts){
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
		.ro = &s->ro,
	};
	bs->b.ram = env_ram_bytes() / MIB * MIB;
	bs->sem_id = -1;
	s->dir = "."; /* bonnie++'s default: the current directory */
	s->ro.quiet = 1; /* the runner's chatter: bonnie prints bonnie++'s lines */
	s->chatter = 0; /* and no "run directory:" line, as bonnie++ */
}

/* No operands; -p does its work here and ends the session. */
static int bonnie_check(struct suite_session *s, int argc, char **argv)
{
	struct bonnie_opts *b = &ctx(s)->b;
	int ret;

	if (argc > 0) {
		msg_err("unexpected argument '%s' (bonnie takes options only)", argv[0]);
		return EXIT_USAGE;
	}
	if (b->sem_procs && b->sem_wait) {
		msg_err("-p creates the semaphores and -y uses them: give one or the other");
		return EXIT_USAGE;
	}
	if (b->sem_procs) {
		ret = sem_setup(b->sem_key, b->sem_procs);
		return ret == EXIT_OK ? SUITE_DONE : ret;
	}
	b->count = s->ro.repeat ? s->ro.repeat : 1; /* -x N or --repeat N */
	return check_options(b) < 0 ? EXIT_USAGE : EXIT_OK;
}

/* After the shared checks (--json's file is checked as the user who
 * started us, as before the suite moved here), before the run directory:
 * -y s finds its semaphores, and -u/-g become the user who then owns the
 * run directory and every file of the tests. */
static int bonnie_setup(struct suite_session *s)
{
	struct bonnie_suite *bs = ctx(s);
	struct bonnie_opts *b = &bs->b;

	if (b->sem_wait == 's') {
		bs->sem_id = semget(b->sem_key, BT__COUNT, 0);
		if (bs->sem_id < 0) {
			err_errno(-errno, "cannot use semaphore set 0x%x (create it with 'fsgauge "
					  "bonnie -p N' first)",
				  (unsigned)b->sem_key);
			return EXIT_USAGE;
		}
	}
	if (b->user || b->group)
		return drop_privileges(b->user, b->group, b->quiet);
	return EXIT_OK;
}

static int bonnie_plan(struct suite_session *s)
{
	struct bonnie_suite *bs = ctx(s);

	bonnie_model_build(&bs->m, &bs->b, s->rds, s->nrd);
	bonnie_needs(&bs->b, &s->needs, s->tneeds, s->nrd);
	s->has_needs = 1;
	s->w = bs->m.w;
	s->workload = "bonnie";
	return EXIT_OK;
}

/* Its figures: one rate per test, in K/sec for the I/O tests and /sec for
 * seeks and the file tests (as bonnie++'s columns), with %CP, the longest
 * operation and bonnie++'s "+++++" verdict. */
static const struct metric_def bonnie_metrics[] = {
	{ "bonnie_kib_per_sec", "K/sec", "bonnie++ data rate", BETTER_HIGHER },
	{ "bonnie_per_sec", "/sec", "bonnie++ seeks or files rate", BETTER_HIGHER },
	{ "bonnie_cpu", "%", "bonnie++ %CP", BETTER_LOWER },
	{ "bonnie_max_latency", "us", "bonnie++ longest operation", BETTER_LOWER },
	{ "bonnie_too_fast", "", "bonnie++ too fast to measure (+++++)", BETTER_NONE },
	{ NULL },
};

static void bonnie_params(struct suite_session *s, struct result *res)
{
	record_params(res, &ctx(s)->b); /* after the shared ones: -D is "direct" here */
	if (s->nrd > 1)
		kv_add(&res->params, "targets", "%zu", s->nrd);
}

static void bonnie_begin(struct suite_session *s)
{
	const struct bonnie_opts *b = &ctx(s)->b;

	/* which line is which target: MACHINE@K is the K-th -d */
	for (size_t k = 0; s->nrd > 1 && !b->quiet && k < s->nrd; k++)
		fprintf(stderr, "Target %zu: %s (its lines: %s@%zu)\n", k + 1, s->rds[k].parent,
			b->machine, k + 1);
	if (b->count > 1)
		bonnie_fmt_csv_header(stdout, b->csv);
}

/* Each run's table (one run only) and CSV line, as bonnie++ prints them. */
static void bonnie_after_run(struct suite_session *s, struct result *one)
{
	struct bonnie_suite *bs = ctx(s);
	const struct bonnie_opts *b = &bs->b;

	/* alone: rep[0], bonnie++'s; several targets: rep[0] all of them
	 * (the JSON's combined figures), rep[1 ..] each one's lines */
	size_t nt = bs->m.ntargets, first = nt > 1 ? 1 : 0;

	bs->nrep = nt > 1 ? nt + 1 : 1;
	if (!bs->rep)
		bs->rep = xcalloc(bs->nrep, sizeof(*bs->rep));
	for (size_t k = 0; k < bs->nrep; k++)
		bonnie_report_fill(&bs->rep[k], b, one, k, nt);
	add_metrics(one, bs->rep, bs->nrep);
	if (b->count == 1 && one->nphases) {
		bonnie_fmt_text_n(b->quiet ? stderr : stdout, bs->rep + first, bs->nrep - first,
				  b->layout, b->csv);
		fflush(b->quiet ? stderr : stdout);
	}
	for (size_t k = first; one->nphases && k < bs->nrep; k++)
		bonnie_fmt_csv(stdout, &bs->rep[k], b->csv);
	fflush(stdout);
}

/* The cache warnings (docs/trust.md) of each test, then what went wrong,
 * after the run directory is gone.  On stderr, with -q too: stdout holds
 * bonnie++'s table and CSV, which bon_csv2html and scripts read. */
/* With several targets, " (target K 'DIR')" for the target whose
 * operation failed first (the last phase's first operation counting
 * errors: its name ends in @K), else "". */
static const char *failed_target(const struct suite_session *s, const struct result *acc,
				 char *buf, size_t len)
{
	const struct result_phase *p = acc->nphases ? &acc->phases[acc->nphases - 1] : NULL;

	buf[0] = 0;
	for (size_t i = 0; s->nrd > 1 && p && i < p->nops; i++) {
		const char *at = strrchr(p->ops[i].name, '@');
		unsigned k;

		if (p->ops[i].st.errors && at && parse_uint(at + 1, (unsigned)s->nrd, &k) == 0 &&
		    k >= 1) {
			snprintf(buf, len, " (target %u '%s')", k, suite_target(s, k - 1));
			break;
		}
	}
	return buf;
}

static void bonnie_report(struct suite_session *s, struct result *acc)
{
	char where[4200];

	for (size_t i = 0; i < acc->nphases; i++) {
		char what[96];

		snprintf(what, sizeof(what), "'%s'", acc->phases[i].name);
		output_cache_warnings(stderr, &acc->phases[i], NULL, what);
	}
	if (acc->interrupted) {
		msg_err("interrupted by a signal: partial results");
	} else if (acc->verify_errors) {
		msg_err("%llu blocks failed verification, %llu operation errors; first: %s%s",
			(unsigned long long)acc->verify_errors, (unsigned long long)acc->errors,
			acc->first_error ? acc->first_error : "?",
			failed_target(s, acc, where, sizeof(where)));
	} else if (acc->errors || acc->stopped_on_error) {
		msg_err("%llu operation errors; first: %s%s", (unsigned long long)acc->errors,
			acc->first_error ? acc->first_error : "?",
			failed_target(s, acc, where, sizeof(where)));
	}
}

static void bonnie_fini(struct suite_session *s)
{
	struct bonnie_suite *bs = ctx(s);

	bonnie_model_free(&bs->m);
	free(bs->rep);
}

static const struct suite_refusal bonnie_refused[] = {
	{ SH_REUSE, "--reuse does not apply to bonnie: every run makes its own files" },
	{ SH_PROGRESS, "--progress does not apply to bonnie: it prints bonnie++'s progress lines "
		       "(-q to silence them)" },
	{ 0 },
};

const struct suite_ops suite_bonnie = {
	.name = "bonnie",
	.synopsis =
		"fsgauge bonnie [-d dir]... [-s size[:chunk[:seeks[:seekers]]]]\n"
		"                      [-n number[:max[:min[:dirs[:chunk]]]]] [-m machine]\n"
		"                      [-r ram] [-x count] [-u user[:group]] [-g group] [-q]\n"
		"                      [-f [size]] [-b] [-D] [-z seed] [-p procs | -y [s|p]]\n"
		"                      [--format 103|19|64] [--csv 103|197|198|none]\n"
		"                      [--json FILE] [--label TEXT] [measurement options]",
	.about = "Runs bonnie++'s tests on the fsgauge engine, inside a fresh run directory\n"
		 "in the target (removed afterwards), and prints bonnie++'s table and CSV line.",
	.opts = bonnie_opts_table,
	.shared = SH_SESSION | SH_DATA | SH_DROP_CACHES | SH_REPEAT | SH_INTERVAL | SH_WARMUP |
		  SH_STEADY | SH_VERIFY | SH_DRY_RUN,
	.refused = bonnie_refused,
	.help_extra =
		"In bonnie: --repeat N is -x N; --direct is -D; --quiet is -q (every run makes\n"
		"its own files; bonnie prints bonnie++'s progress lines).\n"
		"\n"		"Several -d (-d /a -d /b): each test starts in every directory at once and\n"
		"the next starts when all are done (bonnie++ -p/-y in one process).  Each\n"
		"directory gets its own run directory, table line and CSV line, named\n"
		"MACHINE@K for the K-th -d, with its own time and CPU; the JSON has both\n"
		"targets' figures (metrics NAME@K) and their sum over the test's time.  An\n"
		"error in one stops the run in all; every run directory is removed.\n"
		"\n"
		"--verify stamps every block written (block write, putc, rewrite, seeks,\n"
		"created files) with its file, offset in the whole file (chunk files\n"
		"included), generation and checksum, and checks every block read (rewrite,\n"
		"getc, block read, seeks, stat with sizes); rewrite and seeks write back\n"
		"blocks stamped anew.  putc's file is not read back: block write replaces\n"
		"it, as in bonnie++.  Block and write sizes under 4k are raised to 4k and\n"
		"created files rounded up to whole 4 KiB blocks.  A mismatch is reported\n"
		"with the (chunk) file and offset, stops the run and exits 1.\n",
	.exit_help = "exit status: 0 ok, 1 I/O or verify errors during the run, 2 usage error,\n"
		     "3 system error, 130 interrupted (what was measured is still printed).\n",
	.parse_flags = OPTP_IN_ORDER,
	.metrics = bonnie_metrics,
	.html_section = bonnie_html_section,
	.ctx_size = sizeof(struct bonnie_suite),
	.init = bonnie_init,
	.option = bonnie_option,
	.check = bonnie_check,
	.setup = bonnie_setup,
	.plan = bonnie_plan,
	.params = bonnie_params,
	.begin = bonnie_begin,
	.run = bonnie_run,
	.after_run = bonnie_after_run,
	.report = bonnie_report,
	.verdicts_on_stderr = 1,
	.fini = bonnie_fini,
};
