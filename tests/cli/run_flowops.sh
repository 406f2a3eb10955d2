#!/bin/sh
# The runner extensions bonnie is built on, through the workload language:
# chunked files (chunksize=), putc/getc through a user buffer, rewrite
# (every N-th written back), ordered passes (index order, shuffled, and
# in the order directories list their files),
# statfile fd=.
. "$(dirname "$0")/lib.sh"

d="$T/target"
mkdir "$d"

# jcheck DESC WANT FILE EXPR, evaluated together by jflush (see bonnie.sh)
jn=0
jcheck() {
	jn=$((jn + 1))
	printf '%s\n%s\n%s\n%s\n' "$1" "$2" "$3" "$4" > "$T/jq.$jn"
}
jflush() {
	python3 - "$T" "$jn" > "$T/jq.out" <<'PY'
import json, sys
t, n = sys.argv[1], int(sys.argv[2])
for i in range(1, n + 1):
    desc, want, path, expr = open("%s/jq.%d" % (t, i)).read().split("\n")[:4]
    try:
        d = json.load(open(path))
        ops = {o["name"]: o for p in d["phases"] for o in p["operations"]}
        v = eval(expr)
        got = str(v).lower() if isinstance(v, bool) else str(v)
    except Exception as e:
        got = "error: %s" % e
    print("%s\t%s\t%s" % ("1" if got == want else "0", desc, got))
PY
	while IFS='	' read -r good desc got; do
		if [ "$good" = 1 ]; then ok "$desc"; else not_ok "$desc"; echo "#   got: $got"; fi
	done < "$T/jq.out"
}

# A 3 MiB file in 1 MiB chunk files, written with putc, read with getc,
# rewritten, seeked, stat'ed through its slot.
cat > "$T/chars.f" <<'WML'
define file name=big,path=$dir,size=3m,chunksize=1m,prealloc=0
define process name=p,instances=1 {
  thread name=t,memsize=1m,instances=1 {
    flowop createfile name=create,filename=big,fd=1
    flowop putc name=putc,fd=1,iosize=8k,iters=384
    flowop closefile name=close,fd=1
    flowop openfile name=open,filename=big,fd=1
    flowop getc name=getc,fd=1,iosize=8k,iters=384
    flowop rewrite name=rewrite,fd=1,iosize=8k,iters=384
    flowop rewrite name=seek,fd=1,iosize=8k,iters=100,random,value=10
    flowop fsync name=fsync,fd=1
    flowop statfile name=stat,fd=1
    flowop closefile name=close2,fd=1
    flowop threaddone name=end
  }
}
run 60
WML
run "$FSGAUGE" run "$T/chars.f" -d "$d" -q --keep --json "$T/c.json"
check "putc/getc/rewrite workload exits 0" [ "$rc" -eq 0 ]
kept=$(sed -n 's/^kept run directory: //p' "$T/err")
check "chunksize=1m: three chunk files" [ "$(ls "$kept" | grep -c '^big\.00[0-2]$')" = 3 ]
[ "$(cat "$kept"/big.00? | wc -c)" = 3145728 ] && [ "$(wc -c < "$kept/big.002")" = 1048576 ]
checked "chunk files of 1 MiB each"
rm -rf "$kept"
jcheck "putc: 384 operations of 8k characters" "384 3145728" "$T/c.json" '"%d %d" % (ops["putc"]["ops"], ops["putc"]["bytes_written"])'
jcheck "getc: reads it back" 3145728 "$T/c.json" 'ops["getc"]["bytes_read"]'
jcheck "rewrite: every block read and written back" "3145728 3145728" "$T/c.json" '"%d %d" % (ops["rewrite"]["bytes_read"], ops["rewrite"]["bytes_written"])'
jcheck "rewrite value=10: one block in ten written back" "819200 81920" "$T/c.json" '"%d %d" % (ops["seek"]["bytes_read"], ops["seek"]["bytes_written"])'
jcheck "statfile fd=1 stats the open file" 1 "$T/c.json" 'ops["stat"]["ops"]'
jcheck "threaddone: the run ended with the thread, not at 60 s" true "$T/c.json" 'd["phases"][0]["seconds"] < 30'
jcheck "no errors" 0 "$T/c.json" 'd["status"]["errors"]'

# Ordered passes: two threads create each of 1000 files once, in index
# order; three threads delete them all in a shuffled order.
cat > "$T/order.f" <<'WML'
define fileset name=fs,path=$dir,entries=1000,dirwidth=100,size=2k,prealloc=0
define flowop name=mk {
  flowop createfile name=create,filesetname=fs,fd=1,ordered
  flowop writewholefile name=write,fd=1,iosize=4k
  flowop closefile name=close,fd=1
}
define process name=p,instances=1 {
  thread name=t,memsize=1m,instances=2 {
    flowop mk name=m,iters=500
    flowop threaddone name=end
  }
}
run 60
WML
run "$FSGAUGE" run "$T/order.f" -d "$d" -q --keep --json "$T/o.json"
check "ordered create exits 0" [ "$rc" -eq 0 ]
kept=$(sed -n 's/^kept run directory: //p' "$T/err")
check "ordered create: 1000 files, each once" [ "$(find "$kept/fs" -type f | wc -l)" = 1000 ]
[ "$(ls "$kept/fs" | wc -l)" = 10 ] && [ "$(ls "$kept/fs/d0" | wc -l)" = 100 ]
checked "ordered create: in 10 directories of 100"
rm -rf "$kept"
jcheck "ordered create: 1000 creates, no stalls" "1000 0" "$T/o.json" '"%d %d" % (ops["m.create"]["ops"], ops["m.create"]["stalls"])'
jcheck "ordered create: 2 MB written" 2048000 "$T/o.json" 'ops["m.write"]["bytes_written"]'
jcheck "composite: one timed operation per file" 1000 "$T/o.json" 'ops["m"]["ops"]'

for what in statfile deletefile; do
	cat > "$T/shuffle.f" <<WML
define fileset name=fs,path=\$dir,entries=1000,dirwidth=100,size=0,prealloc=100
define process name=p,instances=1 {
  thread name=t,memsize=1m,instances=3 {
    flowop $what name=op,filesetname=fs,ordered,random
  }
}
set mode quit alldone
run 60
WML
	run "$FSGAUGE" run "$T/shuffle.f" -d "$d" -q --keep --json "$T/s-$what.json"
	check "shuffled $what pass exits 0" [ "$rc" -eq 0 ]
	kept=$(sed -n 's/^kept run directory: //p' "$T/err")
	jcheck "shuffled $what: every file once, by three threads" 1000 "$T/s-$what.json" 'ops["op"]["ops"]'
	if [ $what = deletefile ]; then
		check "shuffled delete: no file left" [ "$(find "$kept/fs" -type f | wc -l)" = 0 ]
	fi
	rm -rf "$kept"
done
check "nothing left behind" empty_dir "$d"

# readdir passes: the files in the order their directories list them,
# directory after directory, as bonnie++'s sequential stat and delete.
# 100 files are created in a shuffled order, so that a listing (ext4: hash
# order; tmpfs: creation order) is not index order; then deleted.
for width in 1000 10; do
	cat > "$T/readdir-$width.f" <<WML
define fileset name=fs,path=\$dir,entries=100,dirwidth=$width,size=0,prealloc=0
define flowop name=mk {
  flowop createfile name=create,filesetname=fs,fd=1,ordered,random
  flowop closefile name=close,fd=1
}
define process name=p,instances=1 {
  thread name=t,memsize=1m,instances=1 {
    flowop mk name=m,iters=100
    flowop deletefile name=del,filesetname=fs,readdir,iters=100
    flowop threaddone name=end
  }
}
run 60
WML
	run "$FSGAUGE" run "$T/readdir-$width.f" -d "$d" -q --json "$T/rd-$width.json"
	check "readdir pass, dirwidth=$width: exits 0" [ "$rc" -eq 0 ]
	jcheck "readdir pass, dirwidth=$width: 100 files deleted, no stall" "100 0" "$T/rd-$width.json" \
		'"%d %d" % (ops["del"]["ops"], ops["del"]["stalls"])'
done
jcheck "readdir pass, one level: the directory opened once, read (100 creates + 1)" \
	"101 True" "$T/rd-1000.json" \
	'"%d %s" % (d["io_requests"]["open"], d["io_requests"]["getdents"] >= 1)'
jcheck "readdir pass, 10 leaves: each opened once and read (100 creates + 10)" \
	"110 True" "$T/rd-10.json" \
	'"%d %s" % (d["io_requests"]["open"], d["io_requests"]["getdents"] >= 10)'
# three threads share one readdir pass: together they take each file once
cat > "$T/readdir-3.f" <<'WML'
define fileset name=fs,path=$dir,entries=1000,dirwidth=100,size=0,prealloc=100
define process name=p,instances=1 {
  thread name=t,memsize=1m,instances=3 {
    flowop statfile name=stat,filesetname=fs,readdir
  }
}
set mode quit alldone
run 60
WML
run "$FSGAUGE" run "$T/readdir-3.f" -d "$d" -q --json "$T/rd-3.json"
check "readdir pass, three threads: exits 0" [ "$rc" -eq 0 ]
jcheck "readdir pass, three threads: each of 1000 files stat'ed once, 10 directories read" \
	"1000 10" "$T/rd-3.json" \
	'"%d %d" % (ops["stat"]["ops"], d["phases"][-1]["io_requests"]["open"])'
# the first file deleted is the first one the directory lists (and, two
# levels deep, the 11th the first of the second directory): the unlink
# is made to fail there, and the kept directory listed
first_listed() {
	python3 -c 'import os, sys; print([n for n in os.listdir(sys.argv[1]) if n[0] != "."][0])' "$1"
}
for case in "1000 1 fs" "10 11 fs/d1"; do
	set -- $case
	run "$FSGAUGE" run "$T/readdir-$1.f" -d "$d" -q --keep \
		--engine "faulty:psync:op=unlink,nth=$2,err=EIO"
	kept=$(sed -n 's/^kept run directory: //p' "$T/err")
	want=$(first_listed "$kept/$3")
	check "readdir pass, dirwidth=$1: unlink $2 is of $3/$want, listed first there" \
		grep -q "flowop 'del': unlink '$3/$want': Input/output error" "$T/err"
	check "readdir pass, dirwidth=$1: the failed unlink exits 1" [ "$rc" -eq 1 ]
	# what makes the check above tell the two orders apart: the directory
	# does not list its files in index order
	check "readdir pass, dirwidth=$1: $3 is not listed in index order" python3 -c '
import os, sys
n = [int(x[1:]) for x in os.listdir(sys.argv[1]) if x[0] == "f"]
sys.exit(n == sorted(n))' "$kept/$3"
	rm -rf "$kept"
done
run "$FSGAUGE" run "$T/readdir-10.f" -d "$d" -q --engine "faulty:psync:op=getdents,nth=1,err=EIO"
check "readdir pass: a failed getdents exits 1" [ "$rc" -eq 1 ]
check "readdir pass: the message names the directory" \
	grep -q "flowop 'del': getdents 'fs/d0': Input/output error" "$T/err"
run "$FSGAUGE" run "$T/readdir-1000.f" -d "$d" -q --engine "faulty:psync:op=open,nth=101,err=EACCES"
check "readdir pass: a directory that cannot be opened exits 1" [ "$rc" -eq 1 ]
check "readdir pass: the message names the fileset's directory" \
	grep -q "flowop 'del': open 'fs': Permission denied" "$T/err"
sed 's/readdir,iters/readdir,random,iters/' "$T/readdir-10.f" > "$T/readdir-random.f"
run "$FSGAUGE" run "$T/readdir-random.f" -d "$d" -q
check "readdir with random: exits 2" [ "$rc" -eq 2 ]
check "readdir with random: says they exclude each other" \
	grep -q "readdir-random.f:9:[0-9]*: flowop 'del': readdir and random exclude each other" "$T/err"
check "readdir: nothing left behind" empty_dir "$d"

# dirsync: `fsync fd=N,dirsync` fsyncs the file and then its directory,
# `deletefile dirsync` the directory after the unlink: through the
# fileset's own descriptor (one level) or by opening the entry's
# directory (two levels: 20 entries, 5 per directory)
for width in 100 5; do
	cat > "$T/dirsync-$width.f" <<WML
define fileset name=fs,path=\$dir,entries=20,dirwidth=$width,size=0,prealloc=0
define process name=p,instances=1 {
  thread name=t,memsize=1m,instances=1 {
    flowop createfile name=create,filesetname=fs,fd=1,ordered
    flowop fsync name=fsync,fd=1,dirsync
    flowop closefile name=close,fd=1
    flowop deletefile name=delete,filesetname=fs,dirsync
  }
}
set mode quit alldone
run 60
WML
	run "$FSGAUGE" run "$T/dirsync-$width.f" -d "$d" -q --json "$T/ds-$width.json"
	check "dirsync, dirwidth=$width: exits 0" [ "$rc" -eq 0 ]
	jcheck "dirsync, dirwidth=$width: 20 creates, fsyncs and deletes" "20 20 20" "$T/ds-$width.json" \
		'"%d %d %d" % (ops["create"]["ops"], ops["fsync"]["ops"], ops["delete"]["ops"])'
	jcheck "dirsync, dirwidth=$width: 60 fsync calls (file, its directory, directory after delete)" \
		60 "$T/ds-$width.json" 'd["io_requests"]["fsync"]'
done
jcheck "dirsync, two levels: each directory opened to be fsynced (20 creates + 40)" \
	60 "$T/ds-5.json" 'd["io_requests"]["open"]'
jcheck "dirsync, one level: through the fileset's descriptor (20 opens)" \
	20 "$T/ds-100.json" 'd["io_requests"]["open"]'
cat > "$T/dirsync-dirs.f" <<'WML'
define fileset name=ld,path=$dir,leafdirs=10,dirwidth=100,prealloc=0
define process name=p,instances=1 {
  thread name=t,memsize=1m,instances=1 {
    flowop makedir name=mkdir,filesetname=ld,ordered,dirsync
    flowop removedir name=rmdir,filesetname=ld,dirsync
  }
}
set mode quit alldone
run 60
WML
run "$FSGAUGE" run "$T/dirsync-dirs.f" -d "$d" -q --json "$T/ds-dirs.json"
check "makedir/removedir dirsync: exits 0" [ "$rc" -eq 0 ]
jcheck "makedir/removedir dirsync: 10 each, 20 directory fsyncs" "10 10 20" "$T/ds-dirs.json" \
	'"%d %d %d" % (ops["mkdir"]["ops"], ops["rmdir"]["ops"], d["io_requests"]["fsync"])'
# a directory fsync that fails is the flowop's error, naming the directory
run "$FSGAUGE" run "$T/dirsync-5.f" -d "$d" -q --engine "faulty:psync:op=fsync,nth=2,err=EIO"
check "dirsync: a failed directory fsync exits 1" [ "$rc" -eq 1 ]
check "dirsync: the message names the directory" \
	grep -q "flowop 'fsync': fsync directory 'fs/d0': Input/output error" "$T/err"
run "$FSGAUGE" run "$T/dirsync-100.f" -d "$d" -q --engine "faulty:psync:op=fsync,nth=3,err=EIO"
check "dirsync after a delete: a failed directory fsync exits 1" [ "$rc" -eq 1 ]
check "dirsync after a delete: the message names the fileset's directory" \
	grep -q "flowop 'delete': fsync directory 'fs': Input/output error" "$T/err"
check "dirsync: nothing left behind" empty_dir "$d"

# syncfs: flush the file system holding the fileset (or the run
# directory), timed as one operation
cat > "$T/syncfs.f" <<'WML'
define fileset name=fs,path=$dir,entries=5,size=4k,prealloc=0
define process name=p,instances=1 {
  thread name=t,memsize=1m,instances=1 {
    flowop createfile name=create,filesetname=fs,fd=1,ordered
    flowop write name=write,fd=1,iosize=4k
    flowop closefile name=close,fd=1
    flowop syncfs name=syncfs-fs,filesetname=fs
    flowop syncfs name=syncfs-dir
  }
}
set mode quit alldone
run 60
WML
run "$FSGAUGE" run "$T/syncfs.f" -d "$d" -q --json "$T/syncfs.json"
check "syncfs: exits 0" [ "$rc" -eq 0 ]
jcheck "syncfs: one per pass, with and without a fileset (5 + 5 syncfs calls)" "5 5 10" "$T/syncfs.json" \
	'"%d %d %d" % (ops["syncfs-fs"]["ops"], ops["syncfs-dir"]["ops"], d["io_requests"]["syncfs"])'
run "$FSGAUGE" run "$T/syncfs.f" -d "$d" -q --engine "faulty:psync:op=syncfs,nth=1,err=EIO"
check "syncfs: a failure exits 1" [ "$rc" -eq 1 ]
check "syncfs: the message names the fileset" \
	grep -q "flowop 'syncfs-fs': syncfs 'fs': Input/output error" "$T/err"
run "$FSGAUGE" run "$T/syncfs.f" -d "$d" -q --engine "faulty:psync:op=syncfs,nth=2,err=EIO"
check "syncfs without a fileset: the message names the run directory" \
	grep -q "flowop 'syncfs-dir': syncfs '.': Input/output error" "$T/err"
check "syncfs: nothing left behind" empty_dir "$d"

# The language: the new attributes parse and dump; chunksize only on a file
cat > "$T/bad.f" <<'WML'
define fileset name=fs,path=$dir,entries=10,size=1k,chunksize=1m
WML
run "$FSGAUGE" run "$T/bad.f" -d "$d" -q
check "chunksize on a fileset is an error (exit 2)" [ "$rc" -eq 2 ]
check "chunksize on a fileset: names the attribute" grep -q "unknown attribute 'chunksize' for fileset" "$T/err"
# Open files are shared, as in filebench: four threads append to a
# fileset of one file and never close it (webserver's log); each opens it.
# Under --verify a file stays held while open, so only one thread does.
cat > "$T/log.f" <<'WML'
define fileset name=log,path=$dir,size=4k,entries=1,prealloc
define process name=p,instances=1 {
  thread name=t,memsize=1m,instances=4 {
    flowop appendfile name=append,filesetname=log,iosize=1k,fd=1
  }
}
WML
run "$FSGAUGE" run "$T/log.f" -d "$d" -t 1 -q --json "$T/log.json"
check "shared log file: exit 0" [ "$rc" -eq 0 ]
jcheck "shared log file: every thread opens it, none waits for it" "4 0" "$T/log.json" \
	'"%d %d" % (d["phases"][0]["io_requests"]["open"], d["status"]["errors"])'
run "$FSGAUGE" run "$T/log.f" -d "$d" -t 1 -q --verify --json "$T/logv.json"
check "shared log file, --verify: exit 0" [ "$rc" -eq 0 ]
jcheck "--verify: the file is held while open (one thread opens it, the others wait)" "1 1" \
	"$T/logv.json" '"%d %d" % (d["phases"][0]["io_requests"]["open"], ops["append"]["stalls"] > 0)'
# a statfile finds the file even while another thread keeps it open
# (it only waits out the moment the other thread opens it)
cat > "$T/statopen.f" <<'WML'
define fileset name=log,path=$dir,size=4k,entries=1,prealloc
define process name=p,instances=1 {
  thread name=a,memsize=1m,instances=1 {
    flowop appendfile name=append,filesetname=log,iosize=1k,fd=1
  }
  thread name=b,memsize=1m,instances=1 {
    flowop statfile name=stat,filesetname=log
  }
}
WML
run "$FSGAUGE" run "$T/statopen.f" -d "$d" -t 1 -q --json "$T/statopen.json"
check "statfile of an open file: exit 0" [ "$rc" -eq 0 ]
jcheck "statfile of a file another thread keeps open: runs, stalls at most a few times" true \
	"$T/statopen.json" 'ops["stat"]["ops"] > 100 and ops["stat"]["stalls"] < 10'
check "shared log file: nothing left behind" empty_dir "$d"

# fsync and closefile without fd= act on the descriptor of the fd-less
# flowop before them, as filebench's slot 0 does (filemicro_rwritefsync)
cat > "$T/fdless.f" <<'WML'
define file name=big,path=$dir,size=1m,prealloc
define process name=p,instances=1 {
  thread name=t,memsize=1m,instances=1 {
    flowop write name=write,filename=big,random,iosize=8k,iters=16
    flowop fsync name=sync
    flowop closefile name=close
    flowop finishoncount name=done,value=50,target=sync
  }
}
WML
run "$FSGAUGE" run "$T/fdless.f" -d "$d" -t 30 -q --json "$T/fdless.json"
check "fd-less fsync: exit 0" [ "$rc" -eq 0 ]
jcheck "fd-less fsync syncs the write's file: 16 writes per fsync, no stalls" "1 0" \
	"$T/fdless.json" '"%d %d" % (ops["write"]["ops"] == 16 * ops["sync"]["ops"] and ops["sync"]["ops"] >= 50, ops["sync"]["stalls"])'
jcheck "fd-less closefile closes it: one open and one close per pass" true \
	"$T/fdless.json" 'd["phases"][0]["io_requests"]["open"] == d["phases"][0]["io_requests"]["close"] == ops["sync"]["ops"]'

# Rate limits: bwlimit takes one event per MiB (eventgen rate=20: 20
# MiB/s), and a limit with target= counts only that flowop's operations
# (each loop here does a read and a write: limiting on the write alone
# lets 100 writes a second through, not 50)
for limit in bwlimit iopslimit; do
	cat > "$T/$limit.f" <<WML
eventgen rate=\$rate
define file name=src,path=\$dir,size=4m,prealloc
define process name=p,instances=1 {
  thread name=t,memsize=1m,instances=1 {
    flowop read name=r,filename=src,iosize=\$bs,fd=1
    flowop write name=w,filename=src,iosize=4k,random,fd=1
    flowop $limit name=lim,target=\$target
  }
}
WML
done
run "$FSGAUGE" run "$T/bwlimit.f" -d "$d" -t 2 -q -s rate=20 -s bs=1m -s target=r --json "$T/bw.json"
check "bwlimit: exit 0" [ "$rc" -eq 0 ]
jcheck "bwlimit at 20 events/s: 20 MiB/s of reads (at least 10, at most 20 per second and one ahead)" true \
	"$T/bw.json" '10 * d["phases"][0]["seconds"] <= ops["r"]["bytes_read"] / 2**20 <= 20 * d["phases"][0]["seconds"] + 1'
run "$FSGAUGE" run "$T/iopslimit.f" -d "$d" -t 2 -q -s rate=100 -s bs=4k -s target=w --json "$T/iops.json"
check "iopslimit target=: exit 0" [ "$rc" -eq 0 ]
jcheck "iopslimit target=w at 100 events/s: about 100 writes a second, not 50" true \
	"$T/iops.json" '75 * d["phases"][0]["seconds"] <= ops["w"]["ops"] <= 100 * d["phases"][0]["seconds"] + 1'
check "rate limits: nothing left behind" empty_dir "$d"

jflush
finish
