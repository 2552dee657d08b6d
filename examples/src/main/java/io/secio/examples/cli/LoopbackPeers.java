package io.secio.examples.cli;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.Future;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.netty.Secio;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Secio peers in this process, over loopback TCP: one listener, whose every connection gets a fresh
 * application handler, and any number of dialers, each running one {@link Transfer}. What {@code
 * demo} and {@code bench} measure. Closing closes the listener; the {@link Network} stays the
 * caller's. Methods block; not for use on an event loop.
 */
final class LoopbackPeers implements AutoCloseable {
  /** Bounds a whole run, so a broken peer stops the demo instead of hanging it. */
  static final long RUN_TIMEOUT_SECONDS = 120;
  /** The handshake timeout of these peers: a hang guard too, not a limit a busy machine could reach. */
  static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(RUN_TIMEOUT_SECONDS);

  /** What one connection negotiated and how long its handshake and its transfer took. */
  record Outcome(SecioSession session, long handshakeNanos, long transferNanos, long bytes) {}

  private final Network network;
  private final SecioConfig listenerConfig;
  private final Channel listener;

  LoopbackPeers(Network network, SecioConfig listenerConfig, Supplier<ChannelHandler> application)
      throws InterruptedException {
    this(network, listenerConfig, application, true);
  }

  /** As above; {@code autoRead} false for an application that reads when it is ready (a relay). */
  LoopbackPeers(Network network, SecioConfig listenerConfig, Supplier<ChannelHandler> application,
      boolean autoRead) throws InterruptedException {
    this.network = network;
    this.listenerConfig = listenerConfig;
    this.listener = network.listen(new HostPort("127.0.0.1", 0), autoRead,
        ch -> ch.pipeline().addLast(Secio.server(listenerConfig), application.get(), new CloseOnFailure()));
  }

  /** Where the listener listens. */
  HostPort address() {
    InetSocketAddress address = (InetSocketAddress) listener.localAddress();
    return new HostPort(address.getAddress().getHostAddress(), address.getPort());
  }

  /**
   * Dials the listener with {@code dialerConfig}, expecting the listener's peer id, and runs {@code
   * transfer} once secured.
   *
   * @throws ExecutionException with the cause (usually a {@link io.secio.protocol.SecioException}) if the
   *     connection, the handshake or the transfer fails
   */
  Outcome run(SecioConfig dialerConfig, Transfer transfer) throws Exception {
    long startNanos = System.nanoTime();
    CompletableFuture<Long> securedAt = new CompletableFuture<>();
    ChannelFuture connect = network.dial(address(), true, ch -> ch.pipeline().addLast(
        Secio.client(dialerConfig, dialerConfig.dialect().orElseThrow()
            .peerId(listenerConfig.identity().publicKey())), transfer));
    if (!connect.awaitUninterruptibly().isSuccess()) {
      throw new ExecutionException(connect.cause());
    }
    Channel channel = connect.channel();
    try {
      Future<SecioSession> handshake = Secio.handshakeFuture(channel);
      // Timed on the event loop, when the handshake really ends, not when this thread wakes up.
      handshake.addListener(f -> securedAt.complete(System.nanoTime()));
      if (!handshake.await(RUN_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        throw new ExecutionException(new IllegalStateException("handshake did not end"));
      }
      if (!handshake.isSuccess()) {
        throw new ExecutionException(handshake.cause());
      }
      long handshakeNanos = securedAt.get(RUN_TIMEOUT_SECONDS, TimeUnit.SECONDS) - startNanos;
      long transferNanos = transfer.result().get(RUN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      return new Outcome(handshake.getNow(), handshakeNanos, transferNanos, transfer.total());
    } finally {
      channel.close().syncUninterruptibly();
    }
  }

  @Override
  public void close() {
    listener.close().syncUninterruptibly();
  }

  /**
   * Ends a listener-side pipeline: a failure (secio fires a failed handshake here too) closes the
   * connection. The dialer's side reports it, in {@link #run}.
   */
  private static final class CloseOnFailure extends ChannelInboundHandlerAdapter {
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }
}
