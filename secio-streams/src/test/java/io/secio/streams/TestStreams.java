package io.secio.streams;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.security.MessageDigest;
import java.util.concurrent.CompletableFuture;

/**
 * What the socket tests share: a digest of what a stream receives, a writer that respects
 * writability, the interop pattern.
 */
public final class TestStreams {
  private TestStreams() {}

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
