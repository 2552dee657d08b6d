#!/usr/bin/env python3
"""Turns the JMH JSON of benchmarks/run.sh into results.md (tables and target ratios) and chart.svg.

Usage: report.py RESULTS_DIR  (reads latest.json, idle.json, echo.jsonl, handshakes.jsonl and machine.json there; standard
library only)
"""
import json
import os
import sys

MIB = 1024 * 1024
AEADS = ["AES_128_GCM", "AES_256_GCM", "CHACHA20_POLY1305"]
CIPHERS = AEADS + ["AES_128_CTR", "AES_256_CTR"]
BACKENDS = ["conscrypt", "jdk", "bouncycastle"]
SIZES = ["1024", "16384", "1048576"]
SIZE_NAMES = {"1024": "1 KiB", "16384": "16 KiB", "1048576": "1 MiB", "10240": "10 KiB", "10485760": "10 MiB"}
STACKS = ["PLAIN", "TLS13_AES_128_GCM", "TLS13_CHACHA20_POLY1305", "SECIO_AES_128_GCM",
          "SECIO_AES_256_GCM", "SECIO_CHACHA20_POLY1305", "SECIO_AES_128_CTR", "SECIO_AES_256_CTR"]
HANDSHAKES = ["P_256:ED25519", "P_256:SECP256K1", "X25519:ED25519", "X25519:SECP256K1"]
# CTR ciphers are measured with HMAC-SHA256, as secio v0.1 frames use them.
LABEL = {c: c.replace("_CTR", "_CTR+HMAC_SHA256") for c in CIPHERS}


def load(results_dir):
    """Every result of latest.json by benchmark and parameters; a later run of the same replaces it."""
    runs = json.load(open(os.path.join(results_dir, "latest.json")))
    out = {}
    for r in runs:
        cls, method = r["benchmark"].split(".")[-2:]
        key = (cls, method) + tuple(sorted(r["params"].items())) if r.get("params") else (cls, method)
        out[key] = r["primaryMetric"]
    return out


def get(res, cls, method, **params):
    return res.get((cls, method) + tuple(sorted(params.items())))


def score(res, cls, method, **params):
    m = get(res, cls, method, **params)
    return None if m is None else m["score"]


def messages_per_op(size):
    return max(1, MIB // size)  # StreamBenchmark.messagesPerOp


def mb(bytes_per_second):
    return None if bytes_per_second is None else bytes_per_second / 1e6


def fmt(x, digits=0):
    if x is None:
        return "–"
    return f"{x:,.{digits}f}"


def ratio_cell(value, goal, higher_is_better=True):
    if value is None:
        return "–", "not measured"
    ok = value >= goal if higher_is_better else value <= goal
    if ok:
        return f"{value:.2f}", "met"
    gap = (goal - value) / goal if higher_is_better else (value - goal) / goal
    return f"{value:.2f}", f"**missed** by {gap * 100:.0f}%"


def primitive_mbps(res, backend, cipher, size):
    s = score(res, "PrimitiveBenchmark", "sealOpen", backend=backend, cipher=cipher, size=size)
    return None if s is None else mb(s * int(size))


def best_primitive(res, cipher, size):
    values = [(primitive_mbps(res, b, cipher, size), b) for b in BACKENDS]
    values = [v for v in values if v[0] is not None]
    return max(values) if values else (None, None)


def frame_mbps(res, cipher, size):
    s = score(res, "FrameBenchmark", "sealOpen", backend="auto", cipher=cipher, size=size)
    return None if s is None else mb(s * int(size))


def stream_mbps(res, stack, size):
    s = score(res, "StreamBenchmark", "send", stack=stack, size=size, frame="65536")
    return None if s is None else mb(s * int(size) * messages_per_op(int(size)))


def div(a, b):
    return None if a is None or b is None or b == 0 else a / b


def median(values):
    v = sorted(values)
    n = len(v)
    return None if n == 0 else (v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2)


# What each echo target compares: secio stack, the TLS 1.3 stack it is held against, the goal.
ECHO_TARGETS = [("SECIO_AES_128_GCM", "TLS13_AES_128_GCM", 1.15),
                ("SECIO_CHACHA20_POLY1305", "TLS13_CHACHA20_POLY1305", 1.15),
                ("SECIO_AES_128_CTR", "TLS13_AES_128_GCM", 0.5),
                ("SECIO_AES_256_CTR", "TLS13_AES_128_GCM", 0.5)]


def echo_ratios(runs, a, b, key):
    """key(a's run) / key(b's run) for every round where both ran."""
    by_round = {}
    for r in runs:
        by_round.setdefault(r["round"], {})[r["stack"]] = r
    return [key(rs[a]) / key(rs[b]) for rs in by_round.values() if a in rs and b in rs]


def spread(values, digits=2):
    return "–" if not values else f"{min(values):.{digits}f}–{max(values):.{digits}f}"


def echo_tables(echo, add, targets):
    """The echo program of EchoSuite: one connection, and many at once."""
    one = [r for r in echo if r["connections"] == 1]
    many = [r for r in echo if r["connections"] > 1]
    throughput = lambda r: r["mibPerSecond"]
    # CPU per byte, inverted so that higher is better like throughput: payload MiB per CPU second.
    efficiency = lambda r: r["bytesPerConnection"] * r["connections"] / 2**20 / r["cpuSeconds"]
    for runs, title in ((one, "one connection, one event loop thread per side"),
                        (many, "many connections at once, Netty's default event loop count per side")):
        if not runs:
            continue
        rounds = len({r["round"] for r in runs})
        size = runs[0]["bytesPerConnection"]
        conns = runs[0]["connections"]
        add(f"## Echo, {title}\n")
        add(f"`EchoSuite`: {conns} connection{'s' if conns > 1 else ''} of {size / 2**20:,.0f} MiB each, "
            f"{rounds} interleaved rounds, each run in its own JVM after at least 8 s of untimed echo (a quarter of the bytes at a "
            "time) for the JIT. "
            "MiB/s of payload echoed (all connections together); MiB per CPU second is the echoed payload "
            "over the process's CPU time (both ends), steadier than the wall clock on a loaded machine. "
            "Load averages are those before each run.\n")
        add("| stack | MiB/s median | MiB/s min–max | MiB per CPU s, median | load before (1 min), min–max |")
        add("|---|---:|---:|---:|---:|")
        stacks = [st for st in STACKS if any(r["stack"] == st for r in runs)]
        for st in stacks:
            rs = [r for r in runs if r["stack"] == st]
            tp = [throughput(r) for r in rs]
            loads = [float(r["loadBefore"].split()[0]) for r in rs]
            add(f"| {st} | {fmt(median(tp))} | {fmt(min(tp))}–{fmt(max(tp))} | "
                f"{fmt(median([efficiency(r) for r in rs]))} | {spread(loads, 1)} |")
        add("")
        add("| ratio (same round) | throughput, median | throughput, min–max | per CPU second, median | per CPU second, min–max |")
        add("|---|---:|---:|---:|---:|")
        pairs = [(st, "PLAIN") for st in stacks if st != "PLAIN"]
        if conns == 1:
            pairs += [(a, b) for a, b, _ in ECHO_TARGETS]
        else:
            pairs += [("SECIO_AES_128_GCM", "TLS13_AES_128_GCM")]
        for a, b in pairs:
            t = echo_ratios(runs, a, b, throughput)
            e = echo_ratios(runs, a, b, efficiency)
            if t:
                add(f"| {a} / {b} | {fmt(median(t), 2)} | {spread(t)} | {fmt(median(e), 2)} | {spread(e)} |")
        add("")
        if conns == 1:
            for a, b, goal in ECHO_TARGETS:
                t = echo_ratios(runs, a, b, throughput)
                targets.append((f"echo {size / 2**20:,.0f} MiB, median of {len(t)} rounds: {a} / {b}",
                                median(t), goal, True))


def handshake_round_tables(rounds, add, targets):
    """HandshakeRounds: 8 in flight, every kind in every round; secio over TLS 1.3 within a round."""
    if not rounds:
        return
    kinds = list(dict.fromkeys(r["kind"] for r in rounds))
    n = len({r["round"] for r in rounds})
    add("## Handshakes with 8 in flight, interleaved with TLS 1.3\n")
    add(f"`HandshakeRounds`: {n} rounds, each kind a slot of a few seconds per round in one JVM after a "
        "warm-up; CPU µs per handshake is the process's CPU time (both ends) over the handshakes. "
        "`peers=1`: the node meets the same client again and again (its Ed25519 key is checked once and "
        "remembered); `peers=2048`: more clients than the 1,024 keys a node remembers, so every "
        "handshake decodes and checks the client's key.\n")
    add("| kind | per second, median | min–max | CPU µs per handshake, median | / TLS 1.3 per second, median (min–max) | TLS 1.3 CPU / this CPU, median |")
    add("|---|---:|---:|---:|---:|---:|")
    by_round = {}
    for r in rounds:
        by_round.setdefault(r["round"], {})[r["kind"]] = r
    for k in kinds:
        rs = [r for r in rounds if r["kind"] == k]
        ps = [r["perSecond"] for r in rs]
        ratio = [b[k]["perSecond"] / b["TLS13"]["perSecond"] for b in by_round.values() if k in b and "TLS13" in b]
        cpu = [b["TLS13"]["cpuMicrosPerHandshake"] / b[k]["cpuMicrosPerHandshake"]
               for b in by_round.values() if k in b and "TLS13" in b]
        add(f"| {k} | {fmt(median(ps))} | {fmt(min(ps))}–{fmt(max(ps))} | "
            f"{fmt(median([r['cpuMicrosPerHandshake'] for r in rs]))} | "
            + ("" if k == "TLS13" else f"{fmt(median(ratio), 2)} ({spread(ratio)})") + " | "
            + ("" if k == "TLS13" else fmt(median(cpu), 2)) + " |")
        if k != "TLS13":
            targets.append((f"handshakes/s with 8 in flight, secio {k} / TLS 1.3, median of {len(ratio)} "
                            "interleaved rounds", median(ratio), 1.3, True))
    add("")


def tables(res, idle, machine, echo=(), handshake_rounds=()):
    md = []
    add = md.append
    add("# secio benchmark results\n")
    add(f"Machine: {machine['cpu']}, {machine['nproc']} cores; {machine['jdk']}; "
        f"load average {machine['load_before']} before, {machine['load_after']} after; "
        f"{machine['date']}; suite: `{machine['suite']}` ({machine.get('seconds', '?')} s of measuring"
        + (f", {machine['build_seconds']} s of build" if machine.get('build_seconds') else "") + ").\n")
    add("Throughput is MB/s (10^6 bytes) of plaintext; one primitive or frame op seals **and** opens "
        "its bytes, so a stream (where one core seals and the other opens) can reach up to twice it.\n")

    targets = []

    add("## Raw primitives per backend (seal + open, direct buffers)\n")
    add("| primitive | size | " + " | ".join(BACKENDS) + " | best |")
    add("|---|---|" + "---:|" * len(BACKENDS) + "---|")
    for c in CIPHERS:
        for s in SIZES:
            cells = [fmt(primitive_mbps(res, b, c, s)) for b in BACKENDS]
            best = best_primitive(res, c, s)[1] or "–"
            add(f"| {LABEL[c]} | {SIZE_NAMES[s]} | " + " | ".join(cells) + f" | {best} |")
    add("")

    add("## Frame seal + open through the core codec (`auto` backend)\n")
    add("| cipher | size | frame MB/s | raw best MB/s (backend) | frame / raw best |")
    add("|---|---|---:|---:|---:|")
    for c in CIPHERS:
        for s in SIZES:
            f = frame_mbps(res, c, s)
            b, name = best_primitive(res, c, s)
            add(f"| {LABEL[c]} | {SIZE_NAMES[s]} | {fmt(f)} | {fmt(b)} ({name or '–'}) | {fmt(div(f, b), 2)} |")
            if s == "16384" and c in AEADS:
                targets.append((f"frame seal+open {c} 16 KiB / raw best-backend AEAD", div(f, b), 0.9, True))
    add("")

    add("## The Netty codec without sockets (`auto` backend, AES-128-GCM, 64 KiB frames)\n")
    add("Writes per flush x bytes per write, sealed through one `SecioFrameCodec` and opened through "
        "another (`CodecBenchmark`); heap writes are copied once into the frame and sealed in place.\n")
    add("| pattern | direct writes MB/s | heap writes MB/s |")
    add("|---|---:|---:|")
    for pattern in ["64x1024", "1x1048576"]:
        n, size = (int(x) for x in pattern.split("x"))
        cells = []
        for buf in ["direct", "heap"]:
            sc = score(res, "CodecBenchmark", "writeFlushRead", buffer=buf, cipher="AES_128_GCM",
                       frame="65536", pattern=pattern)
            cells.append(fmt(None if sc is None else mb(sc * n * size)))
        add(f"| {n} x {SIZE_NAMES.get(str(size), str(size) + ' B')} | " + " | ".join(cells) + " |")
    add("")

    add("## End to end over loopback TCP, one connection\n")
    add("Ping-pong: a 10 KiB message to an echo server and back. *Back to back* is 100 round trips in a "
        "row inside the client's event loop, the mean per round trip (`PingPongBenchmark.backToBack`); "
        "*sampled* is one round trip per op from the benchmark thread (`roundTrip`), which adds a "
        "thread wake-up to each and is measured for a few stacks only, for its percentiles.\n")
    add("| stack | 10 KiB messages MB/s | 10 MiB messages MB/s | 10 MiB vs plaintext | ping-pong back to back µs | vs plaintext | sampled mean µs | p50 µs | p99 µs |")
    add("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    plain_large = stream_mbps(res, "PLAIN", "10485760")
    plain_rtt = score(res, "PingPongBenchmark", "backToBack", stack="PLAIN", size="10240", eventLoops="2")
    for st in STACKS:
        small, large = stream_mbps(res, st, "10240"), stream_mbps(res, st, "10485760")
        b2b = score(res, "PingPongBenchmark", "backToBack", stack=st, size="10240", eventLoops="2")
        pp = get(res, "PingPongBenchmark", "roundTrip", stack=st, size="10240", eventLoops="2")
        mean = pp["score"] if pp else None
        p50 = pp["scorePercentiles"].get("50.0") if pp else None
        p99 = pp["scorePercentiles"].get("99.0") if pp else None
        add(f"| {st} | {fmt(small)} | {fmt(large)} | {fmt(div(large, plain_large), 2)} | {fmt(b2b, 1)} "
            f"| {fmt(div(b2b, plain_rtt), 2)} | {fmt(mean, 1)} | {fmt(p50, 1)} | {fmt(p99, 1)} |")
    add("")
    cpu_rows = []
    for st in STACKS:
        m = get(res, "StreamBenchmark", "send", stack=st, size="10485760", frame="65536")
        sec = (m or {}).get("secondaryMetrics", {})
        if "eventLoopCpuMicros" in sec and sec.get("ops", {}).get("score"):
            cpu_rows.append((st, sec["eventLoopCpuMicros"]["score"] / sec["ops"]["score"] / 1000))
    if cpu_rows:
        plain_cpu = dict(cpu_rows).get("PLAIN")
        add("CPU time of both event loops per 10 MiB message (`StreamBenchmark` secondary result, "
            "user and system time of the two threads): what the stack costs, whatever the scheduler "
            "does with the wall clock.\n")
        add("| stack | CPU ms per 10 MiB | vs plaintext |")
        add("|---|---:|---:|")
        for st, ms in cpu_rows:
            add(f"| {st} | {fmt(ms, 1)} | {fmt(div(ms, plain_cpu), 2)} |")
        add("")
    add("Frame size study, secio AES-128-GCM, 10 MiB messages (the largest plaintext per frame):\n")
    add("| frame | MB/s |")
    add("|---|---:|")
    for frame in ["16384", "65536", "131072"]:
        sc = score(res, "StreamBenchmark", "send", stack="SECIO_AES_128_GCM", size="10485760", frame=frame)
        add(f"| {int(frame) // 1024} KiB{' (default)' if frame == '65536' else ''} | "
            f"{fmt(None if sc is None else mb(sc * 10485760))} |")
    add("")
    secio_gcm = stream_mbps(res, "SECIO_AES_128_GCM", "10485760")
    targets.append(("10 MiB stream: secio AES-128-GCM / plaintext Netty", div(secio_gcm, plain_large), 0.85, True))
    targets.append(("10 MiB stream: secio AES-128-GCM / Netty TLS 1.3 AES-128-GCM",
                    div(secio_gcm, stream_mbps(res, "TLS13_AES_128_GCM", "10485760")), 1.0, True))
    for st, c in [("SECIO_CHACHA20_POLY1305", "CHACHA20_POLY1305"), ("SECIO_AES_128_CTR", "AES_128_CTR"),
                  ("SECIO_AES_256_CTR", "AES_256_CTR")]:
        raw, name = best_primitive(res, c, "1048576")
        targets.append((f"10 MiB stream: secio {LABEL[c]} / raw seal+open at 1 MiB ({name})",
                        div(stream_mbps(res, st, "10485760"), raw), 0.85, True))
    f16 = score(res, "FrameBenchmark", "sealOpen", backend="auto", cipher="AES_128_GCM", size="16384")
    secio_rtt = score(res, "PingPongBenchmark", "backToBack", stack="SECIO_AES_128_GCM", size="10240",
                      eventLoops="2")
    if f16 and plain_rtt and secio_rtt:
        # A round trip seals and opens 10 KiB twice; scale the 16 KiB frame op (seal + open) to 10 KiB.
        crypto_us = 2 * (1e6 / f16) * 10 / 16
        add(f"A secio AES-128-GCM round trip costs {secio_rtt - plain_rtt:.1f} µs more than plaintext; "
            f"its two 10 KiB seal+open passes alone take about {crypto_us:.1f} µs (from the 16 KiB frame "
            f"benchmark), so the crypto floor of the latency ratio is about "
            f"{(plain_rtt + crypto_us) / plain_rtt:.2f}.\n")
    targets.append(("10 KiB ping-pong back to back: secio AES-128-GCM / plaintext (lower is better)",
                    div(secio_rtt, plain_rtt), 1.2, False))

    def one_loop_rtt(st):
        return score(res, "PingPongBenchmark", "backToBack", stack=st, size="10240", eventLoops="1")

    plain_one = one_loop_rtt("PLAIN")
    if plain_one:
        add("Ping-pong back to back with both ends on **one event loop thread** (`-p eventLoops=1`): no "
            "thread ever waits to be woken, so a round trip is exactly both ends' work, one after the "
            "other (two 10 KiB writes, reads, and for secio and TLS two seals and two opens). On this "
            "VM a wake-up costs 50 to 150 µs and varies from run to run, which is what the two-thread "
            "numbers above mostly measure.\n")
        add("| stack | round trip µs | vs plaintext | µs more than plaintext |")
        add("|---|---:|---:|---:|")
        for st in STACKS:
            rtt = one_loop_rtt(st)
            if rtt is not None:
                add(f"| {st} | {fmt(rtt, 1)} | {fmt(div(rtt, plain_one), 2)} | {fmt(rtt - plain_one, 1)} |")
        add("")
        secio_one = one_loop_rtt("SECIO_AES_128_GCM")
        if f16 and secio_one:
            crypto_us = 2 * (1e6 / f16) * 10 / 16
            add(f"Here the two seal+open passes (about {crypto_us:.1f} µs) alone put the floor of the "
                f"ratio at {(plain_one + crypto_us) / plain_one:.2f}.\n")
        targets.append(("10 KiB ping-pong back to back, one event loop: secio AES-128-GCM / plaintext "
                        "(lower is better)", div(secio_one, plain_one), 1.2, False))

    add("## Handshakes\n")

    def hs(method, h):
        return score(res, "HandshakeBenchmark", method, handshake=h)

    plain_parallel = hs("inParallel", "PLAIN")
    plain_us = div(1e6, plain_parallel)
    add("Per-side primitive costs on the default backend (µs): an ephemeral key, the agreement, one "
        "signature and one verification under a key just received (parsed and validated, as a handshake "
        "must), stretching with the frame ciphers' setup. Their sum bounds one "
        "side's CPU; the two sides of a handshake run on the two cores, so `1e6 / sum` handshakes per "
        "second is what the primitives allow. Loopback handshakes are measured one at a time "
        "(`connectHandshakeClose`, mostly round trips and thread wake-ups; the full suite only) and with 8 "
        "in flight "
        "(`inParallel`: both cores busy, the rate a node accepting many peers sees); the target is read "
        "against the latter. Every handshake also pays a TCP connect and close, measured alone with 8 in "
        f"flight at {fmt(plain_parallel)} per second ({fmt(plain_us)} µs of each core): `1e6 / (sum + "
        "connect)` is what the primitives allow on top of the bare connection.\n")
    add("| handshake | generate | agree | sign | verify | stretch | sum µs | primitives allow /s | with the connection /s | in-memory engines µs (both sides) | one at a time /s | 8 in flight /s | 8 in flight / primitives | 8 in flight / with connection |")
    add("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    stretch = score(res, "HandshakeCostBenchmark", "stretchAndKeyCiphers")
    for h in HANDSHAKES:
        ex, ident = h.split(":")
        g = score(res, "HandshakeCostBenchmark", "generateEphemeral", backend="auto", exchange=ex)
        a = score(res, "HandshakeCostBenchmark", "agree", backend="auto", exchange=ex)
        sg = score(res, "HandshakeCostBenchmark", "sign", identity=ident, inputs="64")
        v = score(res, "HandshakeCostBenchmark", "verify", identity=ident, inputs="64")
        parts = [g, a, sg, v, stretch]
        total = None if None in parts else sum(parts)
        allowed = div(1e6, total)
        with_connection = None if total is None or plain_us is None else div(1e6, total + plain_us)
        engines = score(res, "HandshakeCostBenchmark", "engines", handshake=h)
        serial, parallel = hs("connectHandshakeClose", h), hs("inParallel", h)
        add(f"| secio {h} | {fmt(g)} | {fmt(a)} | {fmt(sg)} | {fmt(v)} | {fmt(stretch)} | {fmt(total)} "
            f"| {fmt(allowed)} | {fmt(with_connection)} | {fmt(engines)} | {fmt(serial)} | {fmt(parallel)} "
            f"| {fmt(div(parallel, allowed), 2)} | {fmt(div(parallel, with_connection), 2)} |")
        targets.append((f"handshakes/s secio {h}, 8 in flight / primitives' bound",
                        div(parallel, allowed), 0.7, True))
        targets.append((f"handshakes/s secio {h}, 8 in flight / primitives' bound with the TCP connection",
                        div(parallel, with_connection), 0.7, True))
        if ident == "ED25519":
            targets.append((f"handshakes/s secio {h} / TLS 1.3, 8 in flight each",
                            div(parallel, hs("inParallel", "TLS13")), 1.3, True))
    for name, h in [("TLS 1.3 (BoringSSL, ECDSA P-256, X25519)", "TLS13"), ("plain TCP connect and close", "PLAIN")]:
        add(f"| {name} | | | | | | | | | | {fmt(hs('connectHandshakeClose', h))} | {fmt(hs('inParallel', h))} | | |")
    add("")

    echo_tables(echo, add, targets)
    handshake_round_tables(handshake_rounds, add, targets)

    if idle:
        add("## Idle connections\n")
        add("| stack | connections asked | established (node) | established (dialer) | heap per connection, node | heap per connection, dialer | time s | max heap |")
        add("|---|---:|---:|---:|---:|---:|---:|---:|")
        for i in idle:
            add(f"| {i['stack']} | {i['connections']:,} | {i['established']:,} | {i['clientEstablished']:,} "
                f"| {i['serverHeapBytesPerConnection']:,} B | {i['clientHeapBytesPerConnection']:,} B "
                f"| {i['seconds']} | {i['maxHeapBytes'] / 2**30:.1f} GiB |")
        add("")

    add("## Targets (ratios from this run)\n")
    add("| target | ratio | goal | verdict |")
    add("|---|---:|---:|---|")
    for name, value, goal, higher in targets:
        cell, verdict = ratio_cell(value, goal, higher)
        add(f"| {name} | {cell} | {'≥' if higher else '≤'} {goal} | {verdict} |")
    add("")
    add("![throughput chart](chart.svg)\n")
    return "\n".join(md)


def chart(res):
    """Grouped horizontal bars: end-to-end MB/s per stack at 10 KiB and 10 MiB."""
    rows = [(st, stream_mbps(res, st, "10240"), stream_mbps(res, st, "10485760")) for st in STACKS]
    peak = max([v for r in rows for v in r[1:] if v] or [1])
    left, width, bar, gap = 210, 520, 12, 10
    height = 60 + len(rows) * (2 * bar + gap) + 30
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 90}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="100%" height="100%" fill="white"/>',
           f'<text x="10" y="20" font-size="14" font-weight="bold">End to end over loopback TCP, one '
           f'connection (MB/s, higher is better)</text>',
           f'<rect x="{left}" y="30" width="10" height="10" fill="#9ecae1"/>'
           f'<text x="{left + 14}" y="39">10 KiB messages</text>',
           f'<rect x="{left + 130}" y="30" width="10" height="10" fill="#3182bd"/>'
           f'<text x="{left + 144}" y="39">10 MiB messages</text>']
    y = 55
    for st, small, large in rows:
        svg.append(f'<text x="{left - 6}" y="{y + bar + 4}" text-anchor="end">{st}</text>')
        for value, colour in ((small, "#9ecae1"), (large, "#3182bd")):
            w = 0 if not value else width * value / peak
            svg.append(f'<rect x="{left}" y="{y}" width="{w:.1f}" height="{bar}" fill="{colour}"/>')
            svg.append(f'<text x="{left + w + 4:.1f}" y="{y + bar - 2}">{fmt(value)}</text>')
            y += bar
        y += gap
    svg.append("</svg>")
    return "\n".join(svg)


def main():
    results_dir = sys.argv[1]
    res = load(results_dir)
    idle_path = os.path.join(results_dir, "idle.json")
    idle = [json.loads(line) for line in open(idle_path) if line.strip()] if os.path.exists(idle_path) else []
    echo_path = os.path.join(results_dir, "echo.jsonl")
    echo = [json.loads(line) for line in open(echo_path) if line.strip()] if os.path.exists(echo_path) else []
    hs_path = os.path.join(results_dir, "handshakes.jsonl")
    hs = [json.loads(line) for line in open(hs_path) if line.strip()] if os.path.exists(hs_path) else []
    machine = json.load(open(os.path.join(results_dir, "machine.json")))
    with open(os.path.join(results_dir, "results.md"), "w") as f:
        f.write(tables(res, idle, machine, echo, hs))
    with open(os.path.join(results_dir, "chart.svg"), "w") as f:
        f.write(chart(res))


if __name__ == "__main__":
    main()
