package io.secio.streams.yamux.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.embedded.EmbeddedChannel;
import io.secio.streams.yamux.YamuxConfig;
import io.secio.streams.yamux.YamuxException;
import io.secio.streams.yamux.YamuxHandler;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A yamux listener fed any bytes, cut into chunks chosen by the input itself ({@code docs/FUZZING.md}):
 * only a {@link YamuxException} escapes; after it the connection is closed and the last frame
 * written is the GoAway its reason calls for; everything the session wrote parses as yamux frames;
 * no more streams are open than the cap; no buffer leaks. The streams echo what they read, so the
 * session's sending side runs too. Seeds: every probe of {@code probes.json} under 100 KB, as the
 * probing client sent it.
 */
class YamuxSessionFuzzTest {
  private static final int MAX_STREAMS = 4;

  @FuzzTest(maxDuration = "2m")
  void anyPeerBytes(byte[] input) {
    AtomicInteger open = new AtomicInteger();
    AtomicInteger mostOpen = new AtomicInteger();
    EmbeddedChannel channel = new EmbeddedChannel(YamuxHandler.server(
        YamuxConfig.tentacle().toBuilder().maxStreams(MAX_STREAMS).build(), new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            mostOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
            ch.closeFuture().addListener(f -> open.decrementAndGet());
            ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
              @Override
              public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ctx.writeAndFlush(msg);
              }

              @Override
              public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                // a reset or the session's end: the stream closes
              }
            });
          }
        }));
    ByteArrayOutputStream written = new ByteArrayOutputStream();
    YamuxException failure = null;
    try {
      Random chunks = new Random(Arrays.hashCode(input));
      int offset = 0;
      while (offset < input.length && failure == null && channel.isOpen()) { // GoAway 0 closes it too
        int n = Math.min(input.length - offset, 1 + chunks.nextInt(64));
        try {
          channel.writeInbound(Unpooled.wrappedBuffer(input, offset, n));
        } catch (Exception e) {
          failure = assertInstanceOf(YamuxException.class, e, "only a YamuxException escapes");
        }
        offset += n;
        drain(channel, written);
      }
      assertTrue(mostOpen.get() <= MAX_STREAMS, "streams open at once: " + mostOpen.get());
      long lastGoAway = frames(written.toByteArray());
      if (failure != null) {
        assertFalse(channel.isOpen(), "closed after " + failure);
        if (failure.reason().goAwayCode() >= 0) {
          assertEquals(failure.reason().goAwayCode(), lastGoAway, "the last frame is GoAway " + failure.reason());
        }
      }
    } finally {
      channel.finishAndReleaseAll();
    }
  }

  private static void drain(EmbeddedChannel channel, ByteArrayOutputStream written) {
    for (Object msg; (msg = channel.readOutbound()) != null; ) {
      ByteBuf buf = (ByteBuf) msg;
      byte[] b = new byte[buf.readableBytes()];
      buf.readBytes(b);
      buf.release();
      written.writeBytes(b);
    }
  }

  /** Checks {@code bytes} are whole yamux frames; returns the code of the last one if a GoAway, else -1. */
  private static long frames(byte[] bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    long last = -1;
    while (b.hasRemaining()) {
      assertTrue(b.remaining() >= 12, "a whole header");
      assertEquals(0, b.get(), "version");
      int type = b.get();
      b.getShort();
      b.getInt();
      long length = b.getInt() & 0xFFFF_FFFFL;
      assertTrue(type >= 0 && type <= 3, "type " + type);
      if (type == 0) {
        assertTrue(length <= b.remaining(), "a whole body");
        b.position(b.position() + (int) length);
      }
      last = type == 3 ? length : -1;
    }
    return last;
  }
}
