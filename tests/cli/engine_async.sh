#!/bin/sh
# The asynchronous engines (ENGINE_ASYNC: libaio, io_uring) under the
# runner's aiowrite/aiowait flowops: 64 writes of 64 KiB submitted and
# reaped, buffered and O_DIRECT, write the same 4 MiB file as psync
# does (same seed, same bytes), and count what they should; an injected
# write error comes back through a completion and is reported.  Without
# libaio built in, --engine libaio is refused as an unknown engine.
. "$(dirname "$0")/lib.sh"

engines=$("$FSGAUGE" --version | sed -n 's/^engines: //p')
case " $engines " in
*" libaio "*) ;;
*)
	expect_fail "libaio not built in: an unknown engine, exit 2" 2 \
		"unknown engine 'libaio' \(available: psync" "$FSGAUGE" run varmail -d "$T" --engine libaio
	finish
	exit
	;;
esac

d="$T/target"
mkdir "$d"
# workload DIRECTIO: create a file, 64 asynchronous writes, wait, close
workload() {
	cat > "$T/aio.f" <<WML
define file name=log,path=\$dir,size=4m,prealloc=0
define process name=p,instances=1 {
  thread name=t,memsize=1m,instances=1 {
    flowop createfile name=create,filename=log,fd=1,directio=$1
    flowop aiowrite name=aw,fd=1,iosize=64k,iters=64,directio=$1
    flowop aiowait name=wait
    flowop closefile name=close,fd=1
    flowop threaddone name=end
  }
}
run 60
WML
}

# written ENGINE: runs the workload on ENGINE; prints the file's sha256 (or
# "failed"), the JSON in $T/j.json
written() {
	run "$FSGAUGE" run "$T/aio.f" -d "$d" -q --keep --seed 7 --json "$T/j.json" --engine "$1"
	kept=$(sed -n 's/^kept run directory: //p' "$T/err")
	if [ "$rc" -eq 0 ] && [ -f "$kept/log" ]; then
		size=$(wc -c < "$kept/log")
		echo "$size $(sha256sum < "$kept/log" | cut -d' ' -f1)"
	else
		echo failed
	fi
	[ -n "$kept" ] && rm -rf "$kept"
}

for directio in 0 1; do
	workload $directio
	want=$(written psync)
	if [ "$want" = failed ]; then
		ok "# SKIP directio=$directio: psync cannot run it here"
		continue
	fi
	for eng in libaio io_uring; do
		case " $engines " in *" $eng "*) ;; *) continue ;; esac
		got=$(written $eng)
		check "$eng, directio=$directio: aiowrite/aiowait run, the same 4 MiB as psync" \
			[ "$got" = "$want" ]
		check "  64 writes, 4 MiB written, no errors, engine recorded" \
			[ "$(json "$T/j.json" '"%d %d %d %s" % (d["phases"][0]["operations"][1]["ops"], d["phases"][0]["operations"][1]["bytes_written"], d["status"]["errors"], d["engine"])')" = "64 4194304 0 $eng" ]
	done
done
check "nothing left in the target" empty_dir "$d"

workload 0
expect_fail "libaio: an injected write error is reported, exit 1" 1 "aiowrite '[^']*log'.*Input/output error" \
	"$FSGAUGE" run "$T/aio.f" -d "$d" -q --engine faulty:libaio:op=write,nth=10,err=EIO
check "  nothing left behind" empty_dir "$d"

finish
