package io.secio.benchmarks;

import io.netty.channel.Channel;
import io.secio.identity.KeyType;
import io.secio.protocol.ExchangeAlgorithm;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Handshakes per second on loopback, one at a time: connect, complete the handshake on the client
 * (secio: through the nonce echo; TLS 1.3: the client's handshake future), close with a reset.
 * {@code handshake} is {@code EXCHANGE:IDENTITY} for secio (AES-128-GCM frames), or {@code TLS13}
 * for Netty TLS 1.3 on BoringSSL with an ECDSA P-256 certificate and no session resumption, or
 * {@code PLAIN}: the bare TCP connect and close, what every handshake here pays besides its own work.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class HandshakeBenchmark {
  @Param({"P_256:ED25519", "P_256:SECP256K1", "X25519:ED25519", "X25519:SECP256K1", "TLS13", "PLAIN"})
  String handshake;

  /**
   * secio: distinct client identities, one per connection in turn. 1: the node meets the same peer
   * every time, and checks its Ed25519 key once; 2048 (more than the 1,024 validated keys a node
   * remembers): every handshake is the node's first with that peer, and checks the key in full.
   */
  @Param({"1"})
  int peers;

  /** Handshakes in flight at once in {@link #inParallel}. */
  public static final int IN_FLIGHT = 8;

  private Loopback loopback;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    if (handshake.equals("TLS13")) {
      loopback = new Loopback(Stack.TLS13_AES_128_GCM, Loopback.Quiet::new);
    } else if (handshake.equals("PLAIN")) {
      loopback = new Loopback(Stack.PLAIN, Loopback.Quiet::new);
    } else {
      String[] parts = handshake.split(":");
      loopback = new Loopback(Stack.SECIO_AES_128_GCM, KeyType.valueOf(parts[1]),
          ExchangeAlgorithm.valueOf(parts[0]), peers, Loopback.DEFAULT_FRAME, Loopback.Quiet::new);
    }
    loopback.connectAndCheck(new Loopback.Quiet()).close().sync();
  }

  @Benchmark
  public void connectHandshakeClose() throws Exception {
    Channel channel = loopback.connect(new Loopback.Quiet(), true);
    try {
      loopback.awaitHandshake(channel);
    } finally {
      channel.close().sync();
    }
  }

  /**
   * The same with {@value #IN_FLIGHT} handshakes in flight (one per benchmark thread), so that both
   * cores stay busy while each handshake waits on the network: the throughput a node accepting many
   * peers sees, bounded by CPU rather than by round trips.
   */
  @Benchmark
  @Threads(IN_FLIGHT)
  public void inParallel() throws Exception {
    connectHandshakeClose();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    loopback.close();
  }
}
