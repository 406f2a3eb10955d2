/* rand.c — xoshiro256** and distributions; see rand.h. */
#include "util/rand.h"
#include "util/util.h"

#include <math.h>
#include <string.h>

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* splitmix64: expands a seed into well-mixed state words. */
static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xd1342543de82ef95ull) ^ 0x6a09e667f3bcc909ull;

	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
	if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
		r->s[0] = 1;
}

HOT uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

HOT uint64_t rng_below(struct rng *r, uint64_t n)
{
	/* Lemire's multiply-and-reject: unbiased, usually one multiplication. */
	unsigned __int128 m = (unsigned __int128)rng_next(r) * n;
	uint64_t lo = (uint64_t)m;

	if (lo < n) {
		uint64_t thresh = -n % n;

		while (lo < thresh) {
			m = (unsigned __int128)rng_next(r) * n;
			lo = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

HOT double rng_double(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

void rng_fill(struct rng *r, void *buf, size_t len)
{
	unsigned char *p = buf;

	while (len >= 8) {
		uint64_t v = rng_next(r);

		memcpy(p, &v, 8);
		p += 8;
		len -= 8;
	}
	if (len) {
		uint64_t v = rng_next(r);

		memcpy(p, &v, len);
	}
}

/* (0, 1]: safe for log(). */
static double rng_open0(struct rng *r)
{
	return 1.0 - rng_double(r);
}

double rng_exponential(struct rng *r, double mean)
{
	return -mean * log(rng_open0(r));
}

double rng_normal(struct rng *r, double mean, double sigma)
{
	/* Box-Muller; one of the pair is discarded to keep the state simple. */
	double u1 = rng_open0(r), u2 = rng_double(r);

	return mean + sigma * sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

double rng_lognormal(struct rng *r, double mu, double sigma)
{
	return exp(rng_normal(r, mu, sigma));
}

double rng_gamma(struct rng *r, double shape, double scale)
{
	/* Marsaglia and Tsang (2000); shape < 1 boosted by U^(1/shape). */
	if (shape <= 0 || scale <= 0)
		return 0;
	if (shape < 1.0) {
		double u = rng_open0(r);

		return rng_gamma(r, shape + 1.0, scale) * pow(u, 1.0 / shape);
	}
	double d = shape - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);

	for (;;) {
		double x, v, u;

		do {
			x = rng_normal(r, 0, 1);
			v = 1.0 + c * x;
		} while (v <= 0);
		v = v * v * v;
		u = rng_open0(r);
		if (u < 1.0 - 0.0331 * x * x * x * x)
			return d * v * scale;
		if (log(u) < 0.5 * x * x + d * (1.0 - v + log(v)))
			return d * v * scale;
	}
}

double rng_uniform(struct rng *r, double lo, double hi)
{
	return lo + (hi - lo) * rng_double(r);
}

double rng_weibull(struct rng *r, double shape, double scale)
{
	return scale * pow(-log(rng_open0(r)), 1.0 / shape);
}

/* One Feistel round function: a keyed 64-bit mix of the right half. */
static inline uint64_t feistel_f(uint64_t r, uint64_t key, unsigned round)
{
	uint64_t z = r ^ key ^ ((uint64_t)round * 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t rand_permute(uint64_t i, uint64_t n, uint64_t key)
{
	unsigned bits = 2, half;
	uint64_t mask;

	if (n <= 1)
		return 0;
	/* the smallest even bit count with 2^bits >= n, so both halves are
	 * equal and the network is a bijection on [0, 2^bits) */
	while (bits < 64 && (1ull << bits) < n)
		bits += 2;
	half = bits / 2;
	mask = (1ull << half) - 1;
	/* cycle walking: apply the permutation until the value is in range;
	 * since 2^bits < 4n, that takes under 4 steps on average */
	do {
		uint64_t l = i >> half, r = i & mask;

		for (unsigned round = 0; round < 4; round++) {
			uint64_t t = l ^ (feistel_f(r, key, round) & mask);

			l = r;
			r = t;
		}
		i = (l << half) | r;
	} while (i >= n);
	return i;
}
