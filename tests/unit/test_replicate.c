/* test_replicate.c — workload_suffix_names() and workload_absorb(), the
 * instances of `run --per-target` (workload/replicate.c). */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "workload/builtin.h"
#include "workload/workload.h"

static const char *text =
	"set $n=4\n"
	"define fileset name=fs,path=$dir,entries=$n,filesize=4k,prealloc\n"
	"define flowop name=pair, $f\n"
	"{\n"
	"  flowop openfile name=open1,filesetname=$f,fd=1\n"
	"  flowop closefile name=close1,fd=1\n"
	"}\n"
	"define process name=p,instances=1\n"
	"{\n"
	"  thread name=t,memsize=64k,instances=1\n"
	"  {\n"
	"    flowop pair name=pair1,$f=fs\n"
	"    flowop sempost name=post,value=1,target=block\n"
	"    flowop semblock name=block,value=1\n"
	"  }\n"
	"}\n";

static struct workload *parse_at(const char *dir)
{
	struct wl_override ov = { .name = "dir", .value = dir, .implicit = 1 };
	struct workload *w = NULL;
	struct wl_error err;

	if (workload_parse(text, "t.f", &ov, 1, &w, &err) < 0) {
		printf("# %s:%d:%d: %s\n", err.file, err.line, err.col, err.msg);
		return NULL;
	}
	return w;
}

static const struct wl_flowop *flowop(const struct workload *w, size_t p, size_t i)
{
	return w->processes[p]->threads[0]->flowops[i];
}

static void test_two_instances(void)
{
	struct workload *a = parse_at("/a"), *b = parse_at("/b");

	ok(a && b, "both instances parse");
	if (!a || !b)
		return;
	workload_suffix_names(a, "@1");
	workload_suffix_names(b, "@2");
	is_str(a->filesets[0]->name, "fs@1", "a fileset's name");
	is_str(a->processes[0]->name, "p@1", "a process's name");
	is_str(a->processes[0]->threads[0]->name, "t@1", "a thread's name");
	is_str(flowop(a, 0, 0)->name, "pair1@1", "a composite call's name");
	is_str(flowop(a, 0, 0)->children[0]->name, "pair1.open1@1", "a composite's flowops too");
	is_str(flowop(a, 0, 1)->name, "post@1", "sempost's name");
	is_str(wl_val_str(&flowop(a, 0, 1)->target, ""), "block@1",
	       "target= names the flowop of its own instance");
	is_str(flowop(b, 0, 2)->name, "block@2", "the other instance's names end in @2");
	workload_absorb(a, b);
	is_int(a->nfilesets, 2, "absorbed: both filesets");
	is_int(a->nprocesses, 2, "absorbed: both processes");
	is_int(b->nfilesets + b->nprocesses, 0, "the source keeps none of them");
	is_str(a->filesets[1]->name, "fs@2", "the second instance's fileset after the first's");
	is_str(wl_val_str(&a->filesets[1]->path, ""), "/b", "its path is its own $dir");
	ok(flowop(a, 1, 0)->children[0]->fileset == a->filesets[1],
	   "its flowops use its own fileset");
	is_int(wl_val_int(&a->filesets[1]->entries, NULL, 0), 4,
	       "its values still read through its own variables");
	/* the moved parts refer to b's variables: a first */
	workload_free(a);
	workload_free(b);
}

static void test_builtin(void)
{
	const struct builtin_workload *bw = builtin_find("oltp");
	struct workload *w = NULL;
	struct wl_error err;
	int all = 1;

	ok(bw && workload_parse(bw->text, bw->name, NULL, 0, &w, &err) == 0, "oltp parses");
	if (!w)
		return;
	workload_suffix_names(w, "@3");
	for (size_t p = 0; p < w->nprocesses; p++)
		for (size_t t = 0; t < w->processes[p]->nthreads; t++) {
			const struct wl_thread *td = w->processes[p]->threads[t];

			for (size_t i = 0; i < td->nflowops; i++) {
				const char *n = td->flowops[i]->name;
				size_t len = strlen(n);

				if (len < 2 || strcmp(n + len - 2, "@3"))
					all = 0;
				if (wl_val_isset(&td->flowops[i]->target)) {
					const char *tg = wl_val_str(&td->flowops[i]->target, "");

					if (strlen(tg) < 2 || strcmp(tg + strlen(tg) - 2, "@3"))
						all = 0;
				}
			}
		}
	ok(all, "oltp: every flowop and every target= ends in the suffix");
	workload_free(w);
}

int main(void)
{
	test_two_instances();
	test_builtin();
	return done_testing();
}
