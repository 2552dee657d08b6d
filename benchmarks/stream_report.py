#!/usr/bin/env python3
"""The ratios of StreamSuite runs (one stream over secio alone, 64 streams over one), from its JSON lines.

    python3 benchmarks/stream_report.py OUT.jsonl [OUT2.jsonl ...]

For each file: MiB/s and CPU seconds per GiB of every kind of run (medians, and each run's MiB/s in
round order), then the ratios the targets name, per round and as the median of the per-round ratios:
one stream / secio alone and 64 streams / one stream, and the 64 streams with TCP_NOTSENT_LOWAT left
at the kernel's / one stream, where the suite ran them.
"""
import json
import statistics
import sys


def kind(run):
    """secio, one, many, or many-kernel-lowat (the muxer's TCP_NOTSENT_LOWAT set to 0: left alone)."""
    if "+" not in run["stack"]:
        return "secio"
    if run["streams"] == 1:
        return "one"
    return "many" if run.get("notSentLowWater", 1) != 0 else "many, kernel's TCP_NOTSENT_LOWAT"


def gib(run):
    per = run.get("bytesPerStream", run.get("bytesPerConnection"))
    return per * run.get("streams", run.get("connections", 1)) / 2**30


def report(path):
    runs = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    by_kind, by_round = {}, {}
    for r in runs:
        by_kind.setdefault(kind(r), []).append(r)
        by_round.setdefault(r["round"], {})[kind(r)] = r["mibPerSecond"]
    stacks = sorted({r["stack"] for r in runs if "+" in r["stack"]})
    print(f"== {path}: {', '.join(stacks)}, {len(by_round)} rounds")
    for k, rs in by_kind.items():
        rs = sorted(rs, key=lambda r: r["round"])
        print(f"{k:34s} MiB/s median {statistics.median(r['mibPerSecond'] for r in rs):7.1f} "
              f"({', '.join('%.0f' % r['mibPerSecond'] for r in rs)}); "
              f"CPU s per GiB median {statistics.median(r['cpuSeconds'] / gib(r) for r in rs):.2f}")
    for a, b, goal in (("one", "secio", 0.90), ("many", "one", 0.90),
                       ("many, kernel's TCP_NOTSENT_LOWAT", "one", None)):
        ratios = [v[a] / v[b] for _, v in sorted(by_round.items()) if a in v and b in v]
        if ratios:
            target = f", target >= {goal:.2f}" if goal else ""
            print(f"{a} / {b}: median {statistics.median(ratios):.2f} "
                  f"(per round {', '.join(f'{x:.2f}' for x in ratios)}){target}")


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        report(arg)
