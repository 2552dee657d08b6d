package io.secio.streams;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A muxer's session on an {@code EmbeddedChannel} for the session fuzz targets ({@code
 * docs/FUZZING.md}): the peer's streams echo what they read (so the session's sending side runs too)
 * and are counted; {@link #feed} gives it a peer's bytes in chunks of 1 to 64 bytes chosen by the
 * input itself, keeping what the session wrote. {@link #close()} releases everything.
 */
public final class FuzzedSession implements AutoCloseable {
  /** The connection, with the muxer's handler. */
  public final EmbeddedChannel channel;
  private final AtomicInteger open = new AtomicInteger();
  private final AtomicInteger mostOpen = new AtomicInteger();
  private final AtomicLong delivered = new AtomicLong();
  private final ByteArrayOutputStream written = new ByteArrayOutputStream();

  /** {@code muxer} makes the muxer's handler from the handler of the peer's streams. */
  public FuzzedSession(Function<ChannelHandler, ChannelHandler> muxer) {
    channel = new EmbeddedChannel(muxer.apply(new ChannelInitializer<Channel>() {
      @Override
      protected void initChannel(Channel ch) {
        mostOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
        ch.closeFuture().addListener(f -> open.decrementAndGet());
        ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
          @Override
          public void channelRead(ChannelHandlerContext ctx, Object msg) {
            delivered.addAndGet(((ByteBuf) msg).readableBytes());
            ctx.writeAndFlush(msg);
          }

          @Override
          public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // a reset, a bound, or the session's end: the stream closes
          }
        });
      }
    }));
  }

  /**
   * Feeds {@code input} until its end, the connection's close or the first exception, which must be
   * a {@code failure} and is returned (null: none).
   */
  public <E extends Exception> E feed(byte[] input, Class<E> failure) {
    Random chunks = new Random(Arrays.hashCode(input));
    for (int offset = 0; offset < input.length && channel.isOpen(); ) {
      int n = Math.min(input.length - offset, 1 + chunks.nextInt(64));
      try {
        channel.writeInbound(Unpooled.wrappedBuffer(input, offset, n));
      } catch (Exception e) {
        drain();
        return assertInstanceOf(failure, e, "only a " + failure.getSimpleName() + " escapes");
      }
      offset += n;
      drain();
    }
    return null;
  }

  /** Every byte the session wrote so far. */
  public byte[] written() {
    drain();
    return written.toByteArray();
  }

  /** How many of the peer's streams are open now. */
  public int open() {
    return open.get();
  }

  /** The most of the peer's streams open at once. */
  public int mostOpen() {
    return mostOpen.get();
  }

  /** Bytes handed to the streams so far. */
  public long delivered() {
    return delivered.get();
  }

  private void drain() {
    written.writeBytes(Outbound.take(channel));
  }

  @Override
  public void close() {
    channel.finishAndReleaseAll();
  }
}
