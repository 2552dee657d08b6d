#!/usr/bin/env bash
# Runs the secio benchmark suite and writes benchmarks/results/: latest.json (JMH), idle.json,
# machine.json, results.md (tables and target ratios) and chart.svg. See benchmarks/README.md.
#
#   benchmarks/run.sh            the short suite: about 16 minutes on 2 cores with the build (SKIP_BUILD=1 skips it)
#   benchmarks/run.sh full       JMH's annotated iterations and 10,000 idle connections (about an hour)
#
# Environment: ECHO_ROUNDS (5), ECHO_BYTES (1 GiB), MANY_BYTES (16 MiB per connection): the echo suite.
# MAX_LOAD (default 1.5) and MAX_WAIT_SECONDS (default 600): before measuring, wait up to
# that long for the 1-minute load average to drop to MAX_LOAD; the load is recorded either way.
set -euo pipefail

suite="${1:-short}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
results="$here/results"
jar="$here/target/benchmarks.jar"
mkdir -p "$results"

cd "$root"
build_started=$SECONDS
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  mvn -B -o -q -pl benchmarks -am package -DskipTests || mvn -B -q -pl benchmarks -am package -DskipTests
fi
build_seconds=$((SECONDS - build_started))

load() { cut -d' ' -f1 /proc/loadavg; }
waited=0
while awk -v l="$(load)" -v m="${MAX_LOAD:-1.5}" 'BEGIN { exit !(l > m) }' \
    && (( waited < ${MAX_WAIT_SECONDS:-600} )); do
  echo "load average $(load) is above ${MAX_LOAD:-1.5}; waiting (${waited}s so far)" >&2
  sleep 30
  waited=$((waited + 30))
done
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"

if [[ "$suite" == full ]]; then
  micro=() ; codec=() ; costs=() ; handshakes=() ; loop=() ; connections=10000
else
  # Loopback runs warm up longer: on 2 cores the JIT competes with both event loops for a while.
  micro=(-f 1 -wi 1 -w 400ms -i 2 -r 300ms)
  # The codec's 64 writes per flush run through much of Netty, which the JIT takes seconds to compile.
  codec=(-f 1 -wi 3 -w 1s -i 2 -r 500ms)
  # What the frame and stream targets compare against, measured again for longer (see below).
  pairs=(-f 1 -wi 2 -w 700ms -i 3 -r 800ms)
  costs=(-f 1 -wi 1 -w 1s -i 2 -r 500ms)
  # Handshakes: one long warm-up; with 8 handshakes in flight on 2 cores the JIT needs ~15 s (secio,
  # TLS and even the bare connection still gain 30-50% between 5 and 15 s).
  handshakes=(-f 1 -wi 1 -w 15s -i 2 -r 2s)
  loop=(-f 1 -wi 1 -w 2s -i 2 -r 1s)
  connections=1000
fi
all_but_tls_chacha="PLAIN,TLS13_AES_128_GCM,SECIO_AES_128_GCM,SECIO_AES_256_GCM,SECIO_CHACHA20_POLY1305,SECIO_AES_128_CTR,SECIO_AES_256_CTR"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
started=$SECONDS

# Each JMH run, and how long it took (on stderr, so that the time budget can be checked).
jmh() {
  local t=$SECONDS
  java -jar "$jar" -foe true -rf json "$@"
  echo "run.sh: $1 took $((SECONDS - t)) s" >&2
}
jmh '\.(PrimitiveBenchmark|FrameBenchmark)\.' "${micro[@]}" -rff "$tmp/micro.json"
jmh '\.CodecBenchmark\.' "${codec[@]}" -rff "$tmp/codec.json"
# Short iterations swing the frame / raw ratio by ±15% and leave the JDK's CTR+HMAC a quarter short at
# 1 MiB. report.py keeps the last result of a benchmark, so these longer runs of what the targets
# compare replace the matrix's: the 16 KiB AEAD pairs, and the raw 1 MiB primitives of the streams.
aead16=(-p cipher=AES_128_GCM,AES_256_GCM,CHACHA20_POLY1305 -p size=16384)
if [[ "$suite" == full ]]; then # the matrix ran long enough
  for f in frame-pairs raw-pairs raw-chacha raw-ctr; do echo '[]' > "$tmp/$f.json"; done
else
  jmh '\.FrameBenchmark\.sealOpen' -p backend=auto "${aead16[@]}" "${pairs[@]}" -rff "$tmp/frame-pairs.json"
  jmh '\.PrimitiveBenchmark\.sealOpen' -p backend=conscrypt "${aead16[@]}" "${pairs[@]}" \
    -rff "$tmp/raw-pairs.json"
  jmh '\.PrimitiveBenchmark\.sealOpen' -p backend=conscrypt -p cipher=CHACHA20_POLY1305 -p size=1048576 \
    "${pairs[@]}" -rff "$tmp/raw-chacha.json"
  jmh '\.PrimitiveBenchmark\.sealOpen' -p backend=jdk -p cipher=AES_128_CTR,AES_256_CTR -p size=1048576 \
    "${pairs[@]}" -rff "$tmp/raw-ctr.json"
fi
jmh '\.HandshakeCostBenchmark\.' "${costs[@]}" -rff "$tmp/costs.json"
if [[ "$suite" == full ]]; then hs_methods='\.HandshakeBenchmark\.'; else hs_methods='\.HandshakeBenchmark\.inParallel'; fi
jmh "$hs_methods" "${handshakes[@]}" -rff "$tmp/handshake.json"
jmh '\.(StreamBenchmark\.|PingPongBenchmark\.backToBack)' -p stack="$all_but_tls_chacha" "${loop[@]}" -rff "$tmp/loop.json"
# One round trip per op from the benchmark thread, sampled for percentiles: three stacks only.
jmh '\.PingPongBenchmark\.roundTrip' -p stack=PLAIN,TLS13_AES_128_GCM,SECIO_AES_128_GCM "${loop[@]}" \
  -rff "$tmp/sampled.json"
# Ping-pong with both ends on one event loop thread: each stack's own work, no thread wake-ups.
jmh '\.PingPongBenchmark\.backToBack' -p stack=PLAIN,TLS13_AES_128_GCM,SECIO_AES_128_GCM -p eventLoops=1 \
  "${loop[@]}" -rff "$tmp/one-loop.json"
# The frame size study: secio AES-128-GCM, 10 MiB messages, frames other than the default 64 KiB.
jmh '\.StreamBenchmark\.' -p stack=SECIO_AES_128_GCM -p size=10485760 -p frame=16384,131072 \
  "${loop[@]}" -rff "$tmp/frames.json"
# BoringSSL has no TLS 1.3 cipher setting and picks ChaCha20 only where AES-GCM lacks hardware help:
# hiding PCLMULQDQ from it (in this JVM only) makes both ends negotiate TLS_CHACHA20_POLY1305_SHA256.
OPENSSL_ia32cap='~0x200000000' \
  jmh '\.(StreamBenchmark\.|PingPongBenchmark\.backToBack)' -p stack=TLS13_CHACHA20_POLY1305 "${loop[@]}" -rff "$tmp/tls-chacha.json"

# The echo program (an echo of 1 GiB against TLS 1.3), interleaved: every stack once per round, each run in its own JVM; one
# connection of ECHO_BYTES (1 GiB), then 64 connections of 16 MiB each for plaintext, TLS 1.3 and secio.
jmh_t=$SECONDS
java -cp "$jar" io.secio.benchmarks.EchoSuite "$results/echo.jsonl" "${ECHO_ROUNDS:-5}" \
  "${ECHO_BYTES:-1073741824}" "${MANY_BYTES:-16777216}"
echo "run.sh: EchoSuite took $((SECONDS - jmh_t)) s" >&2
# Handshakes with 8 in flight, secio (Ed25519 identities, a peer met again and new peers) interleaved
# with TLS 1.3 in one JVM: 5 rounds of 3-second slots after a warm-up.
jmh_t=$SECONDS
java -cp "$jar" io.secio.benchmarks.HandshakeRounds "$results/handshakes.jsonl" 5 3000
echo "run.sh: HandshakeRounds took $((SECONDS - jmh_t)) s" >&2

python3 - "$results/latest.json" "$tmp"/{micro,codec,frame-pairs,raw-pairs,raw-chacha,raw-ctr,costs,handshake,loop,sampled,one-loop,frames,tls-chacha}.json <<'EOF'
import json, sys
json.dump([r for f in sys.argv[2:] for r in json.load(open(f))], open(sys.argv[1], "w"), indent=1)
EOF

# The yamux echo (tentacle profile): secio alone, one stream, 64 streams, interleaved; heap per idle stream.
jmh_t=$SECONDS
java -cp "$jar" io.secio.benchmarks.StreamSuite "$results/yamux.jsonl" "${YAMUX_ROUNDS:-3}" \
  "${ECHO_BYTES:-1073741824}" "${MANY_BYTES:-16777216}"
echo "run.sh: StreamSuite took $((SECONDS - jmh_t)) s" >&2
# The same for libp2p's muxers: yamux in the libp2p profile, and mplex.
java -Dyamux.profile=libp2p -cp "$jar" io.secio.benchmarks.StreamSuite "$results/yamux-libp2p.jsonl" \
  "${YAMUX_ROUNDS:-3}" "${ECHO_BYTES:-1073741824}" "${MANY_BYTES:-16777216}"
java -Dstreams.muxer=mplex -cp "$jar" io.secio.benchmarks.StreamSuite "$results/mplex.jsonl" \
  "${YAMUX_ROUNDS:-3}" "${ECHO_BYTES:-1073741824}" "${MANY_BYTES:-16777216}"
# Protocol opens per second on a tentacle session: one at a time, and 16 at once.
for lanes in 1 16; do
  java -cp "$jar" io.secio.benchmarks.ProtocolOpenRate "$lanes" 10 64
done > "$results/protocol-opens.jsonl"
java -cp "$jar" io.secio.benchmarks.IdleStreams 10000 > "$results/idle-streams.json"
# CKB: crawl sessions per second against our own listener, one and 8 at once; heap per idle session.
for lanes in 1 8; do
  java -cp "$jar" io.secio.benchmarks.CkbCrawlRate "$lanes" 10
done > "$results/ckb-crawl.jsonl"
java -cp "$jar" io.secio.benchmarks.IdleCkbSessions 1000 > "$results/idle-ckb.json"
java -cp "$jar" io.secio.benchmarks.IdleConnections "$connections" SECIO_AES_128_GCM "$tmp/idle-secio.json"
java -cp "$jar" io.secio.benchmarks.IdleConnections "$connections" PLAIN "$tmp/idle-plain.json"
cat "$tmp/idle-secio.json" "$tmp/idle-plain.json" > "$results/idle.json"

python3 - "$results/machine.json" "$load_before" "$suite" "$((SECONDS - started))" "$build_seconds" <<'EOF'
import json, os, platform, subprocess, sys, datetime
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
jdk = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()
json.dump({
    "cpu": cpu, "nproc": os.cpu_count(), "jdk": jdk[1] if len(jdk) > 1 else jdk[0],
    "os": platform.platform(), "load_before": sys.argv[2],
    "load_after": " ".join(open("/proc/loadavg").read().split()[:3]),
    "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    "suite": "benchmarks/run.sh" + ("" if sys.argv[3] == "short" else " " + sys.argv[3]),
    "seconds": int(sys.argv[4]), "build_seconds": int(sys.argv[5]),
}, open(sys.argv[1], "w"), indent=1)
EOF

python3 "$here/report.py" "$results"
echo "wrote $results/results.md and $results/chart.svg"
