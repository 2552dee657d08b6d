package io.secio.examples.cli;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import java.util.Arrays;

/**
 * On one stream: sends seeded bytes as writes of at most a message size while the stream is
 * writable and no more than a window of them is unechoed, and checks the echo byte for byte as it
 * arrives; its future completes with the nanoseconds from {@link #start} to the end of the echo.
 * Only what was sent can come back: anything read before {@link #start}, beyond what was written so
 * far, or (on a {@link Framing#MESSAGES} stream, where this side never sends one) an empty message
 * fails the check, as does a byte that differs. The end is the last echoed byte or, on a {@link
 * Framing#BYTES} stream (libp2p), the peer's half-close after it: this side half-closes once
 * everything is written, and the peer must end its side only after echoing every byte. The window
 * matters over a muxer without flow control (mplex): what this side sends ahead of the echo waits in
 * the peer's buffer for the stream, which the peer bounds by resetting the stream.
 *
 * <p>{@code @Sharable} so that a protocol's config can hold it, but for one stream only (tentacle's
 * one stream per protocol; a libp2p dial makes one per stream). The stream's event loop.
 */
@ChannelHandler.Sharable
final class EchoCheck extends ChannelInboundHandlerAdapter {
  /** What one read of the stream is. */
  enum Framing {
    /** One whole message per read (tentacle): no half-close; an empty read is an empty message. */
    MESSAGES,
    /** Bytes however cut (libp2p): each side half-closes after its last byte. */
    BYTES
  }

  private final long total;
  private final int messageSize;
  private final Framing framing;
  private final boolean halfClose;
  private final long window;
  private final SeededBytes sent;
  private final SeededBytes expected;
  private byte[] want = new byte[0];
  private Promise<Long> result;
  private Channel stream;
  private long written;
  private long received;
  private boolean started;
  private long startNanos;
  volatile long messages;

  /**
   * @param window the most bytes sent and not yet echoed; {@code Long.MAX_VALUE} to leave the pace to
   *     the stream's writability alone
   */
  EchoCheck(long total, int messageSize, long seed, Framing framing, long window) {
    if (window < messageSize) {
      throw new IllegalArgumentException("window " + window + " below the message size " + messageSize);
    }
    this.total = total;
    this.messageSize = messageSize;
    this.framing = framing;
    this.halfClose = framing == Framing.BYTES;
    this.window = window;
    this.sent = new SeededBytes(seed);
    this.expected = new SeededBytes(seed);
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    result = ctx.executor().newPromise();
    stream = ctx.channel();
    if (halfClose) {
      stream.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
    }
    // No echo for this long: the peer is gone or stuck.
    ctx.pipeline().addBefore(ctx.name(), null, new ReadTimeoutHandler(DialCommand.ECHO_IDLE_TIMEOUT_SECONDS));
    stream.closeFuture().addListener(f -> result.tryFailure(new IllegalStateException(
        "the stream closed after " + received + " of " + total + " bytes echoed")));
  }

  /** Starts sending on {@code channel}, the stream this handler is on. */
  Future<Long> start(Channel channel) {
    channel.eventLoop().execute(() -> {
      if (result.isDone()) {
        return; // the peer sent something before this side did
      }
      started = true;
      startNanos = System.nanoTime();
      if (total == 0 && !halfClose) {
        result.trySuccess(System.nanoTime() - startNanos);
      }
      send();
    });
    return result;
  }

  private void send() {
    boolean more = written < total;
    while (written < total && stream.isWritable()) {
      int n = (int) Math.min(messageSize, total - written);
      if (written - received + n > window) {
        break; // whole messages only: the window holds at least one, so the echo reopens it
      }
      ByteBuf message = stream.alloc().buffer(n);
      sent.writeTo(message, n);
      stream.write(message);
      written += n;
      messages++;
    }
    stream.flush();
    if (halfClose && written == total && (more || total == 0)) {
      ((DuplexChannel) stream).shutdownOutput(); // once, after the last write
    }
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    if (ctx.channel().isWritable() && started && written < total) {
      send();
    }
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf echo = (ByteBuf) msg;
    try {
      int n = echo.readableBytes();
      if (n == 0 && framing == Framing.BYTES) {
        return; // no bytes, nothing to check
      }
      if (!started) {
        throw new IllegalStateException("the peer sent " + describe(n) + " before anything was sent to it");
      }
      if (n == 0) {
        throw new IllegalStateException("the peer sent an empty message after " + received
            + " bytes echoed: no empty message was sent to it");
      }
      if (received + n > written) {
        throw new IllegalStateException("the peer sent back " + (received + n) + " bytes when "
            + written + " had been sent to it");
      }
      byte[] got = new byte[n];
      echo.readBytes(got);
      if (want.length < n) {
        want = new byte[n];
      }
      expected.next(want, 0, n);
      if (!Arrays.equals(got, 0, n, want, 0, n)) {
        throw new IllegalStateException("the echo differs from what was sent, within bytes "
            + received + " to " + (received + n));
      }
      received += n;
      if (received == total && !halfClose) {
        result.trySuccess(System.nanoTime() - startNanos);
      } else if (written < total) {
        send(); // the echo opened the window
      }
    } catch (IllegalStateException e) {
      result.tryFailure(e);
      ctx.close();
    } finally {
      echo.release();
    }
  }

  private String describe(int n) {
    return framing == Framing.MESSAGES ? "a message of " + n + " bytes" : n + " bytes";
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (halfClose && evt instanceof ChannelInputShutdownEvent) {
      if (received == total && started) {
        result.trySuccess(System.nanoTime() - startNanos);
      } else {
        result.tryFailure(new IllegalStateException(
            "the peer ended the stream after " + received + " of " + total + " bytes echoed"));
      }
      ctx.close();
    }
    ctx.fireUserEventTriggered(evt);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    result.tryFailure(cause);
    ctx.close();
  }
}
