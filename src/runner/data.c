/* data.c — data patterns for writes; see data.h. */
#include "runner/data.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIN_SIZE(a, b) ((size_t)(a) < (size_t)(b) ? (size_t)(a) : (size_t)(b))

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
	v = strtoul(arg, &end, 10);
	if (*end == '%')
		end++;
	if (*end || v > 100)
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

/* A block that compresses to about pct%: pct% random bytes, the rest
 * zeros.  Common compressors (gzip, zstd, lz4) store the random part
 * nearly verbatim and the zeros almost for free. */
static void fill_compressible(struct rng *r, unsigned char *b, size_t len, unsigned pct)
{
	size_t rnd = len * pct / 100;

	rng_fill(r, b, rnd);
	memset(b + rnd, 0, len - rnd);
}

void data_fill(const struct data_pattern *p, struct rng *r, void *buf, size_t len)
{
	unsigned char *b = buf;

	switch (p->kind) {
	case DATA_ZERO:
		memset(buf, 0, len);
		break;
	case DATA_COMPRESS:
		for (size_t o = 0; o < len; o += DATA_BLOCK)
			fill_compressible(r, b + o, MIN_SIZE(DATA_BLOCK, len - o), p->pct);
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
	case DATA_DEDUPE:
		/* A repeated block is all-constant content shared by every
		 * repeat; a unique block gets fresh stamps. */
		for (size_t o = 0; o < len; o += DATA_BLOCK) {
			size_t n = MIN_SIZE(DATA_BLOCK, len - o);

			if (rng_below(r, 100) < p->pct) {
				memset(b + o, 0x5a, n);
			} else {
				uint64_t w[2] = { rng_next(r), rng_next(r) };

				if (b[o] == 0x5a && n > 16 && b[o + 16] == 0x5a)
					rng_fill(r, b + o, n); /* was a repeat: refill */
				memcpy(b + o, w, MIN_SIZE(16, n));
			}
		}
		return;
	default:
		for (size_t o = 0; o < len; o += DATA_BLOCK) {
			uint64_t w[2] = { rng_next(r), rng_next(r) };

			memcpy(b + o, w, MIN_SIZE(16, len - o));
		}
	}
}
