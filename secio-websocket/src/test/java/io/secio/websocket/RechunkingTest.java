package io.secio.websocket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.util.concurrent.PromiseCombiner;
import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A frame boundary means nothing: a tentacle session over WebSocket on real loopback sockets whose
 * two sides cut their byte stream at random places (each piece its own binary frame) and send each
 * frame as a fragmented message (a binary frame and continuations), a seeded source choosing the
 * cuts. Every message must come back whole.
 */
class RechunkingTest {
  private static final Loopback LOOPBACK = new Loopback();

  @AfterAll
  static void stop() {
    LOOPBACK.close();
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5})
  void messagesSurviveAnyCuttingOfTheStreamIntoFrames(long seed) throws Exception {
    IdentityKeyPair serverKey = Stacks.identity(Dialect.TENTACLE);
    SecioConfig server = Stacks.secio(Dialect.TENTACLE, serverKey);
    AtomicInteger pieces = new AtomicInteger();
    AtomicInteger continuations = new AtomicInteger();
    Channel listener = LOOPBACK.listen(ch -> {
      ch.pipeline().addLast(WebSocket.server("/"), new Cutter(seed * 31, pieces), Stacks.tentacleServer(server));
      fragmentOnceOpen(ch, seed * 37, continuations);
    });
    try {
      Stacks.Messages messages = new Stacks.Messages();
      SecioConfig client = Stacks.secio(Dialect.TENTACLE, Stacks.identity(Dialect.TENTACLE));
      Channel dialer = LOOPBACK.dial(listener, ch -> {
        ch.pipeline().addLast(WebSocket.client(Loopback.uri(listener)), new Cutter(seed * 41, pieces),
            Stacks.tentacleClient(client, Dialect.TENTACLE.peerId(serverKey.publicKey()), messages));
        fragmentOnceOpen(ch, seed * 43, continuations);
      });
      Channel echo = Stacks.openEcho(dialer, messages);
      Random random = new Random(seed);
      for (int i = 0; i < 8; i++) {
        byte[] m = new byte[random.nextInt(100_000)];
        random.nextBytes(m);
        echo.writeAndFlush(Unpooled.wrappedBuffer(m));
        assertArrayEquals(m, messages.next(), "seed " + seed + ", message " + i);
      }
      assertTrue(pieces.get() > 100 && continuations.get() > 100,
          "the stream was cut: " + pieces + " pieces, " + continuations + " continuations");
      dialer.close().sync();
    } finally {
      listener.close().sync();
    }
  }

  /** Once the handshake is done, sends each binary frame of {@code ch} as a fragmented message. */
  private static void fragmentOnceOpen(Channel ch, long seed, AtomicInteger continuations) {
    WebSocket.handshakeFuture(ch).addListener(f -> {
      if (f.isSuccess()) {
        ch.pipeline().addBefore(WebSocket.HANDLER_NAME, "fragmenter", new Fragmenter(seed, continuations));
      }
    });
  }

  /** Cuts each write into pieces of 1 to 3000 bytes, each written on its own. */
  private static final class Cutter extends ChannelOutboundHandlerAdapter {
    private final Random random;
    private final AtomicInteger pieces;

    Cutter(long seed, AtomicInteger pieces) {
      this.random = new Random(seed);
      this.pieces = pieces;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
      if (!(msg instanceof ByteBuf bytes) || bytes.readableBytes() < 2) {
        ctx.write(msg, promise);
        return;
      }
      PromiseCombiner all = new PromiseCombiner(ctx.executor());
      try {
        while (bytes.isReadable()) {
          int n = Math.min(bytes.readableBytes(), 1 + random.nextInt(3000));
          all.add(ctx.write(bytes.readRetainedSlice(n)));
          pieces.incrementAndGet();
        }
      } finally {
        bytes.release();
      }
      all.finish(promise);
    }
  }

  /** Sends a binary frame as a binary frame without FIN and 1 to 3 continuations. */
  private static final class Fragmenter extends ChannelOutboundHandlerAdapter {
    private final Random random;
    private final AtomicInteger continuations;

    Fragmenter(long seed, AtomicInteger continuations) {
      this.random = new Random(seed);
      this.continuations = continuations;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
      if (!(msg instanceof BinaryWebSocketFrame frame) || frame.content().readableBytes() < 4) {
        ctx.write(msg, promise);
        return;
      }
      ByteBuf payload = frame.content();
      int parts = 2 + random.nextInt(3);
      PromiseCombiner all = new PromiseCombiner(ctx.executor());
      try {
        for (int i = 0; i < parts; i++) {
          boolean last = i == parts - 1;
          int n = last ? payload.readableBytes() : random.nextInt(payload.readableBytes() / 2 + 1);
          ByteBuf part = payload.readRetainedSlice(n);
          all.add(ctx.write(i == 0 ? new BinaryWebSocketFrame(false, 0, part) : new ContinuationWebSocketFrame(last, 0, part)));
          if (i > 0) {
            continuations.incrementAndGet();
          }
        }
      } finally {
        frame.release();
      }
      all.finish(promise);
    }
  }
}
