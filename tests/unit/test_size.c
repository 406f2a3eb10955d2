/* test_size.c — unit tests for util/size.c. */
#include "tap.h"
#include "util/rand.h"
#include "util/size.h"
#include "util/util.h"

#include <errno.h>
#include <float.h>

#define K 1024ull
#define M (K * K)
#define G (M * K)
#define T (G * K)
#define P (T * K)
#define E (P * K)

static void test_size_parse(void)
{
	static const struct {
		const char *in;
		int rc;
		uint64_t want;
	} cases[] = {
		{ "0", 0, 0 },
		{ "100", 0, 100 },
		{ "007", 0, 7 },
		{ "16k", 0, 16 * K },
		{ "16K", 0, 16 * K },
		{ "16kb", 0, 16 * K },
		{ "16KB", 0, 16 * K },
		{ "16KiB", 0, 16 * K },
		{ "16kib", 0, 16 * K },
		{ "1m", 0, M },
		{ "1M", 0, M },
		{ "1.5g", 0, 3 * G / 2 },
		{ "1t", 0, T },
		{ "2p", 0, 2 * P },
		{ "15e", 0, 15 * E },
		{ "100b", 0, 100 },
		{ "100B", 0, 100 },
		{ "0.5k", 0, 512 },
		{ "1.3k", 0, 1331 },	/* 1331.2, truncated */
		{ "5.k", 0, 5 * K },
		{ "1.5", 0, 1 },	/* bytes have no fraction */
		{ "0.0009765625k", 0, 1 },
		{ "15.99999999999999999999e", 0, UINT64_MAX }, /* 2^64 - 0.115 */
		{ "17179869183.99999999g", 0, UINT64_MAX - 10 },
		{ "18446744073709551615", 0, UINT64_MAX },
		{ "18446744073709551615b", 0, UINT64_MAX },
		{ "16777215t", 0, 16777215 * T },
		{ "12q", -EINVAL, 0 },
		{ "", -EINVAL, 0 },
		{ "-1", -EINVAL, 0 },
		{ "+1", -EINVAL, 0 },
		{ " 1", -EINVAL, 0 },
		{ "1 ", -EINVAL, 0 },
		{ "16 k", -EINVAL, 0 },
		{ "k", -EINVAL, 0 },
		{ ".5k", -EINVAL, 0 },
		{ "16k3", -EINVAL, 0 },
		{ "16kk", -EINVAL, 0 },
		{ "16bb", -EINVAL, 0 },
		{ "16ib", -EINVAL, 0 },
		{ "16kbi", -EINVAL, 0 },
		{ "1,5k", -EINVAL, 0 },
		{ "1.5.5k", -EINVAL, 0 },
		{ "1e3", -EINVAL, 0 },
		{ "1.5e3k", -EINVAL, 0 },
		{ "1.e3", -EINVAL, 0 },
		{ "0x10", -EINVAL, 0 },
		{ "nan", -EINVAL, 0 },
		{ "inf", -EINVAL, 0 },
		{ "99999999999999999999", -ERANGE, 0 },
		{ "18446744073709551616", -ERANGE, 0 },
		{ "20000000t", -ERANGE, 0 },
		{ "16777216t", -ERANGE, 0 },
		{ "16e", -ERANGE, 0 },
		{ "16.0e", -ERANGE, 0 },
		{ "99999999999999999999q", -EINVAL, 0 }, /* junk wins over size */
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t got = 12345;
		int rc = size_parse(cases[i].in, &got);

		if (cases[i].rc) {
			ok(rc == cases[i].rc && got == 12345, "size_parse(\"%s\") fails with %s",
			   cases[i].in, cases[i].rc == -EINVAL ? "EINVAL" : "ERANGE");
			if (rc != cases[i].rc)
				printf("#   got rc %d\n", rc);
		} else {
			ok(rc == 0 && got == cases[i].want, "size_parse(\"%s\") = %llu", cases[i].in,
			   (unsigned long long)cases[i].want);
			if (rc || got != cases[i].want)
				printf("#   got rc %d, %llu\n", rc, (unsigned long long)got);
		}
	}
	uint64_t v;
	is_int(size_parse(NULL, &v), -EINVAL, "size_parse(NULL) fails with EINVAL");
}

static void test_size_parse_unit(void)
{
	static const struct {
		const char *in;
		uint64_t unit;
		int rc;
		uint64_t want;
	} cases[] = {
		{ "3200", M, 0, 3200 * M },	/* bonnie -s 3200: MiB */
		{ "50g", M, 0, 50 * G },	/* a suffix wins over the unit */
		{ "1.5", M, 0, 3 * M / 2 },
		{ "100b", M, 0, 100 },		/* "b" means bytes */
		{ "16k", M, 0, 16 * K },
		{ "0", M, 0, 0 },
		{ "7", 1000, 0, 7000 },		/* any unit, not only powers of 2 */
		{ "0.25", 1000, 0, 250 },
		{ "7", 0, 0, 7 },		/* 0 or 1: bytes */
		{ "7", 1, 0, 7 },
		{ "17592186044415", M, 0, 17592186044415 * M },
		{ "17592186044416", M, -ERANGE, 0 },	/* 2^44 MiB = 2^64 */
		{ "12q", M, -EINVAL, 0 },
		{ "", M, -EINVAL, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t got = 0;
		int rc = size_parse_unit(cases[i].in, cases[i].unit, &got);

		if (cases[i].rc)
			is_int(rc, cases[i].rc, "size_parse_unit(\"%s\", %llu) fails", cases[i].in,
			       (unsigned long long)cases[i].unit);
		else
			ok(rc == 0 && got == cases[i].want, "size_parse_unit(\"%s\", %llu) = %llu",
			   cases[i].in, (unsigned long long)cases[i].unit,
			   (unsigned long long)cases[i].want);
	}
}

static void test_num_parse(void)
{
	static const struct {
		const char *in;
		int rc;
		uint64_t want;
	} u[] = {
		{ "0", 0, 0 },
		{ "123", 0, 123 },
		{ "0042", 0, 42 },
		{ "18446744073709551615", 0, UINT64_MAX },
		{ "18446744073709551616", -ERANGE, 0 },
		{ "99999999999999999999999", -ERANGE, 0 },
		{ "", -EINVAL, 0 },
		{ "-1", -EINVAL, 0 },
		{ "+1", -EINVAL, 0 },
		{ " 1", -EINVAL, 0 },
		{ "1 ", -EINVAL, 0 },
		{ "1x", -EINVAL, 0 },
		{ "16k", -EINVAL, 0 },
		{ "1.0", -EINVAL, 0 },
		{ "0x10", -EINVAL, 0 },
	};
	static const struct {
		const char *in;
		int rc;
		double want;
	} d[] = {
		{ "0", 0, 0 },
		{ "1.5", 0, 1.5 },
		{ "-2.5", 0, -2.5 },
		{ "1e3", 0, 1000 },
		{ ".5", 0, 0.5 },
		{ "5.", 0, 5 },
		{ "1e-400", 0, 0 },	/* underflow: close enough */
		{ "1e400", -ERANGE, 0 },
		{ "", -EINVAL, 0 },
		{ " 1", -EINVAL, 0 },
		{ "1 ", -EINVAL, 0 },
		{ "1s", -EINVAL, 0 },
		{ "abc", -EINVAL, 0 },
		{ "nan", -EINVAL, 0 },
		{ "inf", -EINVAL, 0 },
		{ "-inf", -EINVAL, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(u); i++) {
		uint64_t got = 0;
		int rc = num_parse_u64(u[i].in, &got);

		if (u[i].rc)
			is_int(rc, u[i].rc, "num_parse_u64(\"%s\") fails", u[i].in);
		else
			ok(rc == 0 && got == u[i].want, "num_parse_u64(\"%s\") = %llu", u[i].in,
			   (unsigned long long)u[i].want);
	}
	for (size_t i = 0; i < ARRAY_SIZE(d); i++) {
		double got = -1;
		int rc = num_parse_double(d[i].in, &got);

		if (d[i].rc)
			is_int(rc, d[i].rc, "num_parse_double(\"%s\") fails", d[i].in);
		else
			ok(rc == 0 && fabs(got - d[i].want) <= 1e-15 * fabs(d[i].want) + DBL_MIN,
			   "num_parse_double(\"%s\") = %g", d[i].in, d[i].want);
	}
	uint64_t v;
	double x;
	is_int(num_parse_u64(NULL, &v), -EINVAL, "num_parse_u64(NULL) fails");
	is_int(num_parse_double(NULL, &x), -EINVAL, "num_parse_double(NULL) fails");
}

static void test_duration(void)
{
	static const struct {
		const char *in;
		double min;
		int excl, rc;
		double want;
	} d[] = {
		{ "60", 0, 1, 0, 60 },
		{ "0.5", 0, 1, 0, 0.5 },
		{ "31536000", 0, 1, 0, DURATION_MAX_SECONDS },
		{ "3.1536e7", 0, 0, 0, DURATION_MAX_SECONDS },
		{ "0", 0, 0, 0, 0 },
		{ "0", 0, 1, -ERANGE, 0 },
		{ "-1", 0, 0, -ERANGE, 0 },
		{ "-0.001", 0, 1, -ERANGE, 0 },
		{ "31536000.001", 0, 1, -ERANGE, 0 },
		{ "2e10", 0, 1, -ERANGE, 0 },
		{ "1e308", 0, 0, -ERANGE, 0 },
		{ "1e999", 0, 0, -ERANGE, 0 },
		{ "-1e999", 0, 0, -ERANGE, 0 },
		{ "0.04", 0.05, 0, -ERANGE, 0 },
		{ "0.05", 0.05, 0, 0, 0.05 },
		{ "nan", 0, 0, -EINVAL, 0 },
		{ "inf", 0, 0, -EINVAL, 0 },
		{ "-inf", 0, 0, -EINVAL, 0 },
		{ "10s", 0, 0, -EINVAL, 0 },
		{ "", 0, 0, -EINVAL, 0 },
	};
	double got;

	for (size_t i = 0; i < ARRAY_SIZE(d); i++) {
		int rc;

		got = -1;
		rc = duration_parse(d[i].in, d[i].min, d[i].excl, &got);
		if (d[i].rc)
			ok(rc == d[i].rc && got == -1, "duration_parse(\"%s\", %g%s) fails with %s",
			   d[i].in, d[i].min, d[i].excl ? " excluded" : "",
			   d[i].rc == -ERANGE ? "ERANGE" : "EINVAL");
		else
			ok(rc == 0 && got == d[i].want, "duration_parse(\"%s\") = %g", d[i].in,
			   d[i].want);
	}
	is_int(duration_ns(1.5), 1500000000, "duration_ns(1.5) is 1.5e9 ns");
	is_int(duration_ns(0), 0, "duration_ns(0) is 0");
	is_int(duration_ns(-3), 0, "duration_ns of a negative is 0");
	is_int(duration_ns(NAN), 0, "duration_ns(NaN) is 0");
	ok(duration_ns(1e308) == (uint64_t)(DURATION_MAX_SECONDS * 1e9),
	   "duration_ns(1e308) saturates at a year, defined");
	ok(duration_ns(INFINITY) == (uint64_t)(DURATION_MAX_SECONDS * 1e9),
	   "duration_ns(inf) saturates too");
	ok(UINT64_MAX - 3 * duration_ns(1e308) > (uint64_t)(100.0 * DURATION_MAX_SECONDS * 1e9),
	   "three maximal durations and a century of uptime fit 64 bits");
}

static void test_size_format(void)
{
	static const struct {
		uint64_t in;
		const char *want;
	} cases[] = {
		{ 0, "0" },
		{ 1, "1" },
		{ 1023, "1023" },
		{ K, "1k" },
		{ 1025, "1025" },
		{ 1536, "1.5k" },
		{ 16 * K, "16k" },
		{ 10241, "10241" },
		{ 10752, "10.5k" },
		{ M - 1, "1048575" },
		{ M, "1m" },
		{ 3 * M / 2, "1.5m" },
		{ M + K, "1025k" },
		{ 4 * G, "4g" },
		{ G + K, "1048577k" },
		{ 3 * T / 2, "1.5t" },
		{ 2 * P, "2p" },
		{ E, "1e" },
		{ 15 * E + E / 2, "15.5e" },
		{ UINT64_MAX, "18446744073709551615" },
	};
	char buf[32];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		is_str(size_format(cases[i].in, buf, sizeof(buf)), cases[i].want,
		       "size_format(%llu)", (unsigned long long)cases[i].in);

	/* Round trips: sizes of every magnitude, and multiples of units. */
	struct rng r;
	unsigned bad = 0, n = 0;

	rng_seed(&r, 3, 0);
	for (int k = 0; k < 100000; k++) {
		unsigned bits = (unsigned)rng_below(&r, 65);
		uint64_t x = bits == 64 ? rng_next(&r) : rng_next(&r) & ((1ull << bits) - 1);
		uint64_t back = 0;

		if (k % 2) /* clear low bits so that suffixes appear */
			x &= ~((1ull << rng_below(&r, 64)) - 1);
		size_format(x, buf, sizeof(buf));
		n++;
		if (size_parse(buf, &back) || back != x) {
			if (bad++ < 5)
				printf("#   %llu -> \"%s\" -> %llu\n", (unsigned long long)x, buf,
				       (unsigned long long)back);
		}
	}
	is_int(bad, 0, "size_parse(size_format(x)) == x for %u sizes", n);

	/* A short buffer is truncated and terminated, never overrun. */
	char small[4] = "xxx";
	size_format(123456, small, 3);
	is_str(small, "12", "size_format into 3 bytes truncates");
}

int main(void)
{
	test_size_parse();
	test_size_parse_unit();
	test_num_parse();
	test_duration();
	test_size_format();
	return done_testing();
}
