package io.secio.netty.multistream;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundInvoker;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.netty.util.concurrent.ScheduledFuture;
import io.secio.netty.multistream.MultistreamException.Reason;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Runs one multistream-select 1.0.0 negotiation on a channel (built by {@link Multistream}).
 *
 * <p>When the channel is active it sends its opening (initiator: header and first proposal; responder:
 * header) and then answers the peer's messages through a {@link Negotiation}. On agreement it adds the
 * protocol's handler (if any) in its own place, writes the application's queued writes through it,
 * completes the future, fires a {@link MultistreamCompletionEvent}, removes itself and passes any bytes
 * read past the negotiation to the handler behind it. On failure (a {@link MultistreamException}:
 * malformed input, refusal, timeout, close) there is one path: fail the future, fire the event, close
 * the channel, release what it holds. Either outcome happens exactly once.
 *
 * <p>Application writes made during the negotiation are queued, never sent ahead of it (they would
 * reach the wire before the protocol that should carry them). With auto-read off the handler requests
 * the reads its negotiation needs.
 *
 * <p>Not sharable; all methods run on the channel's event loop.
 */
final class MultistreamHandler extends ChannelDuplexHandler {
  private final Negotiation negotiation;
  private final Map<String, Supplier<? extends ChannelHandler>> handlers;
  private final Duration timeout;
  private final Queue<PendingWrite> queuedWrites = new ArrayDeque<>();

  private ChannelHandlerContext ctx;
  private Promise<String> promise;
  private ByteBuf cumulation;
  private ScheduledFuture<?> timer;
  private boolean started;
  private boolean done;
  private boolean agreed;
  private boolean flushRequested;
  private boolean readRequested;

  private record PendingWrite(Object msg, ChannelPromise promise) {}

  MultistreamHandler(Negotiation negotiation, Map<String, Supplier<? extends ChannelHandler>> handlers, Duration timeout) {
    this.negotiation = negotiation;
    this.handlers = handlers;
    this.timeout = timeout;
  }

  Future<String> negotiationFuture() {
    return promise;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
    promise = ctx.executor().newPromise();
    ctx.channel().attr(Multistream.NEGOTIATION).set(promise);
    if (ctx.channel().isActive()) {
      start();
    }
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    start();
    super.channelActive(ctx);
  }

  private void start() {
    if (started || done) {
      return;
    }
    started = true;
    timer = ctx.executor().schedule(
        () -> fail(new MultistreamException(Reason.TIMEOUT, "after " + timeout)),
        saturatedNanos(timeout), TimeUnit.NANOSECONDS);
    ByteBuf opening = ctx.alloc().buffer();
    negotiation.start(opening);
    send(opening);
    readIfNeeded();
  }

  private static long saturatedNanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  private void send(ByteBuf out) {
    if (!out.isReadable()) {
      out.release();
      return;
    }
    ctx.writeAndFlush(out).addListener(f -> {
      if (!f.isSuccess()) {
        fail(new MultistreamException(Reason.CLOSED, "write failed", f.cause()));
      }
    });
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof ByteBuf)) {
      ctx.fireChannelRead(msg);
      return;
    }
    if (done) {
      ReferenceCountUtil.release(msg);
      return;
    }
    start(); // a handler added in the middle of a read may see bytes before channelActive
    cumulation = cumulation == null
        ? (ByteBuf) msg
        : ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(ctx.alloc(), cumulation, (ByteBuf) msg);
    try {
      while (!done) {
        String message = MultistreamMessage.decode(cumulation);
        if (message == null) {
          return;
        }
        answer(message);
      }
    } catch (MultistreamException e) {
      fail(e);
    }
  }

  private void answer(String message) throws MultistreamException {
    ByteBuf out = ctx.alloc().buffer();
    try {
      negotiation.receive(message, out);
    } catch (MultistreamException | RuntimeException e) {
      out.release();
      throw e;
    }
    send(out);
    if (negotiation.agreed() != null) {
      succeed(negotiation.agreed());
    }
  }

  private void succeed(String protocol) {
    ChannelPipeline pipeline = ctx.pipeline();
    // Queued writes re-enter where they would have entered had the protocol's handler been there all
    // along: from the handler that followed this one (or the tail), so they pass through it.
    ChannelOutboundInvoker entry = followingOrChannel(pipeline);
    try {
      Supplier<? extends ChannelHandler> next = handlers.get(protocol);
      ChannelHandler handler = next == null ? null : next.get();
      if (handler != null) {
        pipeline.addAfter(ctx.name(), null, handler);
      }
    } catch (RuntimeException e) {
      // e.g. a handler that is not @Sharable given for a second channel: the user's bug, still one path.
      fail(e);
      return;
    }
    done = true;
    agreed = true;
    stopTimer();
    for (PendingWrite w; (w = queuedWrites.poll()) != null; ) {
      entry.write(w.msg(), w.promise());
    }
    if (flushRequested) {
      entry.flush();
    }
    promise.trySuccess(protocol);
    ctx.fireUserEventTriggered(MultistreamCompletionEvent.success(protocol));
    // handlerRemoved passes the bytes read past the negotiation on.
    pipeline.remove(this);
    if (readRequested && !ctx.channel().config().isAutoRead()) {
      ctx.channel().read();
    }
  }

  private ChannelOutboundInvoker followingOrChannel(ChannelPipeline pipeline) {
    List<String> names = pipeline.names();
    for (int i = names.indexOf(ctx.name()) + 1; i < names.size(); i++) {
      ChannelHandlerContext following = pipeline.context(names.get(i));
      if (following != null) {
        return following;
      }
    }
    return ctx.channel();
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    if (!done) {
      fail(new MultistreamException(Reason.CLOSED, "handler removed before the negotiation finished"));
    }
    ByteBuf rest = cumulation;
    cumulation = null;
    if (rest == null) {
      return;
    }
    if (agreed && rest.isReadable()) {
      ctx.fireChannelRead(rest);
    } else {
      rest.release();
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    readIfNeeded();
    ctx.fireChannelReadComplete();
  }

  private void readIfNeeded() {
    // Without auto-read nobody else asks for the negotiation's next bytes.
    if (started && !done && !ctx.channel().config().isAutoRead()) {
      ctx.read();
    }
  }

  @Override
  public void read(ChannelHandlerContext ctx) {
    if (!done) {
      readRequested = true;
    }
    ctx.read();
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    if (agreed) {
      ctx.write(msg, promise);
    } else if (done) {
      ReferenceCountUtil.release(msg);
      promise.setFailure(new ClosedChannelException());
    } else {
      queuedWrites.add(new PendingWrite(msg, promise));
    }
  }

  @Override
  public void flush(ChannelHandlerContext ctx) {
    if (agreed) {
      ctx.flush();
    } else {
      flushRequested = true;
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    fail(new MultistreamException(Reason.CLOSED, "channel closed during the negotiation"));
    super.channelInactive(ctx);
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
    if (evt instanceof ChannelInputShutdownEvent) {
      fail(new MultistreamException(Reason.CLOSED, "input shut down during the negotiation"));
    }
    super.userEventTriggered(ctx, evt);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (done) {
      ctx.fireExceptionCaught(cause);
    } else if (cause instanceof IOException) {
      fail(new MultistreamException(Reason.CLOSED, cause.getMessage(), cause));
    } else {
      fail(cause);
    }
  }

  private void fail(Throwable cause) {
    if (done) {
      return;
    }
    done = true;
    stopTimer();
    try {
      promise.tryFailure(cause);
      ctx.fireUserEventTriggered(MultistreamCompletionEvent.failure(cause));
    } finally {
      if (cumulation != null) {
        cumulation.release();
        cumulation = null;
      }
      for (PendingWrite w; (w = queuedWrites.poll()) != null; ) {
        ReferenceCountUtil.release(w.msg());
        w.promise().tryFailure(cause);
      }
      ctx.close();
    }
  }

  private void stopTimer() {
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
  }
}
