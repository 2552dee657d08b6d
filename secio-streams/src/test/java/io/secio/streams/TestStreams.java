package io.secio.streams;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import java.security.MessageDigest;
import java.util.concurrent.CompletableFuture;

/** Stream handlers the socket tests share: an echo, a digest of what arrives, a writer that respects writability. */
public final class TestStreams {
  private TestStreams() {}

  /**
   * Echoes every byte of a stream, flushing at read complete, and half-closes after the peer's
   * half-close; without half-closure the stream closes after the peer's end, its echo sent first.
   */
  @ChannelHandler.Sharable
  public static final class Echo extends ChannelInboundHandlerAdapter {
    public static final Echo INSTANCE = new Echo();

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ctx.write(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      ctx.flush();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof ChannelInputShutdownEvent) {
        ((StreamChannel) ctx.channel()).shutdownOutput();
      }
    }
  }

  public static final ChannelInitializer<Channel> ECHO_STREAMS = new ChannelInitializer<>() {
    @Override
    protected void initChannel(Channel ch) {
      ch.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
      ch.pipeline().addLast(Echo.INSTANCE);
    }
  };

  /** Collects a stream's bytes (a digest and a count) until it closes. */
  public static final class Receive extends ChannelInboundHandlerAdapter {
    public final CompletableFuture<byte[]> digest = new CompletableFuture<>();
    private final MessageDigest sha;
    public long bytes;

    public Receive() throws Exception {
      sha = MessageDigest.getInstance("SHA-256");
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf buf = (ByteBuf) msg;
      bytes += buf.readableBytes();
      sha.update(buf.nioBuffer());
      buf.release();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      digest.completeExceptionally(cause);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      digest.complete(sha.digest());
    }
  }

  /** Sends {@code data} in 64 KiB writes as the stream allows, then half-closes. */
  public static void send(StreamChannel stream, byte[] data) {
    stream.eventLoop().execute(new Runnable() {
      int offset;

      @Override
      public void run() {
        for (;;) {
          while (offset < data.length && stream.isWritable()) {
            int n = Math.min(64 * 1024, data.length - offset);
            stream.write(Unpooled.wrappedBuffer(data, offset, n));
            offset += n;
          }
          stream.flush(); // may make the stream writable again at once: look before waiting
          if (offset == data.length) {
            stream.shutdownOutput();
            return;
          }
          if (!stream.isWritable()) {
            break;
          }
        }
        stream.pipeline().addLast(new ChannelInboundHandlerAdapter() {
          @Override
          public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (ctx.channel().isWritable()) {
              ctx.pipeline().remove(this);
              run();
            }
            ctx.fireChannelWritabilityChanged();
          }
        });
      }
    });
  }

  /** Byte j of the interop pattern with {@code seed}: (j * 131 + seed) mod 256, as yamux-peer.js makes it. */
  public static byte[] pattern(int n, int seed) {
    byte[] b = new byte[n];
    for (int j = 0; j < n; j++) {
      b[j] = (byte) (j * 131 + seed);
    }
    return b;
  }
}
