package io.secio.examples.cli;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.secio.netty.SecioHandshakeCompletionEvent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/**
 * Sends {@code total} reproducible random bytes as soon as the handshake completes, as fast as the
 * connection takes them, and completes {@link #result()} with the nanoseconds from the first byte
 * sent to the peer's answer: with {@link Reply#ECHO}, every byte echoed back (checked byte for byte as
 * it arrives); with {@link Reply#ACK}, the one byte an {@link AckingSink} sends once it has them all.
 * Fails the result on a wrong or missing echo, a handshake failure, or a closed connection. Not
 * sharable; {@link #result()} and {@link #received()} may be read from any thread.
 */
final class Transfer extends ChannelInboundHandlerAdapter {
  /** What the peer answers. */
  enum Reply { ECHO, ACK }

  /** Plaintext per write: the secio codec's frame size, so each write is one frame. */
  static final int CHUNK_SIZE_IN_BYTES = 64 * 1024;
  private static final int YAMUX_HEADER_SIZE_IN_BYTES = 12;
  /** multistream-select's first message: its length (19), then the line. */
  private static final byte[] MULTISTREAM_HEADER =
      ((char) 19 + "/multistream/1.0.0\n").getBytes(StandardCharsets.US_ASCII);

  private final long total;
  private final Reply reply;
  private final SeededBytes outgoing;
  private final SeededBytes expected;
  private final CompletableFuture<Long> result = new CompletableFuture<>();
  private final byte[] want = new byte[CHUNK_SIZE_IN_BYTES];
  private final byte[] got = new byte[CHUNK_SIZE_IN_BYTES];
  private volatile long received;
  private long sent;
  private long startNanos;

  Transfer(long total, Reply reply, long seed) {
    if (total < 0 || (reply == Reply.ACK && total == 0)) {
      throw new IllegalArgumentException("cannot transfer " + total + " bytes with " + reply);
    }
    this.total = total;
    this.reply = reply;
    this.outgoing = new SeededBytes(seed);
    this.expected = new SeededBytes(seed);
  }

  /** Nanoseconds from the first byte sent to the last byte of the answer. */
  CompletableFuture<Long> result() {
    return result;
  }

  /** Bytes of the echo received so far. */
  long received() {
    return received;
  }

  long total() {
    return total;
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof SecioHandshakeCompletionEvent) {
      SecioHandshakeCompletionEvent event = (SecioHandshakeCompletionEvent) evt;
      if (!event.isSuccess()) {
        result.completeExceptionally(event.cause());
      } else {
        startNanos = System.nanoTime();
        if (total == 0) {
          result.complete(0L);
        }
        writeMore(ctx);
      }
    }
    ctx.fireUserEventTriggered(evt);
  }

  private void writeMore(ChannelHandlerContext ctx) {
    // Writing only while the channel is writable keeps at most a few frames queued in memory.
    while (sent < total && ctx.channel().isWritable() && !result.isDone()) {
      int length = (int) Math.min(CHUNK_SIZE_IN_BYTES, total - sent);
      ByteBuf chunk = ctx.alloc().buffer(length);
      outgoing.writeTo(chunk, length);
      sent += length;
      ctx.write(chunk).addListener(f -> {
        if (!f.isSuccess()) {
          fail(ctx, f.cause());
        }
      });
    }
    ctx.flush();
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    if (ctx.channel().isWritable()) {
      writeMore(ctx);
    }
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf buf = (ByteBuf) msg;
    try {
      if (!result.isDone()) {
        check(ctx, buf);
      }
    } finally {
      buf.release();
    }
  }

  private void check(ChannelHandlerContext ctx, ByteBuf buf) {
    if (reply == Reply.ACK) {
      result.complete(System.nanoTime() - startNanos);
      return;
    }
    long count = received;
    if (count + buf.readableBytes() > total) {
      fail(ctx, new IOException("the peer sent more bytes than it was sent"));
      return;
    }
    while (buf.isReadable()) {
      int length = Math.min(buf.readableBytes(), CHUNK_SIZE_IN_BYTES);
      buf.readBytes(got, 0, length);
      expected.next(want, 0, length);
      int mismatch = Arrays.mismatch(got, 0, length, want, 0, length);
      if (mismatch >= 0) {
        fail(ctx, new IOException(count == 0 ? notAnEcho(got, length, mismatch) : "echo differs at byte "
            + (count + mismatch)));
        return;
      }
      count += length;
    }
    received = count;
    if (count == total) {
      result.complete(System.nanoTime() - startNanos);
    }
  }

  /**
   * Why the first bytes of a reply are not the echo, in the user's words where they show what the
   * peer runs over secio instead of an echo: a tentacle session's yamux, which reads the bytes sent as
   * frames and answers with its GoAway (a header of version 0, a type of 0 to 3), or a libp2p node's
   * multistream-select, which opens the muxer's negotiation with its header.
   */
  private static String notAnEcho(byte[] reply, int length, int mismatch) {
    if (length >= YAMUX_HEADER_SIZE_IN_BYTES && reply[0] == 0 && reply[1] >= 0 && reply[1] <= 3) {
      return "the peer answered with yamux frames, not the echo: it runs a tentacle session "
          + "(dial it with --protocol NAME:VERSIONS)";
    }
    if (length >= MULTISTREAM_HEADER.length && Arrays.equals(reply, 0, MULTISTREAM_HEADER.length,
        MULTISTREAM_HEADER, 0, MULTISTREAM_HEADER.length)) {
      return "the peer answered with multistream-select, not the echo: it negotiates a muxer "
          + "(dial it with --muxer mplex|yamux)";
    }
    return "echo differs at byte " + mismatch;
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (!result.isDone()) {
      String what = reply == Reply.ECHO ? received + " of " + total + " echoed bytes" : sent + " bytes sent";
      result.completeExceptionally(new IOException("connection closed after " + what));
    }
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    fail(ctx, cause);
  }

  private void fail(ChannelHandlerContext ctx, Throwable cause) {
    if (result.completeExceptionally(cause)) {
      ctx.close();
    }
  }
}
