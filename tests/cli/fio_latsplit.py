#!/usr/bin/env python3
"""Check the latency objects of fsgauge's fio JSON (docs/fio-compat.md):
slat_ns, clat_ns and lat_ns, and when fio's own JSON of the same job is
given, that they are laid out as fio's.

    fio_latsplit.py OURS ENGINE PLUS LAT_PERCENTILES [FIO]

ENGINE: the ioengine (io_uring and libaio are asynchronous); PLUS: 1 for
json+ (bins), LAT_PERCENTILES: 1 when the job had lat_percentiles=1.
Invariants checked on OURS, for every job and direction: on an
asynchronous engine slat_ns, clat_ns and lat_ns, each with min, max
(integers), mean, stddev (reals), N (integer) = total_ios; percentiles
under clat_ns (and under lat_ns with lat_percentiles only), in order and
within min and max; json+'s bins with the percentiles, adding up to N;
slat_ns with neither; mean(slat) + mean(clat) = mean(lat); on a
synchronous engine clat_ns and lat_ns only, the same figures.  With FIO:
each direction's latency objects have fio's keys (fio's slat_ns on a
synchronous engine, N 0, is the one fsgauge leaves out), fio's types, and
the same percentile keys.  Prints one line per failed check, then "ok"
or how many failed; exits 1 if any failed.
"""
import json
import sys

ours_path, engine, plus, latp = sys.argv[1:5]
fio_path = sys.argv[5] if len(sys.argv) > 5 else None
plus, latp = plus == "1", latp == "1"
ours = json.load(open(ours_path))
fio = json.load(open(fio_path)) if fio_path else None
async_engine = engine in ("io_uring", "libaio")
errors = []


def check(what, cond):
    if not cond:
        errors.append(what)


def shape(o):
    """An object's keys with their types, percentile and bins as markers."""
    return sorted((k, "object" if isinstance(v, dict) else type(v).__name__)
                  for k, v in o.items())


names = ("slat_ns", "clat_ns", "lat_ns") if async_engine else ("clat_ns", "lat_ns")
for j in ours["jobs"]:
    for dn in ("read", "write"):
        d = j[dn]
        n = d["total_ios"]
        where = "%s.%s" % (j["jobname"], dn)
        check("%s: slat_ns %s" % (where, "present" if async_engine else "absent"),
              ("slat_ns" in d) == async_engine)
        for x in names:
            o = d.get(x)
            if not o:
                check("%s.%s present" % (where, x), False)
                continue
            check("%s.%s: min, max, N integers; mean, stddev reals (%s)" % (where, x, o),
                  all(isinstance(o.get(k), int) for k in ("min", "max", "N")) and
                  all(isinstance(o.get(k), float) for k in ("mean", "stddev")))
            check("%s.%s.N = total_ios (%s, %s)" % (where, x, o.get("N"), n), o.get("N") == n)
            want_p = n > 0 and (x == "clat_ns" or (x == "lat_ns" and latp)) and \
                (async_engine or (x == "clat_ns") != latp)
            check("%s.%s: percentiles %s" % (where, x, "present" if want_p else "absent"),
                  ("percentile" in o) == want_p)
            check("%s.%s: bins %s" % (where, x, "present" if want_p and plus else "absent"),
                  ("bins" in o) == (want_p and plus))
            p = o.get("percentile", {})
            pv = [p[k] for k in sorted(p, key=float)]
            check("%s.%s: percentiles in order (%s)" % (where, x, pv), pv == sorted(pv))
            check("%s.%s: percentiles within min and max" % (where, x),
                  all(o["min"] <= v <= o["max"] for v in pv))
            if "bins" in o:
                check("%s.%s: the bins add up to N" % (where, x), sum(o["bins"].values()) == n)
            if n:
                check("%s.%s: min <= mean <= max" % (where, x),
                      o["min"] <= o["mean"] <= o["max"])
        if async_engine and n and all(x in d for x in names):
            s, c, t = d["slat_ns"], d["clat_ns"], d["lat_ns"]
            check("%s: mean(slat) + mean(clat) = mean(lat) (%f + %f, %f)" %
                  (where, s["mean"], c["mean"], t["mean"]),
                  abs(s["mean"] + c["mean"] - t["mean"]) <= 1e-5 * max(1.0, t["mean"]))
        if not async_engine and n:
            check("%s: clat_ns and lat_ns the same figures" % where,
                  all(d["clat_ns"][k] == d["lat_ns"][k] for k in ("min", "max", "mean", "N")))
if fio:
    for jo, jf in zip(ours["jobs"], fio["jobs"]):
        for dn in ("read", "write"):
            do, df = jo[dn], jf[dn]
            for x in ("slat_ns", "clat_ns", "lat_ns"):
                if x not in df:
                    check("fio's %s.%s exists (fio %s)" % (dn, x, fio.get("fio version")), False)
                    continue
                if x == "slat_ns" and not async_engine:
                    # fio writes N 0 there; fsgauge leaves it out
                    check("fio's %s.slat_ns on %s has N 0" % (dn, engine), df[x]["N"] == 0)
                    continue
                a, b = do.get(x, {}), df[x]
                if do["total_ios"] and df["total_ios"]:
                    check("%s.%s: fio's keys and types (%s, fio %s)" % (dn, x, shape(a), shape(b)),
                          shape(a) == shape(b))
                    check("%s.%s: fio's percentile keys" % (dn, x),
                          sorted(a.get("percentile", {})) == sorted(b.get("percentile", {})))
                elif not do["total_ios"] and not df["total_ios"]:
                    check("%s.%s, a direction that did nothing: fio's keys (%s, fio %s)" %
                          (dn, x, shape(a), shape(b)), shape(a) == shape(b))
for e in errors:
    print(e)
print("ok" if not errors else "%d failed" % len(errors))
sys.exit(1 if errors else 0)
