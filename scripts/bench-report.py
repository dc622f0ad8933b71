#!/usr/bin/env python3
"""Write Documentation/benchmarks.md and benchmarks.png from the figures
of scripts/bench.sh (build/bench/results.tsv): tables, the targets and
whether they are met, and a gnuplot plot.  Needs only the TSV."""

import argparse
import csv
import os
import re
import statistics
import subprocess
import sys
import tempfile
import textwrap

KERNELS = ("series", "upstream")
KLABEL = {"series": "this series", "upstream": "upstream"}
SCHEDS = ("none", "floor", "mq-deadline", "kyber", "bfq")
COST_QDS = ("qd1", "qd32")
COST_SCHEDS = ("none", "floor", "mq-deadline", "kyber", "kyber-noprio", "bfq")  # tables
PARTS = ("cost", "prodcost", "latency", "scaling", "contention", "prio", "devices", "slowdev",
         "fs")
COST_PARTS = ("cost", "prodcost")    # the same runs on the lean and the production config
CONFIG = {"cost": "lean VM config", "prio": "lean VM config", "prodcost": "production config"}
CPUS = (1, 2)
SCALE_SCHEDS = ("none", "floor", "mq-deadline", "kyber")
# Each scheduler's own locks, as lockdep names their classes (after the
# expression that initialised the lock).
_SCHED_LOCKS_BOTH = {"mq-deadline": ("&dd->lock",), "floor": ("&fd->lock",),
                     "bfq": ("&bfqd->lock",)}
SCHED_LOCKS = {
    "series": dict(_SCHED_LOCKS_BOTH, kyber=("&kh->lock", "&kd->idle_tags_lock")),
    "upstream": dict(_SCHED_LOCKS_BOTH, kyber=("&kcq->lock", "&khd->lock")),
}
CONTENTION_TOP = 3          # lock classes named per scheduler in the contention table
LOCK_METRICS = ("con:", "wait_us:")     # per lock class: contentions, wait µs
TARGET_RATIO = 0.85         # Kyber's IOPS relative to none, at least
TARGET_FLOOR_SHARE = 0.5    # its cost above the floor, at most this share of upstream's
TARGET_P99 = 1.25           # read p99, at most this times read_lat_nsec
DEFAULT_READ_LAT = 2000000  # Kyber's default read_lat_nsec
PRIO_PLOT = (("alone", "alone"), ("wflood-be", "w-flood BE"), ("wflood-idle", "w-flood idle"),
             ("rflood-be", "r-flood BE"), ("rflood-idle", "r-flood idle"),
             ("crowd-be", "BE by QD8"), ("crowd-rt", "RT by QD8"))
DEV_CLASSES = ("slow", "multiqueue", "saturated")
DEV_SCHEDS = ("none", "mq-deadline", "bfq", "kyber")
TARGET_DEV_TOTAL = 0.90     # total IOPS relative to none, at least, on every device class
SLOW_SCHEDS = ("none", "bfq", "kyber")
TARGET_SLOW_TOTAL = 0.90    # total IOPS relative to none, at least, on every slow-device point
FS_WBT = (("wbt-default", "writeback throttling as the kernel sets it"),
          ("wbt-off", "writeback throttling off"))
FS_SCHEDS = ("none", "mq-deadline", "bfq", "kyber")
TARGET_FS_WRITE = 0.90      # the device's writes beside the commits, relative to none's
ICOUNT_NOISE = 0.001        # icount repetitions agree within this, at least
PRIO_NEAR = (2, 1e6)        # "near alone": p99 within 2x alone + 1 ms, as ionice.sh
# The prio part's behaviour scenarios: (param, what runs, reader's class,
# the other job's class, its IOPS metric).
PRIO_SCENARIOS = (
    ("alone", "reader alone", "BE", "", ""),
    ("wflood-be", "beside a QD 64 write flood", "BE", "BE", "flood_iops"),
    ("wflood-idle", "beside a QD 64 write flood", "BE", "**idle**", "flood_iops"),
    ("rflood-be", "beside a QD 64 read flood", "BE", "BE", "flood_iops"),
    ("rflood-idle", "beside a QD 64 read flood", "BE", "**idle**", "flood_iops"),
    ("crowd-be", "beside a QD 8 reader", "BE", "BE", "crowd_iops"),
    ("crowd-rt", "beside a QD 8 reader", "**RT**", "BE", "crowd_iops"),
)

# The prio part's two-queue runs: (param, reader's class, flood's class).
PRIO_QUEUES = (
    ("2q-alone", "BE", ""),
    ("2q-be-by-be", "BE", "BE"),
    ("2q-rt-by-be", "**RT**", "BE"),
    ("2q-idle-by-be", "**idle**", "BE"),
    ("2q-be-by-idle", "BE", "**idle**"),
)
WAKE_NRS = (64, 256)        # the prio part's nr_requests for the wake batch


def sched_label(kernel, sched):
    if sched == "kyber-noprio":
        return "Kyber without priority support"
    if sched == "kyber":
        return "**Kyber (this series)**" if kernel == "series" else "upstream Kyber"
    return {"bfq": "BFQ"}.get(sched, sched)


class Results:
    def __init__(self, path):
        self.facts = {}     # (kernel, part, name) -> text
        self.figs = {}      # (kernel, part, sched, param, metric) -> {rep: value}
        with open(path, newline="") as f:
            rows = list(csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
        if not rows or rows[0][:2] != ["kernel", "part"]:
            sys.exit("%s: not a results file of scripts/bench.sh" % path)
        for n, row in enumerate(rows[1:], 2):
            if len(row) != 7:
                sys.exit("%s:%d: %d fields, not 7" % (path, n, len(row)))
            kernel, part, sched, param, rep, metric, value = row
            if sched == "-":
                self.facts.setdefault((kernel, part, metric), value)
            else:
                key = (kernel, part, sched, param, metric)
                d = self.figs.setdefault(key, {})
                if metric.startswith(LOCK_METRICS) and int(rep) in d:
                    d[int(rep)] += float(value)   # two lock classes of one name
                else:
                    d[int(rep)] = float(value)

    def fact(self, kernel, part, name, default="n/a"):
        return self.facts.get((kernel, part, name), default)

    def has(self, kernel, part):
        return any(k[0] == kernel and k[1] == part for k in self.figs)

    def values(self, kernel, part, sched, param, metric):
        d = self.figs.get((kernel, part, sched, param, metric), {})
        return [d[r] for r in sorted(d)]

    def rel(self, key, base):
        """Per repetition: figure KEY (a key of figs) relative to figure BASE."""
        d, b = self.figs.get(key, {}), self.figs.get(base, {})
        return [d[r] / b[r] for r in sorted(d) if b.get(r)]

    def ratios(self, kernel, part, sched, param, metric="iops"):
        """Per repetition: the figure relative to none's in the same boot."""
        return self.rel((kernel, part, sched, param, metric),
                        (kernel, part, "none", param, metric))


def med(vals):
    return statistics.median(vals) if vals else None


def spread(vals, fmt):
    """Median, and min-max when there is more than one value."""
    if not vals:
        return "n/a"
    if len(vals) == 1:
        return fmt(vals[0])
    return "%s (%s–%s)" % (fmt(med(vals)), fmt(min(vals)), fmt(max(vals)))


def f_iops(v):
    return "%.2fk" % (v / 1000) if v >= 1000 else "%.0f" % v


def f_ratio(v):
    return "%.3f" % v


def f_ms(ns):
    return "%.2f" % (ns / 1e6) if ns < 1e7 else "%.1f" % (ns / 1e6)


def para(text, bullet=False):
    """A paragraph (or a list item) of generated text, wrapped."""
    text = " ".join(text.split())
    if bullet:
        return textwrap.fill(text, 72, initial_indent="- ", subsequent_indent="  ",
                             break_long_words=False, break_on_hyphens=False) + "\n"
    return textwrap.fill(text, 72, break_long_words=False, break_on_hyphens=False) + "\n\n"


def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out) + "\n"


NA = "n/a"   # a target that does not apply to what was measured
INVALID = "invalid"     # measured, but the figures cannot be trusted


def verdict(ok):
    if ok is None:
        return "not measured"
    if ok is NA:
        return "not applicable"
    if ok is INVALID:
        return "**invalid**"
    return "**met**" if ok else "**not met**"


def elapsed(res, part):
    secs = [int(res.fact(k, part, "elapsed_s", "0")) for k in KERNELS]
    if not any(secs):
        return "not run"
    total = sum(secs)
    return "%d min %d s" % (total // 60, total % 60)


# ---- the page's sections -------------------------------------------------

def kfact(res, part, name):
    """A fact of both kernels: one text when they agree, None when neither has it."""
    vals = {k: res.fact(k, part, name, None) for k in KERNELS}
    have = [v for v in vals.values() if v is not None]
    if not have:
        return None
    if len(set(have)) == 1:
        return have[0]
    return "; ".join("%s: %s" % (KLABEL[k], v) for k, v in vals.items() if v is not None)


# The builds of each kernel: (the parts whose facts describe it, first
# found first, its name on the page, the parts that run on it).
BUILDS = ((("all",), "lean", "cost, latency, prio, devices, slowdev, fs"),
          (("prodcost", "scaling"), "production", "prodcost, scaling"),
          (("contention",), "lock statistics", "contention"))


def build_fact(res, k, parts, name, default=None):
    for p in parts:
        v = res.fact(k, p, name, None)
        if v is not None:
            return v
    return default


def header(res, tsv):
    host = lambda n: res.fact("host", "all", n)
    rows = [
        ["date", host("date")],
        ["machine", "%s CPUs, %s" % (host("nproc"), host("cpu"))],
        ["emulator", host("qemu") + (", TCG" if host("accel") in ("n/a", "", "tcg") else
                                     ", accelerator %s (KVM where it works) for the wall-clock parts, TCG for icount" % host("accel"))],
        ["repetitions", host("reps")],
    ]
    for k in KERNELS:
        if (k, "all", "release") not in res.facts:
            continue
        rel = res.fact(k, "all", "release")
        src = res.fact(k, "all", "source")
        unames = sorted({res.fact(k, p, "uname", "") for p in PARTS} - {""})
        others = ["%s `%s`" % (name, build_fact(res, k, parts, "release"))
                  for parts, name, _ in BUILDS[1:]
                  if build_fact(res, k, parts, "release", rel) != rel]
        rows.append(["%s kernel" % KLABEL[k],
                     "`%s`%s (uname -r in the VM: %s), %s"
                     % (rel, "" if not others else ", " + ", ".join(others),
                        ", ".join(unames) or "n/a", src)])
    stamps = sorted({v for (k, p, n), v in res.facts.items() if k == "series" and n == "stamp"})
    if stamps:
        rows.append(["series measured (stamp: `series_stamp` of `scripts/lib.sh`, a hash "
                     "of the series' kernel diff)", ", ".join("`%s`" % v for v in stamps)])
    for parts, name, runs in BUILDS:
        cfg = next((c for c in (kfact(res, p, "config") for p in parts) if c), None)
        if cfg is not None:
            rows.append(["%s configuration (%s)" % (name, runs), cfg])
    mit = kfact(res, "prodcost", "mitigations")
    if mit is not None:
        rows.append(["mitigations the guest chose (production)", mit])
    rows.append(["time per part", "%s (every kernel, boots included)"
                 % ", ".join("%s %s" % (p, elapsed(res, p)) for p in PARTS)])
    # bench.sh -a keeps the figures of parts not run again: say when
    # each part was measured where that is not the run's date.
    when = {}
    for p in PARTS:
        for k in KERNELS:
            d = res.fact(k, p, "date", None)
            src = res.fact(k, p, "source", None)
            stamp = res.fact(k, p, "stamp", None)
            if d is not None:
                when.setdefault(d, []).append(
                    "%s (%s%s%s)" % (p, KLABEL[k], "" if src is None else ", " + src,
                                     "" if stamp is None else ", stamp `%s`" % stamp))
    earlier = sorted(d for d in when if d < host("date"))
    if earlier:
        rows.append(["parts kept from an earlier run (`bench.sh -a`)",
                     "; ".join("%s, measured %s" % (", ".join(when[d]), d) for d in earlier)])
    return ("## This run\n\n" + table(["", ""], rows) +
            "\nRaw figures: `%s` (one row per measurement); this page is\n"
            "`scripts/bench-report.py %s`.\n" % (os.path.basename(tsv), os.path.basename(tsv)))


def cost_targets(res, part, qd):
    """The cost targets of PART (cost or prodcost) at one queue depth: list of
    (text, verdict, figures)."""
    r = {(k, s): med(res.ratios(k, part, s, qd)) for k in KERNELS for s in SCHEDS}
    out = []
    ours = r[("series", "kyber")]
    where = "%s, %s" % (qd.upper(), CONFIG[part])
    out.append(("Kyber's icount IOPS ≥ %.2f× none's (%s)" % (TARGET_RATIO, where),
                None if ours is None else ours >= TARGET_RATIO,
                "n/a" if ours is None else "%.3f×" % ours))

    def above_floor(k):
        ky, fl = r[(k, "kyber")], r[(k, "floor")]
        return None if ky is None or fl is None else 1 / ky - 1 / fl
    a_s, a_u = above_floor("series"), above_floor("upstream")
    ok = None if a_s is None or a_u is None else a_s <= TARGET_FLOOR_SHARE * a_u
    figs = "n/a"
    if a_s is not None and a_u is not None:
        figs = ("cost per I/O above the floor: %+.1f%% of none's, upstream Kyber %+.1f%%"
                % (100 * a_s, 100 * a_u))
        if a_u > 0:
            figs += " (%.0f%% of upstream's)" % (100 * a_s / a_u)
    out.append(("Kyber's policy cost above the floor ≤ half of upstream Kyber's (%s)" % where,
                ok, figs))
    md = r[("series", "mq-deadline")]
    out.append(("Kyber cheaper than mq-deadline (%s)" % where,
                None if ours is None or md is None else ours > md,
                "n/a" if ours is None or md is None else "%.3f× vs %.3f× none" % (ours, md)))
    return out


def latency_targets(res):
    p99 = {k: med(res.values(k, "latency", "kyber", "direct", "read_p99")) for k in KERNELS}
    wr = {k: med(res.values(k, "latency", "kyber", "direct", "write_iops")) for k in KERNELS}
    target = float(res.fact("series", "latency", "kyber-read_lat_nsec", DEFAULT_READ_LAT))
    out = []
    ok = None if None in p99.values() else p99["series"] <= p99["upstream"]
    out.append(("read p99 beside the direct flood no worse than upstream Kyber's", ok,
                "n/a" if ok is None else "%s ms vs %s ms" % (f_ms(p99["series"]), f_ms(p99["upstream"]))))
    s = p99["series"]
    out.append(("read p99 beside the direct flood ≤ %.2f× read_lat_nsec (%s ms)"
                % (TARGET_P99, f_ms(TARGET_P99 * target)),
                None if s is None else s <= TARGET_P99 * target,
                "n/a" if s is None else "%s ms = %.2f× the %s ms target" % (f_ms(s), s / target, f_ms(target))))
    ok = None if None in wr.values() else wr["series"] >= wr["upstream"]
    out.append(("write IOPS beside the reader at least upstream Kyber's", ok,
                "n/a" if ok is None else "%.0f vs %.0f" % (wr["series"], wr["upstream"])))
    return out


def prio_cost(res, part="prio", qd="qd32"):
    """Kyber with priority support against kyber-noprio in PART's icount
    boot (prio: lean config, prodcost: production config): a dict, or None
    when not measured."""
    ky = res.figs.get(("series", part, "kyber", qd, "iops"), {})
    np_ = res.figs.get(("series", part, "kyber-noprio", qd, "iops"), {})
    if not ky or not np_:
        return None
    k, n = [ky[r] for r in sorted(ky)], [np_[r] for r in sorted(np_)]

    def rel_spread(v):
        return (max(v) - min(v)) / med(v)
    seen = max(rel_spread(k), rel_spread(n))
    noise = max(ICOUNT_NOISE, seen)
    diff = med(k) / med(n) - 1
    return {"kyber": med(k), "noprio": med(n), "diff": diff, "reps": min(len(k), len(n)),
            "per_boot": [ky[r] / np_[r] - 1 for r in sorted(ky) if np_.get(r)],
            "seen": seen, "noise": noise, "measurable": abs(diff) > noise,
            # guest us per I/O, and instructions at icount shift=3 (8 ns each)
            "us": 1e6 / med(k) - 1e6 / med(n), "insns": (1e9 / med(k) - 1e9 / med(n)) / 8}


def prio_p99(res, param):
    return med(res.values("series", "prio", "kyber", param, "read_p99"))


def prio_cost_target(res, part, qd):
    c = prio_cost(res, part, qd)
    return ("Priority support costs no measurable CPU, all I/O best effort (%s, %s)"
            % (qd.upper().replace("QD", "QD "), CONFIG[part]),
            None if c is None else not (c["measurable"] and c["diff"] < 0),
            "n/a" if c is None else
            "%+.2f%% icount IOPS vs the series' Kyber without it, about %.0f instructions "
            "per I/O (measurable above %.2f%%)"
            % (100 * c["diff"], abs(c["insns"]), 100 * c["noise"]))


def prio_targets(res):
    out = [prio_cost_target(res, "prio", "qd32"), prio_cost_target(res, "prodcost", "qd32")]
    if prio_cost(res, "prodcost", "qd1") is not None:
        out.append(prio_cost_target(res, "prodcost", "qd1"))
    alone, idle = prio_p99(res, "alone"), prio_p99(res, "wflood-idle")
    ok = None if alone is None or idle is None else idle <= PRIO_NEAR[0] * alone + PRIO_NEAR[1]
    out.append(("Beside an idle write flood, the reader's p99 near its p99 alone (≤ %d× + %s ms)"
                % (PRIO_NEAR[0], f_ms(PRIO_NEAR[1])), ok,
                "n/a" if ok is None else "%s ms vs %s ms alone" % (f_ms(idle), f_ms(alone))))
    be, rt = prio_p99(res, "crowd-be"), prio_p99(res, "crowd-rt")
    ok = None if be is None or rt is None else rt < be
    out.append(("A real-time reader's p99 below a best-effort one's, beside a QD 8 reader", ok,
                "n/a" if ok is None else "%s ms vs %s ms" % (f_ms(rt), f_ms(be))))
    return out


def dev_fact(res, name, default=None):
    for k in KERNELS:
        v = res.fact(k, "devices", name, None)
        if v is not None:
            return v
    return default


def dev_read_target(res, cls):
    """Kyber's read_lat_nsec on CLASS's device as the VM read it (ns)."""
    m = re.search(r"read_lat_nsec (\d+)", res.fact("series", "devices", "%s-kyber" % cls, ""))
    return float(m.group(1)) if m else float(DEFAULT_READ_LAT)


def dev_targets(res):
    out = []
    for cls in DEV_CLASSES:
        def r(k):
            return med(res.ratios(k, "devices", "kyber", cls, "total_iops"))
        ours, up = r("series"), r("upstream")
        out.append(("Kyber's total IOPS ≥ %.2f× none's (%s device)" % (TARGET_DEV_TOTAL, cls),
                    None if ours is None else ours >= TARGET_DEV_TOTAL,
                    "n/a" if ours is None else "%.3f×%s" % (
                        ours, "" if up is None else " (upstream Kyber %.3f×)" % up)))

        def p99(k, s):
            return med(res.values(k, "devices", s, cls, "read_p99"))
        ky, no = p99("series", "kyber"), p99("series", "none")
        ok = None if ky is None or no is None else ky <= no
        figs = "n/a"
        if ok is not None:
            figs = "%s ms vs %s ms" % (f_ms(ky), f_ms(no))
            uk, un = p99("upstream", "kyber"), p99("upstream", "none")
            if uk is not None and un is not None:
                figs += " (upstream Kyber %s ms vs %s ms)" % (f_ms(uk), f_ms(un))
        out.append(("Kyber's read p99 ≤ none's (%s device)" % cls, ok, figs))
        if cls != "saturated":
            continue
        target = dev_read_target(res, cls)
        own = dev_fact(res, "%s-request_nsec" % cls)
        text = "Kyber's read p99 ≤ %.2f× read_lat_nsec (%s ms; saturated device)" % (
            TARGET_P99, f_ms(TARGET_P99 * target))
        if ky is None:
            out.append((text, None, "n/a"))
        elif own is not None and float(own) > target:
            out.append((text, NA,
                        "the device takes %s ms per request, more than the %s ms target: no "
                        "depth can meet it (p99 %s ms = %.2f× the target)"
                        % (f_ms(float(own)), f_ms(target), f_ms(ky), ky / target)))
        else:
            out.append((text, ky <= TARGET_P99 * target,
                        "%s ms = %.2f× the %s ms target" % (f_ms(ky), ky / target, f_ms(target))))
    return out


def slow_points(res):
    """The slowdev part's points, in the order the VM ran them: {name: facts}."""
    out = {}
    for (k, p, name), v in res.facts.items():
        if p == "slowdev" and name.startswith("slowdev-") and name[8:] not in out:
            out[name[8:]] = dict(kv.split("=", 1) for kv in v.split())
    return out


def slow_worst(res, k, metric, pick):
    """Over the slowdev points: (median of Kyber's METRIC relative to none's, point),
    the one PICK (min or max) chooses; None when not measured."""
    got = []
    for name in slow_points(res):
        if metric == "read_p99":
            ky = med(res.values(k, "slowdev", "kyber", name, metric))
            no = med(res.values(k, "slowdev", "none", name, metric))
            r = None if ky is None or not no else ky / no
        else:
            r = med(res.ratios(k, "slowdev", "kyber", name, metric))
        if r is not None:
            got.append((r, name))
    return pick(got) if got else None


def slowdev_targets(res):
    out = []
    ours, up = (slow_worst(res, k, "total_iops", min) for k in KERNELS)
    out.append(("Kyber's total IOPS ≥ %.2f× none's on every slow-device point (section 8)"
                % TARGET_SLOW_TOTAL, None if ours is None else ours[0] >= TARGET_SLOW_TOTAL,
                "n/a" if ours is None else "lowest %.3f× (%s)%s" % (
                    ours + ("" if up is None else "; upstream Kyber's lowest %.3f× (%s)" % up,))))
    ours, up = (slow_worst(res, k, "read_p99", max) for k in KERNELS)
    out.append(("Kyber's read p99 ≤ none's on every slow-device point (section 8)",
                None if ours is None else ours[0] <= 1,
                "n/a" if ours is None else "highest %.2f× none's (%s)%s" % (
                    ours + ("" if up is None else "; upstream Kyber's highest %.2f× (%s)" % up,))))
    return out


def fs_targets(res):
    out = []
    for param, what in FS_WBT:
        def m(k, s, metric):
            return med(res.values(k, "fs", s, param, metric))

        def also(metric, fmt):
            uk, un = m("upstream", "kyber", metric), m("upstream", "none", metric)
            if uk is None or un is None:
                return ""
            return " (upstream Kyber %s vs %s)" % (fmt(uk), fmt(un))
        rate = lambda v: "%.1f/s" % v
        ms = lambda v: "%s ms" % f_ms(v)
        ky, no = m("series", "kyber", "commits_s"), m("series", "none", "commits_s")
        ok = None if ky is None or no is None else ky >= no
        out.append(("Kyber's fsync'd commits per second ≥ none's (ext4, %s)" % what, ok,
                    "n/a" if ok is None else "%s vs %s%s" % (rate(ky), rate(no),
                                                              also("commits_s", rate))))
        ky, no = m("series", "kyber", "commit_p99"), m("series", "none", "commit_p99")
        ok = None if ky is None or no is None else ky <= no
        out.append(("Kyber's commit p99 ≤ none's (ext4, %s)" % what, ok,
                    "n/a" if ok is None else "%s vs %s%s" % (ms(ky), ms(no),
                                                              also("commit_p99", ms))))
        r = med(res.ratios("series", "fs", "kyber", param, "write_mbs"))
        out.append(("The device's writes under Kyber ≥ %.2f× none's (ext4, %s)"
                    % (TARGET_FS_WRITE, what), None if r is None else r >= TARGET_FS_WRITE,
                    "n/a" if r is None else x_spread(res.ratios("series", "fs", "kyber", param,
                                                                "write_mbs"))))
    return out


def x_spread(vals):
    """Ratios: the median, and the repetitions' min-max when more than one."""
    if len(vals) == 1:
        return "%.3f×" % vals[0]
    return "%.3f× (%.3f–%.3f)" % (med(vals), min(vals), max(vals))


def scaling_targets(res):
    r = {k: res.ratios(k, "scaling", "kyber", "cpus2") for k in KERNELS}
    ours, up = med(r["series"]), med(r["upstream"])
    where = "real time, production config"
    out = [("Kyber's IOPS with 2 submitting CPUs on one hardware queue ≥ %.2f× none's (%s)"
            % (TARGET_RATIO, where), None if ours is None else ours >= TARGET_RATIO,
            "n/a" if ours is None else x_spread(r["series"]))]
    ok = None if ours is None or up is None else ours >= up
    figs = "n/a"
    if ok is not None:
        wid = max(max(v) - min(v) for v in r.values())
        figs = ("%s vs upstream Kyber %s: the medians differ by %+.3f, %s the larger spread "
                "of the repetitions (%.3f)" % (x_spread(r["series"]), x_spread(r["upstream"]),
                                               ours - up, "within" if abs(ours - up) <= wid
                                               else "beyond", wid))
    out.append(("Kyber's ratio to none with 2 submitting CPUs no worse than upstream Kyber's "
                "(%s)" % where, ok, figs))
    return out


def contention_targets(res):
    text = ("Kyber's lock contention per 1000 I/Os no worse than upstream Kyber's "
            "(2 submitters, one hardware queue)")
    tot = {k: all_locks(res, k, "kyber") for k in KERNELS}
    if not all(tot.values()):
        return [(text, None, "n/a")]
    own = {k: own_locks(res, k, "kyber") for k in KERNELS}
    figs = ("all locks %s vs %s contentions; Kyber's own locks: %s %s vs %s %s"
            % (spread(tot["series"], f_kio), spread(tot["upstream"], f_kio),
               ", ".join("`%s`" % c for c in SCHED_LOCKS["series"]["kyber"]),
               spread(own["series"], f_kio),
               ", ".join("`%s`" % c for c in SCHED_LOCKS["upstream"]["kyber"]),
               spread(own["upstream"], f_kio)))
    lo = max(min(tot["series"]), min(tot["upstream"]))
    hi = min(max(tot["series"]), max(tot["upstream"]))
    if lo <= hi:
        figs += "; the two ranges overlap"
    off = lockdep_off(res)
    if off:
        return [(text, INVALID, "lockdep turned itself off on the %s kernel, so its lock "
                 "statistics stopped counting (%s)"
                 % (" and ".join(KLABEL[k] for k in off), figs))]
    return [(text, med(tot["series"]) <= med(tot["upstream"]), figs)]


def targets(res):
    rows = []
    for part in COST_PARTS:
        for qd in ("qd32", "qd1"):
            rows += cost_targets(res, part, qd)
    rows += latency_targets(res)
    rows += scaling_targets(res)
    rows += contention_targets(res)
    rows += prio_targets(res)
    rows += dev_targets(res)
    rows += slowdev_targets(res)
    rows += fs_targets(res)
    lines = [[t, verdict(ok), figs] for t, ok, figs in rows]
    return ("## Targets\n\n"
            "Goals, not assertions: the bench never fails on a number.  Medians of the\n"
            "repetitions; cost ratios are to none in the same boot, and \"cost per\n"
            "I/O\" is the inverse of icount IOPS, so a scheduler at 0.80× none costs\n"
            "25% more per I/O than none.  The lean and the production config are two\n"
            "builds of each kernel (section 1).  Scaling ratios are real time, to\n"
            "none in the same repetition; lock contentions are per 1000 I/Os.\n\n" +
            table(["target", "", "figures"], lines))


NOT_RUN = "Not measured in this run.\n\n"

COST_TEXT = """\
## 1. CPU cost per I/O

**What.** 4 KiB random reads, `io_uring`, `O_DIRECT`, on a null_blk that
completes each request at once (no timer, not memory backed; one submit
queue, no poll queues), at QD 1 and QD 32, each run a fixed 20000 I/Os.
One vCPU.  Schedulers interleaved within a repetition; every figure is
compared with none's of the same boot.  The same runs on two builds of
each kernel: the lean VM kernel (1a) and a kernel with the production
options of a distribution kernel (1b).

**Why icount.**  Wall-clock IOPS under TCG swing by ±25% between runs on
a loaded host.  QEMU's `-icount shift=3,sleep=off` advances guest time
by the instructions executed, so the guest's own clock measures CPU work
and not the host's load: repetitions agree to about 0.1%.  "icount IOPS"
are IOPS in that guest time, i.e. inversely proportional to the
instructions spent per I/O (submission, scheduler, completion, fio).

**floor** is a do-nothing FIFO elevator built out of tree
(`selftests/floor-iosched`): what it costs above none is the blk-mq
scheduler framework itself (scheduler tags, insert, dispatch), the floor
any scheduler can reach.  A scheduler's *policy cost* is what it costs
above floor.  In the upstream kernel, "Kyber" is upstream Kyber.

With an instant device a request completes inside its own submission,
so the scheduler rarely holds more than one request at a time at either
depth: QD 32 keeps fio's io_uring ring full, not the scheduler's queue.

"""

LEAN_TEXT = """\
### 1a. Lean VM kernel

`tinyconfig` + `kvm_guest.config` + `scripts/kconfig/vm.config`
(`build/obj-m`, `build/obj-upstream`): built for size (`-Os`), without
jump labels (a tracepoint is a tested branch) and without the function
tracer, mitigations and hardening of 1b; the smallest kernel the VM
boots, and the one the latency, prio and devices parts run on.

"""

PROD_TEXT = """\
### 1b. Production-config kernel

The lean configuration plus `scripts/kconfig/distro.config`
(`build/obj-distro`, `build/obj-distro-upstream`): the options of
Debian's 6.12 amd64 kernel that change what the I/O path executes.
`-O2` (`CC_OPTIMIZE_FOR_PERFORMANCE`); jump labels, so static keys and
tracepoints are patched branches; the function tracer, a patched-out
call at each function's entry; voluntary preemption chosen at boot
(`PREEMPT_DYNAMIC`), 250 Hz; CPU mitigations compiled in: retpolines
and return thunks (where the boot enables retpolines, every indirect
call, the elevator's hooks included, goes through a thunk), page table
isolation, IBT; stack protector
(strong), stack variables zeroed (`INIT_STACK_ALL_ZERO`), `init_on_alloc`,
randomized kernel stack offset, hardened usercopy, `FORTIFY_SOURCE`,
`DEBUG_LIST` and `LIST_HARDENED`; the full SLUB allocator; block cgroups
with throttling, writeback throttling, io.cost and integrity.  NUMA
stays off and `NR_CPUS` at 8, as in the lean kernel.  Which mitigations
run depends on the CPU QEMU presents: the guest's choice is below.  The
lean kernel's relative costs need not hold here: an indirect call costs
more through a retpoline, a compiled-out tracepoint nothing, and `-O2`
inlines differently; this is the kernel users run.

"""


def cost_tables(res, part):
    """PART's (cost or prodcost) tables, one per queue depth: a list of text."""
    out = []
    for qd in COST_QDS:
        rows = []
        for k in KERNELS:
            if not res.has(k, part):
                continue
            fl = med(res.ratios(k, part, "floor", qd))
            for s in COST_SCHEDS:
                v = res.values(k, part, s, qd, "iops")
                if not v:
                    continue
                rat = res.ratios(k, part, s, qd)
                m = med(rat)
                above = "n/a" if fl is None or m is None else "%+.1f%%" % (100 * (1 / m - 1 / fl))
                rows.append([KLABEL[k], sched_label(k, s), spread(v, f_iops),
                             spread(rat, f_ratio),
                             "n/a" if m is None else "%+.1f%%" % (100 * (1 / m - 1)), above])
        if rows:
            out.append("**%s**, %s, icount IOPS, median (min–max) of the repetitions:\n\n"
                       % (qd.upper().replace("QD", "QD "), CONFIG[part]))
            out.append(table(["kernel", "scheduler", "icount IOPS", "ratio to none",
                              "cost per I/O vs none", "vs floor"], rows) + "\n")
    return out


def cost_section(res):
    out = [COST_TEXT, LEAN_TEXT] + (cost_tables(res, "cost") or [NOT_RUN]) + [PROD_TEXT]
    mit = kfact(res, "prodcost", "mitigations")
    if mit is not None:
        out.append(para("The mitigations the guest chose: %s." % mit))
    prod = cost_tables(res, "prodcost")
    out += prod or [NOT_RUN]
    if prod and res.values("series", "prodcost", "kyber-noprio", "qd32", "iops"):
        out.append(para("\"Kyber without priority support\" is the series' Kyber as the "
                        "patch that adds it has it, before the priority patch and the "
                        "token-pool patch after it (section 5), in the same boot."))
    return "".join(out)


LATENCY_TEXT = """\
## 2. Latency control

**What.** A QD1 4 KiB random reader (`psync`, `O_DIRECT`) beside a write
flood of 4 KiB random writes: (a) direct, `libaio` QD 64, (b) buffered,
`psync` without `O_DIRECT` (the guest's dirty limit set to 8 MiB so that
writeback follows the device and a run leaves no backlog for the next).
1 s ramp, then 6 s measured.  Real time, not icount: 2 vCPUs.  Read
latency is fio's completion latency (clat), percentiles in ms.  Write
IOPS are fio's; "device writes" are the writes the device completed in
the measured seconds (its stat file, sampled), which for the buffered
flood is what the writer really gets.

**Why this device.**  A null_blk made through configfs with 2 tags that
completes each request after 1 ms (`irqmode=2`, `completion_nsec=1000000`,
`hw_queue_depth=2`, one submit queue, not memory backed): 2000 requests
per second.  It tells schedulers apart only when it is *saturated*: the
VM must submit well above its capacity so that requests really queue for
tags.  (QEMU's own drive throttling keeps separate read and write queues,
so a write flood barely delays reads under any scheduler; a null_blk
with 16 tags at 0.5 ms is not saturated under TCG and shows only CPU
noise.)  The saturation check below runs the flood alone.  The
kselftest `block/kyber/latency.sh` checks a reader beside a write flood
with bounds on a slower device, 2 tags at 4 ms with an 8 ms read target,
so that a busy host's late timers stay small beside what it asserts;
this page measures the 1 ms device and asserts nothing.

**Why upstream Kyber's readers starve under direct writes.**  Upstream
Kyber limits only *asynchronous* writes to part of the scheduler tags.
`O_DIRECT` writes are synchronous, so the flood takes every tag and reads
queue behind it before Kyber sees them.  This series limits every request
but reads to 3/4 of the scheduler tags, and while reads miss their
target the other domains give up tokens (down to one), so a read finds a
free device tag.  Buffered writes reach the device as writeback, which
upstream Kyber already limits.

**Noise.**  These figures are wall-clock under TCG: a busy host adds
latency everywhere, and the spread of the repetitions says how much.

"""


def latency_section(res):
    out = [LATENCY_TEXT]
    cap = res.fact("series", "latency", "capacity-iops", res.fact("upstream", "latency", "capacity-iops"))
    rows = []
    for k in KERNELS:
        if not res.has(k, "latency"):
            continue
        fast = res.values(k, "latency", "none", "alone-fast-direct", "write_iops")
        direct = res.values(k, "latency", "none", "alone-direct", "write_iops")
        buf = res.values(k, "latency", "none", "alone-buffered", "dev_write_iops")
        try:
            c = float(cap)
            saturated = bool(fast and direct and med(fast) >= 3 * c and med(direct) >= 0.6 * c)
            verdict_ = "yes" if saturated else "**no**"
            if direct:
                verdict_ += " (direct flood at %.0f%% of capacity)" % (100 * med(direct) / c)
        except ValueError:
            verdict_ = "n/a"
        rows.append([KLABEL[k], spread(fast, f_iops), spread(direct, f_iops),
                     spread(buf, f_iops), verdict_])
    if rows:
        out.append("**Saturation check** (flood alone, scheduler none; device capacity %s IOPS;\n"
                   "saturated when the VM submits at least 3× the capacity to an instant\n"
                   "null_blk and the direct flood reaches 60%% of it):\n\n" % cap)
        out.append(table(["kernel", "direct flood, instant null_blk", "direct flood, this device",
                          "buffered flood, device writes/s", "saturated"], rows) + "\n")
    for flood, title in (("direct", "(a) beside the direct QD 64 flood"),
                         ("buffered", "(b) beside the buffered flood")):
        rows = []
        for k in KERNELS:
            for s in ("none", "kyber", "mq-deadline", "bfq"):
                def v(m):
                    return res.values(k, "latency", s, flood, m)
                if not v("read_p99"):
                    continue
                rows.append([KLABEL[k], sched_label(k, s), spread(v("read_p50"), f_ms),
                             spread(v("read_p99"), f_ms), spread(v("read_p99.9"), f_ms),
                             spread(v("read_iops"), f_iops), spread(v("write_iops"), f_iops),
                             spread(v("dev_write_iops"), f_iops)])
        if rows:
            out.append("**%s**, median (min–max):\n\n" % title)
            out.append(table(["kernel", "scheduler", "read p50 ms", "read p99 ms",
                              "read p99.9 ms", "read IOPS", "write IOPS", "device writes/s"],
                             rows) + "\n")
    rows = []
    for ms in (1, 2, 5):
        def v(m):
            return res.values("series", "latency", "kyber", "direct-target%dms" % ms, m)
        p99 = v("read_p99")
        if not p99:
            continue
        rows.append(["%d ms" % ms, spread(v("read_p50"), f_ms), spread(p99, f_ms),
                     "%.2f×" % (med(p99) / (ms * 1e6)), spread(v("read_iops"), f_iops),
                     spread(v("write_iops"), f_iops)])
    if rows:
        out.append("**The knob**: this series' Kyber beside the direct flood with\n"
                   "`read_lat_nsec` set to 1, 2 and 5 ms:\n\n")
        out.append(table(["read_lat_nsec", "read p50 ms", "read p99 ms", "p99 / target",
                          "read IOPS", "write IOPS"], rows) + "\n")
    return "".join(out) if len(out) > 1 else LATENCY_TEXT + NOT_RUN


SCALING_TEXT = """\
## 3. Scaling

**What.** 4 KiB random reads, `io_uring`, `O_DIRECT`, QD 32 per fio job,
on an instant null_blk with **one** hardware queue (`submit_queues=1`,
`irqmode=0`), on the production-config kernel (1b), in a VM of 2 vCPUs
under QEMU's multi-threaded TCG: each vCPU is a host thread of its own,
and the host has 2 cores.  One job pinned to vCPU 0 ("1 vCPU"), then two
jobs, one pinned to each vCPU ("2 vCPUs"; `--group_reporting`: the IOPS
are the jobs' sum).  Time based: 1 s ramp, then a few seconds measured
(the fio command lines are at the end of the page).  Schedulers
interleaved within one boot.  **Real time**, not icount.

**Why.** Every CPU submits to the one hardware queue and so to one
scheduler instance: its locks and shared state are what two submitters
fight over.  Under icount all vCPUs ran on one host thread, one at a
time, so contention could not show; here the two vCPUs run in parallel,
and a contended lock costs wall-clock time.  Section 4 counts the
contentions themselves.

**Noise.** Real time under TCG on a 2-core host that also runs QEMU's
I/O thread: the spread of the repetitions says how much noise there is.
Ratios to none are per repetition, against none's run in the same
repetition; "2 vCPUs / 1 vCPU" is each repetition's IOPS with two jobs
over its IOPS with one.

"""


def scaling_section(res):
    out = [SCALING_TEXT]
    rows = []
    for k in KERNELS:
        if not res.has(k, "scaling"):
            continue
        for s in SCALE_SCHEDS:
            cells = []
            for n in CPUS:
                v = res.values(k, "scaling", s, "cpus%d" % n, "iops")
                r = res.ratios(k, "scaling", s, "cpus%d" % n)
                cells += [spread(v, f_iops), spread(r, f_ratio)]
            up = res.rel((k, "scaling", s, "cpus2", "iops"), (k, "scaling", s, "cpus1", "iops"))
            rows.append([KLABEL[k], sched_label(k, s)] + cells +
                        [spread(up, lambda x: "%.2f×" % x)])
    if rows:
        reps = kfact(res, "scaling", "reps") or res.fact("host", "all", "reps")
        out.append("IOPS, median (min–max) of %s repetitions, and the ratio to none with the\n"
                   "same vCPUs:\n\n" % reps)
        out.append(table(["kernel", "scheduler", "1 vCPU IOPS", "1 vCPU / none", "2 vCPUs IOPS",
                          "2 vCPUs / none", "2 vCPUs / 1 vCPU"], rows) + "\n")
    return "".join(out) if len(out) > 1 else SCALING_TEXT + NOT_RUN


CONTENTION_TEXT = """\
## 4. Lock contention

**What.** The load of the scaling part at 2 vCPUs (two fio jobs, one
pinned to each vCPU, QD 32 each, on one hardware queue of an instant
null_blk) on a third build of each kernel: the lean configuration plus
`CONFIG_LOCK_STAT` (`scripts/kconfig/lockstat.config`,
`build/obj-lockstat`, `build/obj-lockstat-upstream`; with the production
options as well the VM reset itself at random under TCG).  Before each run
the VM clears `/proc/lock_stat`; after it, it reads per lock class how
often a lock was contended (a CPU found it held) and how long its
waiters waited.  Schedulers interleaved within a repetition.

**Why.** The scaling part shows what contention costs; this part shows
where it is.  With one hardware queue and one submitter per vCPU, both
submitters go through the same scheduler instance.  Lockdep's
bookkeeping makes every lock operation far slower, so this kernel's
IOPS mean nothing and are not shown, and its counts are higher than a
production kernel's would be (slow lock operations widen the windows in
which two CPUs meet): compare them with each other.  They are given per
1000 I/Os completed, so that kernels and schedulers of different speed
compare.  The figures hold only while lockdep stays on: a lockdep
warning turns it off, and the lock statistics with it.

**Whose locks.** Lockdep names a class after the expression that
initialised the lock.  This series' Kyber stages requests under
`&kh->lock`, one per hardware queue (and `&kd->idle_tags_lock` opens
the idle class's tags); upstream Kyber under `&kcq->lock`, one per
software queue, and dispatches under `&khd->lock`, one per hardware
queue.  mq-deadline's is `&dd->lock`, BFQ's `&bfqd->lock`, floor's `&fd->lock`, one per
queue.  blk-mq's own are `&hctx->lock` and `&ctx->lock`;
`&sbq->ws[i].wait` are the wait queues of every sbitmap (driver and
scheduler tags, Kyber's tokens), `&rq->__lock` the CPU scheduler's run
queues.

"""


def per_kio(res, k, s, metrics):
    """Per repetition of the contention part: the sum of METRICS per 1000
    I/Os completed; a metric a repetition lacks counts 0 in it."""
    key = (k, "contention", s, "cpus2")
    ios = res.figs.get(key + ("ios",), {})
    figs = [res.figs.get(key + (m,), {}) for m in metrics]
    return [1000 * sum(f.get(r, 0) for f in figs) / ios[r] for r in sorted(ios) if ios[r] > 0]


def all_locks(res, k, s, metric="lock_con"):
    """Contentions (or wait µs, lock_wait_us) of all classes per 1000 I/Os."""
    if not res.values(k, "contention", s, "cpus2", metric):
        return []
    return per_kio(res, k, s, (metric,))


def lock_base(name):
    """A lock class's name without lockdep's "#2" (a second class of that
    name) and "/1" (subclass) suffixes."""
    return re.sub(r"(#\d+)?(/\d+)?$", "", name)


def own_locks(res, k, s):
    """Contentions of the scheduler's own lock classes per 1000 I/Os."""
    own = SCHED_LOCKS[k].get(s, ())
    return per_kio(res, k, s, tuple("con:" + c for c in lock_classes(res, k, s)
                                    if lock_base(c) in own))


def lock_classes(res, k, s):
    """The lock classes recorded for K's scheduler S, most contended first."""
    names = {m[4:] for (k_, p, s_, q, m) in res.figs
             if (k_, p, s_, q) == (k, "contention", s, "cpus2") and m.startswith("con:")}
    return sorted(names, key=lambda c: (-(med(per_kio(res, k, s, ("con:" + c,))) or 0), c))


def lockdep_off(res):
    """The kernels whose lockdep turned itself off in the contention part."""
    return [k for k in KERNELS if res.has(k, "contention")
            and res.fact(k, "contention", "debug_locks", "1").strip() != "1"]


def f_kio(v):
    return "n/a" if v is None else "%.1f" % v if v >= 10 else "%.2f" % v


def class_kio(res, k, s, cls):
    """Median contentions per 1000 I/Os of lock class CLS (and its
    numbered siblings) under K's scheduler S, or None."""
    names = [c for c in lock_classes(res, k, s) if lock_base(c) == cls]
    if not res.values(k, "contention", s, "cpus2", "ios"):
        return None
    return med(per_kio(res, k, s, tuple("con:" + c for c in names)))


def staging_text(res):
    """What the figures say of staging requests per software queue."""
    kcq = class_kio(res, "upstream", "kyber", "&kcq->lock")
    khd = class_kio(res, "upstream", "kyber", "&khd->lock")
    kh = class_kio(res, "series", "kyber", "&kh->lock")
    if None in (kcq, khd, kh):
        return ""
    return para("**Lists per software queue.** Upstream Kyber stages requests on a list "
                "per software queue, so that CPUs inserting at once do not meet: its "
                "`&kcq->lock` was contended %.1f times per 1000 I/Os.  But every CPU that "
                "runs the hardware queue dispatches under `&khd->lock`, contended %.1f "
                "times; this series' one lock per hardware queue, taken to insert and to "
                "dispatch, %.1f times.  What contends is dispatching, which lists per "
                "software queue do not spare; `Documentation/cost.md` (step 9) has two "
                "versions of this series' Kyber with such lists, measured beside it."
                % (kcq, khd, kh))


def contention_section(res):
    out = [CONTENTION_TEXT]
    rows = []
    for k in KERNELS:
        if not res.has(k, "contention"):
            continue
        for s in SCHEDS:
            ios = res.values(k, "contention", s, "cpus2", "ios")
            if not ios:
                continue
            locks = SCHED_LOCKS[k].get(s, ())
            own = ("–" if not locks else "%s: %s" % (", ".join("`%s`" % c for c in locks),
                                                      spread(own_locks(res, k, s), f_kio)))
            top = ["`%s` %s" % (c, f_kio(med(per_kio(res, k, s, ("con:" + c,)))))
                   for c in lock_classes(res, k, s)[:CONTENTION_TOP]]
            rows.append([KLABEL[k], sched_label(k, s), spread(ios, lambda x: "%.0f" % x),
                         spread(all_locks(res, k, s), f_kio),
                         spread(all_locks(res, k, s, "lock_wait_us"), f_kio), own,
                         ", ".join(top) or "n/a"])
    if not rows:
        return CONTENTION_TEXT + NOT_RUN
    for k in KERNELS:
        if not res.has(k, "contention"):
            continue
        state = res.fact(k, "contention", "debug_locks", None)
        if state is None:
            out.append(para("The %s kernel did not record whether lockdep stayed on: its "
                            "figures hold only if it did." % KLABEL[k]))
        elif state.strip() != "1":
            out.append(para("**Invalid on the %s kernel**: lockdep turned itself off during "
                            "the part (`debug_locks` %s), and the lock statistics stopped "
                            "counting with it; its figures below undercount."
                            % (KLABEL[k], state)))
    out.append(para("The VM records every class contended in a run; a class not contended "
                    "in a run counts 0 in it.  Per 1000 I/Os completed, median (min–max) of "
                    "the repetitions; the most contended classes by their median per 1000 "
                    "I/Os:"))
    out.append(table(["kernel", "scheduler", "I/Os per run", "contentions (all locks)",
                      "wait µs (all locks)", "the scheduler's locks' contentions",
                      "most contended classes"], rows) + "\n")
    out.append(staging_text(res))
    return "".join(out)


PRIO_TEXT = """\
## 5. I/O priorities

The series' Kyber serves I/O priority classes (`ionice`; the patch
"kyber: serve I/O priority classes", `Documentation/block/kyber-iosched.rst`,
"I/O priorities"): within a
domain, real-time requests go ahead of best-effort ones (with an aging
rule), and idle ones go only while no other request of the domain waits,
with at most a quarter of the domain's tokens and an eighth of
`nr_requests`.  Series kernel only.

**Cost of priority support.** As the cost part at QD 32 (icount, 1 vCPU,
all I/O best effort, repetitions interleaved), but 100000 I/Os per run
for a finer figure, in a boot of its own of the lean kernel: none, this
series' Kyber, and *Kyber without priority support*,
`block/kyber-iosched.c` as the series adds it, before the priority
patch, built out of tree as the elevator `kyber-noprio`.  It is also
before the patch that follows the priority one (token pools cut only
where that helps), so the difference counts that patch's cost too:
`Documentation/cost.md`, step 8, has the two apart.  On the
production-config kernel, the prodcost part (1b) runs `kyber-noprio`
beside the other schedulers, at its 20000 I/Os per run.  This page
counts a difference as measurable above 0.1% or above the spread of the
repetitions, whichever is larger: 0.1% is what icount repetitions agree
within at the cost part's 20000 I/Os, where one step of fio's figure is
0.06%.

**Behaviour.** On the saturated null_blk of the latency part (2 tags,
1 ms per request; real time, 2 vCPUs), scheduler Kyber with
`nr_requests` 64 (as the kselftest `block/kyber/ionice.sh` sets it), so
that requests wait in Kyber, where their class counts, rather than for a
scheduler tag.  A QD1 4 KiB random reader (`psync`, `O_DIRECT`) alone,
then beside a QD 64 `libaio` `O_DIRECT` 4 KiB random write flood and
read flood, each as best effort and as idle class (fio `--prioclass`),
and as best effort and as real time beside a QD 8 best-effort `libaio`
random reader (the "crowd").  1 s ramp, then 6 s measured; the reader's
completion latency in ms.  Classes order requests within a domain only:
the write flood is not in the reader's domain, so what keeps an idle one
back is its share of tokens and scheduler tags.  Wall-clock under TCG:
the spread of the repetitions says how much noise there is.

**Two hardware queues.** The device of the kselftest
`block/kyber/prio_queues.sh`: a null_blk of 2 hardware queues that share
2 driver tags (`shared_tag_bitmap=1`), 1 ms per request, at the
**default** `nr_requests`, a fresh scheduler instance for each run.  The
QD1 reader is pinned to a CPU of hardware queue 0 (fio
`--cpus_allowed`), alone, then as best effort, real time and idle beside
a best-effort QD 32 `libaio` `O_DIRECT` 4 KiB random read flood pinned
to a CPU of queue 1, and as best effort beside the same flood as idle;
under none, the best-effort runs as the baseline.  The two never meet in
one hardware queue's lists: what orders them is the device-wide share
of tokens and tags.  1 s ramp, then 6 s measured; latency is the
reader's completion latency in ms, max the longest of the run; total
IOPS are the reader's and the flood's.

**Wake batch.** The scheduler tags' wake batch (debugfs
`hctx0/sched_tags`, the unreserved bitmap: `depth`, `min_shallow_depth`,
`wake_batch`) on the single-queue device of the behaviour runs, with
`nr_requests` 64 and 256: on a fresh instance before any idle-class I/O,
then after an idle-class task took tags (1 s of a QD1 `psync` `O_DIRECT`
write job, fio `--prioclass=3`); Kyber, and mq-deadline beside it.  The
smaller the batch, the more often freed tags wake a waiter.

"""


def prio_cost_rows(res, part, qd):
    """The cost table's rows of PART (prio or prodcost) at QD: none when
    PART did not run kyber-noprio there (1b has the prodcost part's rows)."""
    rows = []
    if part != "prio" and not res.values("series", part, "kyber-noprio", qd, "iops"):
        return rows
    for s in ("none", "kyber-noprio", "kyber"):
        v = res.values("series", part, s, qd, "iops")
        if not v:
            continue
        rat = res.ratios("series", part, s, qd)
        m = med(rat)
        vs = "n/a"
        if s == "kyber":
            c = prio_cost(res, part, qd)
            vs = "n/a" if c is None else spread(c["per_boot"], lambda x: "%+.2f%%" % (100 * x))
        elif s == "kyber-noprio":
            vs = "(reference)"
        rows.append([CONFIG[part], qd.upper().replace("QD", "QD "), sched_label("series", s),
                     spread(v, f_iops), spread(rat, f_ratio),
                     "n/a" if m is None else "%+.1f%%" % (100 * (1 / m - 1)), vs])
    return rows


def prio_cost_text(c, where):
    """The sentence on priority support's cost C (from prio_cost) in WHERE."""
    if c["reps"] > 1:
        agree = ("Repetitions of one scheduler agree within %.2f%% here, so a "
                 "difference above %.2f%% is measurable" % (100 * c["seen"], 100 * c["noise"]))
    else:
        agree = ("This is one repetition; icount repetitions agree within %.1f%%, so "
                 "a difference above that is measurable" % (100 * ICOUNT_NOISE))
    if not c["measurable"] and c["diff"] < 0 and -c["diff"] > c["seen"]:
        what = ("below what this page counts as measurable: **no measurable loss** by\n"
                "that measure.  Instruction counting does resolve it, though, as the\n"
                "repetitions agree more closely: %.3f µs of guest time per I/O, about\n"
                "%.0f instructions at icount shift=3" % (abs(c["us"]), abs(c["insns"])))
    elif not c["measurable"]:
        what = "within that: **no measurable loss**; the claim holds"
    elif c["diff"] < 0:
        what = ("a **measurable loss** of %.2f%% (%.2f µs of guest time per I/O, about\n"
                "%.0f instructions at icount shift=3): the claim \"no measurable loss\"\n"
                "**does not hold**" % (-100 * c["diff"], abs(c["us"]), abs(c["insns"])))
    else:
        what = "a measurable gain of %.2f%%: no loss" % (100 * c["diff"])
    return para("**%s, with priority support and all I/O best effort, Kyber does %.0f "
                "icount IOPS against %.0f without it: %+.2f%%.**  %s.  That is %s."
                % (where, c["kyber"], c["noprio"], 100 * c["diff"], agree, what))


def prio_section(res):
    out = [PRIO_TEXT]
    rows, notes = [], []
    for part, qd in (("prio", "qd32"), ("prodcost", "qd32"), ("prodcost", "qd1")):
        rows += prio_cost_rows(res, part, qd)
        c = prio_cost(res, part, qd)
        if c is not None:
            where = "%s, %s" % (CONFIG[part], qd.upper().replace("QD", "QD "))
            notes.append(prio_cost_text(c, where[0].upper() + where[1:]))
    if rows:
        out.append("**Cost**, icount IOPS, median (min–max) of the repetitions:\n\n")
        out.append(table(["kernel config", "depth", "scheduler", "icount IOPS", "ratio to none",
                          "cost per I/O vs none", "IOPS vs without priority support"], rows)
                   + "\n")
        out += notes
    rows = []
    for param, what, rc, oc, om in PRIO_SCENARIOS:
        def v(m):
            return res.values("series", "prio", "kyber", param, m)
        if not v("read_p99"):
            continue
        rows.append([what, rc, oc or "–", spread(v("read_p50"), f_ms), spread(v("read_p99"), f_ms),
                     spread(v("read_iops"), f_iops), spread(v(om), f_iops) if om else "–"])
    if rows:
        out.append("**Behaviour**, Kyber, median (min–max):\n\n")
        out.append(table(["reader", "reader's class", "other job's class", "read p50 ms",
                          "read p99 ms", "read IOPS", "other job's IOPS"], rows) + "\n")
        p = {param: prio_p99(res, param) for param, *_ in PRIO_SCENARIOS}
        notes = []
        a = p["alone"]
        for fl, name in (("w", "write"), ("r", "read")):
            idle, be = p[fl + "flood-idle"], p[fl + "flood-be"]
            if a is None or idle is None:
                continue
            bound = PRIO_NEAR[0] * a + PRIO_NEAR[1]
            notes.append(para(
                "Beside the idle %s flood the reader's p99 is %s ms, %.1f× its %s ms alone: "
                "%s (near: at most %d× alone + %s ms = %s ms, the bound of `ionice.sh`)%s."
                % (name, f_ms(idle), idle / a, f_ms(a),
                   "**near its p99 alone**" if idle <= bound else "**not near its p99 alone**",
                   PRIO_NEAR[0], f_ms(PRIO_NEAR[1]), f_ms(bound),
                   "" if be is None else "; beside the same flood as best effort, %s ms"
                   % f_ms(be)), bullet=True))
        be, rt = p["crowd-be"], p["crowd-rt"]
        if be is not None and rt is not None:
            notes.append(para("Beside the QD 8 reader, the QD1 reader's p99 is %s ms as real time "
                              "and %s ms as best effort: real time is **%s** (%+.0f%%)."
                              % (f_ms(rt), f_ms(be), "below best effort" if rt < be
                                 else "not below best effort", 100 * (rt / be - 1)),
                              bullet=True))
        out.append("".join(notes) + ("\n" if notes else ""))
    out.append(prio_queues_table(res))
    out.append(wake_batch_table(res))
    return "".join(out) if any(out[1:]) else PRIO_TEXT + NOT_RUN


def prio_queues_table(res):
    """The two-queue runs: a table and a sentence, or "" when not run."""
    rows = []
    for s in ("none", "kyber"):
        for param, rc, fc in PRIO_QUEUES:
            def v(m):
                return res.values("series", "prio", s, param, m)
            if not v("read_p99"):
                continue
            rows.append([sched_label("series", s), rc, fc or "–", spread(v("read_p50"), f_ms),
                         spread(v("read_p99"), f_ms), spread(v("read_max"), f_ms),
                         spread(v("read_iops"), f_iops),
                         spread(v("flood_iops"), f_iops) if fc else "–",
                         spread(v("total_iops"), f_iops)])
    if not rows:
        return ""
    out = ["**Two hardware queues**, reader on queue 0, QD 32 read flood on queue 1,\n"
           "default `nr_requests`, median (min–max):\n\n",
           table(["scheduler", "reader's class", "flood's class", "read p50 ms", "read p99 ms",
                  "read max ms", "read IOPS", "flood IOPS", "total IOPS"], rows) + "\n"]

    def m(s, param, metric):
        return med(res.values("series", "prio", s, param, metric))
    rt, be = m("kyber", "2q-rt-by-be", "read_p99"), m("kyber", "2q-be-by-be", "read_p99")
    idle, alone = m("kyber", "2q-idle-by-be", "read_iops"), m("kyber", "2q-alone", "read_iops")
    by_idle = m("kyber", "2q-be-by-idle", "read_iops")
    tot, tot_none = m("kyber", "2q-be-by-be", "total_iops"), m("none", "2q-be-by-be", "total_iops")
    if None not in (rt, be, idle, alone, by_idle, tot):
        out.append(para(
            "Across the two queues, Kyber's real-time reader has a p99 of %s ms against %s ms "
            "as best effort beside the same flood, the idle reader still does %.0f IOPS beside "
            "it, and beside an idle flood the best-effort reader keeps %.0f%% of its %.0f IOPS "
            "alone, with %s total IOPS beside the best-effort flood%s."
            % (f_ms(rt), f_ms(be), idle, 100 * by_idle / alone, alone, f_iops(tot),
               "" if tot_none is None else " against none's %s" % f_iops(tot_none))))
    return "".join(out)


def wake_batch_table(res):
    """The wake batch before and after idle-class I/O, or ""."""
    rows = []
    for s in ("kyber", "mq-deadline"):
        for nr in WAKE_NRS:
            for state, label in (("fresh", "fresh, no idle-class I/O yet"),
                                 ("idle", "after an idle-class writer")):
                def v(m):
                    return res.values("series", "prio", s, "nr%d-%s" % (nr, state), m)
                if not v("tags_wake_batch"):
                    continue
                rows.append([sched_label("series", s), str(nr), label] +
                            [same_or_spread(v("tags_" + m)) for m in
                             ("depth", "min_shallow_depth", "wake_batch")])
    if not rows:
        return ""
    out = ["**Wake batch** of the scheduler tags (hardware queue 0), median (min–max):\n\n",
           table(["scheduler", "nr_requests", "state", "tags (unreserved)", "min_shallow_depth",
                  "wake_batch"], rows) + "\n"]

    def wb(s, nr, state):
        return med(res.values("series", "prio", s, "nr%d-%s" % (nr, state), "tags_wake_batch"))
    parts = []
    for nr in WAKE_NRS:
        f, i = wb("kyber", nr, "fresh"), wb("kyber", nr, "idle")
        if f is None or i is None:
            continue
        df, di = wb("mq-deadline", nr, "fresh"), wb("mq-deadline", nr, "idle")
        dd = "" if df is None or di is None else " (mq-deadline: %.0f and %.0f)" % (df, di)
        if parts:
            parts.append("at %d, %.0f and %.0f%s" % (nr, f, i, dd))
        else:
            parts.append("at `nr_requests` %d it is %.0f on a fresh Kyber and %.0f once an "
                         "idle-class task took tags%s" % (nr, f, i, dd))
    if parts:
        out.append(para("The scheduler tags' wake batch: %s." % "; ".join(parts)))
    return "".join(out)


def same_or_spread(vals):
    """A figure that repetitions should agree on: one value when they do."""
    if vals and min(vals) == max(vals):
        return "%.0f" % vals[0]
    return spread(vals, lambda x: "%.0f" % x)


DEVICES_TEXT = """\
## 6. Device classes

**What.** Kyber is chosen for devices nobody has tuned it for, so it runs
here with **default settings**: Kyber's default targets (`read_lat_nsec`
2 ms, `write_lat_nsec` 10 ms), the default `nr_requests`, no sysfs
tuning; beside none, mq-deadline and BFQ, in turn within each
repetition, on both kernels.  Three null_blk classes (configfs, timer
completion `irqmode=2`, not memory backed), 1 s ramp then 10 s measured,
real time, 2 vCPUs:

- **slow**: one hardware queue of 2 tags, 5 ms per request (400 IOPS):
  slower per request than the read target, so no depth brings read
  latency under it and throttling can only leave the device idle.  A QD1
  `psync` `O_DIRECT` 4 KiB random reader beside an `O_DIRECT` 4 KiB
  random write flood of 8 `libaio` jobs at QD 8.
- **multiqueue**: 2 hardware queues of 1 tag each, 1 ms per request (as
  NVMe, few tags per queue): a QD 16 `libaio` 4 KiB random read flood
  pinned to a CPU of hardware queue 0 and the QD1 reader pinned to a CPU
  of queue 1.  Under none the reader never waits for the flood; Kyber's
  tokens are device-wide while driver tags are per queue, so a busy
  queue must not hold the tokens the idle one needs.
- **saturated**: one hardware queue of 2 tags, 1 ms per request
  (2000 IOPS), the write flood and reader of *slow*.

The kselftests `block/kyber/slow_device.sh` and `multi_queue.sh` check
the *slow* and *multiqueue* setups, with bounds, on the series kernel
alone; `latency.sh` checks *saturated*'s flood and reader on a slower
device, 2 tags at 4 ms, with `read_lat_nsec` at 8 ms, here the default
(`Documentation/testing.md`, "The same setups in `make bench`", says
which bounds and why).  Read latency is the reader's
completion latency (clat) in ms; total IOPS are the reader's and the
flood's; "total / none" is per repetition against none in the same
boot.  Kyber's token pools are the sizes of its read and write pools
(debugfs `sched/read_tokens`, `write_tokens`) when the run ended.
Wall-clock under TCG: the spread of the repetitions says how much noise
there is.

"""

DEV_TITLE = {
    "slow": "Slow device (2 tags, 5 ms per request), QD1 reader beside the write flood",
    "multiqueue": "Multiqueue device (2 queues of 1 tag, 1 ms), QD1 reader on queue 1 "
                  "beside the read flood on queue 0",
    "saturated": "Saturated device (2 tags, 1 ms per request), QD1 reader beside the write flood",
}


def devices_section(res):
    out = [DEVICES_TEXT]
    rows = []
    for k in KERNELS:
        if not res.has(k, "devices"):
            continue
        for cls in DEV_CLASSES:
            kind = "read" if cls == "multiqueue" else "write"
            fast = res.values(k, "devices", "none", "fast-%s-alone" % kind, "flood_iops")
            alone = res.values(k, "devices", "none", "%s-alone" % cls, "flood_iops")
            cap = dev_fact(res, "%s-capacity-iops" % cls)
            try:
                c = float(cap)
                ok = bool(fast and alone and med(fast) >= 3 * c and med(alone) >= 0.6 * c)
                sat = "yes" if ok else "**no**"
                if alone:
                    sat += " (%.0f%% of capacity)" % (100 * med(alone) / c)
            except (TypeError, ValueError):
                sat, cap = "n/a", "n/a"
            rows.append([KLABEL[k], cls, "%s flood" % kind, spread(fast, f_iops), cap,
                         spread(alone, f_iops), sat])
    if rows:
        out.append("**Saturation check** (each flood alone under none; capacity: what the\n"
                   "flood's hardware queue completes at most; saturated when the VM\n"
                   "submits at least 3× the capacity to an instant null_blk and the flood\n"
                   "reaches 60% of it on the device):\n\n")
        out.append(table(["kernel", "class", "flood", "instant null_blk IOPS", "capacity IOPS",
                          "this device IOPS", "saturated"], rows) + "\n")
    for cls in DEV_CLASSES:
        rows = []
        for k in KERNELS:
            for s in DEV_SCHEDS:
                def v(m):
                    return res.values(k, "devices", s, cls, m)
                if not v("read_p99"):
                    continue
                tokens = "–"
                if s == "kyber" and v("read_tokens"):
                    tokens = "read %s, write %s" % (spread(v("read_tokens"), lambda x: "%.0f" % x),
                                                    spread(v("write_tokens"), lambda x: "%.0f" % x))
                    far = v("read_out_of_reach")
                    if far and any(far):
                        tokens += "; read target out of reach (%d of %d)" % (sum(far), len(far))
                rows.append([KLABEL[k], sched_label(k, s), spread(v("read_p50"), f_ms),
                             spread(v("read_p99"), f_ms), spread(v("read_iops"), f_iops),
                             spread(v("flood_iops"), f_iops), spread(v("total_iops"), f_iops),
                             spread(res.ratios(k, "devices", s, cls, "total_iops"), f_ratio),
                             tokens])
        if rows:
            out.append("**%s**, median (min–max):\n\n" % DEV_TITLE[cls])
            out.append(table(["kernel", "scheduler", "read p50 ms", "read p99 ms", "read IOPS",
                              "flood IOPS", "total IOPS", "total / none",
                              "Kyber's token pools at the end"], rows) + "\n")
    return "".join(out) if len(out) > 1 else DEVICES_TEXT + NOT_RUN


SLOWDEV_TEXT = """\
## 8. Slow devices of several shapes

**What.** Section 6's *slow* device is one shape; users have others.
Each point here is a null_blk of one hardware queue (configfs, timer
completion `irqmode=2`, not memory backed) that takes longer per
request than Kyber's default read target (2 ms), so that no depth brings
read latency under the target and throttling can only leave the device
idle.  Beside an `O_DIRECT` random write flood, section 6's QD1 `psync`
4 KiB random reader.  The centre point is 8 tags, 5 ms per request, the
flood one `io_uring` job at QD 64 writing 16 KiB; each other point
changes one factor: the tag count (2, 4, 32), the write size (4 KiB,
128 KiB; null_blk splits 128 KiB in two requests), the writer (16
`psync` jobs, `libaio` at QD 64, `io_uring` at QD 8, as many as the
tags), the time per request (2.5 ms, just above the target; 20 ms).
Default settings, each scheduler in turn within each repetition, 1 s
ramp then 8 s, real time, 2 vCPUs.  BFQ runs on the series kernel only
(it is the same code in both).  Total IOPS are the reader's and the
flood's, relative to none in the same boot per repetition; read p99 is
the reader's completion latency in ms.  The kselftest
`block/kyber/slow_device.sh` checks two of these points, *tags32* and
*lat2.5ms*, on medians of three runs, beside its own (2 tags, 5 ms,
4 KiB writes).

"""


def slowdev_section(res):
    points = slow_points(res)
    if not points:
        return SLOWDEV_TEXT + NOT_RUN
    rows = []
    for name, f in points.items():
        def m(k, s, metric):
            return med(res.values(k, "slowdev", s, name, metric))

        def ratio(k, s):
            return spread(res.ratios(k, "slowdev", s, name, "total_iops"), f_ratio)

        def p99(k, s):
            v = m(k, s, "read_p99")
            return "n/a" if v is None else f_ms(v)
        writer = "%s %s×QD%s" % (f.get("bs", "?"), f.get("numjobs", "?"), f.get("iodepth", "?"))
        writer = "%s, %s" % (writer, f.get("engine", "?"))
        tokens = res.values("series", "slowdev", "kyber", name, "write_tokens")
        none_total = m("series", "none", "total_iops")
        rows.append([name, f.get("tags", "?"), f_ms(float(f.get("nsec", "nan"))), writer,
                     "n/a" if none_total is None else f_iops(none_total),
                     ratio("series", "kyber"), ratio("series", "bfq"), ratio("upstream", "kyber"),
                     p99("series", "none"), p99("series", "kyber"), p99("series", "bfq"),
                     "%s (none %s)" % (p99("upstream", "kyber"), p99("upstream", "none")),
                     spread(tokens, lambda x: "%.0f" % x)])
    return (SLOWDEV_TEXT + "Medians; total / none also min–max of the repetitions:\n\n" +
            table(["point", "tags", "ms per request", "write flood", "none: total IOPS",
                   "**Kyber**: total / none", "BFQ: total / none",
                   "upstream Kyber: total / none", "none: read p99 ms",
                   "**Kyber**: read p99 ms", "BFQ: read p99 ms",
                   "upstream Kyber: read p99 ms", "Kyber's write tokens at the end"],
                  rows) + "\n" + slow_low_runs(res, points))


def slow_low_runs(res, points):
    """The single runs of this series' Kyber below the target, said one by one."""
    low, runs = [], 0
    for name in points:
        ky = res.figs.get(("series", "slowdev", "kyber", name, "total_iops"), {})
        no = res.figs.get(("series", "slowdev", "none", name, "total_iops"), {})
        tokens = res.figs.get(("series", "slowdev", "kyber", name, "write_tokens"), {})
        for rep in sorted(r for r in ky if no.get(r)):
            r = ky[rep] / no[rep]
            runs += 1
            if r < TARGET_SLOW_TOTAL:
                low.append("%s, repetition %d: %.3f×%s" % (
                    name, rep, r, " (write tokens %.0f at the end)" % tokens[rep]
                    if rep in tokens else ""))
    if not runs:
        return ""
    if not low:
        return para("Every single run of this series' Kyber kept at least %.2f× none's "
                    "total IOPS (%d runs)." % (TARGET_SLOW_TOTAL, runs))
    return para("Single runs of this series' Kyber below %.2f× none's total IOPS, %d of "
                "%d: %s." % (TARGET_SLOW_TOTAL, len(low), runs, "; ".join(low)))


FS_TEXT = """\
## 7. A file system: fsync'd commits beside writeback

**What.** Users run file systems, not fio on a raw device.  ext4 on a
null_blk of one hardware queue of 32 tags that completes each request
after 5 ms and takes at most 4 KiB per request (`max_sectors` 8), so
that buffered writeback keeps it busy; memory backed, 512 MiB.  A
buffered writer (fio, `psync`, 1 MiB writes looping over a 320 MiB
file, more than the VM's dirty limits) runs for 2 s, then beside it for
10 s `fsync_commit` (of the kselftests) commits as a database in
rollback-journal mode with full synchronisation does: a journal file
written and fsync'd, a page of the database written and fsync'd, the
journal deleted; and a reader `cat`s 300 files of 16 KiB after the page
cache was dropped.  Default settings (Kyber's targets, `nr_requests`),
once with writeback throttling (WBT) as the kernel sets it
(`wbt_lat_usec` 2000 on this non-rotational disk; BFQ turns it off by
itself) and once with it off (0), where what waits in the scheduler is
the scheduler's to order.  Each scheduler in turn within each
repetition, on both kernels, real time, 2 vCPUs.  Commits per second
and their p50/p99/longest (ms); the cold read's time (s); the device's
writes (MB/s, from `/sys/block/*/stat`) while the commits ran.  The
kselftest `block/kyber/fs_commit.sh` checks the same setup against
none, with bounds.

"""


def fs_section(res):
    out = [FS_TEXT]
    for param, what in FS_WBT:
        rows = []
        for k in KERNELS:
            for s in FS_SCHEDS:
                def v(m):
                    return res.values(k, "fs", s, param, m)
                if not v("commits_s"):
                    continue
                rows.append([KLABEL[k], sched_label(k, s),
                             spread(v("commits_s"), lambda x: "%.1f" % x),
                             spread(v("commit_p50"), f_ms), spread(v("commit_p99"), f_ms),
                             spread(v("commit_max"), f_ms),
                             spread(v("read_ns"), lambda x: "%.2f" % (x / 1e9)),
                             spread(v("write_mbs"), lambda x: "%.1f" % x),
                             spread(res.ratios(k, "fs", s, param, "commits_s"), f_ratio),
                             spread(res.ratios(k, "fs", s, param, "write_mbs"), f_ratio)])
        if rows:
            out.append("**%s%s**, median (min–max):\n\n" % (what[0].upper(), what[1:]))
            out.append(table(["kernel", "scheduler", "commits/s", "commit p50 ms",
                              "commit p99 ms", "longest commit ms", "cold read s",
                              "device writes MB/s", "commits / none", "writes / none"],
                             rows) + "\n")
    return "".join(out) if len(out) > 1 else FS_TEXT + NOT_RUN


JOB_FACTS = ("null_blk", "null_blk-cost", "vm-dirty", "kyber-nr_requests", "noprio-source",
             "multiqueue-cpus", "null_blk-2q", "2q-cpus", "2q-kyber-nr_requests",
             "2q-none-nr_requests", "wake-mq-deadline", "null_blk-fs", "fs-commit",
             "null_blk-slowdev") + tuple("null_blk-" + c for c in DEV_CLASSES) + \
    tuple(c + "-kyber" for c in DEV_CLASSES)


def jobs_section(res):
    out = ["## fio jobs and devices\n\nAs the VM ran them (`scripts/bench-vm.sh`):\n\n"]
    for part in PARTS:
        names = {}     # text -> the names it was used under
        for (k, p, name), v in sorted(res.facts.items()):
            if p == part and (name.startswith(("fio-", "fs-")) or name in JOB_FACTS):
                names.setdefault(v, [])
                if name.replace("fio-", "") not in names[v]:
                    names[v].append(name.replace("fio-", ""))
        for v, used in names.items():
            out.append("- %s, %s: `%s`\n" % (part, ", ".join(used), v))
    return "".join(out) + "\n"


HOWTO = """\
# Benchmarks

Measured, not claimed.  This page is written by `make bench`
(`scripts/bench.sh`) from the figures of one run; do not edit it by hand
(its fixed text is in `scripts/bench-report.py`).

## How to run it

    make bench                          # builds (incremental), 3 repetitions, this page
    scripts/bench.sh -B -r 1 -p cost    # development: no builds, one part, once
    scripts/bench.sh -B -a -p devices   # one part again, the others' figures kept
    scripts/bench-report.py build/bench/results.tsv   # this page again from the figures

`make bench` builds three configurations of two kernels: the series
kernel (Kyber=m, from `build/linux`) and a kernel of the base release,
Debian's 6.12.y with its own Kyber (from a worktree `build/upstream` at
the tag the base tree starts from; in it "Kyber" is upstream Kyber).
The lean VM kernel (`build/obj-m`, `build/obj-upstream`), the
production-config kernel (`scripts/build.sh -D`: `build/obj-distro`,
`build/obj-distro-upstream`) and the lock-statistics kernel
(the lean one with `CONFIG_LOCK_STAT`, `scripts/build.sh -L`: `build/obj-lockstat`,
`build/obj-lockstat-upstream`); and the floor elevator against each,
and the series' Kyber without priority support against the series
kernels.  Then each part boots each kernel in the test VM
(`selftests/vm-run.sh`, every VM in its own `build/vm-bench-*`) and
runs `scripts/bench-vm.sh` inside.  It never fails on a number, only
when a build, a VM or a tool fails.  The latency and devices parts run
in real time and take the longest; the time of each part in this run is
below.  Options of `scripts/bench.sh`:
`-p cost,prodcost,latency,scaling,contention,prio,devices,slowdev,fs` picks parts
(cost: lean kernel, prodcost: production config, scaling: production
config, contention: lock statistics), `-r N` repetitions,
`-k series,upstream` kernels, `-B` skips the builds, `-a` keeps the
figures of parts not run now, `-d DIR` writes the page elsewhere.

"""


# ---- the plot -------------------------------------------------------------

def write_plot(res, png):
    tmp = tempfile.mkdtemp(prefix="bench-plot.")

    def dat(name, rows):
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            for r in rows:
                f.write(" ".join(r) + "\n")
        return path

    def trio(vals, scale=1.0):
        if not vals:
            return ["NaN"] * 3
        return ["%g" % (x * scale) for x in (med(vals), min(vals), max(vals))]

    have = {part: any(res.has(k, part) for k in KERNELS) for part in PARTS}
    cpart = "prodcost" if have["prodcost"] else "cost"
    cost = dat("cost.dat", [['"%s"' % s] + trio(res.ratios("series", cpart, s, "qd32"))
                            + trio(res.ratios("upstream", cpart, s, "qd32"))
                            for s in SCHEDS if s != "none"])
    lat = dat("lat.dat", [['"%s"' % s]
                          + trio(res.values("series", "latency", s, "direct", "read_p99"), 1e-6)
                          + trio(res.values("upstream", "latency", s, "direct", "read_p99"), 1e-6)
                          for s in ("none", "kyber", "mq-deadline", "bfq")])
    scal = dat("scaling.dat", [['"%s"' % s] + trio(res.ratios("series", "scaling", s, "cpus2"))
                               + trio(res.ratios("upstream", "scaling", s, "cpus2"))
                               for s in SCALE_SCHEDS if s != "none"])
    target = float(res.fact("series", "latency", "kyber-read_lat_nsec", DEFAULT_READ_LAT)) / 1e6
    up = "upstream " + res.fact("upstream", "all", "source", "").split(" ")[0]
    prio = dat("prio.dat", [['"%s"' % label]
                            + trio(res.values("series", "prio", "kyber", param, "read_p99"), 1e-6)
                            for param, label in PRIO_PLOT])
    empty = """\
set label 1 "not measured" at graph 0.5, graph 0.5 center
set xrange [0:1]
set yrange [0:1]
plot NaN notitle
unset label 1
set xrange [*:*]
"""
    gp = """\
set terminal pngcairo noenhanced size 1500,1040 font "sans,10"
set output "{png}"
set datafile missing "NaN"
set multiplot layout 2,2
set style data histogram
set style histogram errorbars gap 2 lw 1
set style fill solid 0.7 border -1
set grid ytics
set key top right
set title "CPU cost: icount IOPS / none (QD 32, 1 vCPU, {config})\\nhigher is cheaper; bars: median, whiskers: min-max"
set yrange [0:1.05]
set ytics 0.1
""".format(png=png, config=CONFIG[cpart])
    gp += empty if not have[cpart] else """\
plot "{cost}" using 2:3:4:xtic(1) title "this series" lc rgb "#1f77b4", \\
     "" using 5:6:7 title "{up}" lc rgb "#ff7f0e"
""".format(cost=cost, up=up)
    gp += """\
set title "Read p99 beside a direct write flood\\nsaturated null_blk (2 tags, 1 ms), log scale"
set ytics auto
set ylabel "ms"
"""
    gp += empty if not have["latency"] else """\
set logscale y
set yrange [1:*]
plot "{lat}" using 2:3:4:xtic(1) title "this series" lc rgb "#1f77b4", \\
     "" using 5:6:7 title "{up}" lc rgb "#ff7f0e", \\
     {limit} with lines dt 2 lc rgb "black" title "{factor}x read_lat_nsec"
unset logscale y
""".format(lat=lat, up=up, limit=TARGET_P99 * target, factor=TARGET_P99)
    gp += """\
unset ylabel
set title "Scaling: real-time IOPS / none, 2 vCPUs (MTTCG), one hardware queue\\n2 fio jobs of QD 32, production config; whiskers: min-max"
set ytics 0.1
set key top right
"""
    gp += empty if not have["scaling"] else """\
set yrange [0:*]
set offsets 0, 0, 0.3, 0
plot "{scal}" using 2:3:4:xtic(1) title "this series" lc rgb "#1f77b4", \\
     "" using 5:6:7 title "{up}" lc rgb "#ff7f0e", \\
     {target} with lines dt 2 lc rgb "black" title "target for Kyber: {target}x none"
unset offsets
""".format(scal=scal, up=up, target=TARGET_RATIO)
    gp += """\
set title "I/O priorities: QD1 reader's p99 under the series' Kyber, log scale\\nalone; beside a QD 64 flood (BE or idle); as BE or RT beside a QD 8 BE reader"
set ylabel "ms"
set ytics auto
unset key
"""
    gp += empty if not have["prio"] else """\
set logscale y
set yrange [*:*]
plot "{prio}" using 2:3:4:xtic(1) notitle lc rgb "#1f77b4"
unset logscale y
""".format(prio=prio)
    gp += "unset multiplot\n"
    script = os.path.join(tmp, "plot.gp")
    with open(script, "w") as f:
        f.write(gp)
    r = subprocess.run(["gnuplot", script], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("gnuplot failed (%s):\n%s" % (script, r.stderr))
    for name in os.listdir(tmp):
        os.unlink(os.path.join(tmp, name))
    os.rmdir(tmp)


def main():
    ap = argparse.ArgumentParser(
        usage="%(prog)s [-n] [-o DIR] RESULTS.TSV",
        description="Write benchmarks.md and benchmarks.png (to DIR, default "
                    "Documentation/ of this project) from the figures of scripts/bench.sh.")
    ap.add_argument("tsv", help="build/bench/results.tsv")
    ap.add_argument("-o", dest="dir", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "Documentation"))
    ap.add_argument("-n", dest="plot", action="store_false",
                    help="write the page only, not the plot (no gnuplot needed)")
    args = ap.parse_args()
    res = Results(args.tsv)
    os.makedirs(args.dir, exist_ok=True)
    if args.plot:
        write_plot(res, os.path.join(args.dir, "benchmarks.png"))
    page = (HOWTO + header(res, args.tsv) + "\n" + targets(res) + "\n" +
            "![cost, read p99 under a write flood, scaling, I/O priorities](benchmarks.png)\n\n" +
            cost_section(res) + latency_section(res) + scaling_section(res) +
            contention_section(res) + prio_section(res) + devices_section(res) +
            fs_section(res) + slowdev_section(res) + jobs_section(res))
    with open(os.path.join(args.dir, "benchmarks.md"), "w") as f:
        f.write(page)


if __name__ == "__main__":
    main()
