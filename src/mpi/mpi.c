/* mpi.c — the MPI layer around suite_main(); see mpi.h. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "gitrev.h"
#include "mpi/mpi.h"
#include "mpi/reduce.h"
#include "runner/preflight.h"
#include "runner/runner.h"
#include "stats/env.h"
#include "stats/ranks.h"
#include "stats/result.h"
#include "util/rundir.h"
#include "util/util.h"

/* What mpirun (Open MPI) puts in every rank's environment. */
static const char *launcher_size(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE");
}

#ifndef HAVE_MPI

int mpi_begin(void)
{
	const char *n = launcher_size();

	if (!n)
		return EXIT_OK;
	msg_err("started by mpirun (%s ranks), but this fsgauge was built without MPI: install "
	        "Open MPI's mpicc (Debian: openmpi-bin libopenmpi-dev) and rebuild; 'fsgauge "
	        "--version' then lists +mpi",
	        n);
	return EXIT_USAGE;
}

void mpi_end(void)
{
}

int mpi_on(void)
{
	return 0;
}

int mpi_rank(void)
{
	return 0;
}

int mpi_size(void)
{
	return 1;
}

int mpi_agree(int status)
{
	return status;
}

void mpi_scale_needs(struct preflight_needs *n)
{
	(void)n;
}

double mpi_target_share(void)
{
	return 1;
}

void mpi_check_target(int dirfd, const char *path, size_t k)
{
	(void)dirfd;
	(void)path;
	(void)k;
}

const struct runner_sync *mpi_sync(void)
{
	return NULL;
}

int mpi_reduce(struct result *run, const struct kvlist *env, int failed)
{
	(void)run;
	(void)env;
	(void)failed;
	return 0;
}

#else /* HAVE_MPI */

#include <mpi.h>
#include <xxhash.h>

#define TAG_CLOCK 1
#define TAG_STOP  2
#define TAG_WALL  3 /* and 4: a phase's parity (wall_tag()) */

static struct {
	int inited, rank, size;
	char host[256];
	int host_ranks; /* ranks on this host, this one included */
	double offset;  /* this rank's CLOCK_MONOTONIC minus rank 0's, s */
	/* stops: every rank sends at most once; the first is probed for
	 * while a phase runs.  No receive is ever posted ahead and cancelled:
	 * Open MPI's ob1 can let a cancelled wildcard receive match a later
	 * message, which then goes missing (a hang in the next round). */
	int stop_seen, nreceived, sent;
	int stop_in, stop_out;
	MPI_Request *sends;
	/* stonewalls: a rank sends at most once a phase, with the phase's
	 * tag; the first is probed for while the phase runs, and every round
	 * (round_sum()) receives the ones sent since the last */
	MPI_Request *wall_sends;
	int wall_seen, wall_sent, wall_nrecv;
	int wall_in, wall_out;
	/* the phases' start and end on rank 0's clock, s; how the phase's
	 * stonewall came (RANK_WALL_*) and when, on rank 0's clock */
	double *starts, *ends, *wall_at;
	int *wall_how;
	size_t ntimes, cap;
	size_t base;   /* the current run's first phase (--repeat) */
	int *other_fs; /* rank 0: per rank, its target on another file system */
	struct rank_fs *fs; /* rank 0: the file systems of the ranks' targets */
	size_t nfs;
	struct runner_sync sync;
} m;

static double now_s(void)
{
	return (double)now_ns() / 1e9;
}

int mpi_on(void)
{
	return m.inited && m.size > 1;
}

int mpi_rank(void)
{
	return m.rank;
}

int mpi_size(void)
{
	return m.inited ? m.size : 1;
}

int mpi_agree(int status)
{
	int out = status;

	if (mpi_on())
		MPI_Allreduce(&status, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	return out;
}

/* The best of a few round trips to rank 0: offset = the midpoint of
 * ours minus rank 0's time at it (off by at most half the round trip). */
static void clock_offsets(void)
{
	for (int r = 1; r < m.size; r++) {
		double best = INFINITY, t0;

		for (int k = 0; k < 5; k++) {
			if (m.rank == 0) {
				MPI_Recv(&t0, 1, MPI_DOUBLE, r, TAG_CLOCK, MPI_COMM_WORLD,
				         MPI_STATUS_IGNORE);
				t0 = now_s();
				MPI_Send(&t0, 1, MPI_DOUBLE, r, TAG_CLOCK, MPI_COMM_WORLD);
			} else if (m.rank == r) {
				double a = now_s(), b;

				MPI_Send(&a, 1, MPI_DOUBLE, 0, TAG_CLOCK, MPI_COMM_WORLD);
				MPI_Recv(&t0, 1, MPI_DOUBLE, 0, TAG_CLOCK, MPI_COMM_WORLD,
				         MPI_STATUS_IGNORE);
				b = now_s();
				if (b - a < best) {
					best = b - a;
					m.offset = (a + b) / 2 - t0;
				}
			}
		}
	}
}

/* Every rank must run this very build: the statistics travel as bytes. */
static int same_build(void)
{
	static const char id[] = FSGAUGE_VERSION " " FSGAUGE_GITREV;
	uint64_t h = XXH64(id, sizeof(id), sizeof(struct op_stats)), lo, hi;

	MPI_Allreduce(&h, &lo, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
	MPI_Allreduce(&h, &hi, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
	if (lo == hi)
		return 1;
	if (m.rank == 0)
		msg_err("the ranks run different fsgauge builds (this one is %s): install the same "
		        "build on every host",
		        id);
	return 0;
}

/* How many ranks share this host (their memory and threads add up). */
static void count_host_ranks(void)
{
	char *all = xcalloc((size_t)m.size, sizeof(m.host));

	MPI_Allgather(m.host, sizeof(m.host), MPI_CHAR, all, sizeof(m.host), MPI_CHAR,
	              MPI_COMM_WORLD);
	m.host_ranks = 0;
	for (int r = 0; r < m.size; r++)
		m.host_ranks += !strcmp(all + (size_t)r * sizeof(m.host), m.host);
	free(all);
}

static int sync_start(void *arg);
static int sync_poll(void *arg);
static void sync_wall(void *arg, uint64_t ns);
static void sync_end(void *arg, int stopping);

int mpi_begin(void)
{
	int provided, ret;
	char tag[300];

	if (!launcher_size())
		return EXIT_OK;
	ret = MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
	if (ret != MPI_SUCCESS) {
		msg_err("cannot start MPI (MPI_Init_thread failed with %d)", ret);
		return EXIT_SYSTEM;
	}
	m.inited = 1;
	MPI_Comm_rank(MPI_COMM_WORLD, &m.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &m.size);
	if (m.size < 2)
		return EXIT_OK; /* a single rank is a run as any other */
	if (gethostname(m.host, sizeof(m.host) - 1) < 0)
		snprintf(m.host, sizeof(m.host), "unknown");
	if (!same_build())
		return EXIT_USAGE;
	count_host_ranks();
	clock_offsets();
	snprintf(tag, sizeof(tag), "%s-r%d", m.host, m.rank);
	rundir_set_tag(tag);
	/* one report: rank 0's */
	if (m.rank > 0) {
		int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

		fflush(stdout);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			close(fd);
		}
	}
	m.sync = (struct runner_sync){sync_start, sync_poll, sync_wall, sync_end, NULL};
	return EXIT_OK;
}

void mpi_end(void)
{
	if (!m.inited)
		return;
	free(m.sends);
	free(m.starts);
	free(m.ends);
	free(m.wall_at);
	free(m.wall_how);
	free(m.wall_sends);
	free(m.other_fs);
	rank_fs_free(m.fs, m.nfs);
	m.fs = NULL;
	m.nfs = 0;
	MPI_Finalize();
	m.inited = 0;
}

double mpi_target_share(void)
{
	return !mpi_on() ? 1 : m.rank == 0 ? m.size : 0;
}

void mpi_scale_needs(struct preflight_needs *n)
{
	if (!mpi_on())
		return;
	/* rank 0 checks the shared target for every rank */
	n->bytes *= mpi_target_share();
	n->entries *= mpi_target_share();
	if (m.rank == 0) {
		size_t l = strlen(n->what);

		snprintf(n->what + l, sizeof(n->what) - l, " x %d ranks", m.size);
	}
	n->memory *= m.host_ranks;
	n->threads *= m.host_ranks;
	n->processes *= m.host_ranks;
}

/* What each rank says of its target (fixed size: gathered as bytes). */
struct target_id {
	uint64_t dev, magic;
	char type[64];
	char mount_point[1024];
};

void mpi_check_target(int dirfd, const char *path, size_t k)
{
	struct target_id me, *all = NULL;
	char *hosts = NULL, *warn;
	struct rank_target *t;
	struct rank_fs *fs;
	int *other;
	size_t nfs;
	struct mount_info mi;
	struct stat st;
	struct statfs sf;

	if (!mpi_on())
		return;
	memset(&me, 0, sizeof(me));
	if (dirfd >= 0 && fstat(dirfd, &st) == 0)
		me.dev = st.st_dev;
	if (dirfd >= 0 && fstatfs(dirfd, &sf) == 0)
		me.magic = (uint64_t)sf.f_type;
	if (path && env_mount_of(path, &mi) == 0) {
		snprintf(me.type, sizeof(me.type), "%s", mi.fstype);
		snprintf(me.mount_point, sizeof(me.mount_point), "%s", mi.mountpoint);
	}
	if (m.rank == 0) {
		all = xcalloc((size_t)m.size, sizeof(*all));
		hosts = xcalloc((size_t)m.size, sizeof(m.host));
	}
	MPI_Gather(&me, sizeof(me), MPI_BYTE, all, sizeof(me), MPI_BYTE, 0, MPI_COMM_WORLD);
	MPI_Gather(m.host, sizeof(m.host), MPI_CHAR, hosts, sizeof(m.host), MPI_CHAR, 0,
	           MPI_COMM_WORLD);
	if (m.rank != 0)
		return;
	t = xcalloc((size_t)m.size, sizeof(*t));
	for (int r = 0; r < m.size; r++) {
		all[r].type[sizeof(all[r].type) - 1] = 0;
		all[r].mount_point[sizeof(all[r].mount_point) - 1] = 0;
		t[r] = (struct rank_target){hosts + (size_t)r * sizeof(m.host), all[r].dev,
		                            all[r].magic, all[r].type, all[r].mount_point};
	}
	other = xcalloc((size_t)m.size, sizeof(int));
	nfs = rank_fs_group(t, (size_t)m.size, &fs, other);
	warn = rank_fs_warning(fs, nfs);
	if (warn && k)
		msg_warn("target %zu '%s': %s", k + 1, path ? path : "?", warn);
	else if (warn)
		msg_warn("%s", warn);
	free(warn);
	if (k == 0) {
		free(m.other_fs);
		m.other_fs = other;
		rank_fs_free(m.fs, m.nfs);
		m.fs = fs;
		m.nfs = nfs;
	} else {
		free(other);
		rank_fs_free(fs, nfs);
	}
	free(t);
	free(all);
	free(hosts);
}

const struct runner_sync *mpi_sync(void)
{
	return mpi_on() ? &m.sync : NULL;
}

static void send_stop(void)
{
	if (m.sent)
		return;
	m.sent = 1;
	m.stop_out = 1;
	m.sends = xcalloc((size_t)m.size, sizeof(*m.sends));
	for (int r = 0; r < m.size; r++)
		m.sends[r] = MPI_REQUEST_NULL;
	for (int r = 0; r < m.size; r++)
		if (r != m.rank)
			MPI_Isend(&m.stop_out, 1, MPI_INT, r, TAG_STOP, MPI_COMM_WORLD,
			          &m.sends[r]);
}

/* The stonewalls of the phase just over: every one the other ranks sent
 * received (`total`: how many ranks sent one), every one this rank sent
 * delivered; the next phase starts with none. */
/* The tag of the current phase's stonewalls: a rank may start the next
 * phase (and raise its stonewall) before a slower one has received all of
 * this phase's; the one after cannot start before every rank has. */
static int wall_tag(void)
{
	return TAG_WALL + (int)(m.ntimes & 1);
}

static void walls_settle(int total)
{
	int expect = total - m.wall_sent;

	for (; m.wall_nrecv < expect; m.wall_nrecv++)
		MPI_Recv(&m.wall_in, 1, MPI_INT, MPI_ANY_SOURCE, wall_tag(), MPI_COMM_WORLD,
		         MPI_STATUS_IGNORE);
	if (m.wall_sent)
		MPI_Waitall(m.size, m.wall_sends, MPI_STATUSES_IGNORE);
	m.wall_sent = m.wall_nrecv = m.wall_seen = 0;
}

/* One round of the session's agreement, on every rank: {done, stops
 * sent} summed.  A rank at a phase's start says "not done"; one past its
 * last phase says "done" until every rank does.  Every rank is between
 * the same two phases here (a phase starts only when all start it), so
 * the round also settles the last phase's stonewalls. */
static void round_sum(int done, int sum[2])
{
	int v[3] = {done, m.sent, m.wall_sent}, out[3];

	MPI_Allreduce(v, out, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	walls_settle(out[2]);
	sum[0] = out[0];
	sum[1] = out[1];
}

static int sync_start(void *arg)
{
	int sum[2];

	(void)arg;
	round_sum(0, sum);
	if (sum[0] > 0 || sum[1] > 0 || m.stop_seen)
		return 1; /* a rank stopped, or ran out of phases: none starts */
	if (m.ntimes == m.cap) {
		m.cap = m.cap ? 2 * m.cap : 16;
		m.starts = xrealloc(m.starts, m.cap * sizeof(*m.starts));
		m.ends = xrealloc(m.ends, m.cap * sizeof(*m.ends));
		m.wall_at = xrealloc(m.wall_at, m.cap * sizeof(*m.wall_at));
		m.wall_how = xrealloc(m.wall_how, m.cap * sizeof(*m.wall_how));
	}
	m.starts[m.ntimes] = now_s() - m.offset;
	m.ends[m.ntimes] = NAN;
	m.wall_at[m.ntimes] = NAN;
	m.wall_how[m.ntimes] = RANK_WALL_NONE;
	m.ntimes++;
	return 0;
}

/* A message with this tag waiting: received (it is there: no wait). */
static int take(int tag, int *buf)
{
	MPI_Status st;
	int flag = 0;

	MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &flag, &st);
	if (flag)
		MPI_Recv(buf, 1, MPI_INT, st.MPI_SOURCE, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	return flag;
}

static int sync_poll(void *arg)
{
	(void)arg;
	if (!m.stop_seen && take(TAG_STOP, &m.stop_in)) {
		m.stop_seen = 1;
		m.nreceived++;
	}
	if (!m.wall_seen && take(wall_tag(), &m.wall_in)) {
		m.wall_seen = 1;
		m.wall_nrecv++;
		if (m.ntimes && m.wall_how[m.ntimes - 1] == RANK_WALL_NONE) {
			m.wall_how[m.ntimes - 1] = RANK_WALL_PEER;
			m.wall_at[m.ntimes - 1] = now_s() - m.offset;
		}
	}
	return (m.stop_seen ? RUNNER_SYNC_STOP : 0) | (m.wall_seen ? RUNNER_SYNC_WALL : 0);
}

/* This rank's stonewall went up first here: told to every other rank
 * (non-blocking; the next round settles it). */
static void sync_wall(void *arg, uint64_t ns)
{
	(void)arg;
	if (m.wall_sent || m.wall_seen || !m.ntimes)
		return;
	m.wall_how[m.ntimes - 1] = RANK_WALL_RAISED;
	m.wall_at[m.ntimes - 1] = (double)ns / 1e9 - m.offset;
	m.wall_sent = 1;
	m.wall_out = 1;
	if (!m.wall_sends)
		m.wall_sends = xcalloc((size_t)m.size, sizeof(*m.wall_sends));
	for (int r = 0; r < m.size; r++) {
		m.wall_sends[r] = MPI_REQUEST_NULL;
		if (r != m.rank)
			MPI_Isend(&m.wall_out, 1, MPI_INT, r, wall_tag(), MPI_COMM_WORLD,
			          &m.wall_sends[r]);
	}
}

static void sync_end(void *arg, int stopping)
{
	(void)arg;
	if (m.ntimes)
		m.ends[m.ntimes - 1] = now_s() - m.offset;
	if (stopping)
		send_stop();
}

/* Every stop sent to this rank received, every one it sent delivered. */
static void drain_stops(int total_senders)
{
	int expect = total_senders - m.sent;

	for (; m.nreceived < expect; m.nreceived++)
		MPI_Recv(&m.stop_in, 1, MPI_INT, MPI_ANY_SOURCE, TAG_STOP, MPI_COMM_WORLD,
		         MPI_STATUS_IGNORE);
	if (m.sends)
		MPI_Waitall(m.size, m.sends, MPI_STATUSES_IGNORE);
}

/* This run's phases are those since the last (m.base on). */
static void gather(struct result *acc, const struct kvlist *env)
{
	int some = m.ntimes > m.base; /* (the arrays are NULL before any phase) */
	struct rank_info ri = {m.rank,
	                       m.host,
	                       m.offset,
	                       some ? m.starts + m.base : NULL,
	                       some ? m.ends + m.base : NULL,
	                       m.ntimes - m.base,
	                       some ? m.wall_how + m.base : NULL,
	                       some ? m.wall_at + m.base : NULL,
	                       env};
	struct rbuf b = {0};
	int len, *lens = NULL, *displs = NULL, total = 0;
	unsigned char *all = NULL;

	reduce_pack(&b, acc, &ri);
	len = (int)b.len;
	if (m.rank == 0) {
		lens = xcalloc((size_t)m.size, sizeof(int));
		displs = xcalloc((size_t)m.size, sizeof(int));
	}
	MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (m.rank == 0) {
		for (int r = 0; r < m.size; r++) {
			displs[r] = total;
			total += lens[r];
		}
		all = xmalloc(total ? (size_t)total : 1);
	}
	MPI_Gatherv(b.data, len, MPI_BYTE, all, lens, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
	if (m.rank == 0) {
		const unsigned char **bufs = xcalloc((size_t)m.size, sizeof(*bufs));
		size_t *sizes = xcalloc((size_t)m.size, sizeof(*sizes));

		for (int r = 0; r < m.size; r++) {
			bufs[r] = all + displs[r];
			sizes[r] = (size_t)lens[r];
		}
		if (reduce_merge(acc, bufs, sizes, (size_t)m.size, m.other_fs) < 0)
			msg_err("cannot merge the ranks' results: a rank's did not unpack");
		else if (acc->ranks) {
			acc->ranks->fs = m.fs; /* the result owns them now */
			acc->ranks->nfs = m.nfs;
			m.fs = NULL;
			m.nfs = 0;
		}
		free(bufs);
		free(sizes);
	}
	free(all);
	free(lens);
	free(displs);
	free(b.data);
}

int mpi_reduce(struct result *run, const struct kvlist *env, int failed)
{
	int sum[2];

	if (!mpi_on())
		return 0;
	if (failed)
		send_stop();
	do
		round_sum(1, sum);
	while (sum[0] < m.size);
	drain_stops(sum[1]);
	gather(run, env);
	m.base = m.ntimes;
	/* a stop sent is a stop for the session: the same on every rank */
	return sum[1] > 0;
}

#endif /* HAVE_MPI */
