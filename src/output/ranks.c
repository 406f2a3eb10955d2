/* ranks.c — the per-rank and per-host rows of an MPI run, as text and
 * JSON (the "ranks" and "hosts" arrays: docs/json-format.md, docs/mpi.md). */
#include <jansson.h>
#include <math.h>
#include <stdio.h>

#include "output/output.h"
#include "stats/ranks.h"

static const char *host_of(const struct result_ranks *rr, int rank)
{
	for (size_t i = 0; i < rr->n; i++)
		if (rr->v[i].rank == rank)
			return rr->v[i].host;
	return "?";
}

void output_ranks_text(FILE *f, const struct result *r)
{
	const struct result_ranks *rr = r->ranks;
	double off = 0;

	if (!rr || !rr->n)
		return;
	for (size_t i = 0; i < rr->n; i++)
		off = fmax(off, fabs(rr->v[i].clock_offset));
	fprintf(f, "\nMPI: %zu ranks on %zu host%s (clock offsets to rank 0 up to %.6f s)\n", rr->n,
	        rr->nhosts, rr->nhosts == 1 ? "" : "s", off);
	for (size_t i = 0; i < rr->n; i++)
		if (rr->v[i].other_fs)
			fprintf(f, "rank %d (%s): target on another file system than rank 0's\n",
			        rr->v[i].rank, rr->v[i].host);
	for (size_t p = 0; p < r->nphases; p++) {
		struct rank_summary s;

		rank_summary(rr, r->phases[p].name, &s);
		if (!s.n)
			continue;
		fprintf(
		    f,
		    "phase %s over %zu ranks: ops/s min %.1f, max %.1f, mean %.1f; slowest rank "
		    "%d (%s); start skew %.6f s\n",
		    r->phases[p].name, s.n, s.min, s.max, s.mean, s.slowest, host_of(rr, s.slowest),
		    s.skew);
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
	}
}

static json_t *rnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
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
		for (size_t p = 0; p < rr->v[i].nphases; p++) {
			const struct rank_phase *rp = &rr->v[i].phases[p];
			json_t *q = json_object();

			json_object_set_new(q, "name", json_string(rp->name));
			json_object_set_new(q, "ops", json_integer((json_int_t)rp->ops));
			json_object_set_new(q, "errors", json_integer((json_int_t)rp->errors));
			json_object_set_new(q, "bytes", json_integer((json_int_t)rp->bytes));
			json_object_set_new(q, "seconds", rnum(rp->seconds));
			json_object_set_new(q, "ops_per_second", rnum(rank_phase_rate(rp)));
			json_object_set_new(q, "start_seconds", rnum(rp->start));
			json_object_set_new(q, "end_reason",
			                    json_string(rp->end_reason ? rp->end_reason : ""));
			json_array_append_new(ph, q);
		}
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
		json_array_append_new(hosts, j);
	}
	json_object_set_new(o, "ranks", ranks);
	json_object_set_new(o, "hosts", hosts);
}

void output_ranks_phase_json(struct json_t *o, const struct result *r, const char *phase)
{
	struct rank_summary s;
	json_t *j;

	if (!r->ranks)
		return;
	rank_summary(r->ranks, phase, &s);
	j = json_object();
	json_object_set_new(j, "n", json_integer((json_int_t)s.n));
	json_object_set_new(j, "min_ops_per_second", rnum(s.n ? s.min : NAN));
	json_object_set_new(j, "max_ops_per_second", rnum(s.n ? s.max : NAN));
	json_object_set_new(j, "mean_ops_per_second", rnum(s.n ? s.mean : NAN));
	json_object_set_new(j, "slowest_rank", s.n ? json_integer(s.slowest) : json_null());
	json_object_set_new(j, "start_skew_seconds", rnum(s.n ? s.skew : NAN));
	json_object_set_new(o, "ranks", j);
}
