#!/bin/sh
# fio compatibility (issue 20, docs/fio-compat.md): the job-file corpus of
# tests/fixtures/fio, each file run on the null engine and on a tmpfs
# (when root can mount one; else on the test's directory), with the
# requests and bytes fio's rules give checked in fsgauge's result and in
# fio's JSON; then fio's JSON read as fio's common consumers read it
# (fio_consumers.py) for every rw mode and engine; fio's slat, clat and
# lat on io_uring and libaio (fio_latsplit.py), laid out as fio's own
# JSON when fio is installed.
. "$(dirname "$0")/lib.sh"

FX="$(dirname "$0")/../fixtures/fio"
CONSUMERS="$(dirname "$0")/fio_consumers.py"
TERSE="$(dirname "$0")/fio_terse.py"
LATSPLIT="$(dirname "$0")/fio_latsplit.py"
engines=$("$FSGAUGE" --version | sed -n 's/^engines: //p')
d="$T/target"
mkdir "$d"
FIO=$(command -v fio || true)
where="the test directory"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64m fsgauge-test "$d" 2>/dev/null; then
	where=tmpfs
	trap 'umount "$d" 2>/dev/null; chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
fi

# ops PHASE NAME: "OPS BYTES" of operation NAME in phase PHASE of $T/j.json
ops() {
	json "$T/j.json" "' '.join('%d %d' % (o['ops'], o['bytes_read'] + o['bytes_written']) for o in d['phases'][$1]['operations'] if o['name'] == '$2')"
}
# fiojobs: "JOB READS WRITES ..." of every jobs[] entry of $T/fio.json
fiojobs() {
	json "$T/fio.json" "' '.join('%s %d %d' % (j['jobname'], j['read']['total_ios'], j['write']['total_ios']) for j in d['jobs'])"
}

for eng in null "$where"; do
	if [ "$eng" = null ]; then set -- -s ioengine=null; else set --; fi

	# mixed.fio: rw/randrw with rwmix, bssplit, bsrange, zipf,
	# percentage_random, io_size and loops, fsync/fdatasync/end_fsync/
	# fsync_on_close, O_SYNC, a shared file, wait_for_previous, new_group
	run "$FSGAUGE" io "$FX/mixed.fio" "$@" -d "$d" -q --json "$T/j.json" --output-format=json
	cp "$T/out" "$T/fio.json"
	check "mixed.fio on $eng: exit 0, groups by wait_for_previous (new_group reports only)" \
		[ "$rc/$(json "$T/j.json" "[p['name'] for p in d['phases']]")" = "0/['mix', 'zipf']" ]
	check "  mix (rw, bs=\$pagesize): its reads and writes move size" \
		[ "$(json "$T/j.json" "sum(o['bytes_read'] + o['bytes_written'] for o in d['phases'][0]['operations'] if o['name'] in ('mix.read', 'mix.write'))")" = 262144 ]
	# (fsync=N: floor((W - 1) / N) syncs, and a mixed job's reads after
	# a sync make it due again: at most one more each)
	w=$(ops 0 mix.write | cut -d' ' -f1) r=$(ops 0 mix.read | cut -d' ' -f1)
	n=$(ops 0 mix.fsync | cut -d' ' -f1)
	check "  fsync=4 and end_fsync: floor((writes - 1) / 4) + 1 fsyncs, at most reads more" \
		[ "$w" -gt 0 -a "$n" -ge $(((w - 1) / 4 + 1)) -a "$n" -le $(((w - 1) / 4 + 1 + r)) ]
	w=$(ops 0 randmix.write | cut -d' ' -f1) r=$(ops 0 randmix.read | cut -d' ' -f1)
	n=$(ops 0 randmix.fdatasync | cut -d' ' -f1)
	check "  fdatasync=8: floor((writes - 1) / 8), at most reads more; fsync_on_close: one fsync" \
		[ "$w" -gt 0 -a "$n" -ge $(((w - 1) / 8)) -a "$n" -le $(((w - 1) / 8 + r)) -a "$(ops 0 randmix.fsync)" = "1 0" ]
	check "  randrw with bssplit 4k/16k: at least size, less than size + 16k" \
		[ "$(json "$T/j.json" "262144 <= sum(o['bytes_read'] + o['bytes_written'] for o in d['phases'][0]['operations'] if o['name'] in ('randmix.read', 'randmix.write')) < 262144 + 16384")" = true ]
	check "  zipf: io_size=512k loops=2 at 4k, 256 reads" [ "$(ops 1 zipf.read)" = "256 1048576" ]
	check "  bsrange 4k-16k: at least size, less than size + 16k" \
		[ "$(json "$T/j.json" "[262144 <= o['bytes_written'] < 262144 + 16384 for o in d['phases'][1]['operations'] if o['name'] == 'ranges.write']")" = "[True]" ]
	check "  fio's JSON: a job entry each, with fsgauge's counts" \
		[ "$(fiojobs)" = "mix $(ops 0 mix.read | cut -d' ' -f1) $(ops 0 mix.write | cut -d' ' -f1) randmix $(ops 0 randmix.read | cut -d' ' -f1) $(ops 0 randmix.write | cut -d' ' -f1) zipf 256 0 ranges 0 $(ops 1 ranges.write | cut -d' ' -f1)" ]
	check "  percentile_list and lat_percentiles: lat_ns has the three asked" \
		[ "$(json "$T/fio.json" "sorted(d['jobs'][2]['read']['lat_ns']['percentile'])")" = "['50.000000', '99.000000', '99.900000']" ]
	check "  the global description and the machine's variables recorded" \
		[ "$(json "$T/fio.json" "(d['global options']['description'], d['global options']['blocksize'])")" = "('mixed and random requests', '$(getconf PAGESIZE)')" ]

	# data.fio: kb_base=1000 (KiB is 1024), the data options, verify,
	# seeds, blockalign, norandommap (the null engine cannot verify)
	if [ "$eng" = null ]; then set -- "$@" -s verify=0; fi
	run "$FSGAUGE" io "$FX/data.fio" "$@" -d "$d" -q --json "$T/j.json"
	check "data.fio on $eng: exit 0, kb_base=1000: io_limit=128KiB at 4KiB, 32 writes" \
		[ "$rc/$(ops 0 seqw.write)" = "0/32 131072" ]
	check "  filesize=64KiB: 16 random writes" [ "$(ops 0 randw.write)" = "16 65536" ]
	if [ "$eng" = null ]; then
		check "  without verify: nothing read back" \
			[ "$(json "$T/j.json" "[p['name'] for p in d['phases']]")" = "['seqw']" ]
	else
		check "  verify: seqw reads back its 16 blocks once (two passes written), randw (do_verify=0) nothing" \
			[ "$(json "$T/j.json" "[(p['name'], [(o['name'], o['ops'], o['bytes_read']) for o in p['operations'] if o['name'].endswith('.verify')]) for p in d['phases']]")" = "[('seqw', []), ('seqw.verify', [('seqw.verify', 16, 65536)])]" ]
	fi
	check "  the data options reach fsgauge's data pattern" \
		[ "$(json "$T/j.json" "d['parameters'].get('data', '')")" != "" ]

	# timed.fio: time_based with runtime and ramp_time, zero_buffers,
	# io_uring at iodepth 8 with batches, group_reporting
	case " $engines " in *" io_uring "*) ue=1 ;; *) ue=0 ;; esac
	if [ "$ue" = 1 ] || [ "$eng" = null ]; then
		run "$FSGAUGE" io "$FX/timed.fio" "$@" -d "$d" -q --json "$T/j.json" --output-format=json
		cp "$T/out" "$T/fio.json"
		check "timed.fio on $eng: exit 0, one group, reads and writes done" \
			[ "$rc/$(json "$T/j.json" "len(d['phases'])")/$(json "$T/j.json" "all(o['ops'] > 0 for o in d['phases'][0]['operations'] if o['name'] in ('tr.read', 'tw.write'))")" = "0/1/true" ]
		check "  group_reporting: one job entry, the group's counts" \
			[ "$(fiojobs)" = "tr $(ops 0 tr.read | cut -d' ' -f1) $(ops 0 tw.write | cut -d' ' -f1)" ]
		check "  zero_buffers: data zero" [ "$(json "$T/j.json" "d['parameters'].get('data')")" = zero ]
		check "  iodepth_batch_complete (the _min alias) recorded" \
			[ "$(json "$T/j.json" "d['parameters'].get('job.tr.iodepth_batch_complete_min')")" = 2 ]
	else
		ok "# SKIP timed.fio on $eng: io_uring not built in"
	fi

	# pacing.fio: rate_iops with poisson arrivals, offset and
	# offset_increment, thinktime (blocks, spin), startdelay, bsrange,
	# rate and rate_min, fadvise_hint, invalidate, batched reaping,
	# wait_for (a group each, in order), directory=pacing (inside the run
	# directory)
	case " $engines " in *" libaio "*) le=1 ;; *) le=0 ;; esac
	if [ "$le" = 1 ] || [ "$eng" = null ]; then
		run "$FSGAUGE" io "$FX/pacing.fio" "$@" -d "$d" -q --json "$T/j.json" --keep
		kept=$(ls -d "$d"/fsgauge-* 2>/dev/null | head -1)
		check "pacing.fio on $eng: exit 0, a group per job in wait_for's order" \
			[ "$rc/$(json "$T/j.json" "[p['name'] for p in d['phases']]")" = "0/['paced', 'think', 'bytes', 'batch']" ]
		check "  paced: 2 clones x 16 reads of 4k, every one on the rate_iops schedule" \
			[ "$(ops 0 paced.read)/$(json "$T/j.json" "[o['schedule']['ops'] for o in d['phases'][0]['operations'] if o['name'] == 'paced.read']")" = "32 131072/[32]" ]
		check "  think: bsrange writes cover its 128k (at most one request over), with pauses" \
			[ "$(json "$T/j.json" "[131072 <= o['bytes_written'] < 131072 + 16384 for o in d['phases'][1]['operations'] if o['name'] == 'think.write'] + [d['phases'][1]['workers']['rate_wait_seconds'] > 0]")" = "[True, True]" ]
		check "  bytes: 4 writes of 16k on the rate schedule, none below rate_min" \
			[ "$(ops 2 bytes.write)/$(json "$T/j.json" "[(o['schedule']['ops'], o['schedule']['below_rate_min']) for o in d['phases'][2]['operations'] if o['name'] == 'bytes.write']")" = "4 65536/[(4, 0)]" ]
		check "  batch: 32 reads of 4k" [ "$(ops 3 batch.read)" = "32 131072" ]
		check "  recorded: offsets, think times, start delay, advice, invalidate, reaping" \
			[ "$(json "$T/j.json" "[d['parameters'].get('job.' + k) for k in ('paced.offset', 'paced.offset_increment', 'think.thinktime', 'think.thinktime_blocks', 'think.thinktime_spin', 'think.startdelay', 'batch.fadvise_hint', 'batch.invalidate', 'batch.iodepth_batch_complete_min', 'batch.iodepth_batch_complete_max')]")" = \
			"['65536', '65536', '100', '4', '20', '0.01', 'random', '1', '2', '4']" ]
		if [ "$eng" = null ]; then
			check "  the null engine creates no file" [ -z "$(ls "$kept")" ]
		else
			check "  batch on libaio: at most 4 completions a reap, so reads <= reaps x 4 + iodepth" \
				[ "$(json "$T/j.json" "[o['ops'] <= o['iodepth']['reap_calls'] * 4 + 8 and o['iodepth']['max'] <= 8 for o in d['phases'][3]['operations'] if o['name'] == 'batch.read']")" = "[True]" ]
			# each reading clone's file laid out to offset + size: clone k's
			# region starts at 64k + k x 64k
			check "  paced: clone 0's file 128k, clone 1's 192k (offset_increment)" \
				[ "$(stat -c %s "$kept/pacing/paced.0.0" "$kept/pacing/paced.1.0" | tr '\n' ' ')" = "131072 196608 " ]
		fi
		rm -rf "$kept"
	else
		ok "# SKIP pacing.fio on $eng: libaio not built in"
	fi

	# files.fio: nrfiles, filesize, openfiles, file_service_type (the
	# files kept to be looked at, then a run that leaves nothing)
	run "$FSGAUGE" io "$FX/files.fio" "$@" -d "$d" -q --json "$T/j.json" --keep
	check "files.fio on $eng: exit 0; rr: 2 clones x 64k in 4k writes" \
		[ "$rc/$(ops 0 rr.write)" = "0/32 131072" ]
	check "  few: no size, nrfiles * filesize = 32k per clone" [ "$(ops 0 few.write)" = "8 32768" ]
	check "  rand: size is the I/O, 24 reads of 4k" [ "$(ops 0 rand.read)" = "24 98304" ]
	check "  mix: its reads and writes move size" \
		[ "$(json "$T/j.json" "sum(o['bytes_read'] + o['bytes_written'] for o in d['phases'][0]['operations'] if o['name'] in ('mix.read', 'mix.write'))")" = 32768 ]
	check "  no open or close operations counted (fio counts none)" \
		[ "$(json "$T/j.json" "[o['name'] for o in d['phases'][0]['operations'] if o['name'].endswith(('.open', '.close'))]")" = "[]" ]
	check "  the parameters say nrfiles, openfiles and the service type" \
		[ "$(json "$T/j.json" "[d['parameters'].get('job.few.' + k) for k in ('nrfiles', 'openfiles', 'file_service_type', 'filesize')]")" = "['4', '1', 'roundrobin:1', '8192']" ]
	kept=$(ls -d "$d"/fsgauge-* 2>/dev/null | head -1)
	if [ "$eng" = null ]; then
		check "  the null engine creates no file" [ -z "$(ls "$kept")" ]
	else
		# fio's names, jobname.jobnum.filenum, and each file's size: a
		# file written round robin got its share (16k, 8k: each reopened
		# file went on where it was), a file read was laid out
		check "  fio's names and sizes: rr 8 x 16k, few 4 x 8k, rand 3 x 16k, mix 2 x 16k" \
			[ "$(cd "$kept" && for f in *; do printf '%s=%s ' "$f" "$(stat -c %s "$f")"; done)" = \
			"few.0.0=8192 few.0.1=8192 few.0.2=8192 few.0.3=8192 mix.0.0=16384 mix.0.1=16384 rand.0.0=16384 rand.0.1=16384 rand.0.2=16384 rr.0.0=16384 rr.0.1=16384 rr.0.2=16384 rr.0.3=16384 rr.1.0=16384 rr.1.1=16384 rr.1.2=16384 rr.1.3=16384 " ]
	fi
	rm -rf "$kept"
	case "$eng $engines " in null*) ;; *" io_uring "*)
		run "$FSGAUGE" io --name=u --rw=write --bs=4k --size=64k --nrfiles=4 --openfiles=2 \
			--iodepth=8 --iodepth_batch=4 --ioengine=io_uring -d "$d" -q --json "$T/j.json"
		check "  io_uring at iodepth 8 round 4 files, 2 open: 16 writes, 64k" \
			[ "$rc/$(ops 0 u.write)" = "0/16 65536" ] ;;
	esac
	run "$FSGAUGE" io "$FX/files.fio" "$@" -d "$d" -q
	check "  without --keep: exit 0, nothing left" [ "$rc/$(ls -A "$d")" = "0/" ]

	# groups.fio: include, ${VAR}, $ncpus arithmetic, stonewall (tests/cli/io.sh
	# checks its counts; here that it runs on each target)
	FSGAUGE_TEST_NJ=2 run "$FSGAUGE" io "$FX/groups.fio" "$@" -d "$d" -q --json "$T/j.json"
	check "groups.fio on $eng: exit 0, two groups" [ "$rc/$(json "$T/j.json" "len(d['phases'])")" = 0/2 ]
	check "nothing left in $eng's target" empty_dir "$d"
done

# the corpus, together, uses every fio option fsgauge io takes (its
# --help, from --name to -d), but name (a section's header is its name);
# a key added to fsgauge io without a job file using it fails here
keys=$("$FSGAUGE" io --help | sed -n '/^      --name NAME/,/^  -d, --dir/p' |
	sed -n 's/^ \{1,\}--\([a-z_0-9]*\).*/\1/p' | sort -u)
missing=""
for k in $keys; do
	[ "$k" = name ] && continue
	grep -qE "^[[:space:]]*$k[[:space:]]*(=|\$)" "$FX"/*.fio || missing="$missing $k"
done
[ -n "$keys" ] && [ -z "$missing" ]
checked "the corpus uses every fio option fsgauge io takes ($(echo $keys | wc -w) options)${missing:+; missing:$missing}"

# fio's consumers: each rw mode on each engine built in
for e in psync io_uring libaio null; do
	why=$(engine_refused $e)
	if [ -n "$why" ]; then
		ok "# SKIP consumers on $e: $why"
		continue
	fi
	for rw in read write randread randwrite rw randrw; do
		run "$FSGAUGE" io --name=j --rw=$rw --bs=4k --size=256k --numjobs=2 --iodepth=4 \
			--ioengine=$e --output-format=json -d "$d" -q --json "$T/j.json"
		cp "$T/out" "$T/fio.json"
		if [ "$rc" = 0 ] && python3 "$CONSUMERS" "$T/fio.json" "$T/j.json" $rw $e >"$T/cons" 2>&1; then
			ok "fio's consumers read $rw on $e"
		else
			not_ok "fio's consumers read $rw on $e (exit $rc)"
			sed 's/^/#   /' "$T/cons" "$T/err" | head -8
		fi
	done
done
check "nothing left after the consumers' runs" empty_dir "$d"

# fio's IOPS and bandwidth samples: every 0.5 s when fio's JSON is asked for
run "$FSGAUGE" io --name=j --rw=read --bs=4k --size=256k --time_based --runtime=1100ms \
	--iodepth=1 --numjobs=1 --ioengine=null --output-format=json -q -d "$d" --json "$T/j.json"
cp "$T/out" "$T/fio.json"
check "iops samples every 0.5 s: 2 in 1.1 s, min <= mean <= max, stddev >= 0" \
	[ "$rc/$(json "$T/out" "[(r['iops_samples'], r['iops_min'] <= r['iops_mean'] <= r['iops_max'], r['iops_stddev'] >= 0) for r in (d['jobs'][0]['read'],)]")" = "0/[(2, True, True)]" ]
check "  bandwidth samples: as many, bw_min <= bw_mean <= bw_max, bw_dev >= 0, 0 < bw_agg <= 100" \
	[ "$(json "$T/out" "[(r['bw_samples'] == r['iops_samples'], r['bw_min'] <= r['bw_mean'] <= r['bw_max'], r['bw_dev'] >= 0, 0 < r['bw_agg'] <= 100) for r in (d['jobs'][0]['read'],)]")" = "[(True, True, True, True)]" ]
check "  bw_mean (KiB/s) is iops_mean x 4 KiB, each sample rounded down to a whole KiB/s" \
	[ "$(json "$T/out" "[-0.01 <= r['iops_mean'] * 4 - r['bw_mean'] < 1.01 for r in (d['jobs'][0]['read'],)]")" = "[True]" ]
check "  absent from a direction that did nothing" \
	[ "$(json "$T/out" "[k for k in d['jobs'][0]['write'] if k.startswith(('iops_', 'bw_')) and k != 'bw_bytes']")" = "[]" ]
if python3 "$CONSUMERS" "$T/fio.json" "$T/j.json" read null >"$T/cons" 2>&1; then
	ok "  fio's consumers read the samples' fields"
else
	not_ok "  fio's consumers read the samples' fields"
	sed 's/^/#   /' "$T/cons" | head -8
fi
if command -v fio >/dev/null 2>&1; then
	# fio's own JSON for the same job: the same sample fields, of the
	# same types (integer or real)
	mkdir -p "$T/fio.d"
	fio --name=j --rw=read --bs=4k --size=256k --time_based --runtime=1100ms --ioengine=null \
		--directory="$T/fio.d" --output-format=json --output="$T/fio-own.json" >/dev/null 2>&1
	rm -rf "$T/fio.d"
	types="[(k, type(v).__name__) for k, v in sorted(d['jobs'][0]['read'].items()) if k.startswith(('iops_', 'bw_'))] + [type(d['jobs'][0]['ctx']).__name__]"
	check "  fio's own JSON: the same sample fields and types, and ctx's" \
		[ "$(json "$T/out" "$types")" = "$(json "$T/fio-own.json" "$types")" ]
fi
run "$FSGAUGE" io --name=j --rw=read --bs=4k --size=4k --ioengine=null --output-format=json -q -d "$d"
check "  a run too short for one sample: none of them" \
	[ "$rc/$(json "$T/out" "[k for k in d['jobs'][0]['read'] if k.startswith(('iops_', 'bw_')) and k != 'bw_bytes']")" = "0/[]" ]
run "$FSGAUGE" io --ioengine=null --time_based --runtime=1100ms --size=256k --name=a --rw=read \
	--bs=4k --name=b --rw=write --bs=8k --name=c --rw=read --bs=16k --output-format=json -q -d "$d"
check "  jobs run together: each its samples, its bw_agg a share of its direction's (0, 100]" \
	[ "$rc/$(json "$T/out" "[(j['jobname'], j[k]['bw_samples'], 0 < j[k]['bw_agg'] <= 100) for j, k in zip(d['jobs'], ('read', 'write', 'read'))]")" = \
	"0/[('a', 2, True), ('b', 2, True), ('c', 2, True)]" ]
# b, the lone writer, is its whole group's write bandwidth: its bw_agg is
# its samples' mean over its own bandwidth (how close to 100 depends on
# how evenly it ran: under TSan on a busy machine, not close)
check "  a lone writer's bw_agg: its samples' mean over its own bandwidth, at most 100" \
	[ "$(json "$T/out" "[abs(w['bw_agg'] - min(100, 100 * w['bw_mean'] / (w['io_bytes'] / 1024 / (w['runtime'] / 1000)))) < 0.5 for w in (d['jobs'][1]['write'],)]")" = "[True]" ]
check "  ctx, majf and minf absent: a job's workers are not the only ones in the phase" \
	[ "$(json "$T/out" "[k for j in d['jobs'] for k in ('ctx', 'majf', 'minf') if k in j]")" = "[]" ]

# fio's ctx: the context switches of a job's clones in the measured
# window (rate_iops sleeps, so there are some); majf and minf their page
# faults
run "$FSGAUGE" io --name=j --rw=read --bs=4k --size=256k --time_based --runtime=1100ms \
	--rate_iops=40 --numjobs=2 --ioengine=null --output-format=json -q -d "$d" --json "$T/j.json"
check "ctx: a job's clones' context switches, as the result's workers', > 0 when they slept" \
	[ "$rc/$(json "$T/out" "d['jobs'][0]['ctx']")" = "0/$(json "$T/j.json" "[w['voluntary_switches'] + w['involuntary_switches'] for w in (d['phases'][0]['workers'],) if w['voluntary_switches'] > 0][0]")" ]
check "  majf and minf: the result's workers' major and minor faults" \
	[ "$(json "$T/out" "(d['jobs'][0]['majf'], d['jobs'][0]['minf'])")" = \
	"$(json "$T/j.json" "(d['phases'][0]['workers']['major_faults'], d['phases'][0]['workers']['minor_faults'])")" ]
# a 1 MiB buffer first written inside the window: its pages are faulted in
run "$FSGAUGE" io --name=j --rw=write --bs=1m --size=8m --output-format=json -q -d "$d" --json "$T/f.json"
check "  minf > 0 when the job touched new memory (a 1 MiB write buffer), as its workers'" \
	[ "$rc/$(json "$T/out" "d['jobs'][0]['minf'] > 0")/$(json "$T/out" "d['jobs'][0]['minf']")" = \
	"0/true/$(json "$T/f.json" "d['phases'][0]['workers']['minor_faults']")" ]
run "$FSGAUGE" io --name=j --rw=write --bs=1m --size=8m -d "$d" --json "$T/f.json"
check "  the text's cpu line: ctx, majf and minf as the result's workers'" \
	grep -Eq "^  cpu          : usr=[0-9.]+%, sys=[0-9.]+%, $(json "$T/f.json" "(lambda w: 'ctx=%d, majf=%d, minf=%d' % (w['voluntary_switches'] + w['involuntary_switches'], w['major_faults'], w['minor_faults']))(d['phases'][0]['workers'])") \\(usr, sys: all of fsgauge's threads\\)$" "$T/out"
run "$FSGAUGE" io --name=a --rw=write --bs=64k --size=1m --name=b --rw=write --bs=64k --size=1m -d "$d"
check "  two jobs without group_reporting: their cpu lines have no ctx, majf, minf" \
	[ "$(grep -c "^  cpu          : usr=[0-9.]*%, sys=[0-9.]*% (usr, sys: all of fsgauge's threads)$" "$T/out")" = 2 ]
run "$FSGAUGE" io --name=j --rw=read --bs=4k --size=256k --time_based --runtime=1100ms \
	--ioengine=null --output-format=json -q --interval 0.25 -d "$d"
check "  every --interval when given: 4 in 1.1 s" \
	[ "$(json "$T/out" "d['jobs'][0]['read']['iops_samples']")" = 4 ]

# fio's terse lines (version 3) beside fio's JSON of the same run, and
# field for field the shape of fio's own --minimal line when fio is here
for e in psync io_uring libaio; do
	why=$(engine_refused $e)
	if [ -n "$why" ]; then
		ok "# SKIP terse on $e: $why"
		continue
	fi
	for rw in randread write randrw; do
		fioline=
		if [ -n "$FIO" ]; then
			mkdir -p "$T/fio.d"
			fioline=$("$FIO" --name=j --rw=$rw --bs=4k --size=256k --iodepth=4 --ioengine=$e \
				--directory="$T/fio.d" --minimal 2>/dev/null | grep '^3;')
			rm -rf "$T/fio.d"
		fi
		run "$FSGAUGE" io --name=j --rw=$rw --bs=4k --size=256k --iodepth=4 --ioengine=$e \
			--output-format=terse,json -d "$T" -q
		if [ "$rc" = 0 ] && python3 "$TERSE" "$T/out" $rw $e ${fioline:+"$fioline"} >"$T/cons" 2>&1; then
			ok "terse on $e, $rw: fields as the JSON's${fioline:+ and shaped as fio's}"
		else
			not_ok "terse on $e, $rw (exit $rc)"
			sed 's/^/#   /' "$T/cons" "$T/err" | head -8
		fi
	done
done

# fio's slat, clat and lat (issue 19): on io_uring and libaio each
# request's latency split where its submission call returned, at depth 1,
# at depth 8 one call per request and in batches of 4, with
# lat_percentiles; fio_latsplit.py checks the three objects (N =
# total_ios, percentiles in order under clat_ns, json+ bins adding up to
# N, slat + clat = lat on the means) and, with fio installed, that they
# have the keys, types and percentile keys of fio's own JSON for the same
# job (psync too: clat_ns and lat_ns, fio's empty slat_ns left out)
for e in io_uring libaio psync; do
	why=$(engine_refused $e)
	if [ -n "$why" ]; then
		ok "# SKIP slat, clat and lat on $e: $why"
		continue
	fi
	for args in "--iodepth=1" "--iodepth=8" "--iodepth=8 --iodepth_batch=4" \
		"--iodepth=4 --lat_percentiles=1"; do
		[ $e = psync ] && [ "$args" != --iodepth=1 ] && continue
		case "$args" in *lat_percentiles=1*) lp=1 ;; *) lp=0 ;; esac
		job="--name=j --rw=randrw --bs=4k --size=256k --numjobs=2 --group_reporting --ioengine=$e $args"
		fioown=
		if [ -n "$FIO" ]; then
			mkdir -p "$T/fio.d"
			# shellcheck disable=SC2086
			"$FIO" $job --directory="$T/fio.d" --output-format=json+ \
				--output="$T/fio-own.json" >/dev/null 2>&1 && fioown="$T/fio-own.json"
			rm -rf "$T/fio.d"
		fi
		# shellcheck disable=SC2086
		run "$FSGAUGE" io $job --output-format=json+ -d "$d" -q --json "$T/j.json"
		cp "$T/out" "$T/fio.json"
		if [ "$rc" = 0 ] && python3 "$LATSPLIT" "$T/fio.json" $e 1 $lp $fioown >"$T/cons" 2>&1; then
			ok "slat, clat and lat on $e, $args${fioown:+: laid out as fio's}"
		else
			not_ok "slat, clat and lat on $e, $args (exit $rc)"
			sed 's/^/#   /' "$T/cons" "$T/err" | head -8
		fi
	done
	[ $e = psync ] && continue
	check "  $e: fsgauge's own result has the split of every request" \
		[ "$(json "$T/j.json" "[(o['name'], o['submission_histogram']['count'] == o['completion_histogram']['count'] == o['histogram']['count'] == o['ops'] > 0, 'submission_latency_us' in o and 'completion_latency_us' in o) for o in d['phases'][0]['operations'] if o['name'] in ('j.read', 'j.write')]")" = \
		"[('j.read', True, True), ('j.write', True, True)]" ]
	check "  $e: its opens and closes (system calls) have none" \
		[ "$(json "$T/j.json" "[o['name'] for o in d['phases'][0]['operations'] if 'submission_histogram' in o and o['name'] not in ('j.read', 'j.write')]")" = "[]" ]
	run "$FSGAUGE" io --name=j --rw=randread --bs=4k --size=256k --iodepth=8 --ioengine=$e -d "$d" -q
	check "  $e, fio's text: slat, clat and lat lines, then clat's percentiles" \
		[ "$rc/$(grep -E '^    slat \((nsec|usec|msec)\): min=|^    clat \((nsec|usec|msec)\): min=|^     lat \((nsec|usec|msec)\): min=|^ +(clat|lat) percentiles' "$T/out" | sed 's/ (.*//')" = \
		"0/    slat
    clat
     lat
    clat percentiles" ]
	run "$FSGAUGE" io --name=j --rw=randread --bs=4k --size=256k --iodepth=8 --ioengine=$e \
		--lat_percentiles=1 -d "$d" -q
	check "  $e, with lat_percentiles: lat's percentiles after clat's" \
		[ "$(grep -E '^ +(clat|lat) percentiles' "$T/out" | sed 's/ (.*//')" = "    clat percentiles
    lat percentiles" ]
done
run "$FSGAUGE" io --name=j --rw=randread --bs=4k --size=256k -d "$d" -q --json "$T/j.json"
check "psync: fio's text has lat lines only, no slat or clat; no split in fsgauge's result" \
	[ "$rc/$(grep -cE '^ +(s|c)lat ' "$T/out")/$(grep -c '^     lat (' "$T/out")/$(json "$T/j.json" "[o['name'] for o in d['phases'][0]['operations'] if 'submission_histogram' in o]")" = "0/0/1/[]" ]
check "nothing left after the latency runs" empty_dir "$d"

# the bandwidth's five fields from the samples (a run of 1.1 s; psync,
# so that both tools list the disk)
fioline=
if [ -n "$FIO" ]; then
	mkdir -p "$T/fio.d"
	fioline=$("$FIO" --name=j --rw=randrw --bs=4k --size=256k --time_based --runtime=1100ms \
		--ioengine=psync --directory="$T/fio.d" --minimal 2>/dev/null | grep '^3;')
	rm -rf "$T/fio.d"
fi
run "$FSGAUGE" io --name=j --rw=randrw --bs=4k --size=256k --time_based --runtime=1100ms \
	--ioengine=psync --output-format=terse,json -d "$T" -q
if [ "$rc" = 0 ] && python3 "$TERSE" "$T/out" randrw psync ${fioline:+"$fioline"} >"$T/cons" 2>&1 &&
	[ "$(grep '^3;' "$T/out" | cut -d';' -f42,46,83,87 | tr ';' '\n' | grep -c .)" = 4 ]; then
	ok "terse on psync, 1.1 s of randrw: the bandwidth samples as the JSON's${fioline:+ and shaped as fio's}"
else
	not_ok "terse on psync, 1.1 s of randrw (exit $rc)"
	sed 's/^/#   /' "$T/cons" "$T/err" | head -8
fi
run "$FSGAUGE" io --bs=4k --size=256k --name=a --rw=read --name=b --rw=write \
	--output-format=terse -d "$d" -q
check "terse: a line per job, nothing else on stdout, no context switches (jobs together)" \
	[ "$rc/$(cut -d';' -f1,3,4,90 "$T/out" | tr '\n' ' ')" = "0/3;a;0; 3;b;0; " ]
run "$FSGAUGE" io --bs=4k --size=256k --group_reporting --name=a --rw=read --name=b --rw=write \
	--output-format=terse -d "$d" -q
check "terse with group_reporting: one line, with the group's context switches" \
	[ "$(wc -l <"$T/out")/$(cut -d';' -f90 "$T/out" | grep -c '^[0-9][0-9]*$')" = 1/1 ]
# nrfiles' errors
expect_fail "file_service_type fio has and fsgauge does not" 2 \
	"file_service_type=sequential is not supported by fsgauge io \\(roundrobin or random" \
	"$FSGAUGE" io --size=1m --nrfiles=2 --file_service_type=sequential:4 -d "$d"
expect_fail "file_service_type unknown" 2 \
	"invalid file_service_type 'rr' \\(expected roundrobin or random, optionally with :N" \
	"$FSGAUGE" io --size=1m --nrfiles=2 --file_service_type=rr -d "$d"
expect_fail "file_service_type with a bad count" 2 "invalid file_service_type 'random:0'" \
	"$FSGAUGE" io --size=1m --nrfiles=2 --file_service_type=random:0 -d "$d"
expect_fail "nrfiles=0" 2 "invalid nrfiles '0' \\(expected a whole number in range\\)" \
	"$FSGAUGE" io --size=1m --nrfiles=0 -d "$d"
expect_fail "openfiles above the most" 2 "invalid openfiles '1000001'" \
	"$FSGAUGE" io --size=1m --nrfiles=2 --openfiles=1000001 -d "$d"
expect_fail "size too small for nrfiles" 2 \
	"job 'io': size=4096 over nrfiles=8192 leaves no bytes per file \\(give filesize" \
	"$FSGAUGE" io --size=4k --nrfiles=8192 -d "$d"
expect_fail "end_fsync with nrfiles" 2 \
	"job 'io': end_fsync with nrfiles=2 is not supported by fsgauge io" \
	"$FSGAUGE" io --rw=write --size=1m --nrfiles=2 --end_fsync=1 -d "$d"
check "nothing left after the errors" empty_dir "$d"

# fileops.fio: fio's file engines filecreate, filestat, filedelete
# (files needed: not on the null engine); each file's operation counted
# once in the job's direction, as fio counts it
run "$FSGAUGE" io "$FX/fileops.fio" -d "$d" -q --keep --json "$T/j.json" --output-format=json
cp "$T/out" "$T/fio.json"
check "fileops.fio: exit 0, three groups" \
	[ "$rc/$(json "$T/j.json" "[p['name'] for p in d['phases']]")" = "0/['create', 'stat', 'delete']" ]
check "  filecreate: nrfiles x numjobs creates, as reads, no bytes" [ "$(ops 0 create.read)" = "16 0" ]
check "  filestat: nrfiles stats, as reads" [ "$(ops 1 stat.read)" = "8 0" ]
check "  filedelete with rw=write: nrfiles unlinks, as writes" [ "$(ops 2 delete.write)" = "8 0" ]
check "  nothing else timed (no open, close or I/O)" \
	[ "$(json "$T/j.json" "sorted(o['name'] for p in d['phases'] for o in p['operations'] if o['name'] != 'done')")" = "['create.read', 'delete.write', 'stat.read']" ]
check "  fio's JSON: total_ios in fio's direction" [ "$(fiojobs)" = "create 16 0 stat 8 0 delete 0 8" ]
check "  fio's JSON: clat_ns with N and percentiles, iops, no bytes" \
	[ "$(json "$T/fio.json" "[(j[k]['clat_ns']['N'], '50.000000' in j[k]['clat_ns']['percentile'], j[k]['iops'] > 0, j[k]['io_bytes']) for j, k in zip(d['jobs'], ('read', 'read', 'write'))]")" = "[(16, True, True, 0), (8, True, True, 0), (8, True, True, 0)]" ]
check "  stat_type recorded" [ "$(json "$T/j.json" "d['parameters'].get('job.stat.stat_type')")" = lstat ]
kept=$(ls -d "$d"/fsgauge-* 2>/dev/null | head -1)
check "  kept: the created files (empty) and the stat job's, fio's names; the deleted gone" \
	[ "$(cd "$kept" && for f in *; do printf '%s=%s ' "$f" "$(stat -c %s "$f")"; done)" = \
	"create.0.0=0 create.0.1=0 create.0.2=0 create.0.3=0 create.0.4=0 create.0.5=0 create.0.6=0 create.0.7=0 create.1.0=0 create.1.1=0 create.1.2=0 create.1.3=0 create.1.4=0 create.1.5=0 create.1.6=0 create.1.7=0 stat.0.0=4096 stat.0.1=4096 stat.0.2=4096 stat.0.3=4096 stat.0.4=4096 stat.0.5=4096 stat.0.6=4096 stat.0.7=4096 " ]
rm -rf "$kept"
run "$FSGAUGE" io "$FX/fileops.fio" -d "$d" -q
check "  without --keep: exit 0, nothing left" [ "$rc/$(ls -A "$d")" = "0/" ]
if command -v fio >/dev/null 2>&1; then
	# fio's own figures for the same file: its jobs (clones summed by
	# name) count the same operations in the same directions
	mkdir "$T/fio"
	fx=$(cd "$FX" && pwd)
	(cd "$T/fio" && fio --output-format=json --output="$T/fio-own.json" "$fx/fileops.fio" >/dev/null 2>&1)
	check "  fio's own JSON for fileops.fio: the same counts and directions" \
		[ "$(json "$T/fio-own.json" "' '.join('%s %d %d' % (n, sum(j['read']['total_ios'] for j in d['jobs'] if j['jobname'] == n), sum(j['write']['total_ios'] for j in d['jobs'] if j['jobname'] == n)) for n in ('create', 'stat', 'delete'))")" = "create 16 0 stat 8 0 delete 0 8" ]
fi
# filename_format.fio: fio's filename_format chains the jobs: the stat
# and delete jobs act on the files the create job made (nothing laid
# out for them: they stay empty), the delete job on one clone's
run "$FSGAUGE" io "$FX/filename_format.fio" -d "$d" -q --keep --json "$T/j.json" --output-format=json
cp "$T/out" "$T/fio.json"
check "filename_format.fio: exit 0, three groups" \
	[ "$rc/$(json "$T/j.json" "[p['name'] for p in d['phases']]")" = "0/['create', 'stat', 'delete']" ]
check "  filecreate: nrfiles x numjobs creates, as reads" [ "$(ops 0 create.read)" = "8 0" ]
check "  filestat: the same files, nrfiles x numjobs stats" [ "$(ops 1 stat.read)" = "8 0" ]
check "  filedelete, one clone: nrfiles unlinks, as writes" [ "$(ops 2 delete.write)" = "4 0" ]
check "  no errors" [ "$(json "$T/j.json" "d.get('errors', 0)")" = 0 ]
check "  fio's JSON: total_ios in fio's direction" [ "$(fiojobs)" = "create 8 0 stat 8 0 delete 0 4" ]
check "  filename_format recorded" \
	[ "$(json "$T/j.json" "d['parameters'].get('job.stat.filename_format')")" = 'chain.$jobnum.$filenum' ]
check "  one set of files per clone, none laid out beforehand" \
	[ "$(json "$T/j.json" "[(f['name'], f['entries'], f['preallocated']) for f in d['filesets']]")" = "[('create.0', 4, 0), ('create.1', 4, 0)]" ]
kept=$(ls -d "$d"/fsgauge-* 2>/dev/null | head -1)
check "  kept: clone 1's files as the create job made them (empty); clone 0's deleted" \
	[ "$(cd "$kept" && for f in *; do printf '%s=%s ' "$f" "$(stat -c %s "$f")"; done)" = \
	"chain.1.0=0 chain.1.1=0 chain.1.2=0 chain.1.3=0 " ]
rm -rf "$kept"
run "$FSGAUGE" io "$FX/filename_format.fio" -d "$d" -q
check "  without --keep: exit 0, nothing left" [ "$rc/$(ls -A "$d")" = "0/" ]
if command -v fio >/dev/null 2>&1; then
	# fio on the same file: the same counts and directions, and the same
	# files left (fio keeps them; its stat job extends them to filesize)
	mkdir "$T/fio-ff"
	fx=$(cd "$FX" && pwd)
	(cd "$T/fio-ff" && fio --output-format=json --output="$T/fio-ff.json" "$fx/filename_format.fio" >/dev/null 2>&1)
	check "  fio's own JSON for filename_format.fio: the same counts and directions" \
		[ "$(json "$T/fio-ff.json" "' '.join('%s %d %d' % (n, sum(j['read']['total_ios'] for j in d['jobs'] if j['jobname'] == n), sum(j['write']['total_ios'] for j in d['jobs'] if j['jobname'] == n)) for n in ('create', 'stat', 'delete'))")" = "create 8 0 stat 8 0 delete 0 4" ]
	check "  fio leaves the same files" \
		[ "$(cd "$T/fio-ff" && echo chain.*)" = "chain.1.0 chain.1.1 chain.1.2 chain.1.3" ]
fi
run "$FSGAUGE" io --size=4k --ioengine=filecreate --nrfiles=2 \
	--filename_format='$JOBNAME-$JobNum-$FILENUM$clientuid' -d "$d" -q --keep
kept=$(ls -d "$d"/fsgauge-* 2>/dev/null | head -1)
check "filename_format: the keywords in any case, \$clientuid empty (fio's, outside client/server)" \
	[ "$rc/$(cd "$kept" && echo *)" = "0/io-0-0 io-0-1" ]
rm -rf "$kept"
run "$FSGAUGE" io --size=4k --nrfiles=3 --filename_format='f.$filenum' --name=c --ioengine=filecreate \
	--name=s --stonewall --ioengine=filestat --filename_format='c.$jobnum.$filenum' -d "$d" -q --json "$T/j.json"
check "filename_format naming another job's default names: that job's files" \
	[ "$rc/$(ops 1 s.read)/$(json "$T/j.json" "len(d['filesets'])")" = "0/3 0/2" ]
expect_fail "filename_format with a psync job" 2 \
	"job 'io': filename_format is supported by fsgauge io with the file and directory engines only" \
	"$FSGAUGE" io --size=8k --filename_format='f.$filenum' -d "$d"
expect_fail "filename_format with '/'" 2 \
	"filename_format 'a/\\\$filenum': a plain file name is needed, without '/' \\(the files are made in the run directory\\)" \
	"$FSGAUGE" io --ioengine=filecreate --size=8k --filename_format='a/$filenum' -d "$d"
printf '[global]\nfilesize=4k\n[c]\nioengine=filecreate\nfilename_format=../$jobnum.$filenum\n' >"$T/escape.fio"
expect_fail "filename_format with '..' in a job file: the file and line" 2 \
	"escape.fio:5: filename_format '../\\\$jobnum.\\\$filenum': a plain file name is needed" \
	"$FSGAUGE" io "$T/escape.fio" -d "$d"
expect_fail "filename_format making '..'" 2 \
	"job 'io': filename_format '..\\\$clientuid' makes the name '..': a plain file name is needed \\(the files are made in the run directory\\)" \
	"$FSGAUGE" io --ioengine=filecreate --size=8k --filename_format='..$clientuid' -d "$d"
expect_fail "filename_format making a name too long" 2 \
	"job 'io': filename_format 'x*' makes a name longer than 255 bytes" \
	"$FSGAUGE" io --ioengine=filecreate --size=8k --filename_format="$(printf 'x%.0s' $(seq 256))" -d "$d"
expect_fail "filename_format giving two files one name" 2 \
	"job 'io': filename_format gives two of clone 0's files the name 'f' \\(use \\\$filenum\\)" \
	"$FSGAUGE" io --ioengine=filecreate --size=8k --nrfiles=2 --filename_format=f -d "$d"
expect_fail "filename_format giving two clones of a group the same files" 2 \
	"job 'io': clones 0 and 1 have the same files \\('f.0', ...\\) and run together: filename_format needs \\\$jobnum here" \
	"$FSGAUGE" io --ioengine=filecreate --size=8k --nrfiles=2 --numjobs=2 --filename_format='f.$filenum' -d "$d"
expect_fail "filename_format: two jobs of a group on the same files" 2 \
	"jobs 'a' and 'b' have the same files \\('f.0', ...\\) in one group, where they run together: start 'b' a new group \\(stonewall\\)" \
	"$FSGAUGE" io --size=8k --filename_format='f.$filenum' --name=a --ioengine=filecreate --name=b --ioengine=filestat -d "$d"
expect_fail "filename_format: a create on files that exist" 2 \
	"job 'b': its files \\('f.0', ...\\) already exist when it runs \\(left by job 'a'\\): filecreate needs them absent" \
	"$FSGAUGE" io --size=8k --filename_format='f.$filenum' --name=a --ioengine=filecreate --name=b --ioengine=filecreate --stonewall -d "$d"
expect_fail "filename_format: a stat of files deleted before" 2 \
	"job 'b': its files \\('f.0', ...\\) no longer exist when it runs \\(deleted by job 'a'\\): fsgauge io lays them out only before the run" \
	"$FSGAUGE" io --size=8k --filename_format='f.$filenum' --name=a --ioengine=filedelete --name=b --ioengine=filestat --stonewall -d "$d"
expect_fail "filename_format: sets of files that overlap" 2 \
	"job 'a' clone 0 and job 'b' clone 0 name the file 'f.0' in two different sets of files: jobs share files when they name the same files in the same order \\(the same nrfiles\\)" \
	"$FSGAUGE" io --size=8k --filename_format='f.$filenum' --name=a --ioengine=filecreate --nrfiles=4 --name=b --ioengine=filestat --nrfiles=2 --stonewall -d "$d"
expect_fail "filename_format naming a psync job's file" 2 \
	"job 'b': filename_format names the file 'io.0.0' of another job" \
	"$FSGAUGE" io --size=8k --name=io --name=b --ioengine=filestat --filename_format=io.0.0 -d "$d"
expect_fail "a file engine's job and another of the same name" 2 \
	"job 'a': clone 0's files and another job's would have one name, 'a.0': give the jobs different names" \
	"$FSGAUGE" io --size=8k --nrfiles=2 --name=a --name=a --ioengine=filecreate --stonewall -d "$d"
expect_fail "a file engine with --reuse" 2 \
	"job 'create': --reuse with ioengine=filecreate is not supported by fsgauge io \\(each repeat needs the files as they were before the first\\)" \
	"$FSGAUGE" io "$FX/filename_format.fio" --repeat 2 --reuse -d "$d"
# dirops.fio: fio's directory engines dircreate, dirstat, dirdelete, as
# the file engines: each directory's mkdir, stat or rmdir counted once in
# the job's direction; the stat and rmdir jobs on the directories the
# mkdir job made (filename_format), the last job's laid out beforehand
run "$FSGAUGE" io "$FX/dirops.fio" -d "$d" -q --keep --json "$T/j.json" --output-format=json
cp "$T/out" "$T/fio.json"
check "dirops.fio: exit 0, four groups" \
	[ "$rc/$(json "$T/j.json" "[p['name'] for p in d['phases']]")" = "0/['mkdir', 'stat', 'rmdir', 'statonly']" ]
check "  dircreate: nrfiles x numjobs mkdirs, as reads, no bytes" [ "$(ops 0 mkdir.read)" = "8 0" ]
check "  dirstat: the same directories, nrfiles x numjobs stats" [ "$(ops 1 stat.read)" = "8 0" ]
check "  dirdelete with rw=write, one clone: nrfiles rmdirs, as writes" [ "$(ops 2 rmdir.write)" = "4 0" ]
check "  dirstat on directories laid out beforehand: nrfiles stats" [ "$(ops 3 statonly.read)" = "2 0" ]
check "  nothing else timed, no errors" \
	[ "$(json "$T/j.json" "(sorted(o['name'] for p in d['phases'] for o in p['operations'] if o['name'] != 'done'), d.get('errors', 0))")" = "(['mkdir.read', 'rmdir.write', 'stat.read', 'statonly.read'], 0)" ]
check "  fio's JSON: total_ios in fio's direction" [ "$(fiojobs)" = "mkdir 8 0 stat 8 0 rmdir 0 4 statonly 2 0" ]
check "  the engines and stat_type recorded" \
	[ "$(json "$T/j.json" "[d['parameters'].get('job.%s.ioengine' % n) for n in ('mkdir', 'stat', 'rmdir')] + [d['parameters'].get('job.statonly.stat_type')]")" = "['dircreate', 'dirstat', 'dirdelete', 'lstat']" ]
kept=$(ls -d "$d"/fsgauge-* 2>/dev/null | head -1)
check "  kept: clone 1's directories (empty) and statonly's; clone 0's removed" \
	[ "$(cd "$kept" && for f in *; do [ -d "$f" ] && [ -z "$(ls -A "$f")" ] && printf '%s/ ' "$f"; done)" = \
	"dir.1.0/ dir.1.1/ dir.1.2/ dir.1.3/ statonly.0.0/ statonly.0.1/ " ]
check "  kept: nothing else" [ "$(ls -A "$kept" | grep -vc '^\.fsgauge-run$')" = 6 ]
rm -rf "$kept"
run "$FSGAUGE" io "$FX/dirops.fio" -d "$d" -q
check "  without --keep: exit 0, nothing left" [ "$rc/$(ls -A "$d")" = "0/" ]
if command -v fio >/dev/null 2>&1 && fio --enghelp 2>/dev/null | grep -q '^[[:space:]]*dircreate$'; then
	mkdir "$T/fio-dir"
	fx=$(cd "$FX" && pwd)
	(cd "$T/fio-dir" && fio --output-format=json --output="$T/fio-dir.json" "$fx/dirops.fio" >/dev/null 2>&1)
	check "  fio's own JSON for dirops.fio: the same counts and directions" \
		[ "$(json "$T/fio-dir.json" "' '.join('%s %d %d' % (n, sum(j['read']['total_ios'] for j in d['jobs'] if j['jobname'] == n), sum(j['write']['total_ios'] for j in d['jobs'] if j['jobname'] == n)) for n in ('mkdir', 'stat', 'rmdir', 'statonly'))")" = "mkdir 8 0 stat 8 0 rmdir 0 4 statonly 2 0" ]
else
	ok "# SKIP fio's own run of dirops.fio: this fio has no dircreate engine (fio 3.37 and later)"
fi
expect_fail "filename_format: a dirstat on a filecreate's files" 2 \
	"job 'b' \\(dirstat\\) names the files of job 'a' \\(filecreate\\): 'f.0', ..." \
	"$FSGAUGE" io --size=8k --filename_format='f.$filenum' --name=a --ioengine=filecreate --name=b --ioengine=dirstat --stonewall -d "$d"
expect_fail "a directory engine with loops above 1" 2 \
	"job 'io': ioengine=dircreate with loops above 1 \\(each file is operated on once\\) is not supported by fsgauge io" \
	"$FSGAUGE" io --ioengine=dircreate --loops=2 --nrfiles=2 --size=8k -d "$d"
expect_fail "dirdelete: a stat of removed directories" 2 \
	"job 'b': its directories \\('d.0', ...\\) no longer exist when it runs \\(deleted by job 'a'\\)" \
	"$FSGAUGE" io --size=8k --filename_format='d.$filenum' --name=a --ioengine=dirdelete --name=b --ioengine=dirstat --stonewall -d "$d"
expect_fail "dirstat: stat_type=statx refused by name" 2 \
	"stat_type=statx is not supported by fsgauge io \\(stat or lstat" \
	"$FSGAUGE" io --ioengine=dirstat --stat_type=statx --nrfiles=2 --size=8k -d "$d"
expect_fail "stat_type=statx refused by name" 2 \
	"stat_type=statx is not supported by fsgauge io \\(stat or lstat" \
	"$FSGAUGE" io --ioengine=filestat --stat_type=statx --nrfiles=2 --size=8k -d "$d"
expect_fail "stat_type unknown" 2 "invalid stat_type 'fstat' \\(expected stat, lstat or statx\\)" \
	"$FSGAUGE" io --ioengine=filestat --stat_type=fstat --nrfiles=2 --size=8k -d "$d"
expect_fail "a file engine with loops above 1" 2 \
	"job 'io': ioengine=filecreate with loops above 1 \\(each file is operated on once\\) is not supported by fsgauge io" \
	"$FSGAUGE" io --ioengine=filecreate --loops=2 --nrfiles=2 --size=8k -d "$d"
expect_fail "a file engine with filename=" 2 \
	"job 'io': ioengine=filedelete with filename=" \
	"$FSGAUGE" io --ioengine=filedelete --filename=f --size=8k -d "$d"
expect_fail "a file engine with time_based" 2 "job 'io': ioengine=filestat with time_based" \
	"$FSGAUGE" io --ioengine=filestat --time_based --runtime=1 --size=8k -d "$d"
expect_fail "a file engine with offset" 2 \
	"job 'io': ioengine=filecreate with offset \\(each file is operated on whole\\) is not supported by fsgauge io" \
	"$FSGAUGE" io --ioengine=filecreate --offset=4k --nrfiles=2 --size=8k -d "$d"
for e in mmap posixaio; do
	expect_fail "ioengine=$e refused" 2 "ioengine '$e' is not supported by fsgauge io" \
		"$FSGAUGE" io --ioengine=$e --size=8k -d "$d"
done
check "nothing left after the file engines' errors" empty_dir "$d"

expect_fail "terse and --json - on stdout" 2 \
	"--json - and --output-format=terse both write to standard output" \
	"$FSGAUGE" io --size=1m --output-format=terse --json - -d "$d"
finish
