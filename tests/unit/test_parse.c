/*
 * test_parse.c — the workload language parser: valid snippets and what
 * they dump to, invalid snippets and the exact position and message of
 * the error, -s overrides, value readers and random variables.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "util/rand.h"
#include "util/util.h"
#include "workload/build.h"
#include "workload/builtin.h"
#include "workload/workload.h"

#define MAX_OV 4

/* "a=1;b=2" -> overrides; the buffer must outlive the parse. */
static size_t split_overrides(const char *spec, char *buf, size_t len, struct wl_override *ov)
{
	size_t n = 0;
	char *save = NULL;

	if (!spec)
		return 0;
	snprintf(buf, len, "%s", spec);
	for (char *item = strtok_r(buf, ";", &save); item && n < MAX_OV;
	     item = strtok_r(NULL, ";", &save)) {
		char *eq = strchr(item, '=');

		*eq = '\0';
		ov[n].name = item;
		ov[n].value = eq + 1;
		ov[n].implicit = 0;
		n++;
	}
	return n;
}

static int parse(const char *text, const char *ovspec, struct workload **w, struct wl_error *err)
{
	struct wl_override ov[MAX_OV];
	char buf[256];
	size_t nov = split_overrides(ovspec, buf, sizeof(buf), ov);

	return workload_parse(text, "t.f", ov, nov, w, err);
}

/* --- valid snippets: every `want` is a substring of the dump ---------------- */

struct ok_case {
	const char *name;
	const char *text;
	const char *ov;
	const char *want[8];
};

#define PROC(body) "define process name=p {\n thread name=t {\n" body "\n }\n}\n"

static const struct ok_case ok_cases[] = {
	{ "comments and blank lines", "# just a comment\n\n   # another\n",
	  NULL, { "workload t\n", "run 60.0 (default)\n", "quit timeout\n" } },
	{ "integer sizes are binary",
	  "set $a=16k\nset $b=1m\nset $c=2g\nset $d=1t\nset $e=1.5k\nset $f=100\nset $g=4KB\n",
	  NULL,
	  { "var a=16384\n", "var b=1048576\n", "var c=2147483648\n", "var d=1099511627776\n",
	    "var e=1536\n", "var f=100\n", "var g=4096\n" } },
	{ "doubles, booleans, strings, words",
	  "set $x=2.5\nset $y=true\nset $z=false\nset $s=\"hello world\"\nset $p=/mnt/x-y.z\n"
	  "set $q=lg-write\n",
	  NULL,
	  { "var x=2.5\n", "var y=true\n", "var z=false\n", "var s=\"hello world\"\n",
	    "var p=\"/mnt/x-y.z\"\n", "var q=\"lg-write\"\n" } },
	{ "string escapes", "set $s=\"a\\\"b\\\\c \\$d\"\n", NULL, { "var s=\"a\\\"b\\\\c \\$d\"\n" } },
	{ "arithmetic with precedence and parentheses",
	  "set $a=3\nset $b=$a * (2 + 4) / 4 - 1\nset $c = 2 + 3 * 4\nset $d=-$a + 10\n"
	  "set $e = $a * 1.5\nset $f=7/2\nset $g=1k*4\nset $h=(((1)))\n",
	  NULL,
	  { "var b=3\n", "var c=14\n", "var d=7\n", "var e=4.5\n", "var f=3\n", "var g=4096\n",
	    "var h=1\n" } },
	{ "set copies another variable", "set $a=/tmp\nset $b=$a\nset $a=/other\n", NULL,
	  { "var a=\"/other\"\n", "var b=\"/tmp\"\n" } },
	{ "set with spaces around =", "set $n = 5\n", NULL, { "var n=5\n" } },
	{ "fileset attributes",
	  "define fileset name=fs,path=/tmp,size=128k,entries=1000,dirwidth=20,dirgamma=1500,"
	  "leafdirs=4,prealloc=80,reuse,paralloc,readonly,trusttree,cached=true,filesizegamma=0\n",
	  NULL,
	  { "fileset fs path=\"/tmp\" size=131072 entries=1000 dirwidth=20 dirgamma=1500 "
	    "leafdirs=4 prealloc=80 reuse=true paralloc=true readonly=true trusttree=true "
	    "cached=true filesizegamma=0\n" } },
	{ "bare prealloc means 100", "define fileset name=fs,path=/tmp,prealloc\n", NULL,
	  { "prealloc=100" } },
	{ "prealloc=false", "define fileset name=fs,prealloc=false\n", NULL, { "prealloc=0" } },
	{ "cached=false and filesize alias", "define file name=f,path=/t,filesize=1m,cached=false\n",
	  NULL, { "file f path=\"/t\" size=1048576 entries=1 cached=false\n" } },
	{ "attributes spread over lines",
	  "define fileset name=many,\n\tpath=/tmp,\n\tentries=10,\n\tsize=1k\n", NULL,
	  { "fileset many path=\"/tmp\" size=1024 entries=10\n" } },
	{ "any number of filesets",
	  "define fileset name=a,path=/t\ndefine fileset name=b,path=/t\n"
	  "define file name=c,path=/t\ndefine fileset name=d,path=/t\n",
	  NULL, { "fileset a ", "fileset b ", "file c ", "fileset d " } },
	{ "variable references resolve late (set after define)",
	  "set $n=10\ndefine fileset name=fs,path=/tmp,entries=$n\nset $n=1000\n", NULL,
	  { "entries=$n=1000" } },
	{ "names from variables", "set $fsname=vids\ndefine fileset name=$fsname,path=/t\n"
	  PROC("  flowop read name=r,filesetname=$fsname,iosize=1m"),
	  NULL, { "fileset vids ", "flowop read r fileset=vids iosize=1048576" } },
	{ "processes, threads and flowop attributes",
	  "define file name=f,path=/t,size=1g\n"
	  "define process name=p1,instances=2,nice=5 {\n"
	  "  thread name=t1,memsize=10m,instances=4,useism {\n"
	  "    flowop read name=r,filename=f,iosize=8k,random,dsync,directio,workingset=1g,"
	  "iters=3,fd=1\n"
	  "    flowop write name=w,fd=1,srcfd=2,opennext,rotatefd,indexed=3,wss=4k\n"
	  "    flowop sempost name=sp,value=1,target=sb,blocking\n"
	  "    flowop semblock name=sb,value=100,highwater=1000\n"
	  "  }\n"
	  "  thread name=t2 { flowop delay name=d,value=1.5 }\n"
	  "}\n",
	  NULL,
	  { "process p1 instances=2 nice=5\n", "  thread t1 instances=4 memsize=10485760 useism=true\n",
	    "    flowop read r fileset=f iosize=8192 iters=3 fd=1 random=true dsync=true "
	    "directio=true workingset=1073741824\n",
	    "    flowop write w fd=1 srcfd=2 workingset=4096 rotatefd=true opennext=true indexed=3\n",
	    "    flowop sempost sp value=1 target=\"sb\" blocking=true\n",
	    "highwater=1000", "  thread t2\n", "flowop delay d value=1.5\n" } },
	{ "fileset defined after the flowop that uses it",
	  PROC("  flowop statfile name=s,filesetname=late") "define fileset name=late,path=/t\n",
	  NULL, { "flowop statfile s fileset=late\n" } },
	{ "boolean attribute from a numeric variable",
	  "set $directio=0\nset $sync=true\n"
	  PROC("  flowop write name=w,directio=$directio,dsync=$sync"),
	  NULL, { "directio=$directio=0", "dsync=$sync=true" } },
	{ "flowop print", PROC("  flowop print name=pr,value=\"hello, world\""), NULL,
	  { "flowop print pr value=\"hello, world\"\n" } },
	{ "all flowop types",
	  PROC("  flowop createfile name=a\n  flowop openfile name=b\n  flowop closefile name=c\n"
	       "  flowop deletefile name=d\n  flowop statfile name=e\n  flowop renamefile name=f\n"
	       "  flowop makedir name=g\n  flowop removedir name=h\n  flowop listdir name=i\n"
	       "  flowop read name=j\n  flowop write name=k\n  flowop readwholefile name=l\n"
	       "  flowop writewholefile name=m\n  flowop appendfile name=n\n"
	       "  flowop appendfilerand name=o\n  flowop fsync name=p\n  flowop fsyncset name=q\n"
	       "  flowop aiowrite name=r\n  flowop aiowait name=s\n  flowop hog name=t\n"
	       "  flowop delay name=u\n  flowop eventlimit name=v\n  flowop iopslimit name=w\n"
	       "  flowop opslimit name=x\n  flowop bwlimit name=y\n  flowop finishoncount name=z\n"
	       "  flowop finishonbytes name=A\n  flowop semblock name=B\n  flowop sempost name=C\n"
	       "  flowop block name=D\n  flowop wakeup name=E\n  flowop print name=F\n"
	       "  flowop testrandvar name=G"),
	  NULL, { "flowop renamefile f\n", "flowop testrandvar G\n", "flowop appendfilerand o\n" } },
	{ "run, eventgen, debug, quit mode, echo, usage",
	  "set $rate=96\neventgen rate = $rate\ndebug 2\nset mode quit firstdone\n"
	  "echo \"loaded $rate\"\nusage \"set \\$rate=<n> (now $rate)\"\nrun 30\n",
	  NULL,
	  { "eventgen rate=$rate=96\n", "run 30.0\n", "quit firstdone\n", "debug 2\n",
	    "echo \"loaded 96\"\n", "usage \"set \\$rate=<n> (now 96)\"\n" } },
	{ "run with a variable", "set $runtime=5\nrun $runtime\n", NULL, { "run 5.0\n" } },
	{ "run without a number", "run\n", NULL, { "run 60.0\n" } },
	{ "run 0 in alldone mode means until done", "set mode quit alldone\nrun 0\n", NULL,
	  { "run 0.0\n", "quit alldone\n" } },
	{ "psrun period and duration", "psrun -10 45\n", NULL, { "run 45.0\n" } },
	{ "psrun with only a period", "psrun 5\n", NULL, { "run 60.0\n" } },
	{ "harmless commands are accepted",
	  "enable lathist\ncreate files\ncreate filesets\ncreate processes\nsleep 1\n"
	  "shutdown processes\nversion\nset mode nousestats\n",
	  NULL, { "workload t\n" } },
	{ "quit ends the workload", "set $a=1\nquit\nthis is never read {\n", NULL,
	  { "var a=1\n" } },
	{ "randvar by define", "define randvar name=$sz, type=gamma, min=1k, mean=5632, gamma=1500\n",
	  NULL, { "var sz=randvar(type=gamma,min=1024,mean=5632,gamma=1500)\n" } },
	{ "randvar by set, same parameters",
	  "set $sz = randvar(type=gamma, min=1k, mean=5632, gamma=1500, round=512, seed=7)\n", NULL,
	  { "var sz=randvar(type=gamma,min=1024,mean=5632,gamma=1500,round=512,seed=7)\n" } },
	{ "randvar defaults: gamma, mean = shape",
	  "set $ix = randvar(min=0, gamma=100)\n", NULL,
	  { "var ix=randvar(type=gamma,min=0,mean=0.1,gamma=100)\n" } },
	{ "randvar uniform and randsrc",
	  "define randvar name=$u, type=uniform, min=1k, mean=2k, randsrc=rand48\n"
	  "set $v = randvar(type=uniform, min=1k, max=4k, randsrc=urandom)\n",
	  NULL,
	  { "var u=randvar(type=uniform,min=1024,mean=2048)\n",
	    "var v=randvar(type=uniform,min=1024,max=4096)\n" } },
	{ "tabular randvar over several lines",
	  "define randvar name=$t, type=tabular, min=1k, randtable =\n"
	  "{{ 80, 1k, 4k},\n { 15, 4k, 16k},\n { 05, 16k, 64k}}\n",
	  NULL,
	  { "var t=randvar(type=tabular,min=1024,randtable={{80,1024,4096},{15,4096,16384},"
	    "{5,16384,65536}})\n" } },
	{ "randtable implies tabular, values from variables",
	  "set $lo=2k\nset $t = randvar(randtable={{50,1k,$lo},{50,$lo,8k}})\n", NULL,
	  { "var t=randvar(type=tabular,min=0,randtable={{50,1024,2048},{50,2048,8192}})\n" } },
	{ "cvar in set and inline",
	  "set $c=cvar(type=cvar-gamma,parameters=mean:16384;gamma:1.5,min=512,max=1m,round=512)\n"
	  "define file name=f,path=/t,size=cvar(type=normal,parameters=mean:1m;sigma:1k)\n",
	  NULL,
	  { "var c=cvar(type=cvar-gamma,mean=16384,gamma=1.5,min=512,max=1048576,round=512)\n",
	    "size=cvar(type=cvar-normal,mean=1048576,sigma=1024)" } },
	{ "every cvar type",
	  "set $a=cvar(type=cvar-exponential,parameters=mean:100)\n"
	  "set $b=cvar(type=cvar-uniform,parameters=\"lower:10; upper:20\")\n"
	  "set $c=cvar(type=cvar-lognormal,parameters=shape:0.5;scale:2)\n"
	  "set $d=cvar(type=cvar-weibull,parameters=shape:2;scale:100)\n"
	  "set $e=cvar(type=cvar-triangular,parameters=lower:1;upper:10;mode:2)\n"
	  "set $f=cvar(type=cvar-gamma)\n",
	  NULL,
	  { "var a=cvar(type=cvar-exponential,mean=100)\n",
	    "var b=cvar(type=cvar-uniform,lower=10,upper=20)\n",
	    "var c=cvar(type=cvar-lognormal,shape=0.5,scale=2)\n",
	    "var d=cvar(type=cvar-weibull,shape=2,scale=100)\n",
	    "var e=cvar(type=cvar-triangular,lower=1,upper=10,mode=2)\n",
	    "var f=cvar(type=cvar-gamma,mean=4096,gamma=1.5)\n" } },
	{ "randvar used by a flowop",
	  "define randvar name=$io, type=gamma, mean=8k\n" PROC("  flowop read name=r,iosize=$io"),
	  NULL, { "iosize=$io=randvar(type=gamma,min=0,mean=8192,gamma=1500)" } },
	{ "composite flowop with parameters and nesting",
	  "define fileset name=fs,path=/t\n"
	  "define flowop name=rw, $set\n{\n  flowop openfile name=o,filesetname=$set,fd=1\n"
	  "  flowop closefile name=c,fd=1\n}\n"
	  "define flowop name=work, $set, $n\n{\n  flowop createfile name=cr,filesetname=$set,fd=1\n"
	  "  flowop rw name=inner, iters=$n, $set=$set\n}\n"
	  PROC("  flowop work name=w1, iters=2, $n=5, $set=fs"),
	  NULL,
	  { "    flowop work w1 (composite) iters=2\n",
	    "      flowop createfile w1.cr fileset=fs fd=1\n",
	    "      flowop rw w1.inner (composite) iters=5\n",
	    "        flowop openfile w1.inner.o fileset=fs fd=1\n",
	    "        flowop closefile w1.inner.c fd=1\n" } },
	{ "composite: defaults, iters from the definition, globals in the body",
	  "set $io=4k\n"
	  "define flowop name=cw, iters=3, $sz=8k\n{\n  flowop write name=a,iosize=$sz\n"
	  "  flowop write name=b,iosize=$io\n}\n" PROC("  flowop cw name=x"),
	  NULL,
	  { "flowop cw x (composite) iters=3\n", "flowop write x.a iosize=8192\n",
	    "flowop write x.b iosize=$io=4096\n" } },
	{ "composite without parameters, brace on its own line",
	  "define flowop name=pair\n{\n\tflowop fsync name=s,fd=1\n\tflowop eventlimit name=e\n}\n"
	  "define process name=p\n{\n\tthread name=t\n\t{\n\t\tflowop pair name=pp,iters=10\n\t}\n}\n",
	  NULL, { "flowop pair pp (composite) iters=10\n", "      flowop fsync pp.s fd=1\n" } },
	{ "override wins over set and is marked", "set $n=10\nset $n=20\ndefine fileset name=f,entries=$n\n",
	  "n=5", { "var n=5 (overridden)\n", "entries=$n=5" } },
	{ "override with a leading $ and a word value", "set $dir=/tmp\n", "$dir=/mnt/my disk",
	  { "var dir=\"/mnt/my disk\" (overridden)\n" } },
	{ "override used only in an echo is used", "set $a=1\necho \"a is $a\"\n", "a=2",
	  { "echo \"a is 2\"\n" } },
	{ "unused override is a warning",
	  "set $a=1\n", "foo=3",
	  { "warning \"variable '\\$foo' given with -s is not used by workload 't'\"\n" } },
	{ "override with arithmetic and a randvar", "set $a=1\nset $b=2\n",
	  "a=2*8k;b=cvar(type=cvar-exponential,parameters=mean:10)",
	  { "var a=16384 (overridden)\n", "var b=cvar(type=cvar-exponential,mean=10) (overridden)\n" } },
	{ "reference to a variable never set is a warning",
	  "define fileset name=f,path=$nowhere\n", NULL,
	  { "warning \"variable '\\$nowhere' is used but never set\"\n" } },
	{ "ignored attributes are warned about",
	  "define fileset name=f,writeonly\n", NULL,
	  { "warning \"line 1: attribute 'writeonly' of fileset is not supported and is ignored\"\n" } },
	{ "randtable not adding up to 100 is a warning",
	  "set $t=randvar(type=tabular,randtable={{50,1,2},{40,3,4}})\n", NULL,
	  { "randtable percentages add up to 90, not 100" } },
	{ "a command and its argument on one line each", "run 10 echo \"x\"\n", NULL,
	  { "run 10.0\n", "echo \"x\"\n" } },
	{ "${name} form of references", "set $a=3\nset $b=${a}*2\n", NULL, { "var b=6\n" } },
	{ "iodepth on read and write, a constant or a variable",
	  "set $d=8\n" PROC("  flowop read name=r,iodepth=32\n  flowop write name=w,random,iodepth=$d"),
	  NULL, { " iodepth=32", " iodepth=$d=8" } },
	{ "iodepth_batch with iodepth, up to it",
	  "set $b=4\n" PROC("  flowop read name=r,iodepth=32,iodepth_batch=8\n"
			    "  flowop write name=w,iodepth=4,iodepth_batch=$b"),
	  NULL, { " iodepth=32 iodepth_batch=8", " iodepth=4 iodepth_batch=$b=4" } },
	{ "rwmix with readpct, iosize, random, iodepth, iobytes",
	  "define file name=f,path=/tmp,size=1m\n"
	  PROC("  flowop rwmix name=mx,filename=f,iosize=8k,random,readpct=70,iodepth=16,iobytes=1m\n"
	       "  flowop rwmix name=half,filename=f"),
	  NULL, { "flowop rwmix mx fileset=f iosize=8192 random=true", " iodepth=16 iobytes=1048576 readpct=70\n",
		  "flowop rwmix half fileset=f\n" } },
	{ "readpct 0 and 100, and from a variable",
	  "set $p=100\n" PROC("  flowop rwmix name=w,readpct=0\n  flowop rwmix name=r,readpct=$p"),
	  NULL, { "flowop rwmix w readpct=0\n", "flowop rwmix r readpct=$p=100\n" } },
	{ "iobytes on read and write, a size or a variable",
	  "set $n=1m\n" PROC("  flowop read name=r,iobytes=64k\n  flowop write name=w,iodepth=4,iobytes=$n"),
	  NULL, { "flowop read r iobytes=65536", " iodepth=4 iobytes=$n=1048576" } },
};

/* --- invalid snippets: exact position, message substring ------------------- */

struct bad_case {
	const char *name;
	const char *text;
	const char *ov;
	int line, col;
	const char *msg;
};

/* names of 48 and 256 bytes, for the name-length cases */
#define N16 "aaaaaaaaaaaaaaaa"
#define N48 N16 N16 N16
#define N64 N16 N16 N16 N16
#define N256 N64 N64 N64 N64

static const struct bad_case bad_cases[] = {
	{ "missing = after name", "define fileset name,path=/tmp\n", NULL, 1, 20,
	  "expected '=' after 'name', found ','" },
	{ "unknown flowop type", PROC("  flowop raed name=r"), NULL, 3, 10,
	  "unknown flowop type 'raed' (did you mean 'read'?)" },
	{ "unknown fileset attribute", "define fileset name=x,sise=1k\n", NULL, 1, 23,
	  "unknown attribute 'sise' for fileset (did you mean 'size'?)" },
	{ "undefined fileset", PROC("  flowop read name=r,filesetname=nope"), NULL, 3, 34,
	  "fileset 'nope' is not defined" },
	{ "target naming no flowop", PROC("  flowop sempost name=s,target=nosuch"), NULL, 3, 1,
	  "flowop 's': target 'nosuch' is not the name of any flowop" },
	{ "finishoncount target naming no flowop",
	  PROC("  flowop read name=r\n  flowop finishoncount name=f,value=9,target=rr"), NULL, 4, 1,
	  "flowop 'f': target 'rr' is not the name of any flowop" },
	{ "bad size", "define fileset name=x,size=12q\n", NULL, 1, 28,
	  "size '12q' is not a size (use a number with optional k, m, g, t)" },
	{ "bad iosize", PROC("  flowop read name=r,iosize=4x"), NULL, 3, 29,
	  "iosize '4x' is not a size" },
	{ "iodepth 0", PROC("  flowop read name=r,iodepth=0"), NULL, 3, 30,
	  "flowop 'r': iodepth 0 is out of range (1 to 65536 requests in flight)" },
	{ "iodepth above 65536", PROC("  flowop write name=w,iodepth=65537"), NULL, 3, 31,
	  "flowop 'w': iodepth 65537 is out of range" },
	{ "iodepth not a number", PROC("  flowop read name=r,iodepth=x"), NULL, 3, 30,
	  "iodepth 'x' is not a number" },
	{ "iodepth from a variable out of range", "set $d=0\n" PROC("  flowop read name=r,iodepth=$d"),
	  NULL, 4, 30, "flowop 'r': iodepth 0 is out of range" },
	{ "iodepth with bufsize", PROC("  flowop read name=r,bufsize=64k,iodepth=2"), NULL, 3, 42,
	  "flowop 'r': iodepth above 1 and bufsize exclude each other" },
	{ "iodepth_batch without iodepth", PROC("  flowop read name=r,iodepth_batch=2"), NULL, 3, 36,
	  "flowop 'r': iodepth_batch needs iodepth" },
	{ "iodepth_batch above iodepth", PROC("  flowop read name=r,iodepth=4,iodepth_batch=5"), NULL,
	  3, 46, "flowop 'r': iodepth_batch 5 is out of range (1 to iodepth, 4)" },
	{ "iodepth_batch 0", PROC("  flowop write name=r,iodepth=4,iodepth_batch=0"), NULL, 3, 47,
	  "flowop 'r': iodepth_batch 0 is out of range (1 to iodepth, 4)" },
	{ "iodepth_batch not a number", PROC("  flowop read name=r,iodepth=4,iodepth_batch=x"), NULL,
	  3, 46, "iodepth_batch 'x' is not a number" },
	{ "iodepth on another flowop", PROC("  flowop fsync name=s,iodepth=4"), NULL, 3, 31,
	  "flowop 's': iodepth is for read, write and rwmix flowops only" },
	{ "readpct above 100", PROC("  flowop rwmix name=m,readpct=101"), NULL, 3, 31,
	  "flowop 'm': readpct 101 is out of range (0 to 100 percent)" },
	{ "readpct not a number", PROC("  flowop rwmix name=m,readpct=most"), NULL, 3, 31,
	  "readpct 'most' is not a number" },
	{ "readpct random", PROC("  flowop rwmix name=m,readpct=cvar(type=exponential,parameters=mean:1)"),
	  NULL, 3, 31, "flowop 'm': readpct cannot be random" },
	{ "readpct on read", PROC("  flowop read name=r,readpct=50"), NULL, 3, 30,
	  "flowop 'r': readpct is for rwmix flowops only" },
	{ "iobytes 0", PROC("  flowop read name=r,iobytes=0"), NULL, 3, 30,
	  "flowop 'r': iobytes 0 is out of range (at least 1)" },
	{ "iobytes not a size", PROC("  flowop write name=w,iobytes=lots"), NULL, 3, 31,
	  "iobytes 'lots' is not a size" },
	{ "iobytes random", PROC("  flowop write name=w,iobytes=cvar(type=exponential,parameters=mean:1)"), NULL, 3, 31,
	  "flowop 'w': iobytes cannot be random" },
	{ "iobytes from a variable out of range", "set $n=0\n" PROC("  flowop read name=r,iobytes=$n"),
	  NULL, 4, 30, "flowop 'r': iobytes 0 is out of range" },
	{ "iobytes on another flowop", PROC("  flowop appendfile name=a,iobytes=1m"), NULL, 3, 36,
	  "flowop 'a': iobytes is for read, write and rwmix flowops only" },
	{ "bad number of entries", "define fileset name=x,entries=ten\n", NULL, 1, 31,
	  "entries 'ten' is not a number" },
	{ "unterminated string", "echo \"abc\n", NULL, 1, 6, "unterminated string" },
	{ "unterminated string in a value", PROC("  flowop print name=p,value=\"oops"), NULL, 3, 29,
	  "unterminated string" },
	{ "unbalanced { in a thread", "define process name=p {\n thread name=t {\n  flowop read name=r\n",
	  NULL, 2, 16, "unbalanced '{'" },
	{ "unbalanced { in a process", "define process name=p {\n", NULL, 1, 23, "unbalanced '{'" },
	{ "unbalanced }", "set $a=1\n}\n", NULL, 2, 1, "unbalanced '}'" },
	{ "unset variable in arithmetic", "set $a = $b * 2\n", NULL, 1, 10,
	  "variable '$b' is used but never set" },
	{ "unset variable in a name", "define fileset name=$nope\n", NULL, 1, 21,
	  "variable '$nope' is used but never set" },
	{ "unset variable in run", "run $r\n", NULL, 1, 5, "variable '$r' is used but never set" },
	{ "unset variable in a randvar", "define randvar name=$x, mean=$m\n", NULL, 1, 30,
	  "variable '$m' is used but never set" },
	{ "duplicate fileset", "define fileset name=x\ndefine file name=x\n", NULL, 2, 18,
	  "fileset 'x' is already defined (line 1)" },
	{ "duplicate process", "define process name=p { thread name=t { flowop hog name=h } }\n"
	  "define process name=p { thread name=t { flowop hog name=h } }\n", NULL, 2, 21,
	  "process 'p' is already defined (line 1)" },
	{ "duplicate thread", "define process name=p {\n thread name=t { flowop hog name=h }\n"
	  " thread name=t { flowop hog name=h }\n}\n", NULL, 3, 14,
	  "thread 't' is already defined in process 'p' (line 2)" },
	{ "duplicate attribute", "define fileset name=x,size=1,filesize=2\n", NULL, 1, 30,
	  "attribute 'filesize' given twice for fileset (as 'size')" },
	{ "system is refused", "set $a=1\nsystem \"rm -rf /\"\n", NULL, 2, 1,
	  "'system' is not supported: fsgauge never runs shell commands" },
	{ "division by zero", "set $a = 1 / 0\n", NULL, 1, 12, "division by zero" },
	{ "integer overflow", "set $a = 9223372036854775807 + 1\n", NULL, 1, 30, "integer overflow" },
	{ "string in arithmetic", "set $s=abc\nset $a=$s+1\n", NULL, 2, 8,
	  "variable '$s' is not a number" },
	{ "randvar in arithmetic", "set $r=randvar(mean=1)\nset $a=$r*2\n", NULL, 2, 8,
	  "random variable '$r' cannot be used in arithmetic" },
	{ "unclosed parenthesis", "set $a = (1 + 2\n", NULL, 2, 1, "expected ')', found end of file" },
	{ "bad number in set", "set $a = 12q\n", NULL, 1, 10, "'12q' is not a number" },
	{ "nothing after =", "set $a=\n", NULL, 2, 1, "expected a value after '$a=', found end of file" },
	{ "set without =", "set $a 1\n", NULL, 1, 8, "expected '=' after the variable, found '1'" },
	{ "set of a non-variable", "set a=1\n", NULL, 1, 5,
	  "expected a variable ($name) or 'mode' after 'set', found 'a'" },
	{ "bad quit mode", "set mode quit never\n", NULL, 1, 15,
	  "expected 'timeout', 'alldone' or 'firstdone' after 'set mode quit', found 'never'" },
	{ "composite: missing parameter",
	  "define flowop name=c, $p { flowop read name=r,iosize=$p }\n"
	  "define process name=p { thread name=t { flowop c name=x } }\n",
	  NULL, 2, 48, "flowop 'c' needs a value for '$p'" },
	{ "composite: unknown parameter",
	  "define flowop name=c, $p { flowop read name=r,iosize=$p }\n"
	  "define process name=p { thread name=t { flowop c name=x,$p=1,$q=1 } }\n",
	  NULL, 2, 62, "flowop 'c' has no parameter '$q' (see its definition at line 1)" },
	{ "composite: bad bound value",
	  "define flowop name=c, $p { flowop read name=r,iosize=$p }\n"
	  "define process name=p { thread name=t { flowop c name=x,$p=abc } }\n",
	  NULL, 2, 60, "iosize 'abc' is not a size" },
	{ "composite: other attributes refused",
	  "define flowop name=c { flowop hog name=h }\n"
	  "define process name=p { thread name=t { flowop c name=x,iosize=1 } }\n",
	  NULL, 2, 57, "unknown attribute 'iosize' for composite flowop" },
	{ "composite: builtin name", "define flowop name=read { flowop hog name=h }\n", NULL, 1, 20,
	  "flowop type 'read' is built in" },
	{ "composite: cannot call itself", "define flowop name=c { flowop c name=x }\n", NULL, 1, 31,
	  "unknown flowop type 'c'" },
	{ "composite: empty", "define flowop name=c { }\n", NULL, 1, 8,
	  "composite flowop 'c' has no flowops" },
	{ "params only for composites", PROC("  flowop read name=r,$x=1"), NULL, 3, 22,
	  "unexpected '$x' in flowop attributes (only composite flowops take $parameters)" },
	{ "unsupported cvar type", "set $x = cvar(type=cvar-erlang)\n", NULL, 1, 20,
	  "cvar type 'cvar-erlang' is not supported" },
	{ "unknown cvar parameter", "set $x = cvar(type=cvar-gamma,parameters=mean:1;foo:2)\n", NULL,
	  1, 42, "unknown parameter 'foo' for cvar-gamma (use mean, gamma)" },
	{ "cvar without type", "set $x = cvar(min=1)\n", NULL, 1, 10, "cvar(...) needs a type" },
	{ "bad cvar parameter value", "set $x = cvar(type=cvar-exponential,parameters=mean:lots)\n",
	  NULL, 1, 48, "cvar parameter 'mean' 'lots' is not a number" },
	{ "triangular mode out of range",
	  "set $x = cvar(type=cvar-triangular,parameters=lower:1;upper:2;mode:3)\n", NULL, 1, 47,
	  "mode must be between lower and upper" },
	{ "tabular without table", "define randvar name=$x,type=tabular\n", NULL, 1, 29,
	  "type=tabular needs a randtable" },
	{ "randtable row reversed", "set $x = randvar(randtable={{50,1k,2k},{50,4k,2k}})\n", NULL, 1, 44,
	  "randtable row: min 4096 is above max 2048" },
	{ "randtable row too short", "set $x = randvar(randtable={{50,1k}})\n", NULL, 1, 35,
	  "expected ',' between randtable values, found '}'" },
	{ "unknown randvar type", "set $x = randvar(type=zipf)\n", NULL, 1, 23,
	  "randvar type 'zipf' is not supported (use gamma, uniform or tabular)" },
	{ "randvar gamma of 0", "set $x = randvar(gamma=0)\n", NULL, 1, 10,
	  "randvar gamma must be greater than 0" },
	{ "randvar without a name", "define randvar type=gamma\n", NULL, 1, 8,
	  "randvar has no name" },
	{ "bad boolean", PROC("  flowop read name=r,random=maybe"), NULL, 3, 29,
	  "random 'maybe' is not true or false" },
	{ "prealloc out of range", "define fileset name=x,prealloc=150\n", NULL, 1, 32,
	  "prealloc 150 is not a percentage (0 to 100)" },
	{ "prealloc too large for an integer", "define fileset name=x,prealloc=1e52\n", NULL, 1, 32,
	  "prealloc 1e52 is not a percentage (0 to 100)" },
	{ "unknown command", "frobnicate\n", NULL, 1, 1, "unknown command 'frobnicate'" },
	{ "misspelt command", "\n  runn 10\n", NULL, 2, 3, "unknown command 'runn' (did you mean 'run'?)" },
	{ "unsupported command", "load foo.f\n", NULL, 1, 1, "'load' is not supported" },
	{ "flowop outside a thread", "flowop read name=x\n", NULL, 1, 1,
	  "'flowop' is only allowed inside a thread" },
	{ "thread outside a process", "thread name=t { }\n", NULL, 1, 1,
	  "'thread' is only allowed inside 'define process'" },
	{ "fileset name with a slash", "define fileset name=a/b\n", NULL, 1, 21,
	  "fileset name 'a/b' must not contain '/'" },
	{ "fileset without a name", "define fileset path=/tmp\n", NULL, 1, 8,
	  "fileset has no name (add name=...)" },
	{ "flowop without a name", PROC("  flowop read iosize=1"), NULL, 3, 10,
	  "flowop 'read' has no name (add name=...)" },
	{ "thread without flowops", "define process name=p {\n thread name=t {\n }\n}\n", NULL, 2, 2,
	  "thread 't' has no flowops" },
	{ "process without threads", "define process name=p { }\n", NULL, 1, 8,
	  "process 'p' has no threads" },
	{ "junk in a process", "define process name=p {\n flowop read name=r\n}\n", NULL, 2, 2,
	  "expected 'thread' or '}' in process 'p', found 'flowop'" },
	{ "missing { after a process", "define process name=p\nthread name=t { flowop hog name=h }\n",
	  NULL, 2, 1, "expected '{' after the process's attributes, found 'thread'" },
	{ "define what", "define widget name=w\n", NULL, 1, 8,
	  "expected 'fileset', 'file', 'process', 'flowop' or 'randvar' after 'define', found 'widget'" },
	{ "unexpected character", "define fileset name=x,size=*\n", NULL, 1, 28,
	  "unexpected '*' where a value after 'size=' was expected" },
	{ "lonely $", "set $ = 1\n", NULL, 1, 5, "expected a variable name after '$'" },
	{ "echo needs a string", "echo hello\n", NULL, 1, 6,
	  "expected a quoted string after 'echo', found 'hello'" },
	{ "two runs", "run 1\nrun 2\n", NULL, 2, 1, "only one 'run' or 'psrun' is allowed" },
	{ "negative run", "run -5\n", NULL, 1, 5, "run duration must not be negative" },
	{ "fileset name too long", "define fileset name=" N256 ",path=/tmp\n", NULL, 1, 21,
	  "name too long: '" N48 "\xe2\x80\xa6' (256 bytes; a file or fileset name becomes a file "
	  "name, at most 255 bytes)" },
	{ "long undefined fileset shown shortened",
	  "define fileset name=a,path=/tmp\ndefine process name=p {\nthread name=t {\n"
	  "flowop statfile name=s,filesetname=" N256 "\n}\n}\n",
	  NULL, 4, 36, "fileset '" N48 "\xe2\x80\xa6' is not defined" },
	{ "run beyond a year", "run 1e308\n", NULL, 1, 5,
	  "invalid run duration 1e+308 (expected seconds, from 0 to 31536000, a year)" },
	{ "run just beyond a year", "set $t=31536001\nrun $t\n", NULL, 2, 5,
	  "invalid run duration 31536001 (expected seconds, from 0 to 31536000, a year)" },
	{ "psrun duration beyond a year", "psrun 10 2e10\n", NULL, 1, 10,
	  "invalid psrun duration 20000000000 (expected seconds, from 0 to 31536000, a year)" },
	{ "enable multi", "enable multi master=a,client=b\n", NULL, 1, 8,
	  "'enable multi' (multi-client synchronisation) is not supported" },
	{ "create what", "create widgets\n", NULL, 1, 8,
	  "expected 'files', 'filesets' or 'processes' after 'create', found 'widgets'" },
	{ "trailing comma", "define process name=p, {\n", NULL, 1, 24,
	  "expected an attribute name after ',', found '{'" },
	{ "value as a quoted string where a number is needed",
	  "define fileset name=x,entries=\"10\"\n", NULL, 1, 31,
	  "entries must be a number, not a quoted string" },
	{ "bad override value", "set $filesize=1k\n", "filesize=12q", 0, 0,
	  "bad value for '$filesize' in -s filesize=12q: '12q' is not a number" },
	{ "bad override name", "set $a=1\n", "1a=2", 0, 0, "'1a' is not a variable name" },
	{ "override with trailing junk", "set $a=1\n", "a=5 6", 0, 0,
	  "bad value for '$a' in -s a=5 6: expected the end of the value, found '6'" },
};

/* For test descriptions: TAP wants one line each. */
static const char *one_line(const char *s)
{
	static char buf[512];
	size_t n = 0;

	for (; *s && n + 3 < sizeof(buf); s++) {
		if (*s == '\n') {
			buf[n++] = '\\';
			buf[n++] = 'n';
		} else {
			buf[n++] = *s;
		}
	}
	buf[n] = '\0';
	return buf;
}

static void test_ok_cases(void)
{
	for (size_t i = 0; i < sizeof(ok_cases) / sizeof(ok_cases[0]); i++) {
		const struct ok_case *c = &ok_cases[i];
		struct workload *w = NULL;
		struct wl_error err;
		int rc = parse(c->text, c->ov, &w, &err);
		char *dump;

		if (!ok(rc == 0, "parses: %s", c->name)) {
			printf("#   %s:%d:%d: %s\n", err.file, err.line, err.col, err.msg);
			continue;
		}
		dump = workload_dump(w);
		for (size_t j = 0; j < 8 && c->want[j]; j++) {
			if (!ok(strstr(dump, c->want[j]) != NULL, "%s: has %s", c->name,
				one_line(c->want[j])))
				printf("#   dump:\n%s", dump);
		}
		free(dump);
		workload_free(w);
	}
}

static void test_bad_cases(void)
{
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
		struct workload *w = (struct workload *)1;
		struct wl_error err;
		int rc = parse(c->text, c->ov, &w, &err);

		is_int(rc, -EINVAL, "fails: %s", c->name);
		ok(w == NULL, "%s: no workload", c->name);
		is_str(err.file, c->ov ? "command line" : "t.f", "%s: file", c->name);
		if (!ok(err.line == c->line && err.col == c->col, "%s: at %d:%d", c->name, c->line,
			c->col))
			printf("#   got %d:%d: %s\n", err.line, err.col, err.msg);
		if (!ok(strstr(err.msg, c->msg) != NULL, "%s: message", c->name))
			printf("#   got '%s'\n#   want '%s'\n", err.msg, c->msg);
		if (rc == 0)
			workload_free(w);
	}
}

/* --- value types: a variable's value against the attribute that reads it --
 * Each case puts $v in one attribute (ATTR_*), gives it a value (with -s
 * or a `set` in the file) and expects the parse to pass (msg NULL) or to
 * fail with that message, at the position of $v (a -s value has none). */

#define ATTR_THREAD_INSTANCES                                                        \
	"define process name=p {\n thread name=t,instances=$v {\n  flowop hog name=h,value=1\n }\n}\n"
#define ATTR_PROCESS_INSTANCES                                                       \
	"define process name=p,instances=$v {\n thread name=t {\n  flowop hog name=h,value=1\n }\n}\n"
#define ATTR_ENTRIES "define fileset name=x,entries=$v,size=1k\n"
#define ATTR_SIZE "define fileset name=x,entries=2,size=$v\n"
#define ATTR_PREALLOC "define fileset name=x,entries=2,size=1k,prealloc=$v\n"
#define ATTR_FLOWOP(a)                                                               \
	"define fileset name=x,entries=2,size=1k\ndefine process name=p {\n thread name=t {\n" \
	"  flowop read name=r,filesetname=x," a "\n }\n}\n"
#define ATTR_HOG_VALUE                                                               \
	"define process name=p {\n thread name=t {\n  flowop hog name=h,value=$v\n }\n}\n"
#define ATTR_PRINT_VALUE                                                             \
	"define process name=p {\n thread name=t {\n  flowop print name=pr,value=$v\n }\n}\n"

struct type_case {
	const char *value; /* "v=abc" as -s, or a `set $v=...` line (then no -s) */
	const char *attr;  /* the workload reading $v */
	int line, col;	   /* where the error is (0:0 for -s) */
	const char *msg;   /* NULL: parses */
};

static const struct type_case type_cases[] = {
	/* the audit's cases */
	{ "v=abc", ATTR_THREAD_INSTANCES, 0, 0,
	  "-s v=abc: expected a whole number (instances of thread 't')" },
	{ "v=1.5", ATTR_THREAD_INSTANCES, 0, 0,
	  "-s v=1.5: expected a whole number (instances of thread 't')" },
	{ "v=abc", ATTR_ENTRIES, 0, 0, "-s v=abc: expected a whole number (entries of fileset 'x')" },
	{ "v=abc", ATTR_SIZE, 0, 0,
	  "-s v=abc: expected a whole number of bytes, optionally with k, m, g or t "
	  "(size of fileset 'x')" },
	/* more kinds */
	{ "v=abc", ATTR_PROCESS_INSTANCES, 0, 0,
	  "-s v=abc: expected a whole number (instances of process 'p')" },
	{ "v=true", ATTR_THREAD_INSTANCES, 0, 0,
	  "-s v=true: expected a whole number (instances of thread 't')" },
	{ "v=1.5", ATTR_SIZE, 0, 0, "-s v=1.5: expected a whole number of bytes" },
	{ "v=abc", ATTR_FLOWOP("iosize=$v"), 0, 0, "(iosize of flowop 'r')" },
	{ "v=2.5", ATTR_FLOWOP("iters=$v"), 0, 0,
	  "-s v=2.5: expected a whole number (iters of flowop 'r')" },
	{ "v=maybe", ATTR_FLOWOP("random=$v"), 0, 0,
	  "-s v=maybe: expected true or false (random of flowop 'r')" },
	{ "v=randvar(type=uniform,min=1,max=9)", ATTR_FLOWOP("random=$v"), 0, 0,
	  "expected true or false (random of flowop 'r')" },
	{ "v=abc", ATTR_HOG_VALUE, 0, 0, "-s v=abc: expected a number (value of flowop 'h')" },
	{ "v=150", ATTR_PREALLOC, 0, 0,
	  "-s v=150: expected a percentage (0 to 100), true or false (prealloc of fileset 'x')" },
	{ "v=yes", ATTR_PREALLOC, 0, 0, "-s v=yes: expected a percentage" },
	/* the same from a `set` in the file: at the attribute, naming the set */
	{ "set $v=abc\n", ATTR_THREAD_INSTANCES, 3, 26,
	  "instances of thread 't' is $v, which is 'abc' (set on line 1): expected a whole number" },
	{ "set $v=1.5\n", ATTR_FLOWOP("iters=$v"), 5, 42,
	  "iters of flowop 'r' is $v, which is '1.5' (set on line 1): expected a whole number" },
	{ "set $v=big\n", ATTR_SIZE, 2, 38,
	  "size of fileset 'x' is $v, which is 'big' (set on line 1): expected a whole number of bytes" },
	/* a literal fraction for a count */
	{ "set $v=1\n", "define fileset name=x,entries=2.5,size=1k\n", 2, 31,
	  "entries of fileset 'x' is '2.5': expected a whole number" },
	/* what keeps working: sizes with suffixes, whole doubles, random
	 * variables, numbers and words for flags, text for print */
	{ "v=4k", ATTR_SIZE, 0, 0, NULL },
	{ "v=1.5k", ATTR_SIZE, 0, 0, NULL },
	{ "v=1e3", ATTR_ENTRIES, 0, 0, NULL },
	{ "v=2.0", ATTR_THREAD_INSTANCES, 0, 0, NULL },
	{ "v=randvar(type=gamma,mean=16k,gamma=1.5)", ATTR_SIZE, 0, 0, NULL },
	{ "v=randvar(type=uniform,min=1,max=4)", ATTR_FLOWOP("iters=$v"), 0, 0, NULL },
	{ "v=true", ATTR_FLOWOP("random=$v"), 0, 0, NULL },
	{ "v=0", ATTR_FLOWOP("random=$v"), 0, 0, NULL },
	{ "v=\"false\"", ATTR_FLOWOP("random=$v"), 0, 0, NULL },
	{ "v=50", ATTR_PREALLOC, 0, 0, NULL },
	{ "v=true", ATTR_PREALLOC, 0, 0, NULL },
	{ "v=0.5", ATTR_HOG_VALUE, 0, 0, NULL },
	{ "v=hello", ATTR_PRINT_VALUE, 0, 0, NULL },
	{ "set $v=abc\n", ATTR_PRINT_VALUE, 0, 0, NULL },
	/* a later `set` decides: the value read is the last one */
	{ "set $v=abc\nset $v=3\n", ATTR_THREAD_INSTANCES, 0, 0, NULL },
	/* ... and -s wins over every `set` */
	{ "v=abc", "set $v=3\n" ATTR_THREAD_INSTANCES, 0, 0,
	  "-s v=abc: expected a whole number (instances of thread 't')" },
};

static void test_types(void)
{
	for (size_t i = 0; i < sizeof(type_cases) / sizeof(type_cases[0]); i++) {
		const struct type_case *c = &type_cases[i];
		int is_set = !strncmp(c->value, "set ", 4);
		char *text = xasprintf("%s%s", is_set ? c->value : "", c->attr);
		struct workload *w = NULL;
		struct wl_error err;
		int rc = parse(text, is_set ? NULL : c->value, &w, &err);
		char label[128];

		/* (one_line() returns a static buffer: the value's copy first) */
		snprintf(label, sizeof(label), "%s", one_line(c->value));
		if (!c->msg) {
			if (!ok(rc == 0, "types: %s in %.60s...: parses", label, one_line(c->attr)))
				printf("#   %s:%d:%d: %s\n", err.file, err.line, err.col, err.msg);
		} else {
			is_int(rc, -EINVAL, "types: %s in %.60s...: refused", label, one_line(c->attr));
			is_str(err.file, is_set ? "t.f" : "command line", "  file");
			if (!ok(err.line == c->line && err.col == c->col, "  at %d:%d", c->line,
				c->col))
				printf("#   got %d:%d: %s\n", err.line, err.col, err.msg);
			if (!ok(strstr(err.msg, c->msg) != NULL, "  message"))
				printf("#   got '%s'\n#   want '%s'\n", err.msg, c->msg);
		}
		if (rc == 0)
			workload_free(w);
		free(text);
	}
}

/* --- the model as the runner reads it ---------------------------------------- */

static const char model_text[] =
	"set $dir=/tmp\n"
	"set $nfiles=1000\n"
	"set $filesize=cvar(type=cvar-gamma,parameters=mean:16384;gamma:1.5)\n"
	"set $sync=false\n"
	"define fileset name=bigfileset,path=$dir,size=$filesize,entries=$nfiles,dirwidth=20,"
	"prealloc=80\n"
	"define process name=mail,instances=1 {\n"
	"  thread name=user,memsize=10m,instances=16 {\n"
	"    flowop openfile name=o,filesetname=bigfileset,fd=1\n"
	"    flowop appendfilerand name=a,iosize=16k,fd=1,dsync=$sync\n"
	"    flowop closefile name=c,fd=1\n"
	"  }\n"
	"}\n"
	"set $nfiles=2000\n"
	"run 30\n";

static void test_model(void)
{
	struct wl_override ov[] = { { "dir", "/mnt/test", 0 } };
	struct workload *w;
	struct wl_error err;
	struct wl_fileset *fs;
	struct wl_thread *th;
	struct rng r;
	int rc;

	rc = workload_parse(model_text, "dir/mail.f", ov, 1, &w, &err);
	if (!ok(rc == 0, "model parses")) {
		printf("#   %d:%d: %s\n", err.line, err.col, err.msg);
		return;
	}
	is_str(w->name, "mail", "name is the file's base name");
	is_str(w->source, "dir/mail.f", "source kept");
	is_int(w->nfilesets, 1, "one fileset");
	fs = w->filesets[0];
	is_str(wl_val_str(&fs->path, NULL), "/mnt/test", "override reaches the fileset path");
	is_int(wl_val_int(&fs->entries, NULL, 0), 2000, "late set reaches the fileset");
	is_int(wl_val_int(&fs->prealloc, NULL, 0), 80, "prealloc percent");
	ok(wl_val_israndom(&fs->size), "size is random");
	is_near(wl_val_double(&fs->size, NULL, 0), 16384, 1e-9, "r == NULL reads the mean");
	ok(!wl_val_isset(&fs->leafdirs), "leafdirs not given");
	is_int(wl_val_int(&fs->leafdirs, NULL, 7), 7, "default for a missing attribute");
	is_int(wl_val_bool(&fs->reuse, 0), 0, "reuse defaults to false");

	th = w->processes[0]->threads[0];
	is_int(th->nflowops, 3, "three flowops");
	ok(th->flowops[0]->fileset == fs, "flowop resolved to its fileset");
	is_int(th->flowops[0]->type, FO_OPENFILE, "openfile");
	is_int(wl_val_int(&th->flowops[1]->iosize, NULL, 0), 16384, "iosize");
	is_int(wl_val_bool(&th->flowops[1]->dsync, 1), 0, "dsync through a variable");
	ok(!wl_val_israndom(&th->flowops[1]->iosize), "constant iosize is not random");
	is_int(wl_val_int(&th->memsize, NULL, 0), 10 << 20, "memsize");
	ok(w->has_run, "has run");
	is_near(w->run_seconds, 30, 0, "run 30");

	rng_seed(&r, 42, 0);
	int varied = 0;
	int64_t first = wl_val_int(&fs->size, &r, 0);
	for (int i = 0; i < 100; i++)
		varied |= wl_val_int(&fs->size, &r, 0) != first;
	ok(varied, "a random size gives different values");

	struct wl_var *v = workload_var(w, "dir");
	ok(v && v->overridden && v->line == 0, "override recorded");
	v = workload_var(w, "nfiles");
	ok(v && v->used && v->line == 2, "variable use and first line recorded");
	ok(workload_var(w, "nope") == NULL, "unknown variable");

	is_int(workload_set_var(w, "nfiles", "5k"), 0, "workload_set_var");
	is_int(wl_val_int(&fs->entries, NULL, 0), 5120, "set_var reaches the fileset");
	is_int(workload_set_var(w, "nfiles", "12q"), -EINVAL, "workload_set_var rejects 12q");
	is_int(wl_val_int(&fs->entries, NULL, 0), 5120, "a failed set_var changes nothing");
	is_int(workload_set_var(w, "sync", "true"), 0, "set a boolean");
	is_int(wl_val_bool(&th->flowops[1]->dsync, 0), 1, "dsync follows");
	is_int(workload_set_var(w, "fresh", "\"a b\""), 0, "set a new string variable");
	is_str(workload_var(w, "fresh")->s, "a b", "string value");
	is_int(w->nwarnings, 0, "no warnings");
	workload_free(w);
}

static void test_readers(void)
{
	struct wl_var iv = { .name = "i", .kind = VAR_INT, .i = 5 };
	struct wl_var dv = { .name = "d", .kind = VAR_DBL, .d = 2.6 };
	struct wl_var sv = { .name = "s", .kind = VAR_STR, .s = "true" };
	struct wl_var uv = { .name = "u", .kind = VAR_UNSET };
	struct wl_val v = { 0 };

	is_int(wl_val_int(&v, NULL, 9), 9, "none -> default");
	ok(!wl_val_isset(&v), "none is not set");
	v = (struct wl_val){ .kind = WLV_DBL, .d = 2.5 };
	is_int(wl_val_int(&v, NULL, 0), 3, "double rounds to the nearest integer");
	v = (struct wl_val){ .kind = WLV_VAR, .var = &iv };
	is_int(wl_val_int(&v, NULL, 0), 5, "int through a variable");
	is_near(wl_val_double(&v, NULL, 0), 5, 0, "int as double");
	is_int(wl_val_bool(&v, 0), 1, "int as bool");
	ok(wl_val_str(&v, NULL) == NULL, "int is not a string");
	v.var = &dv;
	is_int(wl_val_int(&v, NULL, 0), 3, "double variable as int");
	v.var = &sv;
	is_str(wl_val_str(&v, NULL), "true", "string variable");
	is_int(wl_val_int(&v, NULL, -1), -1, "string variable as int -> default");
	is_int(wl_val_bool(&v, 0), 1, "\"true\" as bool");
	v.var = &uv;
	ok(!wl_val_isset(&v), "unset variable is not set");
	is_int(wl_val_int(&v, NULL, 4), 4, "unset variable -> default");
	is_str(wl_val_str(&v, "dflt"), "dflt", "unset variable -> default string");
}

/* --- random variables --------------------------------------------------------- */

static struct randvar *rv_of(struct workload *w, const char *name)
{
	struct wl_var *v = workload_var(w, name);

	return v && v->kind == VAR_RAND ? v->rv : NULL;
}

static void sample_stats(const struct randvar *rv, int n, double *mean, double *lo, double *hi)
{
	struct rng r;
	double sum = 0;

	rng_seed(&r, 12345, 1);
	*lo = 1e300;
	*hi = -1e300;
	for (int i = 0; i < n; i++) {
		double x = randvar_sample(rv, &r);

		sum += x;
		if (x < *lo)
			*lo = x;
		if (x > *hi)
			*hi = x;
	}
	*mean = sum / n;
}

static void test_randvars(void)
{
	static const char text[] =
		"define randvar name=$g, type=gamma, min=1k, mean=5632, gamma=1500\n"
		"set $g2 = randvar(type=gamma, mean=8k, gamma=500)\n"
		"define randvar name=$t, type=tabular, randtable={{80,1k,4k},{15,4k,16k},{5,16k,64k}}\n"
		"set $u = randvar(type=uniform, min=1k, mean=3k)\n"
		"set $u2 = randvar(type=uniform, min=100, max=200)\n"
		"set $r = randvar(type=gamma, min=512, round=512, mean=8k)\n"
		"set $cg = cvar(type=cvar-gamma, parameters=mean:16384;gamma:1.5)\n"
		"set $ce = cvar(type=cvar-exponential, parameters=mean:100)\n"
		"set $cn = cvar(type=cvar-normal, parameters=mean:1000;sigma:100)\n"
		"set $cn0 = cvar(type=cvar-normal, parameters=mean:0;sigma:100)\n"
		"set $cl = cvar(type=cvar-lognormal, parameters=shape:0.5;scale:3)\n"
		"set $cw = cvar(type=cvar-weibull, parameters=shape:2;scale:100)\n"
		"set $ct = cvar(type=cvar-triangular, parameters=lower:10;upper:100;mode:20)\n"
		"set $cu = cvar(type=cvar-uniform, parameters=lower:10;upper:30, min=15, max=25)\n";
	static const struct {
		const char *name;
		double mean, tol; /* relative */
	} cases[] = {
		{ "g", 5632, 0.02 },  { "g2", 8192, 0.03 }, { "t", 5632, 0.03 },
		{ "u", 3072, 0.01 },  { "u2", 150, 0.01 },  { "cg", 16384, 0.02 },
		{ "ce", 100, 0.02 },  { "cn", 1000, 0.01 }, { "cl", 22.76, 0.02 },
		{ "cw", 88.62, 0.02 }, { "ct", 43.33, 0.01 },
	};
	struct workload *w;
	struct wl_error err;
	double mean, lo, hi;
	const struct randvar *rv;

	if (!ok(workload_parse(text, "rv.f", NULL, 0, &w, &err) == 0, "randvars parse")) {
		printf("#   %d:%d: %s\n", err.line, err.col, err.msg);
		return;
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rv = rv_of(w, cases[i].name);
		if (!ok(rv != NULL, "$%s is random", cases[i].name))
			continue;
		is_near(randvar_mean(rv), cases[i].mean, cases[i].mean * 0.001,
			"randvar_mean($%s)", cases[i].name);
		sample_stats(rv, 200000, &mean, &lo, &hi);
		is_near(mean, randvar_mean(rv), randvar_mean(rv) * cases[i].tol,
			"sample mean of $%s near randvar_mean", cases[i].name);
		ok(lo >= 0, "$%s never negative", cases[i].name);
	}

	rv = rv_of(w, "g");
	sample_stats(rv, 100000, &mean, &lo, &hi);
	ok(lo >= 1024, "gamma randvar: min is an offset (lowest %g)", lo);
	rv = rv_of(w, "t");
	sample_stats(rv, 100000, &mean, &lo, &hi);
	ok(lo >= 1024 && hi <= 65536, "tabular within its rows [%g, %g]", lo, hi);
	rv = rv_of(w, "u");
	sample_stats(rv, 100000, &mean, &lo, &hi);
	ok(lo >= 1024 && hi <= 5120, "uniform randvar spans [min, 2 mean - min]: [%g, %g]", lo, hi);
	rv = rv_of(w, "cu");
	sample_stats(rv, 100000, &mean, &lo, &hi);
	ok(lo >= 15 && hi <= 25, "cvar min/max clamp: [%g, %g]", lo, hi);
	rv = rv_of(w, "cn0");
	sample_stats(rv, 100000, &mean, &lo, &hi);
	ok(lo == 0, "a normal around 0 is clamped at 0, never negative");

	rv = rv_of(w, "r");
	{
		struct rng r;
		int bad = 0;

		rng_seed(&r, 1, 2);
		for (int i = 0; i < 10000; i++) {
			double x = randvar_sample(rv, &r);

			bad += fmod(x, 512) != 0 || x < 512;
		}
		is_int(bad, 0, "round=512 gives multiples of 512, at least min");
	}

	/* Fixed seed: the same sequence every time. */
	{
		struct rng a, b;
		int same = 1;

		rng_seed(&a, 7, 0);
		rng_seed(&b, 7, 0);
		for (int i = 0; i < 100; i++)
			same &= randvar_sample(rv_of(w, "cg"), &a) == randvar_sample(rv_of(w, "cg"), &b);
		ok(same, "sampling is deterministic for a seed");
	}
	workload_free(w);
}

/* build.h's rwmix helper makes what `flowop rwmix` parses to. */
static void test_build_rwmix(void)
{
	struct workload *w = wl_new("b");
	struct wl_fileset *fs = wl_add_file(w, "f", 1 << 20);
	struct wl_thread *t = wl_add_thread(wl_add_process(w, "p", 1), "t", 1, 1 << 20);
	struct wl_flowop *fo = wl_add_rwmix(t, "mx", fs, 70);
	char *dump;

	fo->iosize = wl_int(4096);
	ok(fo->type == FO_RWMIX && fo->fileset == fs, "wl_add_rwmix: an rwmix flowop on the file");
	is_int(wl_val_int(&fo->readpct, NULL, -1), 70, "wl_add_rwmix: readpct");
	dump = workload_dump(w);
	ok(strstr(dump, "flowop rwmix mx fileset=f iosize=4096 readpct=70\n") != NULL,
	   "wl_add_rwmix: dumps as the parsed flowop does");
	free(dump);
	workload_free(w);
}

static void test_flowop_names(void)
{
	int roundtrip = 1;

	for (int i = 0; i < FO__COUNT; i++) {
		const char *n = flowop_type_name(i);

		if (i == FO_COMPOSITE)
			ok(n == NULL, "composite has no type name");
		else if (i == FO_REPLAY)
			ok(n && flowop_type_parse(n) == -1, "replay has a name workload files cannot use");
		else if (!n || flowop_type_parse(n) != i)
			roundtrip = 0;
	}
	ok(roundtrip, "every flowop type name parses back to its type");
	is_int(flowop_type_parse("nosuch"), -1, "unknown type");
	is_str(flowop_type_name(FO_READ), "read", "read");
	is_str(flowop_type_name(FO_RENAMEFILE), "renamefile", "renamefile");
	ok(flowop_type_name(FO__COUNT) == NULL, "out of range");
	ok(builtin_find("no-such-workload") == NULL, "builtin_find of an unknown name");
	ok(builtin_find(NULL) == NULL, "builtin_find(NULL)");
}

static void test_misc(void)
{
	struct wl_override ov = { "a", "2", 0 };
	struct workload *w;
	struct wl_error err;

	is_int(workload_parse("set $a=1\necho \"a is $a\"\n", "x.f", &ov, 1, &w, &err), 0,
	       "override used in an echo");
	is_int(w->nwarnings, 0, "an override used only in an echo is not unused");
	workload_free(w);
	ov.implicit = 1; /* fsgauge's own $dir */
	is_int(workload_parse("set $b=1\n", "x.f", &ov, 1, &w, &err), 0, "implicit override");
	is_int(w->nwarnings, 0, "an implicit override the workload does not use: no warning");
	workload_free(w);
	ov.implicit = 0;
	is_int(workload_parse("set $b=1\n", "x.f", &ov, 1, &w, &err), 0, "-s override");
	is_int(w->nwarnings, 1, "a -s override the workload does not use: a warning");
	workload_free(w);

	is_int(workload_parse("", NULL, NULL, 0, &w, &err), 0, "empty text parses");
	ok(!w->has_run && w->run_seconds == 60, "default duration is 60 s without run");
	ok(w->nprocesses == 0 && w->nfilesets == 0, "nothing defined");
	workload_free(w);
	is_int(workload_parse(NULL, "x.f", NULL, 0, &w, &err), 0, "NULL text parses as empty");
	workload_free(w);
	workload_free(NULL);

	/* Flags: iters defaults are the runner's; print keeps its text. */
	is_int(workload_parse(PROC("  flowop print name=p,value=\"hi $x\"\n"
				   "  flowop testrandvar name=tr,value=$v"),
			      "x.f", NULL, 0, &w, &err),
	       0, "print and testrandvar parse");
	is_str(w->processes[0]->threads[0]->flowops[0]->print_text, "hi $x", "print text is literal");
	ok(w->processes[0]->threads[0]->flowops[1]->rvar.kind == WLV_VAR,
	   "testrandvar value= is its random variable");
	workload_free(w);
}

int main(void)
{
	test_ok_cases();
	test_bad_cases();
	test_types();
	test_model();
	test_readers();
	test_randvars();
	test_flowop_names();
	test_build_rwmix();
	test_misc();
	return done_testing();
}
