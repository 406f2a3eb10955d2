#!/usr/bin/env python3
"""Read fsgauge's --output-format=json as fio's common consumers do
(docs/fio-compat.md, "What common consumers read") and check it against
fsgauge's own result (--json) of the same run.

    fio_consumers.py FIO_JSON FSGAUGE_JSON RW ENGINE

Prints one line per failed check and exits 1 if any failed; prints "ok"
otherwise.  The fields are the ones fio-plot's jsonparsing.py, jq
one-liners and fio's json+ tools look up; a KeyError here is what those
tools would meet.

The latencies: on a synchronous engine clat_ns and lat_ns (the same
figures), no slat_ns; on io_uring and libaio fio's three, slat_ns, clat_ns
and lat_ns, each with N = total_ios, the percentiles under clat_ns (in
order), and slat + clat = lat request by request (checked on the means,
exact sums, and the extremes); fsgauge's own result has the same split
(submission_histogram, completion_histogram) with as many values as
operations.
"""
import json
import sys

fio_path, own_path, rw, engine = sys.argv[1:5]
fio = json.load(open(fio_path))
own = json.load(open(own_path))
errors = []


def check(what, cond):
    if not cond:
        errors.append(what)


def num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


check("'fio version' is a string", isinstance(fio.get("fio version"), str))
check("timestamp is an integer", isinstance(fio.get("timestamp"), int))
jobs = fio.get("jobs")
check("jobs is a non-empty list", isinstance(jobs, list) and jobs)
reads = rw in ("read", "randread", "rw", "randrw")
writes = rw in ("write", "randwrite", "rw", "randrw")
sync_engine = engine in ("psync", "sync", "pvsync", "null")
ops = {o["name"]: o for o in own["phases"][0]["operations"]}
for j in jobs or []:
    name = j.get("jobname")
    check("jobname is a string", isinstance(name, str))
    # fio-plot: the job's options over the global ones
    opts = dict(fio.get("global options", {}))
    opts.update(j.get("job options", {}))
    check("options give rw=%s" % rw, opts.get("rw") == rw)
    for k in ("iodepth", "numjobs", "bs"):
        check("options give %s" % k, k in opts)
    for k in ("usr_cpu", "sys_cpu"):
        check("%s is a number" % k, num(j.get(k)))
    for unit in ("latency_ns", "latency_us", "latency_ms"):
        check("%s is an object of numbers" % unit,
              isinstance(j.get(unit), dict) and all(num(v) for v in j[unit].values()))
    # ctx, majf and minf: the phase's workers' switches and page faults
    # in its window (one job here, so its clones are all of them)
    wk = own["phases"][0].get("workers", {})
    if wk.get("voluntary_switches") is not None:
        check("ctx = the workers' voluntary + involuntary switches",
              j.get("ctx") == wk["voluntary_switches"] + wk["involuntary_switches"])
    else:
        check("ctx absent when the switches were not read", "ctx" not in j)
    if wk.get("minor_faults") is not None:
        check("majf, minf = the workers' major and minor faults",
              (j.get("majf"), j.get("minf")) == (wk["major_faults"], wk["minor_faults"]))
    else:
        check("majf, minf absent when the faults were not read", "majf" not in j and "minf" not in j)
    share = sum(sum(j[u].values()) for u in ("latency_ns", "latency_us", "latency_ms"))
    check("latency buckets add up to 100%% (%.3f)" % share, abs(share - 100.0) < 0.01)
    for dname, used in (("read", reads), ("write", writes)):
        d = j.get(dname, {})
        for k in ("io_bytes", "bw", "bw_bytes", "total_ios", "runtime"):
            check("%s.%s is an integer" % (dname, k), isinstance(d.get(k), int))
        check("%s.iops is a number" % dname, num(d.get("iops")))
        lat = d.get("lat_ns", {})
        names = ("clat_ns", "lat_ns") if sync_engine else ("slat_ns", "clat_ns", "lat_ns")
        for x in names:
            o = d.get(x, {})
            check("%s.%s present" % (dname, x), x in d)
            for k in ("min", "max", "N"):
                check("%s.%s.%s is an integer" % (dname, x, k), isinstance(o.get(k), int))
            for k in ("mean", "stddev"):
                check("%s.%s.%s is a real" % (dname, x, k), isinstance(o.get(k), float))
            check("%s.%s: N = total_ios (%s, %s)" % (dname, x, o.get("N"), d.get("total_ios")),
                  o.get("N") == d.get("total_ios"))
        if sync_engine:
            check("%s.slat_ns absent on a sync engine (nothing to split)" % dname,
                  "slat_ns" not in d)
        else:
            check("%s: percentiles under clat_ns, not lat_ns (fio's default)" % dname,
                  "percentile" not in lat and ("percentile" in d.get("clat_ns", {}) or
                                               not d.get("total_ios")))
        if not sync_engine and d.get("total_ios"):
            sl, cl = d.get("slat_ns", {}), d.get("clat_ns", {})
            # every request's slat + clat is its lat (within a ns of
            # rounding each), so the means add up and no part exceeds
            # the whole
            check("%s: mean(slat) + mean(clat) = mean(lat) (%s + %s, %s)" %
                  (dname, sl.get("mean"), cl.get("mean"), lat.get("mean")),
                  abs(sl.get("mean", 0) + cl.get("mean", 0) - lat.get("mean", 0)) <= 1.001)
            check("%s: slat, clat at most lat (max %s, %s, %s)" %
                  (dname, sl.get("max"), cl.get("max"), lat.get("max")),
                  sl.get("max", 1) <= lat.get("max", 0) + 1 and cl.get("max", 1) <= lat.get("max", 0) + 1)
            check("%s: lat's min at least slat's and clat's" % dname,
                  lat.get("min", 0) + 1 >= max(sl.get("min", 0), cl.get("min", 0)))
        # fio's IOPS and bandwidth samples: all of them, or (a run too
        # short for one 0.5 s sample) none
        SAMPLES = ("iops_min", "iops_max", "iops_mean", "iops_stddev", "iops_samples",
                   "bw_min", "bw_max", "bw_agg", "bw_mean", "bw_dev", "bw_samples")
        have = [k for k in SAMPLES if k in d]
        check("%s: the samples all present or all absent (%s)" % (dname, have),
              len(have) in (0, len(SAMPLES)))
        if len(have) == len(SAMPLES):
            for k in ("iops_min", "iops_max", "iops_samples", "bw_min", "bw_max", "bw_samples"):
                check("%s.%s is an integer" % (dname, k), isinstance(d[k], int))
            for k in ("iops_mean", "iops_stddev", "bw_agg", "bw_mean", "bw_dev"):
                check("%s.%s is a real" % (dname, k), isinstance(d[k], float))
            check("%s: bw_min <= bw_mean <= bw_max" % dname,
                  d["bw_min"] <= d["bw_mean"] <= d["bw_max"])
            check("%s: bw_samples = iops_samples > 0" % dname,
                  d["bw_samples"] == d["iops_samples"] > 0)
            check("%s: 0 <= bw_agg <= 100" % dname, 0 <= d["bw_agg"] <= 100)
            check("%s: bw_dev >= 0, iops_stddev >= 0" % dname,
                  d["bw_dev"] >= 0 and d["iops_stddev"] >= 0)
        pct_in = d.get("clat_ns", {})
        own_op = ops.get("%s.%s" % (name, dname))
        if not used:
            check("%s: no %s operation in fsgauge's result" % (dname, dname), own_op is None)
            check("%s.total_ios is 0" % dname, d.get("total_ios") == 0)
            continue
        check("%s: fsgauge's result has %s.%s" % (dname, name, dname), own_op is not None)
        if own_op is None:
            continue
        check("%s.total_ios (%s) = fsgauge's ops (%s)" % (dname, d.get("total_ios"), own_op["ops"]),
              d.get("total_ios") == own_op["ops"])
        nbytes = own_op["bytes_read"] + own_op["bytes_written"]
        check("%s.io_bytes = fsgauge's bytes" % dname, d.get("io_bytes") == nbytes)
        check("%s.lat_ns.N = total_ios" % dname, lat.get("N") == d.get("total_ios"))
        check("%s: min <= mean <= max" % dname,
              lat.get("min", 1) <= lat.get("mean", 0) <= lat.get("max", -1))
        p = pct_in.get("percentile", {})
        check("%s: clat_ns.percentile['99.000000'] (jq scripts)" % dname, "99.000000" in p)
        pv = [p[k] for k in sorted(p, key=float)]
        check("%s: percentiles in order (%s)" % (dname, pv), pv == sorted(pv))
        check("%s: percentiles within clat's min and max" % dname,
              all(pct_in.get("min", 0) <= v <= pct_in.get("max", -1) for v in pv))
        if not sync_engine:
            for k, x in (("submission_histogram", "slat_ns"), ("completion_histogram", "clat_ns")):
                h = own_op.get(k, {})
                check("fsgauge's %s.%s: as many as ops (%s, %s)" % (own_op["name"], k,
                                                                   h.get("count"), own_op["ops"]),
                      h.get("count") == own_op["ops"] and
                      sum(b[2] for b in h.get("buckets", [])) == own_op["ops"])
                check("fsgauge's %s and fio's %s: the same mean" % (k, x),
                      abs(own_op.get(k.split("_")[0] + "_latency_us", {}).get("mean", -1) * 1000 -
                          d.get(x, {}).get("mean", 0)) <= 1e-3 * max(1, d.get(x, {}).get("mean", 0)))
        else:
            check("fsgauge's %s: no split on a sync engine" % own_op["name"],
                  "submission_histogram" not in own_op)
        check("%s: iops > 0" % dname, d.get("iops", 0) > 0)
        check("%s: bw is KiB/s of bw_bytes" % dname, d.get("bw") == d.get("bw_bytes", 0) // 1024)
check("disk_util is a list", isinstance(fio.get("disk_util"), list))
if errors:
    for e in errors:
        print("FAIL %s %s: %s" % (rw, engine, e))
    sys.exit(1)
print("ok")
