/*
 * rand.h — fast per-thread pseudo-random numbers and the distributions the
 * workload language uses (filebench's randvar/cvar types).
 *
 * struct rng is a xoshiro256** state: one per thread, never shared, seeded
 * deterministically with rng_seed(seed, stream) so that runs repeat.
 * Everything here is pure computation: no I/O, no globals, no allocation.
 */
#ifndef FSGAUGE_RAND_H
#define FSGAUGE_RAND_H

#include <stddef.h>
#include <stdint.h>

struct rng {
	uint64_t s[4];
};

/* Seed from a 64-bit seed and a stream number (thread index etc.); two
 * different streams from the same seed are independent. */
void rng_seed(struct rng *r, uint64_t seed, uint64_t stream);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, n); n > 0.  Unbiased. */
uint64_t rng_below(struct rng *r, uint64_t n);
/* Uniform double in [0, 1). */
double rng_double(struct rng *r);
/* Fill buf with random bytes (fast: 8 bytes per rng_next). */
void rng_fill(struct rng *r, void *buf, size_t len);

/* Distributions. All return a double; callers round/clamp. */
double rng_exponential(struct rng *r, double mean);
double rng_normal(struct rng *r, double mean, double sigma);
double rng_lognormal(struct rng *r, double mu, double sigma); /* of the underlying normal */
/* Gamma with shape k (> 0) and scale theta; mean = k * theta. */
double rng_gamma(struct rng *r, double shape, double scale);
double rng_uniform(struct rng *r, double lo, double hi);
/* Weibull with shape k and scale lambda. */
double rng_weibull(struct rng *r, double shape, double scale);

/* A pseudo-random permutation of [0, n): rand_permute(i, n, key) for
 * i = 0 .. n-1 yields every value of [0, n) exactly once, in an order
 * fixed by key (a 4-round Feistel network on the next power of two,
 * walking cycles back into range: fewer than 4 network evaluations per
 * call on average, no memory).  For shuffled passes over a fileset
 * without storing a shuffled array.  n > 0, i < n. */
uint64_t rand_permute(uint64_t i, uint64_t n, uint64_t key);

#endif
