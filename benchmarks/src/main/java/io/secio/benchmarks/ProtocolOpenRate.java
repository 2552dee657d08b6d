package io.secio.benchmarks;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.Future;
import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.streams.StreamChannel;
import io.secio.tentacle.Tentacle;
import io.secio.tentacle.TentacleConfig;
import io.secio.tentacle.TentacleProtocol;
import io.secio.tentacle.TentacleSession;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Protocol opens per second on one tentacle session (secio in the tentacle dialect, secp256k1,
 * AES-128-GCM; yamux in the tentacle profile) over loopback TCP: each operation opens a stream,
 * runs protocol-select, sends one {@code MESSAGE_BYTES} message, reads the echo (checked byte for
 * byte), half-closes, and waits for the listener's half-close, so the stream is gone on both sides.
 * {@code LANES} operations run at once, each lane on a protocol of its own (tentacle allows one
 * stream per protocol per session), beside one protocol stream that stays open all along, as a
 * session's protocols do (a tentacle listener ends a session with none open when its 5 s timeout
 * fires). Warm-up for {@code -Decho.warmUpSeconds} (8 by default), then
 * {@code SECONDS} timed. One event loop thread per side. Prints one JSON object.
 *
 * <pre>java -cp benchmarks.jar io.secio.benchmarks.ProtocolOpenRate LANES SECONDS MESSAGE_BYTES</pre>
 */
public final class ProtocolOpenRate {
  private static final long WARM_UP_NANOS = TimeUnit.SECONDS.toNanos(Long.getLong("echo.warmUpSeconds", 8));

  private static final String KEEP = "/bench/keep";

  private ProtocolOpenRate() {}

  public static void main(String[] args) throws Exception {
    System.out.println(run(Integer.parseInt(args[0]), Integer.parseInt(args[1]), Integer.parseInt(args[2])));
  }

  static String run(int lanes, int seconds, int messageBytes) throws Exception {
    String load = Files.readString(Path.of("/proc/loadavg")).trim();
    byte[] message = new byte[messageBytes];
    new SecureRandom().nextBytes(message);
    TentacleConfig.Builder server = TentacleConfig.builder();
    TentacleConfig.Builder client = TentacleConfig.builder();
    // A protocol that stays open: a tentacle listener ends a session that has none open when its
    // timeout fires (5 s), and one lane is between streams now and then.
    server.protocol(TentacleProtocol.of(KEEP, List.of("1"), new Idle()));
    client.protocol(TentacleProtocol.of(KEEP, List.of("1"), new Idle()));
    for (int lane = 0; lane < lanes; lane++) {
      server.protocol(TentacleProtocol.of(protocol(lane), List.of("1"), new EchoThenClose()));
      client.protocol(TentacleProtocol.of(protocol(lane), List.of("1"), new CheckThenHalfClose(message)));
    }
    TentacleConfig serverConfig = server.build();
    try (Loopback loopback = new Loopback(Stack.PLAIN, 2,
        () -> Tentacle.server(secio(), serverConfig))) {
      Channel connection = loopback.connect(Tentacle.client(secio(), client.build()), false);
      TentacleSession session = Tentacle.sessionFuture(connection).get(Loopback.TIMEOUT_SECONDS, TimeUnit.SECONDS);
      session.openStream(KEEP, new Idle()).get(Loopback.TIMEOUT_SECONDS, TimeUnit.SECONDS);
      long warmUpEnds = System.nanoTime() + WARM_UP_NANOS;
      runLanes(session, lanes, message, warmUpEnds);
      long started = System.nanoTime();
      long operations = runLanes(session, lanes, message, started + TimeUnit.SECONDS.toNanos(seconds));
      double elapsed = (System.nanoTime() - started) / 1e9;
      connection.close().sync();
      return String.format(Locale.ROOT,
          "{\"benchmark\": \"ProtocolOpenRate\", \"lanes\": %d, \"messageBytes\": %d, \"operations\": %d, "
              + "\"seconds\": %.3f, \"opensPerSecond\": %.1f, \"loadBefore\": \"%s\"}",
          lanes, messageBytes, operations, elapsed, operations / elapsed, load);
    }
  }

  private static String protocol(int lane) {
    return "/bench/echo/" + lane;
  }

  private static SecioConfig secio() {
    return SecioConfig.builder(IdentityKeyPair.generate(KeyType.SECP256K1, new SecureRandom()))
        .dialect(Dialect.TENTACLE)
        .build();
  }

  /** Every lane opens, echoes and closes until {@code endNanos}; returns the operations completed. */
  private static long runLanes(TentacleSession session, int lanes, byte[] message, long endNanos) throws Exception {
    AtomicLong operations = new AtomicLong();
    CompletableFuture<?>[] done = new CompletableFuture<?>[lanes];
    for (int lane = 0; lane < lanes; lane++) {
      done[lane] = new CompletableFuture<Void>();
      next(session, protocol(lane), message, endNanos, operations, (CompletableFuture<Void>) done[lane]);
    }
    CompletableFuture.allOf(done).get(10 * Loopback.TIMEOUT_SECONDS, TimeUnit.SECONDS);
    return operations.get();
  }

  private static void next(TentacleSession session, String protocol, byte[] message, long endNanos,
      AtomicLong operations, CompletableFuture<Void> done) {
    if (System.nanoTime() >= endNanos) {
      done.complete(null);
      return;
    }
    ChannelHandler check = session.config().protocol(protocol).orElseThrow().handler();
    session.openStream(protocol, check).addListener((Future<StreamChannel> opened) -> {
      if (!opened.isSuccess()) {
        done.completeExceptionally(opened.cause());
        return;
      }
      Channel stream = opened.getNow();
      stream.closeFuture().addListener(closed -> {
        if (stream.attr(CheckThenHalfClose.ECHOED).get() == null) {
          done.completeExceptionally(new IllegalStateException(protocol + "'s stream closed without its echo"));
          return;
        }
        operations.incrementAndGet();
        next(session, protocol, message, endNanos, operations, done);
      });
      stream.writeAndFlush(Unpooled.wrappedBuffer(message));
    });
  }

  /** A protocol stream that stays open and idle. */
  @ChannelHandler.Sharable
  static final class Idle extends ChannelInboundHandlerAdapter {}

  /** The listener's side: echoes each message, and closes once the opener has half-closed. */
  @ChannelHandler.Sharable
  static final class EchoThenClose extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ctx.writeAndFlush(msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof ChannelInputShutdownEvent) {
        ctx.close();
      }
      ctx.fireUserEventTriggered(evt);
    }
  }

  /** The opener's side: checks the echo, half-closes, and closes at the listener's half-close. */
  @ChannelHandler.Sharable
  static final class CheckThenHalfClose extends ChannelInboundHandlerAdapter {
    /** Set on a stream whose echo was the message sent. */
    static final AttributeKey<Boolean> ECHOED = AttributeKey.valueOf(CheckThenHalfClose.class, "echoed");
    private final byte[] message;

    CheckThenHalfClose(byte[] message) {
      this.message = message;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf echo = (ByteBuf) msg;
      boolean same = ByteBufUtil.equals(echo, Unpooled.wrappedBuffer(message));
      echo.release();
      if (!same) {
        ctx.close(); // without ECHOED: the lane fails
        return;
      }
      ctx.channel().attr(ECHOED).set(Boolean.TRUE);
      ((DuplexChannel) ctx.channel()).shutdownOutput();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof ChannelInputShutdownEvent) {
        ctx.close();
      }
      ctx.fireUserEventTriggered(evt);
    }
  }
}
