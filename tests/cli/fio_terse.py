#!/usr/bin/env python3
"""Check fsgauge's --output-format=terse,json output: each terse line
(version 3, docs/fio-compat.md) against the fio JSON of the same run
(on io_uring and libaio its submission and completion latencies too).

    fio_terse.py OUTPUT RW ENGINE [FIO_MINIMAL]

OUTPUT holds the terse lines then the JSON (the order fsgauge writes
them in).  FIO_MINIMAL, when given, is a line of fio's own --minimal
output: every field must then have the same shape in both (a number, a
percentage, a percentile, or a name), except the ones fsgauge leaves
empty.  Prints one line per failed check and exits 1 if any failed.
"""
import json
import re
import sys

out_path, rw, engine = sys.argv[1:4]
fio_line = sys.argv[4] if len(sys.argv) > 4 else None
lines = open(out_path).read().split("\n")
terse = [l for l in lines if l.startswith("3;")]
fio = json.loads("\n".join(l for l in lines if not l.startswith("3;")))
errors = []
sync_engine = engine in ("psync", "sync", "pvsync", "null")
PCT = re.compile(r"^(\d+\.\d{6}%=\d+|0%=0)$")


def check(what, cond):
    if not cond:
        errors.append(what)


def near(a, b, tol):
    return abs(a - b) <= tol


def shape(v):
    if v == "":
        return "empty"
    if PCT.match(v):
        return "percentile"
    if re.match(r"^-?\d+(\.\d+)?%$", v):
        return "percent"
    if re.match(r"^-?\d+(\.\d+)?$", v):
        return "number"
    return "name"


disks = fio.get("disk_util", [])
check("one terse line per jobs[] entry (%d, %d)" % (len(terse), len(fio["jobs"])),
      len(terse) == len(fio["jobs"]))
for t, j in zip(terse, fio["jobs"]):
    f = t.split(";")
    check("%d fields (121 + 9 per disk, %d disks)" % (len(f), len(disks)),
          len(f) == 121 + 9 * len(disks))
    if len(f) != 121 + 9 * len(disks):
        continue
    check("version, job name, group", f[0] == "3" and f[2] == j["jobname"] and
          int(f[3]) == j["groupid"])
    for base, dname in ((5, "read"), (46, "write")):
        d = j[dname]
        check("%s KiB" % dname, int(f[base]) == d["io_bytes"] // 1024)
        check("%s bandwidth KiB/s" % dname, near(int(f[base + 1]), d["bw"], 1))
        check("%s IOPS" % dname, near(int(f[base + 2]), d["iops"], 1))
        check("%s runtime" % dname, int(f[base + 3]) == d["runtime"])
        slat = f[base + 4:base + 8]
        clat = f[base + 8:base + 12]
        if sync_engine or not d["total_ios"]:
            check("%s slat is nothing on a synchronous engine" % dname,
                  slat == ["0", "0", "0.000000", "0.000000"])
            check("%s clat is given" % dname, all(v != "" for v in clat))
        else:
            # io_uring, libaio: the submission and completion latencies,
            # as the JSON's slat_ns and clat_ns
            for name, got in (("slat_ns", slat), ("clat_ns", clat)):
                o = d[name]
                check("%s %s min/max/mean in us as the JSON's (%s)" % (dname, name, got),
                      all(v != "" for v in got) and int(got[0]) == o["min"] // 1000 and
                      int(got[1]) == o["max"] // 1000 and
                      near(float(got[2]), o["mean"] / 1000, 0.001))
        pcts = f[base + 12:base + 32]
        check("%s: 20 percentile fields" % dname, all(PCT.match(v) for v in pcts))
        lat = j[dname]["lat_ns"]
        check("%s lat min/max/mean in us" % dname,
              int(f[base + 32]) == lat["min"] // 1000 and int(f[base + 33]) == lat["max"] // 1000
              and near(float(f[base + 34]), lat["mean"] / 1000, 0.001))
        if "percentile" in lat or "percentile" in d.get("clat_ns", {}):
            p = (lat.get("percentile") or d["clat_ns"]["percentile"])
            check("%s p50 as the JSON's" % dname,
                  any(v == "50.000000%%=%d" % (p["50.000000"] // 1000) for v in pcts))
        check("%s bandwidth share is a percentage" % dname, f[base + 38].endswith("%"))
        bw = f[base + 36:base + 41]
        if "bw_samples" in d:
            check("%s bandwidth min, max, share, mean, stddev as the JSON's (%s)" % (dname, bw),
                  int(bw[0]) == d["bw_min"] and int(bw[1]) == d["bw_max"]
                  and near(float(bw[2].rstrip("%")), d["bw_agg"], 1e-5)
                  and near(float(bw[3]), d["bw_mean"], 1e-5 * max(1, d["bw_mean"]))
                  and near(float(bw[4]), d["bw_dev"], 1e-5 * max(1, d["bw_dev"])))
        elif d["total_ios"]:
            check("%s bandwidth min, max, mean, stddev empty without samples (%s)" % (dname, bw),
                  bw[0] == bw[1] == bw[3] == bw[4] == "")
    check("cpu user and system percentages", f[87].endswith("%") and f[88].endswith("%"))
    check("context switches and faults as the JSON's ctx, majf, minf (%r)" % f[89:92],
          f[89:92] == [str(j[k]) if k in j else "" for k in ("ctx", "majf", "minf")])
    depth = [float(v.rstrip("%")) for v in f[92:99]]
    check("IO depths add up to 100%% (%.1f)" % sum(depth), near(sum(depth), 100, 0.5))
    buckets = [float(v.rstrip("%")) for v in f[99:121]]
    total = j["read"]["total_ios"] + j["write"]["total_ios"]
    if total:
        check("latency buckets add up to 100%% (%.2f)" % sum(buckets), near(sum(buckets), 100, 0.3))
    for i, dk in enumerate(disks):
        g = f[121 + 9 * i:130 + 9 * i]
        check("disk %d: name and counters" % i, g[0] == dk["name"] and int(g[1]) == dk["read_ios"]
              and int(g[2]) == dk["write_ios"] and g[8].endswith("%"))
    if fio_line:
        g = fio_line.strip().split(";")
        check("as many fields as fio's (%d, %d)" % (len(f), len(g)), len(f) == len(g))
        for i, (a, b) in enumerate(zip(f, g)):
            if a != "" and i not in (1, 2) and shape(a) != shape(b):
                errors.append("field %d: %r is a %s, fio's %r a %s" % (i + 1, a, shape(a), b,
                                                                       shape(b)))
for e in errors:
    print(e)
print("ok" if not errors else "%d failed" % len(errors))
sys.exit(1 if errors else 0)
