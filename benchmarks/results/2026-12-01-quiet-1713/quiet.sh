#!/bin/bash
# The quiet-window measurements of round 4: JMH A/B (base = before the codec change, new = main),
# the echo suite and the handshake rounds (new, and base for the Ed25519 check before/after).
set -u
OUT=$1; mkdir -p $OUT
echo "start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $OUT/log.txt
for i in 1 2; do for v in base new; do
  java -jar /tmp/ab/$v.jar '\.CodecBenchmark\.' -f 1 -wi 3 -w 1s -i 2 -r 500ms -rf json -rff $OUT/codec-$v-$i.json > $OUT/codec-$v-$i.log 2>&1
  java -jar /tmp/ab/$v.jar '\.(StreamBenchmark\.|PingPongBenchmark\.backToBack)' -p stack=PLAIN,TLS13_AES_128_GCM,SECIO_AES_128_GCM -f 1 -wi 1 -w 2s -i 2 -r 1s -rf json -rff $OUT/loop-$v-$i.json > $OUT/loop-$v-$i.log 2>&1
  echo "jmh $v $i done $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $OUT/log.txt
done; done
java -cp /tmp/ab/new.jar io.secio.benchmarks.HandshakeRounds $OUT/handshakes.jsonl 5 3000 2> $OUT/handshakes.log
echo "handshakes new done $(date -u +%H:%M:%S)" >> $OUT/log.txt
java -cp /tmp/ab/base.jar io.secio.benchmarks.HandshakeRounds $OUT/handshakes-before.jsonl 5 3000 2> $OUT/handshakes-before.log
echo "handshakes base done $(date -u +%H:%M:%S)" >> $OUT/log.txt
java -cp /tmp/ab/new.jar io.secio.benchmarks.EchoSuite $OUT/echo.jsonl 5 1073741824 16777216 2> $OUT/echo.log
echo "echo done $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $OUT/log.txt
