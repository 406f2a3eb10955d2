/* ranks.c — the per-rank and per-host rows of an MPI run, as text and
 * JSON (the "ranks" and "hosts" arrays: docs/json-format.md, docs/mpi.md). */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "stats/ranks.h"

static const char *host_of(const struct result_ranks *rr, int rank)
{
	for (size_t i = 0; i < rr->n; i++)
		if (rr->v[i].rank == rank)
			return rr->v[i].host;
	return "?";
}

/* What each host's block devices did in phase `name` (the phase's own
 * Devices line is their sum). */
static void hosts_device_text(FILE *f, const struct result_ranks *rr, const char *name)
{
	for (size_t i = 0; i < rr->nhosts; i++) {
		const struct result_host *h = &rr->hosts[i];
		const struct host_phase *hp = result_host_phase(h, name);

		if (!hp)
			continue;
		fprintf(f, "devices of host %s (rank%s", h->host, h->nranks == 1 ? "" : "s");
		for (size_t k = 0; k < h->nranks; k++)
			fprintf(f, "%s%d", k ? "," : " ", h->ranks[k]);
		if (!hp->ndev)
			fprintf(f, "): none (%s)\n", hp->none ? hp->none : "not measured");
		else
			fprintf(f, "): %llu reads %.1f MiB, %llu writes %.1f MiB, busy %llu ms\n",
			        (unsigned long long)hp->device.reads,
			        (double)hp->device.bytes_read / 1048576.0,
			        (unsigned long long)hp->device.writes,
			        (double)hp->device.bytes_written / 1048576.0,
			        (unsigned long long)hp->device.busy_ms);
	}
}

/* The stonewall across ranks: who raised it first, when, whom it stopped. */
static void wall_text(FILE *f, const struct result_ranks *rr, const char *name,
                      const struct rank_summary *s)
{
	size_t k = 0;

	fprintf(f, "stonewall: raised by rank %d (%s) %.6f s after the first start; ", s->wall_rank,
	        host_of(rr, s->wall_rank), s->wall_at);
	if (!s->wall_peers)
		fprintf(f, "no other rank was stopped by it");
	else
		fprintf(f, "it stopped rank%s", s->wall_peers == 1 ? "" : "s");
	for (size_t i = 0; i < rr->n; i++) {
		const struct rank_phase *rp = rank_find_phase(&rr->v[i], name);

		if (rp && rp->wall == RANK_WALL_PEER)
			fprintf(f, "%s%d", k++ ? "," : " ", rr->v[i].rank);
	}
	fputc('\n', f);
}

/* --repeat: each run's figures over the ranks, a line per run. */
static void runs_text(FILE *f, const struct result_ranks *rr, const char *name)
{
	for (unsigned k = 0; rr->nruns > 1 && k < rr->nruns; k++) {
		struct rank_summary s;

		rank_summary_run(rr, name, k, &s);
		if (!s.n)
			continue;
		fprintf(f,
		        "run %u: ops/s min %.1f, max %.1f, mean %.1f; slowest rank %d (%s); "
		        "seconds min %.3f, max %.3f; start skew %.6f s\n",
		        k + 1, s.min, s.max, s.mean, s.slowest, host_of(rr, s.slowest),
		        s.min_seconds, s.max_seconds, s.skew);
	}
}

void output_ranks_text(FILE *f, const struct result *r)
{
	const struct result_ranks *rr = r->ranks;
	double off = 0;
	char *warn;

	if (!rr || !rr->n)
		return;
	for (size_t i = 0; i < rr->n; i++)
		off = fmax(off, fabs(rr->v[i].clock_offset));
	fprintf(f, "\nMPI: %zu ranks on %zu host%s (clock offsets to rank 0 up to %.6f s)\n", rr->n,
	        rr->nhosts, rr->nhosts == 1 ? "" : "s", off);
	warn = rank_fs_warning(rr->fs, rr->nfs);
	if (warn)
		fprintf(f, "WARNING: %s\n", warn);
	free(warn);
	for (size_t p = 0; p < r->nphases; p++) {
		struct rank_summary s;

		rank_summary(rr, r->phases[p].name, &s);
		if (!s.n)
			continue;
		fprintf(
		    f,
		    "phase %s over %zu ranks%s: ops/s min %.1f, max %.1f, mean %.1f; slowest rank "
		    "%d (%s); start skew %.6f s\n",
		    r->phases[p].name, s.n, rr->nruns > 1 ? ", all runs together" : "", s.min,
		    s.max, s.mean, s.slowest, host_of(rr, s.slowest), s.skew);
		fprintf(f,
		        "seconds per rank: min %.3f, max %.3f, mean %.3f; spread %.3f s "
		        "(max - min)\n",
		        s.min_seconds, s.max_seconds, s.mean_seconds, s.max_seconds - s.min_seconds);
		if (s.wall_rank >= 0)
			wall_text(f, rr, r->phases[p].name, &s);
		fprintf(f, "%6s %-20s %12s %12s %10s %10s %8s\n", "rank", "host", "ops", "ops/s",
		        "seconds", "start s", "end");
		for (size_t i = 0; i < rr->n; i++) {
			const struct rank_phase *rp = rank_find_phase(&rr->v[i], r->phases[p].name);

			if (rp)
				fprintf(f, "%6d %-20s %12llu %12.1f %10.3f %10.6f %8s\n",
				        rr->v[i].rank, rr->v[i].host, (unsigned long long)rp->ops,
				        rank_phase_rate(rp), rp->seconds, rp->start,
				        rp->end_reason ? rp->end_reason : "");
		}
		hosts_device_text(f, rr, r->phases[p].name);
		runs_text(f, rr, r->phases[p].name);
	}
}

static json_t *rnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* hosts[].phases: per phase, what the host's block devices did */
static json_t *host_phases_json(const struct result_host *h)
{
	json_t *a = json_array();

	for (size_t p = 0; p < h->nphases; p++) {
		const struct host_phase *hp = &h->phases[p];
		json_t *q = json_object(), *dev;

		json_object_set_new(q, "name", json_string(hp->name));
		json_object_set_new(q, "seconds", rnum(hp->seconds));
		if (hp->ndev) {
			dev = output_dev_io_json(&hp->device, hp->seconds, hp->ndev, 0, 0, 0);
		} else {
			dev = json_object();
			json_object_set_new(dev, "none",
			                    json_string(hp->none ? hp->none : "not measured"));
		}
		json_object_set_new(q, "device", dev);
		json_array_append_new(a, q);
	}
	return a;
}

/* file_systems: the ranks' targets by file system, and the warning */
static void fs_json(json_t *o, const struct result_ranks *rr)
{
	json_t *a = json_array();
	char *warn = rank_fs_warning(rr->fs, rr->nfs);

	for (size_t i = 0; i < rr->nfs; i++) {
		const struct rank_fs *fs = &rr->fs[i];
		json_t *j = json_object(), *rk = json_array();

		json_object_set_new(j, "type", json_string(fs->type));
		json_object_set_new(j, "mount_point", json_string(fs->mount_point));
		json_object_set_new(j, "device", json_string(fs->device));
		json_object_set_new(j, "host", json_string(fs->host));
		for (size_t k = 0; k < fs->nranks; k++)
			json_array_append_new(rk, json_integer(fs->ranks[k]));
		json_object_set_new(j, "ranks", rk);
		json_array_append_new(a, j);
	}
	json_object_set_new(o, "file_systems", a);
	if (warn)
		json_object_set_new(o, "file_systems_warning", json_string(warn));
	free(warn);
}

/* ranks[].phases[]: one rank's phase (run < 0), or one of its runs
 * (repeats[], with its 0-based run) */
static json_t *rank_phase_json(const struct rank_phase *rp, long run)
{
	json_t *q = json_object();

	if (run < 0)
		json_object_set_new(q, "name", json_string(rp->name));
	else
		json_object_set_new(q, "repeat", json_integer(run));
	json_object_set_new(q, "ops", json_integer((json_int_t)rp->ops));
	json_object_set_new(q, "errors", json_integer((json_int_t)rp->errors));
	json_object_set_new(q, "bytes", json_integer((json_int_t)rp->bytes));
	json_object_set_new(q, "seconds", rnum(rp->seconds));
	json_object_set_new(q, "ops_per_second", rnum(rank_phase_rate(rp)));
	json_object_set_new(q, "start_seconds", rnum(rp->start));
	json_object_set_new(q, "end_reason", json_string(rp->end_reason ? rp->end_reason : ""));
	json_object_set_new(q, "stonewall",
	                    rank_wall_name(rp->wall) ? json_string(rank_wall_name(rp->wall))
	                                             : json_null());
	json_object_set_new(q, "stonewall_seconds", rnum(rp->wall_at));
	if (run < 0 && rp->nruns) {
		json_t *a = json_array();

		for (size_t k = 0; k < rp->nruns; k++)
			json_array_append_new(a, rank_phase_json(&rp->runs[k], rp->runs[k].repeat));
		json_object_set_new(q, "repeats", a);
	}
	return q;
}

void output_ranks_json(struct json_t *o, const struct result *r)
{
	const struct result_ranks *rr = r->ranks;
	json_t *ranks, *hosts;

	if (!rr)
		return;
	ranks = json_array();
	hosts = json_array();
	for (size_t i = 0; i < rr->n; i++) {
		json_t *j = json_object(), *ph = json_array();

		json_object_set_new(j, "rank", json_integer(rr->v[i].rank));
		json_object_set_new(j, "host", json_string(rr->v[i].host));
		json_object_set_new(j, "clock_offset_seconds", rnum(rr->v[i].clock_offset));
		json_object_set_new(j, "other_file_system", json_boolean(rr->v[i].other_fs));
		for (size_t p = 0; p < rr->v[i].nphases; p++)
			json_array_append_new(ph, rank_phase_json(&rr->v[i].phases[p], -1));
		json_object_set_new(j, "phases", ph);
		json_array_append_new(ranks, j);
	}
	for (size_t i = 0; i < rr->nhosts; i++) {
		json_t *j = json_object(), *rk = json_array(), *env = json_object();

		json_object_set_new(j, "host", json_string(rr->hosts[i].host));
		for (size_t k = 0; k < rr->hosts[i].nranks; k++)
			json_array_append_new(rk, json_integer(rr->hosts[i].ranks[k]));
		json_object_set_new(j, "ranks", rk);
		for (size_t k = 0; k < rr->hosts[i].env.n; k++)
			json_object_set_new(env, rr->hosts[i].env.v[k].key,
			                    json_string(rr->hosts[i].env.v[k].value));
		json_object_set_new(j, "environment", env);
		json_object_set_new(j, "phases", host_phases_json(&rr->hosts[i]));
		json_array_append_new(hosts, j);
	}
	json_object_set_new(o, "ranks", ranks);
	json_object_set_new(o, "hosts", hosts);
	fs_json(o, rr);
}

/* executions[].rank: which rank ran each (the writer of phase o wrote
 * them in the phase's order) */
static void exec_ranks(json_t *o, const struct result *r, const char *phase)
{
	json_t *ex = json_object_get(o, "executions");

	for (size_t p = 0; ex && p < r->nphases; p++) {
		if (strcmp(r->phases[p].name, phase))
			continue;
		for (size_t i = 0; i < r->phases[p].nexecs && i < json_array_size(ex); i++)
			json_object_set_new(json_array_get(ex, i), "rank",
			                    json_integer(r->phases[p].execs[i].rank));
		break;
	}
}

/* phases[].ranks: the phase over the ranks (run < 0: every run
 * together), or one run's (repeats[], with its 0-based run) */
static json_t *summary_json(const struct result_ranks *rr, const char *phase, long run)
{
	struct rank_summary s;
	json_t *j = json_object();

	if (run < 0)
		rank_summary(rr, phase, &s);
	else
		rank_summary_run(rr, phase, (unsigned)run, &s);
	if (run >= 0)
		json_object_set_new(j, "repeat", json_integer(run));
	json_object_set_new(j, "n", json_integer((json_int_t)s.n));
	json_object_set_new(j, "min_ops_per_second", rnum(s.n ? s.min : NAN));
	json_object_set_new(j, "max_ops_per_second", rnum(s.n ? s.max : NAN));
	json_object_set_new(j, "mean_ops_per_second", rnum(s.n ? s.mean : NAN));
	json_object_set_new(j, "slowest_rank", s.n ? json_integer(s.slowest) : json_null());
	json_object_set_new(j, "start_skew_seconds", rnum(s.n ? s.skew : NAN));
	json_object_set_new(j, "min_seconds", rnum(s.n ? s.min_seconds : NAN));
	json_object_set_new(j, "max_seconds", rnum(s.n ? s.max_seconds : NAN));
	json_object_set_new(j, "mean_seconds", rnum(s.n ? s.mean_seconds : NAN));
	json_object_set_new(j, "stonewall_rank",
	                    s.wall_rank >= 0 ? json_integer(s.wall_rank) : json_null());
	json_object_set_new(j, "stonewall_seconds", rnum(s.wall_rank >= 0 ? s.wall_at : NAN));
	json_object_set_new(j, "stonewall_peer_ranks", json_integer((json_int_t)s.wall_peers));
	if (run < 0 && rr->nruns) {
		json_t *a = json_array();

		for (unsigned k = 0; k < rr->nruns; k++)
			json_array_append_new(a, summary_json(rr, phase, k));
		json_object_set_new(j, "repeats", a);
	}
	return j;
}

void output_ranks_phase_json(struct json_t *o, const struct result *r, const char *phase)
{
	if (!r->ranks)
		return;
	exec_ranks(o, r, phase);
	json_object_set_new(o, "ranks", summary_json(r->ranks, phase, -1));
}
