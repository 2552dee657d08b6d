package io.secio.streams.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelId;
import io.netty.channel.ChannelMetadata;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultChannelPipeline;
import io.netty.channel.EventLoop;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.VoidChannelPromise;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.ChannelInputShutdownReadComplete;
import io.netty.channel.socket.ChannelOutputShutdownEvent;
import io.netty.channel.socket.ChannelOutputShutdownException;
import io.netty.util.ReferenceCountUtil;
import io.secio.streams.StreamChannel;
import io.secio.streams.StreamResetException;
import java.net.SocketAddress;
import java.nio.channels.ClosedChannelException;

/**
 * A stream as a child {@link Channel}, whatever muxer carries it ({@code docs/STREAMS.md} §2–§3): the
 * pipeline, config and {@code Unsafe}, the inbound queue and when its bytes go up, the outbound queue
 * and what may leave it, writability, half-close both ways, reset, and the stream's end when its
 * connection ends. Its muxer's session feeds it with {@link #receive}, {@link #receiveEnd}, {@link
 * #receiveReset}, {@link #connectionFailed} and {@link #connectionEnded}; what it reads and what it
 * may send is counted by the muxer's {@link FlowController}, and its frames are the muxer's {@link
 * StreamFrameWriter}'s. A muxer's subclass adds only what its own rules keep per stream.
 *
 * <p>Over the ~300 lines this project aims for: it is one Netty {@code Channel} and its {@code
 * Unsafe} (Netty's own {@code AbstractHttp2StreamChannel} takes 1,300); the pipeline forwarding,
 * the queues and writability already live in {@link PipelineChannel}, {@link ReceivedBytes},
 * {@link PendingWrites}, {@link InFlightWrites} and {@link StreamWritability}. Reading follows
 * Netty's HTTP/2 child: a {@code read()} delivers queued bytes until the pipeline's {@code
 * RecvByteBufAllocator} handle says stop, and bytes that arrive while a read is pending go up at
 * once.
 *
 * <p>Thread safety: every method runs on the connection's event loop, except what {@link Channel}
 * allows from any thread (those reach the pipeline, which moves to the event loop).
 */
public abstract class AbstractStreamChannel extends PipelineChannel implements StreamChannel {
  private static final ChannelMetadata METADATA = new ChannelMetadata(false, 16);

  // Bits of `state`.
  private static final int OUTPUT_SHUTDOWN = 1; // shutdownOutput(): the end mark is queued
  private static final int END_SENT = 1 << 1; // the end-of-stream frame went out
  private static final int INPUT_ENDED = 1 << 2; // the peer's end of stream (or the connection's) arrived
  private static final int INPUT_SHUTDOWN = 1 << 3; // ... and was delivered: isInputShutdown()
  private static final int INPUT_DISCARDED = 1 << 4; // shutdownInput(): received bytes are dropped
  private static final int RESET = 1 << 5; // a reset was sent or received: no frame may follow
  private static final int CLOSING = 1 << 6;
  private static final int CONNECTION_GONE = 1 << 7; // no frame may be written for this stream any more
  private static final int READ_COMPLETE_PENDING = 1 << 8;

  // Read status, as Netty's HTTP/2 child: no read asked for, reading, another read asked for meanwhile.
  private static final byte IDLE = 0;
  private static final byte IN_PROGRESS = 1;
  private static final byte REQUESTED = 2;

  /** The muxer of this stream's connection. */
  protected final StreamMuxer muxer;
  /** This stream's counters, kept by the muxer's flow controller. */
  final FlowState flow;
  private final long streamId;
  private final boolean initiator;
  private final StreamChannelConfig config;
  private final StreamUnsafe unsafe = new StreamUnsafe();
  private final DefaultChannelPipeline pipeline;
  private final ChannelPromise closePromise;
  private ChannelId id;
  private final StreamWritability writability;
  private volatile boolean registered;
  private int state;
  private byte readStatus = IDLE;
  private RecvByteBufAllocator.Handle recvHandle;
  private ReceivedBytes received;
  /** Bytes of a frame still arriving: they go up only once it is whole. */
  private ReceivedBytes arriving;
  private PendingWrites pending;
  /** Writes handed to the connection whose promises wait for the socket. */
  private InFlightWrites inFlight;

  /**
   * A stream of {@code muxer}'s connection, not registered yet.
   *
   * @param muxer the connection's muxer
   * @param streamId the id on the wire
   * @param initiator whether this side opened it
   */
  protected AbstractStreamChannel(StreamMuxer muxer, long streamId, boolean initiator) {
    this.muxer = muxer;
    this.streamId = streamId;
    this.initiator = initiator;
    this.config = new StreamChannelConfig(this);
    this.pipeline = new StreamPipeline();
    this.closePromise = pipeline.newPromise();
    this.flow = muxer.flow().newState(this);
    this.writability = new StreamWritability(this, muxer.flow().streamsWritable());
  }

  // ---- what the muxer calls ----

  /**
   * Bytes received for this stream (this stream owns {@code data} now). They wait until {@link
   * #receiveComplete()}: a muxer hands a frame's body on in the pieces it arrives in, and the pipeline
   * sees it once the frame is whole, as tentacle's reader does (so credit returns at the same points).
   */
  public final void receive(ByteBuf data) {
    if ((state & (CLOSING | INPUT_DISCARDED)) != 0 || !isOpen()) {
      int n = data.readableBytes();
      data.release();
      if ((state & CLOSING) == 0 && isOpen() && n > 0) {
        muxer.flow().discarded(this, n); // shutdownInput(): dropped bytes give their credit back at once
      }
      return;
    }
    if (arriving == null) {
      arriving = new ReceivedBytes();
    }
    arriving.add(data, alloc());
  }

  /** What {@link #receive} got so far is whole: it may go up, at once if a read is pending. */
  public final void receiveComplete() {
    if (arriving == null || arriving.isEmpty() || !isOpen()) {
      return;
    }
    if (received == null) {
      received = new ReceivedBytes();
    }
    ByteBuf first = arriving.poll();
    if (arriving.isEmpty()) {
      received.add(first, alloc());
    } else {
      // A frame that came in pieces goes up as one buffer, as it was sent: the pipeline's writes
      // back (an echo) then stay one frame each instead of splitting at the connection's reads.
      CompositeByteBuf whole = alloc().compositeBuffer(arriving.size() + 1).addComponent(true, first);
      for (ByteBuf piece; (piece = arriving.poll()) != null; ) {
        whole.addComponent(true, piece);
      }
      received.add(whole, alloc());
    }
    if (readStatus != IDLE) {
      drain();
    }
  }

  /** The peer's end of stream: delivered after the bytes before it. */
  public final void receiveEnd() {
    if ((state & (INPUT_ENDED | CLOSING)) == 0) {
      state |= INPUT_ENDED;
      drain();
    }
  }

  /** The peer's reset: {@code exceptionCaught(StreamResetException)}, then the stream closes. */
  public final void receiveReset() {
    if ((state & CLOSING) == 0) {
      state |= RESET;
      pipeline.fireExceptionCaught(new StreamResetException(streamId));
      unsafe.closeForcibly();
    }
  }

  /** The connection failed: {@code exceptionCaught(cause)}, then the stream closes. */
  public final void connectionFailed(Throwable cause) {
    if ((state & CLOSING) == 0) {
      state |= CONNECTION_GONE;
      pipeline.fireExceptionCaught(cause);
      unsafe.closeForcibly();
    }
  }

  /**
   * The connection ended in order: pending writes fail, every byte received goes up now (no credit is
   * left to protect, and a dead connection's buffers must not wait on a read that may never come),
   * and the stream closes.
   */
  public final void connectionEnded() {
    if ((state & CLOSING) == 0) {
      state |= CONNECTION_GONE | INPUT_ENDED;
      if (pending != null) {
        dropPending();
      }
      receiveComplete();
      if (received != null && !received.isEmpty()) {
        RecvByteBufAllocator.Handle handle = recvHandle();
        for (ByteBuf chunk; isOpen() && (chunk = received.poll()) != null; ) {
          deliver(chunk, handle);
        }
        state &= ~READ_COMPLETE_PENDING;
        handle.readComplete();
        pipeline.fireChannelReadComplete();
      }
      endInput();
      if (isOpen()) {
        unsafe.closeForcibly(); // its input had ended before (half-closure): now nothing may go either
      }
    }
  }

  /** The connection's read burst ended: the read complete this stream put off happens now. */
  final void readComplete() {
    notifyReadComplete(recvHandle(), false, false);
  }

  /** The connection's writability changed. */
  final void connectionWritable(boolean writable) {
    writability.connectionWritable(writable);
  }

  /** Whether the peer's credit for this stream is used up; a muxer with no credit never calls it. */
  final void noCredit(boolean exhausted) {
    writability.noCredit(exhausted);
  }

  /** Whether the peer's end of stream (or the connection's) arrived. */
  public final boolean inputEnded() {
    return (state & INPUT_ENDED) != 0;
  }

  /** Whether flushed bytes or the end mark wait and could go out now, with {@code credit} bytes granted. */
  final boolean hasSendable(int credit) {
    Object head = pending == null ? null : pending.peekFlushed();
    return head != null && (head == PendingWrites.END || !((ByteBuf) head).isReadable() || credit > 0);
  }

  /**
   * Hands the next flushed piece to {@code writer}: one data frame of at most {@code credit} bytes,
   * or the end; returns how many bytes of data went.
   */
  final int sendNext(int credit, StreamFrameWriter writer) {
    Object head = pending.peekFlushed();
    if (head == PendingWrites.END) {
      ChannelPromise promise = pending.remove();
      state |= END_SENT;
      writer.writeEnd(this, parentPromise(promise, writer));
      closeIfBothEnded();
      return 0;
    }
    ByteBuf buf = (ByteBuf) head;
    int n = buf.readableBytes();
    if (n == 0) {
      pending.remove().trySuccess();
      buf.release();
      return 0;
    }
    if (n <= credit) {
      ChannelPromise promise = pending.remove();
      addPending(-n, false);
      writer.writeData(this, buf, parentPromise(promise, writer));
      return n;
    }
    ByteBuf piece = buf.readRetainedSlice(credit);
    pending.took(credit);
    addPending(-credit, false);
    writer.writeData(this, piece, writer.quietPromise());
    return credit;
  }

  /** A promise of the connection completing {@code streamPromise}; the quiet one for a void promise. */
  private ChannelPromise parentPromise(ChannelPromise streamPromise, StreamFrameWriter writer) {
    if (streamPromise.isVoid()) {
      return writer.quietPromise();
    }
    if (inFlight == null) {
      inFlight = new InFlightWrites();
    }
    return inFlight.link(streamPromise, parent());
  }

  // ---- Channel ----

  @Override
  public final long streamId() {
    return streamId;
  }

  @Override
  public final boolean isInitiator() {
    return initiator;
  }

  @Override
  public final ChannelFuture reset() {
    return reset(newPromise());
  }

  @Override
  public final ChannelFuture reset(ChannelPromise promise) {
    if (eventLoop().inEventLoop()) {
      reset0(promise);
    } else {
      eventLoop().execute(() -> reset0(promise));
    }
    return promise;
  }

  @Override
  public final ChannelFuture reset(Throwable cause) {
    ChannelPromise promise = newPromise();
    onEventLoop(() -> {
      if ((state & CLOSING) == 0) {
        writeReset();
        pipeline.fireExceptionCaught(cause); // after the reset: a close in there finds it reset, not open
      }
      unsafe.close(promise);
    });
    return promise;
  }

  private void reset0(ChannelPromise promise) {
    if ((state & CLOSING) == 0) {
      writeReset();
    }
    unsafe.close(promise);
  }

  /** The reset goes out, unless one already did or the connection is gone: no frame may follow. */
  private void writeReset() {
    if ((state & (RESET | CONNECTION_GONE)) == 0) {
      state |= RESET;
      muxer.frames().writeReset(this);
      muxer.flush();
    }
  }

  @Override
  public final Channel parent() {
    return muxer.ctx.channel();
  }

  @Override
  public final ChannelId id() {
    if (id == null) {
      id = new StreamChannelId(parent().id(), streamId);
    }
    return id;
  }

  @Override
  public final EventLoop eventLoop() {
    return parent().eventLoop();
  }

  @Override
  public final StreamChannelConfig config() {
    return config;
  }

  @Override
  public final boolean isOpen() {
    return !closePromise.isDone();
  }

  @Override
  public final boolean isActive() {
    return isOpen();
  }

  @Override
  public final boolean isRegistered() {
    return registered;
  }

  @Override
  public final ChannelMetadata metadata() {
    return METADATA;
  }

  @Override
  public final SocketAddress localAddress() {
    return parent().localAddress();
  }

  @Override
  public final SocketAddress remoteAddress() {
    return parent().remoteAddress();
  }

  @Override
  public final ChannelFuture closeFuture() {
    return closePromise;
  }

  @Override
  public final boolean isWritable() {
    return writability.isWritable();
  }

  @Override
  public final long bytesBeforeUnwritable() {
    return writability.bytesBeforeUnwritable();
  }

  @Override
  public final long bytesBeforeWritable() {
    return writability.bytesBeforeWritable();
  }

  @Override
  public final Unsafe unsafe() {
    return unsafe;
  }

  @Override
  public final ChannelPipeline pipeline() {
    return pipeline;
  }

  @Override
  public final boolean isInputShutdown() {
    return (state & (INPUT_SHUTDOWN | INPUT_DISCARDED)) != 0 || !isOpen();
  }

  @Override
  public final ChannelFuture shutdownInput() {
    return shutdownInput(newPromise());
  }

  @Override
  public final ChannelFuture shutdownInput(ChannelPromise promise) {
    onEventLoop(() -> {
      if ((state & INPUT_DISCARDED) == 0) {
        state |= INPUT_DISCARDED;
        int dropped = releaseReceived();
        if (isOpen()) {
          muxer.flow().discarded(this, dropped);
        }
      }
      promise.trySuccess();
    });
    return promise;
  }

  @Override
  public final boolean isOutputShutdown() {
    return (state & (OUTPUT_SHUTDOWN | CONNECTION_GONE)) != 0 || !isOpen();
  }

  @Override
  public final ChannelFuture shutdownOutput() {
    return shutdownOutput(newPromise());
  }

  @Override
  public final ChannelFuture shutdownOutput(ChannelPromise promise) {
    onEventLoop(() -> shutdownOutput0(promise));
    return promise;
  }

  private void shutdownOutput0(ChannelPromise promise) {
    if (!isOpen() || (state & CONNECTION_GONE) != 0) {
      promise.tryFailure(new ClosedChannelException());
      return;
    }
    if ((state & OUTPUT_SHUTDOWN) != 0) {
      promise.trySuccess();
      return;
    }
    state |= OUTPUT_SHUTDOWN;
    pendingWrites().add(PendingWrites.END, promise);
    pending.flush(); // everything written before the half-close goes first
    pipeline.fireUserEventTriggered(ChannelOutputShutdownEvent.INSTANCE);
    muxer.flow().send(this);
  }

  @Override
  public final boolean isShutdown() {
    return isInputShutdown() && isOutputShutdown();
  }

  @Override
  public final ChannelFuture shutdown() {
    return shutdown(newPromise());
  }

  @Override
  public final ChannelFuture shutdown(ChannelPromise promise) {
    ChannelPromise output = newPromise();
    shutdownOutput(output);
    output.addListener(f -> shutdownInput(promise));
    return promise;
  }

  @Override
  public String toString() {
    return parent() + "(stream " + streamId + (initiator ? ", opened here)" : ", opened by peer)");
  }

  // ---- inner workings ----

  private void onEventLoop(Runnable task) {
    if (eventLoop().inEventLoop()) {
      task.run();
    } else {
      eventLoop().execute(task);
    }
  }

  /** Marks the stream registered and active; called by the muxer once. */
  final void registered() {
    registered = true;
    pipeline.fireChannelRegistered();
    pipeline.fireChannelActive();
  }

  /** Drops every byte received and not yet read; returns how many. */
  private int releaseReceived() {
    return (received == null ? 0 : received.releaseAll()) + (arriving == null ? 0 : arriving.releaseAll());
  }

  private PendingWrites pendingWrites() {
    if (pending == null) {
      pending = new PendingWrites();
    }
    return pending;
  }

  private RecvByteBufAllocator.Handle recvHandle() {
    if (recvHandle == null) {
      recvHandle = config.getRecvByteBufAllocator().newHandle();
      recvHandle.reset(config);
    }
    return recvHandle;
  }

  private void deliver(ByteBuf data, RecvByteBufAllocator.Handle handle) {
    int n = data.readableBytes();
    muxer.flow().delivered(this, n); // counted first: the pipeline may call read() from channelRead
    handle.attemptedBytesRead(n);
    handle.lastBytesRead(n);
    handle.incMessagesRead(1);
    pipeline.fireChannelRead(data);
  }

  private void readCompleteLater() {
    if ((state & READ_COMPLETE_PENDING) == 0) {
      state |= READ_COMPLETE_PENDING;
      muxer.readCompleteLater(this);
    }
  }

  /** Netty's HTTP/2 child read loop, as {@code doBeginRead}: deliver queued bytes while asked to. */
  private void drain() {
    if (readStatus == IDLE) {
      if ((state & INPUT_ENDED) != 0 && (received == null || received.isEmpty())) {
        endInput();
      }
      return;
    }
    do {
      ByteBuf chunk = received == null ? null : received.poll();
      if (chunk == null) {
        muxer.flush();
        if ((state & INPUT_ENDED) != 0) {
          endInput();
        }
        break;
      }
      RecvByteBufAllocator.Handle handle = recvHandle();
      handle.reset(config);
      boolean more = false;
      do {
        deliver(chunk, handle);
      } while ((more = handle.continueReading()) && isOpen() && (chunk = received.poll()) != null);
      if (more && muxer.readInProgress() && (state & INPUT_ENDED) == 0) {
        readCompleteLater();
      } else {
        notifyReadComplete(handle, true, true);
        readStatus = readStatus == REQUESTED ? IN_PROGRESS : IDLE;
      }
    } while (readStatus != IDLE && isOpen());
  }

  private void notifyReadComplete(RecvByteBufAllocator.Handle handle, boolean force, boolean inReadLoop) {
    if ((state & READ_COMPLETE_PENDING) == 0 && !force) {
      return;
    }
    state &= ~READ_COMPLETE_PENDING;
    if (!inReadLoop) {
      readStatus = readStatus == REQUESTED ? IN_PROGRESS : IDLE;
    }
    handle.readComplete();
    pipeline.fireChannelReadComplete();
    muxer.flush();
    if ((state & INPUT_ENDED) != 0 && (received == null || received.isEmpty())) {
      endInput();
    }
  }

  /** Everything the peer sent before its end of stream went up: half-close, or close. */
  private void endInput() {
    if ((state & (INPUT_SHUTDOWN | CLOSING)) != 0 || !isOpen()) {
      return;
    }
    if ((state & CONNECTION_GONE) != 0 || !config.isAllowHalfClosure()) {
      state |= INPUT_SHUTDOWN;
      // As Netty's own channels at the end of input: the read completes before the close, so what the
      // pipeline wrote for the last bytes is flushed and sent, not dropped with a reset.
      notifyReadComplete(recvHandle(), false, false);
      unsafe.closeForcibly();
      return;
    }
    state |= INPUT_SHUTDOWN;
    pipeline.fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
    pipeline.fireUserEventTriggered(ChannelInputShutdownReadComplete.INSTANCE);
    closeIfBothEnded();
  }

  private void closeIfBothEnded() {
    if ((state & (INPUT_SHUTDOWN | END_SENT)) == (INPUT_SHUTDOWN | END_SENT)) {
      unsafe.closeForcibly();
    }
  }

  /** Fails every write still waiting (the bytes are released). */
  private void dropPending() {
    long bytes = pending.bytes();
    pending.failAll(new ClosedChannelException());
    addPending(-bytes, false);
  }

  private void addPending(long delta, boolean later) {
    writability.addPending(delta, later);
  }

  /** The pipeline, counting writes handed over from other threads as pending. */
  private final class StreamPipeline extends DefaultChannelPipeline {
    StreamPipeline() {
      super(AbstractStreamChannel.this);
    }

    @Override
    protected void incrementPendingOutboundBytes(long size) {
      addPending(size, true);
    }

    @Override
    protected void decrementPendingOutboundBytes(long size) {
      addPending(-size, true);
    }
  }

  /** The stream's {@code Unsafe}: what the pipeline's head calls. */
  private final class StreamUnsafe implements Unsafe {
    private final VoidChannelPromise voidPromise = new VoidChannelPromise(AbstractStreamChannel.this, false);

    @Override
    public RecvByteBufAllocator.Handle recvBufAllocHandle() {
      return recvHandle();
    }

    @Override
    public SocketAddress localAddress() {
      return parent().unsafe().localAddress();
    }

    @Override
    public SocketAddress remoteAddress() {
      return parent().unsafe().remoteAddress();
    }

    @Override
    public void register(EventLoop eventLoop, ChannelPromise promise) {
      if (promise.setUncancellable()) {
        promise.setFailure(new UnsupportedOperationException("a stream is registered by its muxer"));
      }
    }

    @Override
    public void bind(SocketAddress localAddress, ChannelPromise promise) {
      if (promise.setUncancellable()) {
        promise.setFailure(new UnsupportedOperationException("a stream has no address of its own"));
      }
    }

    @Override
    public void connect(SocketAddress remoteAddress, SocketAddress localAddress, ChannelPromise promise) {
      if (promise.setUncancellable()) {
        promise.setFailure(new UnsupportedOperationException("open streams with StreamChannelBootstrap"));
      }
    }

    @Override
    public void disconnect(ChannelPromise promise) {
      close(promise);
    }

    @Override
    public void close(ChannelPromise promise) {
      if (!promise.setUncancellable()) {
        return;
      }
      if ((state & CLOSING) != 0) {
        if (closePromise.isDone()) {
          promise.setSuccess();
        } else if (!promise.isVoid()) {
          closePromise.addListener(f -> promise.setSuccess());
        }
        return;
      }
      state |= CLOSING;
      state &= ~READ_COMPLETE_PENDING;
      if ((state & (RESET | CONNECTION_GONE)) == 0) {
        StreamFrameWriter frames = muxer.frames();
        if (pending != null && pending.holdsData()) {
          state |= RESET; // bytes written here would be lost: the peer must not take the end as complete
          frames.writeReset(AbstractStreamChannel.this);
        } else if ((state & END_SENT) == 0) {
          state |= END_SENT;
          frames.writeEnd(AbstractStreamChannel.this, frames.quietPromise());
        }
        muxer.flush();
      }
      releaseReceived();
      if (pending != null) {
        dropPending();
      }
      if (inFlight != null) {
        // Bytes of a reset stream, or of a connection gone, may never leave.
        inFlight.closed((state & (RESET | CONNECTION_GONE)) != 0 ? new ClosedChannelException() : null);
      }
      muxer.closed(AbstractStreamChannel.this);
      closePromise.setSuccess();
      promise.setSuccess();
      deregisterLater(voidPromise(), true);
    }

    @Override
    public void closeForcibly() {
      close(voidPromise());
    }

    @Override
    public void deregister(ChannelPromise promise) {
      if (promise.setUncancellable()) {
        deregisterLater(promise, false);
      }
    }

    /**
     * Inactive and unregistered events come later, as for any Netty channel (netty/netty#4435): once
     * the frame being read is handled, or as a task of the event loop ({@link StreamMuxer#later}).
     */
    private void deregisterLater(ChannelPromise promise, boolean fireInactive) {
      if (!registered) {
        promise.trySuccess();
        return;
      }
      muxer.later(() -> {
        if (fireInactive) {
          pipeline.fireChannelInactive();
        }
        if (registered) {
          registered = false;
          pipeline.fireChannelUnregistered();
        }
        promise.trySuccess();
      });
    }

    @Override
    public void beginRead() {
      if (!isActive()) {
        return;
      }
      muxer.flow().readRequested(AbstractStreamChannel.this);
      if (readStatus == IDLE) {
        readStatus = IN_PROGRESS;
        recvHandle().reset(config); // a new read: the handle counts its messages afresh
        drain();
      } else if (readStatus == IN_PROGRESS) {
        readStatus = REQUESTED;
      }
    }

    @Override
    public void write(Object msg, ChannelPromise promise) {
      if (!promise.setUncancellable()) {
        ReferenceCountUtil.release(msg);
        return;
      }
      if (!(msg instanceof ByteBuf)) {
        ReferenceCountUtil.release(msg);
        promise.setFailure(new IllegalArgumentException("a stream writes ByteBuf only, not "
            + (msg == null ? "null" : msg.getClass().getName())));
        return;
      }
      if (!isActive() || (state & CONNECTION_GONE) != 0) {
        ReferenceCountUtil.release(msg);
        promise.setFailure(new ClosedChannelException());
        return;
      }
      if ((state & OUTPUT_SHUTDOWN) != 0) {
        ReferenceCountUtil.release(msg);
        promise.setFailure(new ChannelOutputShutdownException("the stream's output is shut down"));
        return;
      }
      pendingWrites().add(msg, promise);
      addPending(((ByteBuf) msg).readableBytes(), false);
    }

    @Override
    public void flush() {
      if (pending != null && isActive()) {
        pending.flush();
        muxer.flow().send(AbstractStreamChannel.this);
      }
    }

    @Override
    public ChannelPromise voidPromise() {
      return voidPromise;
    }

    @Override
    public ChannelOutboundBuffer outboundBuffer() {
      return null; // writes wait in PendingWrites, which the muxer drains as credit allows
    }
  }
}
