package io.secio.examples;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.CorruptedFrameException;
import io.secio.netty.SecioHandshakeCompletionEvent;
import io.secio.netty.multistream.Multistream;
import io.secio.netty.multistream.MultistreamCompletionEvent;
import io.secio.netty.multistream.MultistreamException;
import io.secio.netty.multistream.MultistreamMessage;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/**
 * Just enough mplex ({@code /mplex/6.7.0}) to ping a libp2p node, for {@link DialLibp2pNode}: once
 * the muxer is agreed it opens one stream, negotiates {@code /ipfs/ping/1.0.0} on it with
 * multistream-select, sends 32 random bytes and completes {@link #roundTripNanos()} when the node has
 * echoed them. Not a muxer: one stream, no flow control; streams the node opens (identify) are ignored.
 *
 * <pre>
 *   mplex frame: varint (streamId &lt;&lt; 3 | flag), varint length, data
 *   flags used: 0 new stream, 2 message from the stream's initiator, 1 from its receiver, 4 close
 * </pre>
 */
final class MplexPing extends ChannelInboundHandlerAdapter {
  static final String MPLEX = "/mplex/6.7.0";
  static final String PING = "/ipfs/ping/1.0.0";
  static final int PING_SIZE_IN_BYTES = 32;
  private static final int MAX_FRAME_DATA_IN_BYTES = 1 << 20;
  private static final int NEW_STREAM = 0;
  private static final int MESSAGE_RECEIVER = 1;
  private static final int MESSAGE_INITIATOR = 2;
  private static final int CLOSE_INITIATOR = 4;
  private static final long STREAM_ID = 0;

  private enum State { WAITING, NEGOTIATING, PINGING, DONE }

  private final CompletableFuture<Long> roundTrip = new CompletableFuture<>();
  private final byte[] ping = new byte[PING_SIZE_IN_BYTES];
  private ByteBuf frames = Unpooled.EMPTY_BUFFER;
  private final ByteBuf stream = Unpooled.buffer();
  private State state = State.WAITING;
  private boolean headerEchoed;
  private long sentAt;

  MplexPing() {
    new SecureRandom().nextBytes(ping);
  }

  /** The ping's round trip, or why there was none. */
  CompletableFuture<Long> roundTripNanos() {
    return roundTrip;
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof MultistreamCompletionEvent ms) {
      if (!ms.isSuccess()) {
        fail(ctx, ms.cause());
      } else if (ms.protocol().equals(MPLEX)) {
        openPingStream(ctx);
      }
    } else if (evt instanceof SecioHandshakeCompletionEvent secio && !secio.isSuccess()) {
      fail(ctx, secio.cause());
    }
    ctx.fireUserEventTriggered(evt);
  }

  private void openPingStream(ChannelHandlerContext ctx) {
    state = State.NEGOTIATING;
    writeFrame(ctx, NEW_STREAM, Unpooled.copiedBuffer(Long.toString(STREAM_ID), java.nio.charset.StandardCharsets.US_ASCII));
    ByteBuf hello = ctx.alloc().buffer();
    MultistreamMessage.encode(MultistreamMessage.HEADER, hello);
    MultistreamMessage.encode(PING, hello);
    writeFrame(ctx, MESSAGE_INITIATOR, hello);
    ctx.flush();
  }

  private static void writeFrame(ChannelHandlerContext ctx, int flag, ByteBuf data) {
    ByteBuf header = ctx.alloc().buffer(20);
    writeVarint(STREAM_ID << 3 | flag, header);
    writeVarint(data.readableBytes(), header);
    ctx.write(header);
    ctx.write(data);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    frames = ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(ctx.alloc(), frames, (ByteBuf) msg);
    try {
      for (;;) {
        int start = frames.readerIndex();
        long header = readVarint(frames);
        long length = header < 0 ? -1 : readVarint(frames);
        if (length < 0 || frames.readableBytes() < length) {
          frames.readerIndex(start);
          return;
        }
        if (length > MAX_FRAME_DATA_IN_BYTES) {
          throw new CorruptedFrameException("mplex frame of " + length + " bytes");
        }
        ByteBuf data = frames.readSlice((int) length);
        if (header == (STREAM_ID << 3 | MESSAGE_RECEIVER) && state != State.DONE) {
          stream.writeBytes(data);
          onStreamData(ctx);
        }
      }
    } catch (MultistreamException | RuntimeException e) {
      fail(ctx, e);
    } finally {
      frames.discardSomeReadBytes();
    }
  }

  private void onStreamData(ChannelHandlerContext ctx) throws MultistreamException {
    while (state == State.NEGOTIATING) {
      String message = MultistreamMessage.decode(stream);
      if (message == null) {
        return;
      }
      if (!headerEchoed && message.equals(MultistreamMessage.HEADER)) {
        headerEchoed = true;
      } else if (headerEchoed && message.equals(PING)) {
        state = State.PINGING;
        sentAt = System.nanoTime();
        writeFrame(ctx, MESSAGE_INITIATOR, Unpooled.wrappedBuffer(ping));
        ctx.flush();
      } else {
        throw new MultistreamException(MultistreamException.Reason.UNEXPECTED_MESSAGE, "on the ping stream: " + message);
      }
    }
    if (state == State.PINGING && stream.readableBytes() >= PING_SIZE_IN_BYTES) {
      long nanos = System.nanoTime() - sentAt;
      byte[] echo = ByteBufUtil.getBytes(stream.readSlice(PING_SIZE_IN_BYTES));
      if (!Arrays.equals(ping, echo)) {
        throw new IllegalStateException("the node's ping echo differs from what was sent");
      }
      state = State.DONE;
      writeFrame(ctx, CLOSE_INITIATOR, Unpooled.EMPTY_BUFFER);
      ctx.flush();
      roundTrip.complete(nanos);
    }
  }

  private static long readVarint(ByteBuf in) {
    long value = 0;
    for (int shift = 0; shift < 63; shift += 7) {
      if (!in.isReadable()) {
        return -1;
      }
      int b = in.readUnsignedByte();
      value |= (long) (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        return value;
      }
    }
    throw new CorruptedFrameException("varint over 63 bits");
  }

  private static void writeVarint(long value, ByteBuf out) {
    while ((value & ~0x7fL) != 0) {
      out.writeByte((int) (value & 0x7f) | 0x80);
      value >>>= 7;
    }
    out.writeByte((int) value);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    fail(ctx, new ClosedChannelException());
    ctx.fireChannelInactive();
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    frames.release();
    stream.release();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    fail(ctx, cause instanceof IOException ? cause : new IOException(cause));
  }

  private void fail(ChannelHandlerContext ctx, Throwable cause) {
    if (roundTrip.completeExceptionally(cause)) {
      state = State.DONE;
      ctx.close();
    }
  }
}
