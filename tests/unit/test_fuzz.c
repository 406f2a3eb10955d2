/*
 * test_fuzz.c — the parser never crashes on garbage.
 *
 * Thousands of random mutations of a valid workload (fixed seed, so a
 * failure repeats), plus random token soup and random bytes.  Each parse
 * must return 0 or -EINVAL with a message; a successful parse must dump
 * and free cleanly.  Run under SANITIZE=address,undefined to make "never
 * crashes" mean "no memory errors and no leaks" too.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "util/rand.h"
#include "workload/workload.h"

static const char base[] =
	"# base workload for mutation\n"
	"set $dir=/tmp\n"
	"set $nfiles=100\n"
	"set $n2 = ($nfiles + 4) * 2 / 3 - 1\n"
	"set $sz = randvar(type=tabular, min=1k, round=1k, randtable={{60,1k,4k},{40,4k,8k}})\n"
	"define randvar name=$io, type=gamma, min=512, mean=8k, gamma=1500\n"
	"set $c = cvar(type=cvar-gamma,parameters=mean:16384;gamma:1.5,min=1,round=2)\n"
	"eventgen rate=10\n"
	"define fileset name=fs,path=$dir,size=$sz,entries=$nfiles,dirwidth=10,prealloc=50,reuse\n"
	"define file name=one,path=$dir,size=1m,prealloc,cached=false\n"
	"define flowop name=pair, $set, $b=4k\n"
	"{\n"
	"  flowop openfile name=o,filesetname=$set,fd=1\n"
	"  flowop read name=r,fd=1,iosize=$b,random\n"
	"  flowop closefile name=c,fd=1\n"
	"}\n"
	"define flowop name=quad, $s\n"
	"{\n"
	"  flowop pair name=p1, $set=$s\n"
	"  flowop pair name=p2, iters=2, $set=$s, $b=$io\n"
	"}\n"
	"define process name=p,instances=2\n"
	"{\n"
	"  thread name=t,memsize=1m,instances=$n2\n"
	"  {\n"
	"    flowop quad name=q, iters=3, $s=fs\n"
	"    flowop write name=w,filename=one,iosize=$c,dsync\n"
	"    flowop print name=pr,value=\"hello $dir\"\n"
	"    flowop delay name=d,value=0.5\n"
	"  }\n"
	"}\n"
	"echo \"loaded $nfiles\"\n"
	"usage \"set \\$dir=<dir>\"\n"
	"set mode quit alldone\n"
	"run 10\n";

/* Fragments that steer mutations into interesting corners. */
static const char *const pieces[] = {
	"{",	   "}",	     "(",	",",	   "=",	     "$",      "$x",	  "\"",	     "#",
	"\n",	   " ",	     "-",	"*",	   "/",	     "+",      "k",	  "1",	     "0",
	"99999999999999999999", "define ", "flowop ", "thread ", "process ", "set ", "run ",
	"randvar(", "cvar(", "randtable={{", "}}", "name=", "$dir", "$nfiles", "$io",
	"fileset", "pair", "quad", "iters=", "$set=", ")",	  "\\",	     "${",     "$(",
	"system \"x\"", "quit\n", "1.5", "1e308", "type=tabular", "gamma=0", "prealloc=",
};

static char *mutate(struct rng *r, const char *src)
{
	size_t cap = strlen(src) * 2 + 256, len = strlen(src);
	char *s = malloc(cap + 1);
	int nmut = 1 + (int)rng_below(r, 4);

	memcpy(s, src, len + 1);
	for (int m = 0; m < nmut; m++) {
		size_t pos = len ? rng_below(r, len + 1) : 0;

		switch (rng_below(r, 6)) {
		case 0: /* delete a run of bytes */
			if (len) {
				size_t n = 1 + rng_below(r, 8);

				if (pos + n > len)
					n = len - pos;
				memmove(s + pos, s + pos + n, len - pos - n + 1);
				len -= n;
			}
			break;
		case 1: /* a random byte */
			if (len + 1 < cap) {
				memmove(s + pos + 1, s + pos, len - pos + 1);
				s[pos] = (char)(1 + rng_below(r, 255));
				len++;
			}
			break;
		case 2: { /* a language fragment */
			const char *p = pieces[rng_below(r, sizeof(pieces) / sizeof(pieces[0]))];
			size_t n = strlen(p);

			if (len + n < cap) {
				memmove(s + pos + n, s + pos, len - pos + 1);
				memcpy(s + pos, p, n);
				len += n;
			}
			break;
		}
		case 3: /* duplicate a chunk */
			if (len) {
				size_t from = rng_below(r, len), n = 1 + rng_below(r, 64);

				if (from + n > len)
					n = len - from;
				if (len + n < cap) {
					char tmp[64];

					memcpy(tmp, s + from, n);
					memmove(s + pos + n, s + pos, len - pos + 1);
					memcpy(s + pos, tmp, n);
					len += n;
				}
			}
			break;
		case 4: /* truncate */
			s[pos] = '\0';
			len = pos;
			break;
		default: /* flip a byte */
			if (len && pos < len)
				s[pos] ^= (char)(1 << rng_below(r, 7));
			if (len && pos < len && s[pos] == '\0')
				s[pos] = ' ';
			break;
		}
	}
	return s;
}

static char *token_soup(struct rng *r)
{
	size_t n = 1 + rng_below(r, 60), len = 0;
	char *s = malloc(n * 24 + 1);

	for (size_t i = 0; i < n; i++) {
		const char *p = pieces[rng_below(r, sizeof(pieces) / sizeof(pieces[0]))];

		len += (size_t)sprintf(s + len, "%.20s", p);
		if (rng_below(r, 3) == 0)
			s[len++] = ' ';
	}
	s[len] = '\0';
	return s;
}

static char *random_bytes(struct rng *r)
{
	size_t n = rng_below(r, 200);
	char *s = malloc(n + 1);

	for (size_t i = 0; i < n; i++)
		s[i] = (char)(1 + rng_below(r, 255));
	s[n] = '\0';
	return s;
}

/* 1 when the outcome is one the contract allows. */
static int try_parse(const char *text, int *parsed)
{
	struct wl_override ov[] = { { "nfiles", "7", 0 }, { "unused", "x", 0 } };
	struct workload *w = NULL;
	struct wl_error err;
	int rc = workload_parse(text, "fuzz.f", ov, 2, &w, &err);

	if (rc == 0) {
		char *d = workload_dump(w);
		int good = d != NULL && w != NULL;

		free(d);
		workload_free(w);
		(*parsed)++;
		return good;
	}
	return rc == -EINVAL && w == NULL && err.msg[0] && err.line >= 1 && err.col >= 1;
}

/* FSGAUGE_FUZZ_SEED and FSGAUGE_FUZZ_ITERS allow longer local runs. */
static unsigned long env_num(const char *name, unsigned long dflt)
{
	const char *s = getenv(name);

	return s && *s ? strtoul(s, NULL, 0) : dflt;
}

int main(void)
{
	unsigned long iters = env_num("FSGAUGE_FUZZ_ITERS", 6000);
	struct rng r;
	int bad = 0, parsed = 0, total = 0;

	rng_seed(&r, env_num("FSGAUGE_FUZZ_SEED", 20240611), 0);
	ok(try_parse(base, &parsed) && parsed == 1, "the base workload parses");

	for (unsigned long i = 0; i < iters; i++, total++) {
		char *s = mutate(&r, base);

		if (!try_parse(s, &parsed) && bad++ < 5)
			printf("# unexpected outcome for mutation %lu:\n# %s\n", i, s);
		free(s);
	}
	for (unsigned long i = 0; i < iters / 3; i++, total++) {
		char *s = token_soup(&r);

		if (!try_parse(s, &parsed) && bad++ < 5)
			printf("# unexpected outcome for token soup %lu: %s\n", i, s);
		free(s);
	}
	for (unsigned long i = 0; i < iters / 10; i++, total++) {
		char *s = random_bytes(&r);

		if (!try_parse(s, &parsed) && bad++ < 5)
			printf("# unexpected outcome for random bytes %lu\n", i);
		free(s);
	}
	is_int(bad, 0, "%d inputs: each parsed (%d) or failed with -EINVAL and a position",
	       total, parsed);
	ok(parsed > 100, "some mutations still parse (%d)", parsed);
	return done_testing();
}
