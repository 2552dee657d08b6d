package io.secio.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.CoalescingBufferQueue;
import io.netty.handler.codec.UnsupportedMessageTypeException;
import io.netty.util.ReferenceCountUtil;
import io.secio.SecioConfig;
import io.secio.SecioObserver;
import io.secio.frame.CipherPair;
import io.secio.frame.FrameOpener;
import io.secio.frame.FrameSealer;
import io.secio.protocol.SecioException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.Objects;

/**
 * Encrypts and decrypts the frames of an established secio session (docs/PROTOCOL.md section 10). It sits right
 * after a {@link SecioFrameDecoder}, which hands it whole frame bodies.
 *
 * <p><b>Outbound</b>: {@link ByteBuf} writes are queued (counted against the channel's writability)
 * and encrypted only at {@code flush()}, so many small writes become few frames. Each frame carries at
 * most {@code min(maxFrameLength - overhead, maxPlaintextPerFrame)} plaintext bytes and goes out as one
 * buffer: 4-byte length then sealer output. Frames are sealed and flushed one at a time, at most
 * {@value #SEALED_AHEAD_IN_BYTES} bytes ahead of the socket; the rest of a flushed write stays queued
 * as plaintext until the socket takes what was sealed. A write's promise completes when the frame
 * carrying its last byte is written. Other message types are rejected, so nothing leaves in plaintext.
 *
 * <p><b>Inbound</b>: each frame body is verified and decrypted into a new buffer from the channel's
 * allocator, which is passed on; the body is released at once.
 *
 * <p><b>One fatal path</b>: the first failure while opening or sealing, whatever its type (a {@link
 * SecioException} from the opener or the decoder, such as a frame too long, any exception a crypto
 * provider throws, or the transport's own {@link IOException}, reported as {@link
 * SecioException.Reason#CONNECTION_FAILED}), destroys the keys (a CTR keystream that advanced without output
 * would turn every later frame into garbage), fails every write not yet flushed with that cause, is
 * fired once through {@code exceptionCaught}, and closes the channel; every later frame is dropped
 * and every later write fails, so nothing after a bad frame reaches the application. What was
 * flushed before the failure has been sealed and handed to the transport (frames the socket had not
 * yet taken fail with Netty's {@code ClosedChannelException} on the close); what was only written
 * fails, whether or not good frames came in the same read as the bad one. A handler that must answer
 * the frames before a bad one flushes its answer ({@code writeAndFlush}).
 *
 * <p>The codec is the one owner of the connection's {@link CipherPair}: it destroys the keys (see
 * {@link FrameSealer#destroy()} for what that wipes), on the event loop, when the channel goes
 * inactive, this handler is removed, or the fatal path runs. Nothing else holds the ciphers, so no
 * other thread can destroy them under a seal.
 *
 * <p>Not sharable; all methods run on the channel's event loop. A little over this project's usual
 * size: sealing ahead of the socket and the one fatal path share their state and read best together.
 */
public final class SecioFrameCodec extends ChannelDuplexHandler {
  private final CipherPair ciphers;
  private final SecioObserver observer;
  private final FrameSealer sealer;
  private final FrameOpener opener;
  private final int maxPlaintextPerFrame;
  /**
   * Sealed bytes that may wait in the channel for the socket before sealing pauses: two default
   * frames, enough to keep the socket busy while the next is sealed.
   */
  static final int SEALED_AHEAD_IN_BYTES = 2 * SecioConfig.DEFAULT_MAX_PLAINTEXT_PER_FRAME_IN_BYTES;

  private CoalescingBufferQueue pending;
  /** Bytes of sealed frames written to the channel and not yet taken by the socket. */
  private long sealedUnwritten;
  private boolean sealing;
  private boolean resumeScheduled;
  private boolean failed;
  private boolean destroyed;

  /**
   * A codec that owns {@code ciphers} from now on, whose frames carry at most {@code
   * maxPlaintextPerFrame} plaintext bytes and never exceed {@code maxFrameLength} in total. Built by
   * {@link SecioHandshakeHandler} when its handshake completes.
   */
  SecioFrameCodec(CipherPair ciphers, int maxFrameLength, int maxPlaintextPerFrame) {
    this(ciphers, maxFrameLength, maxPlaintextPerFrame, SecioObserver.NONE);
  }

  /** The same, telling {@code observer} of every frame sealed and opened. */
  SecioFrameCodec(CipherPair ciphers, int maxFrameLength, int maxPlaintextPerFrame,
      SecioObserver observer) {
    this.observer = GuardedObserver.of(observer);
    this.ciphers = Objects.requireNonNull(ciphers, "ciphers");
    this.sealer = ciphers.sealer();
    this.opener = ciphers.opener();
    if (maxPlaintextPerFrame < 1) {
      throw new IllegalArgumentException("maxPlaintextPerFrame must be positive: " + maxPlaintextPerFrame);
    }
    int room = maxFrameLength - sealer.overhead();
    if (room < 1) {
      throw new IllegalArgumentException("maxFrameLength " + maxFrameLength + " leaves no room for data");
    }
    this.maxPlaintextPerFrame = Math.min(room, maxPlaintextPerFrame);
  }

  /** The largest plaintext one frame carries. */
  public int maxPlaintextPerFrame() {
    return maxPlaintextPerFrame;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    // Counting queued bytes against writability lets the application see backpressure before flush.
    pending = new CoalescingBufferQueue(ctx.channel(), 4, true);
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    shutDown();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    shutDown();
    super.channelInactive(ctx);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof ByteBuf)) {
      ctx.fireChannelRead(msg);
      return;
    }
    ByteBuf body = (ByteBuf) msg;
    ByteBuf plaintext = null;
    try {
      if (failed || destroyed) {
        return;
      }
      plaintext = open(ctx, body);
    } catch (Throwable t) {
      fail(ctx, t);
    } finally {
      body.release();
    }
    if (plaintext != null) {
      observer.frameOpened(plaintext.readableBytes());
      if (plaintext.isReadable()) {
        ctx.fireChannelRead(plaintext);
      } else {
        plaintext.release();
      }
    }
  }

  /**
   * Opens {@code body} into a new buffer and returns it. Not in place, though the body is ours to
   * overwrite: Conscrypt copies an input that overlaps its output into a fresh native allocation
   * before it decrypts, so opening in place costs a {@code malloc} and a copy of the frame inside
   * the provider, where a pooled buffer costs neither (measured in benchmarks/results/HISTORY.md).
   */
  private ByteBuf open(ChannelHandlerContext ctx, ByteBuf body) throws SecioException {
    int plaintextLength = body.readableBytes() - opener.overhead();
    if (plaintextLength < 0) {
      throw new SecioException(SecioException.Reason.FRAME_TOO_SHORT,
          body.readableBytes() + " bytes, shorter than the " + opener.overhead() + "-byte MAC or tag");
    }
    ByteBuf plaintext = ctx.alloc().ioBuffer(plaintextLength);
    try {
      ByteBuffer out = plaintext.nioBuffer(0, plaintextLength);
      opener.open(body.nioBuffer(), out);
      checkFilled(out);
      plaintext.writerIndex(plaintextLength);
      return plaintext;
    } catch (Throwable t) {
      plaintext.release();
      throw t;
    }
  }

  private static void checkFilled(ByteBuffer out) {
    if (out.hasRemaining()) {
      throw new IllegalStateException("opener left " + out.remaining() + " bytes unwritten");
    }
  }

  /**
   * A failure from below (the decoder, the transport) ends the session by the fatal path: a {@link
   * SecioException} as it is, and an {@link IOException} of the transport (a reset, a refused write)
   * as a {@link SecioException.Reason#CONNECTION_FAILED} that carries it, so that the handlers after secio see
   * one type for every failure of the connection. Anything else passes on untouched.
   */
  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    SecioException secio = SecioExceptions.find(cause);
    if (secio != null) {
      fail(ctx, secio);
    } else if (cause instanceof IOException) {
      fail(ctx, new SecioException(SecioException.Reason.CONNECTION_FAILED, cause.getMessage(), cause));
    } else {
      ctx.fireExceptionCaught(cause);
    }
  }

  /** The one fatal path, for inbound and outbound failures alike; only the first one counts. */
  private void fail(ChannelHandlerContext ctx, Throwable cause) {
    if (failed) {
      return;
    }
    failed = true;
    try {
      ciphers.destroy();
    } finally {
      try {
        if (pending != null && !pending.isEmpty()) {
          pending.releaseAndFailAll(cause);
        }
      } finally {
        ctx.fireExceptionCaught(cause);
        ctx.close();
      }
    }
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    if (!(msg instanceof ByteBuf)) {
      ReferenceCountUtil.release(msg);
      promise.setFailure(new UnsupportedMessageTypeException(msg, ByteBuf.class));
      return;
    }
    if (failed || destroyed) {
      ReferenceCountUtil.release(msg);
      promise.setFailure(new ClosedChannelException());
      return;
    }
    pending.add((ByteBuf) msg, promise);
  }

  @Override
  public void flush(ChannelHandlerContext ctx) {
    if (failed) {
      return;
    }
    try {
      sealPending(ctx);
    } catch (Throwable t) {
      // A frame that cannot be sealed (nonce exhausted, a provider failing) ends the connection.
      fail(ctx, t);
      return;
    }
    ctx.flush();
  }

  /**
   * Seals queued plaintext into frames and flushes each one as it is made, so the socket (and the
   * peer, decrypting) works on the first frame while the next is sealed. It stops once {@link
   * #SEALED_AHEAD_IN_BYTES} of sealed frames wait in the channel for the socket; {@link #frameWritten}
   * resumes it as they leave. A large write thus never sits in memory twice, as plaintext and sealed.
   */
  private void sealPending(ChannelHandlerContext ctx) throws SecioException {
    // A write listener may flush again from inside this loop; the outer loop carries on afterwards.
    boolean outer = sealing;
    sealing = true;
    try {
      while (pending != null && !pending.isEmpty() && !destroyed
          && sealedUnwritten < SEALED_AHEAD_IN_BYTES) {
        ChannelPromise framePromise = ctx.newPromise();
        ByteBuf plaintext = pending.remove(maxPlaintextPerFrame, framePromise);
        ByteBuf frame;
        try {
          frame = plaintext.isReadable() ? seal(ctx, plaintext) : Unpooled.EMPTY_BUFFER;
        } catch (Throwable t) {
          framePromise.setFailure(t);
          throw t;
        } finally {
          plaintext.release();
        }
        int frameLength = frame.readableBytes();
        sealedUnwritten += frameLength;
        framePromise.addListener(f -> frameWritten(ctx, frameLength));
        // Written through the outbound buffer even when empty, so promises complete in write order.
        ctx.write(frame, framePromise);
        ctx.flush();
      }
    } finally {
      sealing = outer;
    }
  }

  /** A sealed frame left the channel (written, or failed): seal more if the flush had stopped. */
  private void frameWritten(ChannelHandlerContext ctx, int frameLength) {
    sealedUnwritten -= frameLength;
    if (!sealing && !resumeScheduled && !destroyed && !failed && !pending.isEmpty()
        && sealedUnwritten < SEALED_AHEAD_IN_BYTES) {
      resumeScheduled = true;
      ctx.executor().execute(() -> {
        resumeScheduled = false;
        flush(ctx);
      });
    }
  }

  private ByteBuf seal(ChannelHandlerContext ctx, ByteBuf plaintext) throws SecioException {
    int length = plaintext.readableBytes();
    int bodyLength = length + sealer.overhead();
    ByteBuf frame = SecioFrameDecoder.newFrame(ctx.alloc(), bodyLength);
    try {
      int bodyStart = frame.writerIndex();
      ByteBuffer out = frame.nioBuffer(bodyStart, bodyLength);
      if (plaintext.isDirect() && plaintext.nioBufferCount() == 1) {
        sealer.seal(plaintext.nioBuffer(), out);
      } else {
        // Heap or coalesced pieces: gathered by one copy into a direct buffer of their own. Passed as
        // they are, they would be merged into a new array and Conscrypt would copy that into a new
        // direct buffer; copied into the frame and sealed in place, Conscrypt would copy them again,
        // as it does any input that overlaps its output.
        ByteBuf gathered = ctx.alloc().ioBuffer(length);
        try {
          gather(plaintext, gathered, length);
          sealer.seal(gathered.nioBuffer(), out);
        } finally {
          gathered.release();
        }
      }
      if (out.hasRemaining()) {
        throw new IllegalStateException("sealer left " + out.remaining() + " bytes unwritten");
      }
      frame.writerIndex(frame.writerIndex() + bodyLength);
      observer.frameSealed(length);
      return frame;
    } catch (Throwable t) {
      frame.release();
      throw t;
    }
  }

  /**
   * Copies {@code length} readable bytes of {@code plaintext} into {@code gathered}, piece by piece:
   * a composite's own {@code nioBuffer()} would first merge its pieces into a new heap buffer (a
   * second copy and an allocation per frame, measured at a quarter of a muxer's sealing time).
   */
  private static void gather(ByteBuf plaintext, ByteBuf gathered, int length) {
    if (plaintext.nioBufferCount() == 1) {
      gathered.writeBytes(plaintext, plaintext.readerIndex(), length);
      return;
    }
    for (ByteBuffer piece : plaintext.nioBuffers(plaintext.readerIndex(), length)) {
      gathered.writeBytes(piece);
    }
  }

  private void shutDown() {
    if (destroyed) {
      return;
    }
    destroyed = true;
    try {
      // Most connections end with nothing queued: no exception (and no stack walk) for them.
      if (pending != null && !pending.isEmpty()) {
        pending.releaseAndFailAll(new ClosedChannelException());
      }
    } finally {
      ciphers.destroy();
    }
  }
}
