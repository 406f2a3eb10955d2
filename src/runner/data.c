/* data.c — data patterns for writes; see data.h. */
#include "runner/data.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIN_SIZE(a, b) ((size_t)(a) < (size_t)(b) ? (size_t)(a) : (size_t)(b))

/* Odd, so k + i*C visits 2^64 distinct words before repeating. */
#define KEY_STEP 0x9e3779b97f4a7c15ull
#define DEDUPE_SEED 0xdedabe5eedull

int data_pattern_parse(const char *s, struct data_pattern *out)
{
	char *end;
	unsigned long v;
	const char *arg = NULL;

	memset(out, 0, sizeof(*out));
	if (!strcmp(s, "random")) {
		out->kind = DATA_RANDOM;
		return 0;
	}
	if (!strcmp(s, "zero") || !strcmp(s, "zeros")) {
		out->kind = DATA_ZERO;
		return 0;
	}
	if (!strncmp(s, "compress=", 9)) {
		out->kind = DATA_COMPRESS;
		arg = s + 9;
	} else if (!strncmp(s, "dedupe=", 7)) {
		out->kind = DATA_DEDUPE;
		arg = s + 7;
	} else {
		return -EINVAL;
	}
	if (*arg < '0' || *arg > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(arg, &end, 10);
	if (*end == '%')
		end++;
	if (*end || v > 100 || errno)
		return -EINVAL;
	out->pct = (unsigned)v;
	return 0;
}

const char *data_pattern_name(const struct data_pattern *p, char *buf, size_t len)
{
	switch (p->kind) {
	case DATA_ZERO:
		snprintf(buf, len, "zero");
		break;
	case DATA_COMPRESS:
		snprintf(buf, len, "compress=%u%%", p->pct);
		break;
	case DATA_DEDUPE:
		snprintf(buf, len, "dedupe=%u%%", p->pct);
		break;
	default:
		snprintf(buf, len, "random");
	}
	return buf;
}

/* XOR b[0..len) with the keystream k, k + C, k + 2C, ... (8 bytes at a
 * time; the tail gets the low bytes of the next word). */
static void xor_stream(unsigned char *b, size_t len, uint64_t k)
{
	size_t words = len / 8;
	uint64_t w;

	for (size_t i = 0; i < words; i++) {
		memcpy(&w, b + i * 8, 8); /* alignment-safe; compiles to a load */
		w ^= k;
		memcpy(b + i * 8, &w, 8);
		k += KEY_STEP;
	}
	for (size_t i = words * 8; i < len; i++, k >>= 8)
		b[i] ^= (unsigned char)k;
}

/* The random part of a compress=N% chunk. */
static size_t chunk_random(unsigned pct)
{
	return (size_t)DATA_CHUNK * pct / 100;
}

/* The dedupe pool: DATA_DEDUPE_POOL random blocks, identical in every
 * thread and every run, built once. */
static unsigned char dedupe_pool[DATA_DEDUPE_POOL][DATA_BLOCK];
static pthread_once_t dedupe_once = PTHREAD_ONCE_INIT;

static void dedupe_pool_init(void)
{
	struct rng r;

	rng_seed(&r, DEDUPE_SEED, 0);
	rng_fill(&r, dedupe_pool, sizeof(dedupe_pool));
}

void data_fill(const struct data_pattern *p, struct rng *r, void *buf, size_t len)
{
	unsigned char *b = buf;

	switch (p->kind) {
	case DATA_ZERO:
		memset(buf, 0, len);
		break;
	case DATA_COMPRESS: {
		size_t rnd = chunk_random(p->pct);

		for (size_t o = 0; o < len; o += DATA_CHUNK) {
			size_t n = MIN_SIZE(DATA_CHUNK, len - o);

			rng_fill(r, b + o, MIN_SIZE(rnd, n));
			if (n > rnd)
				memset(b + o + rnd, 0, n - rnd);
		}
		break;
	}
	case DATA_DEDUPE:
		pthread_once(&dedupe_once, dedupe_pool_init);
		rng_fill(r, buf, len);
		break;
	default:
		rng_fill(r, buf, len);
	}
}

void data_refresh(const struct data_pattern *p, struct rng *r, void *buf, size_t len)
{
	unsigned char *b = buf;

	switch (p->kind) {
	case DATA_ZERO:
		return;
	case DATA_COMPRESS: {
		size_t rnd = chunk_random(p->pct);
		uint64_t k = rng_next(r);

		if (!rnd)
			return;
		for (size_t o = 0; o < len; o += DATA_CHUNK) {
			size_t n = MIN_SIZE(rnd, len - o);

			xor_stream(b + o, n, k);
			k += (uint64_t)(n / 8 + 1) * KEY_STEP;
		}
		return;
	}
	case DATA_DEDUPE:
		for (size_t o = 0; o < len; o += DATA_BLOCK) {
			size_t n = MIN_SIZE(DATA_BLOCK, len - o);

			if (p->pct && rng_below(r, 100) < p->pct)
				memcpy(b + o, dedupe_pool[rng_below(r, DATA_DEDUPE_POOL)], n);
			else
				xor_stream(b + o, n, rng_next(r));
		}
		return;
	default:
		xor_stream(b, len, rng_next(r));
	}
}
