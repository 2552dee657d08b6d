package io.secio.examples;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.secio.SecioConfig;
import io.secio.SecioObserver;
import io.secio.SecioSession;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.netty.Transports;
import io.secio.protocol.SecioException;
import java.security.SecureRandom;
import java.time.Duration;

/**
 * A {@link SecioObserver} that keeps a node's secio counts in a Micrometer {@link MeterRegistry}:
 * {@code secio.handshakes} by {@code outcome} and {@code reason}, the {@code secio.handshake}
 * timer by outcome, and {@code secio.bytes} by {@code direction} (sealed, opened). Micrometer's
 * meters are thread-safe, so one observer serves every connection of a config. {@link #main} runs an
 * echo over loopback with it and prints the meters.
 */
public final class MicrometerObserver implements SecioObserver {
  private final MeterRegistry registry;
  private final Counter sealed;
  private final Counter opened;
  private final Timer succeededIn;
  private final Timer failedIn;

  public MicrometerObserver(MeterRegistry registry) {
    this.registry = registry;
    this.sealed = Counter.builder("secio.bytes").tag("direction", "sealed").baseUnit("bytes")
        .description("plaintext bytes sealed into frames").register(registry);
    this.opened = Counter.builder("secio.bytes").tag("direction", "opened").baseUnit("bytes")
        .description("plaintext bytes opened from frames").register(registry);
    this.succeededIn = Timer.builder("secio.handshake").tag("outcome", "success").register(registry);
    this.failedIn = Timer.builder("secio.handshake").tag("outcome", "failure").register(registry);
  }

  @Override
  public void handshakeSucceeded(SecioSession session, Duration duration) {
    registry.counter("secio.handshakes", "outcome", "success", "reason", "none").increment();
    succeededIn.record(duration);
  }

  @Override
  public void handshakeFailed(SecioException.Reason reason, Duration duration) {
    registry.counter("secio.handshakes", "outcome", "failure", "reason", reason.name()).increment();
    failedIn.record(duration);
  }

  @Override
  public void frameSealed(int plaintextBytes) {
    sealed.increment(plaintextBytes);
  }

  @Override
  public void frameOpened(int plaintextBytes) {
    opened.increment(plaintextBytes);
  }

  public static void main(String[] args) throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    run(registry, "hello, meters");
    System.out.println(registry.getMetersAsString());
  }

  /** An echo server and client over loopback, both observed into {@code registry}. */
  static void run(MeterRegistry registry, String message) throws Exception {
    MicrometerObserver observer = new MicrometerObserver(registry);
    SecureRandom random = new SecureRandom();
    SecioConfig server = SecioConfig.builder(IdentityKeyPair.generate(KeyType.ED25519, random))
        .observer(observer).build();
    SecioConfig client = SecioConfig.builder(IdentityKeyPair.generate(KeyType.ED25519, random))
        .observer(observer).build();
    Transports transport = Transports.best();
    EventLoopGroup group = transport.newEventLoopGroup(1);
    try {
      Channel listener = EchoServer.start(group, transport, server, 0);
      int port = ((java.net.InetSocketAddress) listener.localAddress()).getPort();
      EchoClient.echo(group, transport, client, "127.0.0.1", port, server.localPeerId(), message);
      listener.close().sync();
    } finally {
      group.shutdownGracefully().sync();
    }
  }
}
