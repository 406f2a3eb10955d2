/* test_ranks.c — unit tests for the MPI reduction without MPI:
 * stats/ranks.c (a phase's figures over the ranks) and mpi/reduce.c
 * (packing a rank's result into a buffer, folding the ranks' buffers into
 * rank 0's result): sums of operations and bytes, merged latency
 * histograms, per-host grouping, the slowest rank, a failed rank's end
 * reason and error, zero and one rank, and buffers that are truncated or
 * corrupt (rejected, never a crash). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/reduce.h"
#include "stats/hist.h"
#include "stats/ranks.h"
#include "stats/result.h"
#include "tap.h"
#include "util/util.h"

#define NRANKS 3

static const char *const first_err = "write 'x/y': No space left on device";

/* Read operations of rank k: rank 1 does few, so it is the slowest. */
static uint64_t read_ops(int k)
{
	return k == 1 ? 10 : 100 * (uint64_t)(k + 1);
}

static uint64_t write_ops(int k)
{
	return 50 + (uint64_t)k;
}

/* What rank k measured: two operations with latencies of its own range,
 * suite metrics, one replay execution; rank 2 stopped on an error. */
static struct result *mk(int k)
{
	struct result *r = result_new("run", "t");
	struct result_phase *p = result_add_phase(r, "run");
	struct result_op *rd, *wr;

	result_phase_add_op(p, "read", "read", OPC_READ);
	result_phase_add_op(p, "write", "write", OPC_WRITE); /* may move ops[] */
	rd = &p->ops[0];
	wr = &p->ops[1];
	kv_add(&r->env, "kernel", "%s", k == 2 ? "6.1" : "6.8");
	p->seconds = 10 + k;
	p->nthreads = 2;
	p->end_reason = k == 2 ? "error" : "duration";
	rd->st.ops = read_ops(k);
	rd->st.bytes_read = 4096 * rd->st.ops;
	for (uint64_t i = 0; i < rd->st.ops; i++)
		hist_add(&rd->st.lat, 1000 * (uint64_t)(k + 1) + i);
	wr->st.ops = write_ops(k);
	wr->st.bytes_written = 8192 * wr->st.ops;
	wr->st.errors = k == 2 ? 3 : 0;
	for (uint64_t i = 0; i < wr->st.ops; i++)
		hist_add(&wr->st.lat, 50000 * (uint64_t)(k + 1) + 7 * i);
	result_phase_add_metric(p, "min_throughput", "KB/s", 10 + k);
	result_phase_add_metric(p, "max_throughput", "KB/s", 10 + k);
	result_phase_add_metric(p, "children_throughput", "KB/s", 100.0 * (k + 1));
	result_phase_add_metric(p, "seconds_per_copy", "s", 2 + k);
	p->execs = xcalloc(1, sizeof(*p->execs));
	p->execs[0] = (struct result_exec){.op = xstrdup("untar"),
	                                   .index = (uint64_t)k,
	                                   .thread = k + 1,
	                                   .start = 0.5 * k,
	                                   .seconds = 1.25 + k,
	                                   .ops = 40 + (uint64_t)k,
	                                   .bytes = 1000 + (uint64_t)k,
	                                   .errors = (uint64_t)(k == 2),
	                                   .complete = k != 2,
	                                   .repeat = 0};
	p->nexecs = 1;
	/* nodeA's ranks (0, 1) see one block device; nodeB's (2) none */
	if (k < 2) {
		p->device.ndev = 1;
		p->device.names = xcalloc(1, sizeof(*p->device.names));
		p->device.names[0] = xstrdup("sda");
		p->device.per = xcalloc(1, sizeof(*p->device.per));
		p->device.total.reads = 10 * (uint64_t)(k + 1);
		p->device.total.writes = 100 * (uint64_t)(k + 1);
		p->device.total.bytes_written = 4096 * p->device.total.writes;
		p->device.per[0] = p->device.total;
	} else {
		p->device.none = xstrdup("nfs has no block device");
	}
	/* two targets: /a on a device (nodeA's sda, nodeB's sdb), /b none */
	p->ntargets = 2;
	p->targets = xcalloc(2, sizeof(*p->targets));
	for (int t = 0; t < 2; t++) {
		struct result_target *x = &p->targets[t];

		x->path = xstrdup(t ? "/b" : "/a");
		x->read_ops = (uint64_t)(k + 1) * (t + 1);
		x->bytes_read = 1000 * (uint64_t)(k + 1) * (t + 1);
		x->bytes_written = 2000 * (uint64_t)(k + 1) * (t + 1);
		if (t) {
			x->device.none = xstrdup("tmpfs has no block device");
			continue;
		}
		x->device.ndev = 1;
		x->device.names = xcalloc(1, sizeof(*x->device.names));
		x->device.names[0] = xstrdup(k < 2 ? "sda" : "sdb");
		x->device.per = xcalloc(1, sizeof(*x->device.per));
		x->device.total.writes = 100 * (uint64_t)(k + 1);
		x->device.per[0] = x->device.total;
	}
	r->errors = k == 2 ? 3 : 0;
	r->stopped_on_error = k == 2;
	r->first_error = k == 2 ? xstrdup(first_err) : NULL;
	return r;
}

static const char *host_of(int k)
{
	return k < 2 ? "nodeA" : "nodeB";
}

/* Rank k's packed result (its phase starts 0.1 s after the previous
 * rank's, on rank 0's clock, and lasts its own seconds).  Its stonewall:
 * rank 1 raised it 0.3 s after its start, rank 0 got it from a peer 0.5 s
 * after the earliest start, rank 2 had none. */
static void pack(struct rbuf *b, const struct result *r, int k)
{
	double start = 0.1 * k, end = start + r->phases[0].seconds;
	int how = k == 1 ? RANK_WALL_RAISED : k == 0 ? RANK_WALL_PEER : RANK_WALL_NONE;
	double at = k == 1 ? start + 0.3 : k == 0 ? 0.5 : NAN;
	struct rank_info ri = {.rank = k,
	                       .host = host_of(k),
	                       .clock_offset = 0.001 * k,
	                       .starts = &start,
	                       .ends = &end,
	                       .ntimes = 1,
	                       .wall_how = &how,
	                       .wall_at = &at};

	reduce_pack(b, r, &ri);
}

/* ---- stats/ranks.c on hand-made rows ---- */

static void row(struct result_rank *rk, int rank, const char *host, double ops, double secs,
                double start, const char *phase)
{
	rk->rank = rank;
	rk->host = xstrdup(host);
	rk->phases = xcalloc(1, sizeof(*rk->phases));
	if (!phase)
		return;
	rk->phases[0] = (struct rank_phase){.name = xstrdup(phase),
	                                    .ops = (uint64_t)ops,
	                                    .seconds = secs,
	                                    .start = start,
	                                    .end_reason = xstrdup("duration")};
	rk->nphases = 1;
}

static void test_summary(void)
{
	struct result_ranks *rr = xcalloc(1, sizeof(*rr));
	struct rank_summary s;
	struct rank_phase p0 = {.ops = 10, .seconds = 0};

	rank_summary(NULL, "run", &s);
	is_int(s.n, 0, "no ranks (NULL): n 0");
	is_int(s.slowest, -1, "no ranks: no slowest rank");
	rank_summary(rr, "run", &s);
	is_int(s.n, 0, "zero ranks: n 0");
	is_int(s.slowest, -1, "zero ranks: no slowest rank");
	is_near(s.skew, 0, 0, "zero ranks: no skew");
	is_near(rank_phase_rate(&p0), 0, 0, "a phase without time has rate 0, not inf");

	rr->v = xcalloc(4, sizeof(*rr->v));
	row(&rr->v[rr->n++], 0, "a", 1000, 10, 0.5, "run");
	rank_summary(rr, "run", &s);
	is_int(s.n, 1, "one rank: n 1");
	is_near(s.min, 100, 1e-9, "one rank: min is its rate");
	ok(s.min == s.max && s.max == s.mean, "one rank: min = max = mean");
	is_int(s.slowest, 0, "one rank: it is the slowest");
	is_near(s.skew, 0, 0, "one rank: no skew");

	row(&rr->v[rr->n++], 5, "b", 300, 10, 0.25, "run");
	row(&rr->v[rr->n++], 7, "b", 0, 0, 9.0, "other"); /* lacks "run" */
	row(&rr->v[rr->n++], 9, "c", 3000, 10, 1.75, "run");
	rank_summary(rr, "run", &s);
	is_int(s.n, 3, "the rank without the phase is left out");
	is_near(s.min, 30, 1e-9, "min over the ranks");
	is_near(s.max, 300, 1e-9, "max over the ranks");
	is_near(s.mean, (100 + 30 + 300) / 3.0, 1e-9, "mean over the ranks");
	is_int(s.slowest, 5, "slowest rank named by its rank number");
	is_near(s.skew, 1.5, 1e-12, "skew: latest start - earliest start of those ranks");
	ok(s.min_seconds == 10 && s.max_seconds == 10 && s.mean_seconds == 10,
	   "seconds: min, max, mean of those ranks");
	ok(rank_find_phase(&rr->v[2], "run") == NULL, "rank_find_phase: absent phase");
	ok(rank_find_phase(&rr->v[2], "other") == &rr->v[2].phases[0], "rank_find_phase: found");
	rank_summary(rr, "nosuch", &s);
	is_int(s.n, 0, "a phase no rank ran: n 0");
	is_int(s.slowest, -1, "a phase no rank ran: no slowest");
	rr->v[0].phases[0].ops = 300; /* a tie with rank 5 at 30 ops/s */
	rr->v[0].phases[0].seconds = 10;
	rank_summary(rr, "run", &s);
	is_int(s.slowest, 0, "equal rates: the first rank is the slowest");
	result_ranks_free(rr);
}

/* ---- mpi/reduce.c ---- */

static uint64_t hist_count_sum(struct result **rs, size_t op)
{
	uint64_t n = 0;

	for (int k = 0; k < NRANKS; k++)
		n += rs[k]->phases[0].ops[op].st.lat.count;
	return n;
}

static void check_ops(const struct result *acc, struct result **rs)
{
	const struct result_phase *a = &acc->phases[0];
	uint64_t ops = 0, rb = 0, wb = 0, errs = 0;

	for (size_t o = 0; o < 2; o++) {
		const struct hist *h = &a->ops[o].st.lat;
		uint64_t lo = UINT64_MAX, hi = 0, sum = 0;

		for (int k = 0; k < NRANKS; k++) {
			const struct op_stats *st = &rs[k]->phases[0].ops[o].st;

			sum += st->ops;
			lo = MIN(lo, st->lat.min);
			hi = MAX(hi, st->lat.max);
		}
		is_int(a->ops[o].st.ops, sum, "%s: ops summed over the ranks", a->ops[o].name);
		is_int(h->count, hist_count_sum(rs, o), "%s: histogram count = sum of counts",
		       a->ops[o].name);
		is_int(h->min, lo, "%s: merged min is the ranks' least", a->ops[o].name);
		is_int(h->max, hi, "%s: merged max is the ranks' largest", a->ops[o].name);
		for (double q = 0.01; q < 1; q += 0.245) {
			uint64_t v = hist_quantile(h, q);

			ok(v >= lo && v <= hi, "%s: p%.0f %llu within the ranks' [%llu, %llu]",
			   a->ops[o].name, q * 100, (unsigned long long)v, (unsigned long long)lo,
			   (unsigned long long)hi);
		}
	}
	for (int k = 0; k < NRANKS; k++) {
		ops += read_ops(k) + write_ops(k);
		rb += 4096 * read_ops(k);
		wb += 8192 * write_ops(k);
		errs += rs[k]->phases[0].ops[1].st.errors;
	}
	is_int(a->ops[0].st.bytes_read, rb, "bytes read summed");
	is_int(a->ops[1].st.bytes_written, wb, "bytes written summed");
	is_int(a->ops[1].st.errors, errs, "operation errors summed");
	is_int(a->ops[0].st.ops + a->ops[1].st.ops, ops, "all operations summed");
	is_int(a->nthreads, 2 * NRANKS, "threads summed");
}

static void check_rows(const struct result *acc)
{
	const struct result_ranks *rr = acc->ranks;
	uint64_t ops = 0, bytes = 0;
	struct rank_summary s;

	is_int(rr->n, NRANKS, "one row per rank");
	for (size_t i = 0; i < rr->n && i < NRANKS; i++) {
		const struct result_rank *r = &rr->v[i];
		const struct rank_phase *p = rank_find_phase(r, "run");
		int k = (int)i;

		is_int(r->rank, k, "row %zu: its rank", i);
		is_str(r->host, host_of(k), "row %zu: its host", i);
		is_near(r->clock_offset, 0.001 * k, 1e-15, "row %zu: its clock offset", i);
		if (!ok(p != NULL, "row %zu: has the phase", i))
			continue;
		is_int(p->ops, read_ops(k) + write_ops(k), "row %zu: its own operations", i);
		is_int(p->bytes, 4096 * read_ops(k) + 8192 * write_ops(k), "row %zu: its bytes", i);
		is_int(p->errors, k == 2 ? 3 : 0, "row %zu: its errors", i);
		is_near(p->seconds, 10 + k, 1e-12, "row %zu: its own phase time", i);
		is_near(p->start, 0.1 * k, 1e-12, "row %zu: start after the earliest rank", i);
		is_str(p->end_reason, k == 2 ? "error" : "duration", "row %zu: its end reason", i);
		is_int(p->wall, k == 1 ? RANK_WALL_RAISED : k == 0 ? RANK_WALL_PEER : RANK_WALL_NONE,
		       "row %zu: how its stonewall came", i);
		if (k < 2)
			is_near(p->wall_at, k ? 0.4 : 0.5, 1e-12,
			        "row %zu: when, after the earliest start", i);
		else
			ok(isnan(p->wall_at), "row %zu: no stonewall, no time", i);
		ops += p->ops;
		bytes += p->bytes;
	}
	is_int(ops, acc->phases[0].ops[0].st.ops + acc->phases[0].ops[1].st.ops,
	       "rows' operations add up to the merged phase's");
	is_int(bytes, acc->phases[0].ops[0].st.bytes_read + acc->phases[0].ops[1].st.bytes_written,
	       "rows' bytes add up to the merged phase's");
	is_int(rr->nhosts, 2, "two distinct hosts");
	if (rr->nhosts == 2) {
		is_str(rr->hosts[0].host, "nodeA", "host 0: nodeA");
		is_int(rr->hosts[0].nranks, 2, "nodeA: two ranks");
		ok(rr->hosts[0].ranks[0] == 0 && rr->hosts[0].ranks[1] == 1,
		   "nodeA: ranks 0 and 1");
		is_str(rr->hosts[1].host, "nodeB", "host 1: nodeB");
		ok(rr->hosts[1].nranks == 1 && rr->hosts[1].ranks[0] == 2, "nodeB: rank 2 only");
		is_str(kv_get(&rr->hosts[1].env, "kernel"), "6.1", "nodeB: its own environment");
		is_str(kv_get(&rr->hosts[0].env, "kernel"), "6.8", "nodeA: its own environment");
		ok(rr->hosts[0].nphases == 1 && !strcmp(rr->hosts[0].phases[0].name, "run") &&
		       rr->hosts[0].phases[0].ndev == 1 && !rr->hosts[0].phases[0].none,
		   "nodeA: its phase, with its one device");
		ok(rr->hosts[0].phases[0].device.reads == 10 &&
		       rr->hosts[0].phases[0].device.writes == 100 &&
		       rr->hosts[0].phases[0].device.bytes_written == 409600,
		   "nodeA: its first rank's device counters (rank 1's are the same devices)");
		is_near(rr->hosts[0].phases[0].seconds, 10, 0, "nodeA: that rank's phase time");
		ok(rr->hosts[1].nphases == 1 && rr->hosts[1].phases[0].ndev == 0 &&
		       rr->hosts[1].phases[0].none &&
		       !strcmp(rr->hosts[1].phases[0].none, "nfs has no block device"),
		   "nodeB: no device, and why");
	}
	is_int(acc->phases[0].device.total.reads, 10,
	       "phase device counters: nodeA's once, nodeB has none");
	rank_summary(rr, "run", &s);
	is_int(s.n, NRANKS, "summary over every rank");
	is_int(s.slowest, 1, "slowest rank: the one with the lowest ops/s");
	is_near(s.min, (double)(read_ops(1) + write_ops(1)) / 11, 1e-9, "min rate: rank 1's");
	is_near(s.max, (double)(read_ops(2) + write_ops(2)) / 12, 1e-9, "max rate: rank 2's");
	ok(s.min <= s.mean && s.mean <= s.max, "mean within [min, max]");
	is_near(s.skew, 0.2, 1e-12, "start skew: 0.2 s");
	is_near(s.min_seconds, 10, 0, "min seconds: rank 0's");
	is_near(s.max_seconds, 12, 0, "max seconds: rank 2's");
	is_near(s.mean_seconds, 11, 1e-12, "mean seconds over the ranks");
	is_int(s.wall_rank, 1, "stonewall: raised by rank 1");
	is_near(s.wall_at, 0.4, 1e-12, "stonewall: when rank 1 raised it");
	is_int(s.wall_peers, 1, "stonewall: one rank stopped by it");
	is_str(rank_wall_name(RANK_WALL_PEER), "peer", "wall names: peer");
	ok(rank_wall_name(RANK_WALL_NONE) == NULL, "wall names: none is NULL");
}

static void check_rest(const struct result *acc)
{
	const struct result_phase *a = &acc->phases[0];

	if (ok(a->ntargets == 2, "two targets kept")) {
		const struct result_target *x = &a->targets[0], *y = &a->targets[1];

		ok(x->read_ops == 6 && x->bytes_read == 6000 && x->bytes_written == 12000 &&
		       y->read_ops == 12 && y->bytes_read == 12000 && y->bytes_written == 24000,
		   "each target's bytes: the ranks' sum");
		is_int(x->device.total.writes, 100 + 300,
		       "a target's devices: each host's once (nodeA's rank 0, nodeB's rank 2)");
		ok(!strcmp(x->path, "/a") && y->device.none && !y->device.ndev,
		   "rank 0's names kept; a target without devices stays without");
	}

	is_str(a->end_reason, "error", "phase end reason: a failed rank's error wins");
	is_int(acc->errors, 3, "result errors summed");
	ok(acc->stopped_on_error, "stopped on error when any rank was");
	is_str(acc->first_error, "rank 2: write 'x/y': No space left on device",
	       "first error names the rank that had it");
	is_near(a->seconds, 0.2 + 12, 1e-9, "phase time: first start to last end");
	is_near(result_phase_metric(a, "min_throughput", -1), 10, 1e-12, "min_ metric: least");
	is_near(result_phase_metric(a, "max_throughput", -1), 12, 1e-12, "max_ metric: largest");
	is_near(result_phase_metric(a, "children_throughput", -1), 600, 1e-9, "KB/s metric: sum");
	is_near(result_phase_metric(a, "seconds_per_copy", -1), 3, 1e-12, "s metric: mean");
	is_int(a->nexecs, NRANKS, "executions: every rank's appended");
	for (size_t i = 0; i < a->nexecs; i++) {
		const struct result_exec *x = &a->execs[i];
		int k = (int)x->index;

		ok(x->index == i && !strcmp(x->op, "untar") && x->thread == k + 1 &&
		       x->start == 0.5 * k && x->seconds == 1.25 + k &&
		       x->ops == 40 + (uint64_t)k && x->bytes == 1000 + (uint64_t)k &&
		       x->errors == (uint64_t)(k == 2) && x->complete == (k != 2) && x->repeat == 0 &&
		       x->rank == k,
		   "execution %zu comes back field for field", i);
	}
}

static void test_merge(void)
{
	struct result *rs[NRANKS], *acc = mk(0);
	struct rbuf b[NRANKS] = {{0}};
	const unsigned char *bufs[NRANKS];
	size_t lens[NRANKS];
	int other[NRANKS] = {0, 0, 1};

	for (int k = 0; k < NRANKS; k++) {
		rs[k] = mk(k);
		pack(&b[k], k ? rs[k] : acc, k);
		bufs[k] = b[k].data;
		lens[k] = b[k].len;
	}
	is_int(reduce_merge(acc, bufs, lens, NRANKS, other), 0, "three ranks merge");
	check_ops(acc, rs);
	if (ok(acc->ranks != NULL, "rank rows kept"))
		check_rows(acc);
	ok(acc->ranks && acc->ranks->v[2].other_fs && !acc->ranks->v[1].other_fs,
	   "other file system flag per rank");
	check_rest(acc);
	for (int k = 0; k < NRANKS; k++) {
		result_free(rs[k]);
		free(b[k].data);
	}
	result_free(acc);
}

/* Rank 1's statistics travel as they are: acc = rank 0 + rank 1 exactly. */
static void test_round_trip(void)
{
	struct result *acc = mk(0), *r1 = mk(1), *want = mk(0);
	struct rbuf b0 = {0}, b1 = {0};
	const unsigned char *bufs[2];
	size_t lens[2];

	pack(&b0, acc, 0);
	pack(&b1, r1, 1);
	bufs[0] = b0.data, bufs[1] = b1.data;
	lens[0] = b0.len, lens[1] = b1.len;
	for (size_t o = 0; o < 2; o++)
		op_stats_merge(&want->phases[0].ops[o].st, &r1->phases[0].ops[o].st);
	is_int(reduce_merge(acc, bufs, lens, 2, NULL), 0, "two ranks merge");
	for (size_t o = 0; o < 2; o++) {
		const struct op_stats *g = &acc->phases[0].ops[o].st,
		                      *w = &want->phases[0].ops[o].st;

		ok(g->ops == w->ops && g->errors == w->errors && g->bytes_read == w->bytes_read &&
		       g->bytes_written == w->bytes_written &&
		       !memcmp(&g->lat, &w->lat, sizeof(g->lat)),
		   "%s: the packed statistics come back byte for byte", acc->phases[0].ops[o].name);
	}
	ok(acc->ranks && acc->ranks->n == 2 && acc->ranks->nhosts == 1 &&
	       !strcmp(acc->ranks->v[1].host, "nodeA") && acc->ranks->v[1].rank == 1 &&
	       !acc->ranks->v[1].other_fs,
	   "two ranks on one host: one host row, rank and host kept");
	ok(acc->first_error == NULL, "no rank failed: no first error");
	result_free(acc);
	result_free(r1);
	result_free(want);
	free(b0.data);
	free(b1.data);
}

static void test_zero_and_one(void)
{
	struct result *acc = mk(2);
	struct rbuf b = {0};
	const unsigned char *bufs[1];
	size_t lens[1];

	is_int(reduce_merge(acc, NULL, NULL, 0, NULL), 0, "zero ranks: nothing to do");
	ok(acc->ranks == NULL, "zero ranks: no rank rows");
	is_int(acc->phases[0].ops[0].st.ops, read_ops(2), "zero ranks: operations unchanged");
	/* rank 0 alone (host nodeB here, with its error) */
	pack(&b, acc, 2);
	bufs[0] = b.data;
	lens[0] = b.len;
	is_int(reduce_merge(acc, bufs, lens, 1, NULL), 0, "one rank merges");
	is_int(acc->phases[0].ops[0].st.ops, read_ops(2), "one rank: operations unchanged");
	is_int(acc->phases[0].ops[0].st.lat.count, read_ops(2), "one rank: histogram unchanged");
	is_int(acc->errors, 3, "one rank: errors unchanged");
	is_str(acc->first_error, first_err, "one rank: its error is not prefixed with a rank");
	ok(acc->ranks && acc->ranks->n == 1 && acc->ranks->nhosts == 1,
	   "one rank: one row, one host");
	if (acc->ranks && acc->ranks->n == 1) {
		is_int(acc->ranks->v[0].phases[0].ops, read_ops(2) + write_ops(2),
		       "one rank: its row");
		is_str(acc->ranks->v[0].phases[0].end_reason, "error", "one rank: its end reason");
	}
	is_near(acc->phases[0].seconds, 12, 1e-9, "one rank: its own phase time");
	free(b.data);
	result_free(acc);
}

/* Merge rank 0's own buffer and `bad`; returns reduce_merge()'s value and
 * whether acc was left as it was when it failed. */
static int merge_bad(const struct rbuf *own, const unsigned char *bad, size_t len, int *untouched)
{
	struct result *acc = mk(0);
	const unsigned char *bufs[2] = {own->data, bad};
	size_t lens[2] = {own->len, len};
	int ret = reduce_merge(acc, bufs, lens, 2, NULL);

	*untouched = acc->ranks == NULL && acc->phases[0].ops[0].st.ops == read_ops(0) &&
	             acc->phases[0].nexecs == 1 && acc->errors == 0 && acc->nphases == 1;
	if (!ret && !(acc->ranks && acc->ranks->n == 2))
		ret = 1; /* accepted but not merged: a failure of the test */
	result_free(acc);
	return ret;
}

/* Every position the sweep visits: all of the first and last 4 KiB (the
 * header, strings, counts, metrics and executions), every 251st byte of
 * the histograms' buckets between.  Under ThreadSanitizer, which has no
 * threads to watch here and makes each merge about a thousand times
 * slower (its allocator clears the shadow of every large block), every
 * 29th and every 4001st: the sweep took ten minutes of CI there, and
 * the plain and ASan builds still visit every position. */
#if defined(__SANITIZE_THREAD__)
#define SWEEP_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SWEEP_TSAN 1
#endif
#endif
#ifdef SWEEP_TSAN
enum { SWEEP_EDGE_STEP = 29, SWEEP_MID_STEP = 4001 };
#else
enum { SWEEP_EDGE_STEP = 1, SWEEP_MID_STEP = 251 };
#endif

static size_t next_pos(size_t i, size_t len)
{
	if (i < 4096 || i + 4096 >= len)
		return i + SWEEP_EDGE_STEP;
	return i + SWEEP_MID_STEP;
}

static void test_corrupt(void)
{
	struct result *r1 = mk(2), *r0 = mk(0);
	struct rbuf own = {0}, b = {0};
	unsigned char *c;
	int untouched, ret, all = 1, rejected = 1, kept = 1;
	size_t tried = 0, accepted = 0;

	pack(&own, r0, 0);
	pack(&b, r1, 2);
	c = xmalloc(b.len + 1);
	is_int(merge_bad(&own, b.data, b.len, &untouched), 0, "the intact buffer merges");
	/* every truncation is rejected, and leaves rank 0's result alone */
	for (size_t n = 0; n < b.len; n = next_pos(n, b.len)) {
		memcpy(c, b.data, n);
		ret = merge_bad(&own, c, n, &untouched);
		rejected &= ret == -EINVAL;
		kept &= untouched;
		tried++;
	}
	ok(rejected, "%zu truncated buffers rejected with -EINVAL", tried);
	ok(kept, "rank 0's result unchanged after a rejected buffer");
	memcpy(c, b.data, b.len);
	c[b.len] = 0;
	is_int(merge_bad(&own, c, b.len + 1, &untouched), -EINVAL, "a trailing byte is rejected");
	memcpy(c, b.data, b.len);
	c[0] ^= 1;
	is_int(merge_bad(&own, c, b.len, &untouched), -EINVAL, "a wrong magic is rejected");
	ok(untouched, "wrong magic: rank 0's result unchanged");
	/* any byte overwritten: rejected, or accepted and merged; never a crash */
	tried = 0;
	for (size_t i = 0; i < b.len; i = next_pos(i, b.len)) {
		static const unsigned char vals[] = {0xff, 0x00, 0x7f};

		for (size_t v = 0; v < ARRAY_SIZE(vals); v++) {
			memcpy(c, b.data, b.len);
			if (c[i] == vals[v])
				continue;
			c[i] = vals[v];
			ret = merge_bad(&own, c, b.len, &untouched);
			all &= ret == 0 || (ret == -EINVAL && untouched);
			accepted += ret == 0;
			tried++;
		}
	}
	ok(all, "%zu corrupt buffers: each rejected (acc unchanged) or merged (%zu)", tried,
	   accepted);
	free(c);
	free(own.data);
	free(b.data);
	result_free(r0);
	result_free(r1);
}

static void test_metric_rule(void)
{
	is_int(reduce_metric_rule("min_throughput", "KB/s"), REDUCE_MIN, "min_*: least");
	is_int(reduce_metric_rule("max_throughput", "KB/s"), REDUCE_MAX, "max_*: largest");
	is_int(reduce_metric_rule("bonnie_max_latency", "us"), REDUCE_MAX, "*_max_*: largest");
	is_int(reduce_metric_rule("avg_throughput", "KB/s"), REDUCE_MEAN, "avg_*: mean");
	is_int(reduce_metric_rule("files_per_second", "files/s"), REDUCE_SUM, "a rate /s: sum");
	is_int(reduce_metric_rule("bonnie_per_sec", "/sec"), REDUCE_SUM, "a rate /sec: sum");
	is_int(reduce_metric_rule("min_xfer", "KB"), REDUCE_MIN, "min_ before the unit");
	is_int(reduce_metric_rule("t0.xfer", "KB"), REDUCE_SUM, "an amount in KB: sum");
	is_int(reduce_metric_rule("bonnie_cpu", "%"), REDUCE_MEAN, "a percentage: mean");
	is_int(reduce_metric_rule("seconds_per_copy", "s"), REDUCE_MEAN, "seconds: mean");
	is_int(reduce_metric_rule("x", NULL), REDUCE_MEAN, "no unit: mean");
}

/* ---- the ranks' targets by file system ---- */

static void test_fs_group(void)
{
	/* ranks 0, 1 on one tmpfs of host a; rank 2 on ext4 on a; rank 3 on
	 * tmpfs on host b (another device number: one file system as far as
	 * we can tell); rank 4 on a's tmpfs again; rank 5 on another tmpfs of a */
	const struct rank_target t[] = {
		{"a", 0x1b, 0x01021994, "tmpfs", "/dev/shm"},
		{"a", 0x1b, 0x01021994, "tmpfs", "/dev/shm"},
		{"a", 0xfe00, 0xef53, "ext4", "/"},
		{"b", 0x2c, 0x01021994, "tmpfs", "/dev/shm"},
		{"a", 0x1b, 0x01021994, "tmpfs", "/dev/shm"},
		{"a", 0x2d, 0x01021994, "tmpfs", "/run"},
	};
	const struct rank_target nomnt[] = {
		{"a", 1, 0xef53, "", ""},
		{"a", 1, 0xef53, "", ""},
	};
	int other[6] = {9, 9, 9, 9, 9, 9};
	struct rank_fs *fs;
	size_t n = rank_fs_group(t, 6, &fs, other);
	char *w;

	is_int(n, 3, "three file systems: a's tmpfs (b's counts as it), ext4, a's other tmpfs");
	ok(fs[0].nranks == 4 && fs[0].ranks[0] == 0 && fs[0].ranks[1] == 1 && fs[0].ranks[2] == 3 &&
	       fs[0].ranks[3] == 4,
	   "group 0: rank 0's, with the same type on another host");
	ok(fs[1].nranks == 1 && fs[1].ranks[0] == 2, "group 1: the ext4 rank");
	ok(fs[2].nranks == 1 && fs[2].ranks[0] == 5, "group 2: same type, another device, one host");
	ok(!other[0] && !other[1] && other[2] && !other[3] && !other[4] && other[5],
	   "other_fs: the ranks outside rank 0's group");
	is_str(fs[1].type, "ext4", "type from mountinfo");
	is_str(fs[1].device, "254:0", "device as major:minor");
	is_str(fs[1].mount_point, "/", "mount point");
	w = rank_fs_warning(fs, n);
	is_str(w,
	       "the ranks' targets are on 3 file systems, and their figures are reduced together: "
	       "tmpfs at /dev/shm (device 0:27 on a; ranks 0,1,3,4); ext4 at / (device 254:0 on a; "
	       "rank 2); tmpfs at /run (device 0:45 on a; rank 5)",
	       "the warning names each file system and its ranks");
	free(w);
	ok(rank_fs_warning(fs, 1) == NULL, "one file system: no warning");
	ok(rank_fs_warning(NULL, 0) == NULL, "none known: no warning");
	rank_fs_free(fs, n);

	n = rank_fs_group(nomnt, 2, &fs, NULL);
	is_int(n, 1, "same device and magic, no mountinfo: one file system");
	is_str(fs[0].type, "0xef53", "no type name: the statfs magic");
	w = rank_fs_warning(fs, n);
	ok(w == NULL, "one file system: no warning");
	rank_fs_free(fs, n);
	n = rank_fs_group(NULL, 0, &fs, NULL);
	ok(n == 0 && fs == NULL, "zero ranks: no file systems");
}


/* --repeat under mpirun: three runs, each reduced over the ranks (rank k
 * runs its phase run+1 seconds longer each run, its operations as mk()'s
 * times run+1), folded with result_merge_repeat(): each run's reduced
 * figures are one element of the phase's repeats and the sum of that
 * run's rank rows; the rows add up over the runs, keep each run's, and
 * give each run's summary; the host rows take the session's environment
 * (a run's result has none) and add up their devices. */
#define NRUNS 3

static struct result *mk_run(int k, unsigned run)
{
	struct result *r = mk(k);
	struct result_phase *p = &r->phases[0];

	for (size_t o = 0; o < p->nops; o++)
		p->ops[o].st.ops *= run + 1;
	p->seconds += run;
	kv_free(&r->env); /* a run's result: no environment of its own */
	return r;
}

static void fold_run(struct result *acc, unsigned run, const struct kvlist *env)
{
	struct result *one = mk_run(0, run), *rs[NRANKS];
	struct rbuf b[NRANKS] = {{0}};
	const unsigned char *bufs[NRANKS];
	size_t lens[NRANKS];

	for (int k = 0; k < NRANKS; k++) {
		double start = 0.1 * k, end;
		int how = RANK_WALL_NONE;
		double at = NAN;
		struct rank_info ri = {k, host_of(k), 0, &start, &end, 1, &how, &at, env};

		rs[k] = k ? mk_run(k, run) : one;
		end = start + rs[k]->phases[0].seconds;
		reduce_pack(&b[k], rs[k], &ri);
		bufs[k] = b[k].data;
		lens[k] = b[k].len;
	}
	is_int(reduce_merge(one, bufs, lens, NRANKS, NULL), 0, "run %u: three ranks merge", run);
	result_merge_repeat(acc, one);
	result_free(one);
	for (int k = 0; k < NRANKS; k++) {
		if (k)
			result_free(rs[k]);
		free(b[k].data);
	}
}

static uint64_t rank_run_ops(int k, unsigned run)
{
	return (read_ops(k) + write_ops(k)) * (run + 1);
}

static void check_repeat_rows(const struct result *acc)
{
	const struct result_ranks *rr = acc->ranks;
	int each = 1, sums = 1;

	is_int(rr->nruns, NRUNS, "three runs folded into the rows");
	is_int(rr->n, NRANKS, "one row per rank, not per run");
	for (size_t i = 0; i < rr->n; i++) {
		const struct rank_phase *rp = rank_find_phase(&rr->v[i], "run");
		int k = rr->v[i].rank;
		uint64_t ops = 0;
		double secs = 0;

		if (!rp || rp->nruns != NRUNS) {
			each = sums = 0;
			continue;
		}
		for (unsigned run = 0; run < NRUNS; run++) {
			each &= rp->runs[run].repeat == run && rp->runs[run].ops == rank_run_ops(k, run) &&
			        rp->runs[run].seconds == 10 + k + run && rp->runs[run].nruns == 0;
			ops += rank_run_ops(k, run);
			secs += 10 + k + run;
		}
		sums &= rp->ops == ops && rp->seconds == secs &&
		        !strcmp(rp->end_reason, k == 2 ? "error" : "duration");
	}
	ok(each, "each rank keeps each run's row: its run, operations and seconds");
	ok(sums, "each rank's row adds its runs up (ops, seconds), an error's end kept");
	for (unsigned run = 0; run < NRUNS; run++) {
		const struct result_headline *h = &acc->phases[0].repeats[run];
		struct rank_summary s;
		uint64_t sum = 0;

		for (size_t i = 0; i < rr->n; i++)
			sum += rank_find_phase(&rr->v[i], "run")->runs[run].ops;
		is_int(h->ops, sum, "run %u: the reduced operations are its rank rows' sum", run);
		rank_summary_run(rr, "run", run, &s);
		ok(s.n == NRANKS && s.slowest == 1 && s.min_seconds == 10 + run &&
		       s.max_seconds == 12 + run && fabs(s.skew - 0.2) < 1e-9,
		   "run %u: its summary over the ranks (slowest rank 1, seconds, skew)", run);
	}
}

static void test_repeat(void)
{
	struct result *acc = result_new("run", "t");
	struct result_ranks *none = NULL;
	struct kvlist env = {0};
	const struct result_host *a;
	struct rank_summary s;

	kv_add(&env, "kernel", "%s", "6.9");
	for (unsigned run = 0; run < NRUNS; run++)
		fold_run(acc, run, &env);
	if (!ok(acc->nphases == 1 && acc->phases[0].nrepeats == NRUNS && acc->ranks,
	        "one phase with three repeats, and rank rows"))
		goto out;
	check_repeat_rows(acc);
	rank_summary(acc->ranks, "run", &s);
	ok(s.n == NRANKS && s.slowest == 1, "all runs together: the slowest rank is rank 1");
	a = &acc->ranks->hosts[0];
	ok(acc->ranks->nhosts == 2 && !strcmp(a->host, "nodeA") && a->nphases == 1 &&
	       a->phases[0].device.reads == NRUNS * 10 && a->phases[0].seconds == 3 * 10 + 3 &&
	       !strcmp(kv_get(&a->env, "kernel"), "6.9"),
	   "host rows: one per host, devices and seconds added, the session's environment");
	ok(acc->stopped_on_error && acc->first_error &&
	       !strcmp(acc->first_error, "rank 2: write 'x/y': No space left on device"),
	   "the first run's first error, with its rank");
	result_ranks_merge_repeat(&acc->ranks, &none);
	ok(acc->ranks->nruns == NRUNS, "folding no rows changes nothing");
out:
	kv_free(&env);
	result_free(acc);
}

int main(void)
{
	test_summary();
	test_fs_group();
	test_metric_rule();
	test_merge();
	test_round_trip();
	test_zero_and_one();
	test_corrupt();
	test_repeat();
	return done_testing();
}
