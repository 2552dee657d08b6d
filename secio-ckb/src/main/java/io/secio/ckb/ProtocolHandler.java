package io.secio.ckb;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import io.secio.ckb.protocol.CkbException.Reason;
import io.secio.ckb.protocol.CkbException;
import io.secio.ckb.protocol.CkbProtocol;
import io.secio.streams.StreamResetException;
import io.secio.tentacle.TentacleException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shell of every CKB protocol's stream handler: it tells the {@link Peer} the stream is open and
 * closed, hands each message's bytes to {@link #onMessage}, and applies the rules a node applies to
 * every protocol ({@code network.rs}): a codec error (a message over the protocol's limit, a bad
 * compress frame) bans the peer for 300 s ({@code "ProtocolError id=N"}), and so does a message its
 * handler fails on unexpectedly (a node's handler panic). A subclass adds its messages and rules.
 * Messages are handled one at a time, in order, also when one's work goes on elsewhere ({@link
 * #awaiting}). One per stream; runs on the connection's event loop.
 */
abstract class ProtocolHandler extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(ProtocolHandler.class);

  final Peer peer;
  final CkbProtocol protocol;
  private ChannelHandlerContext ctx;
  private final Deque<byte[]> waiting = new ArrayDeque<>();
  private boolean busy;

  ProtocolHandler(Peer peer, CkbProtocol protocol) {
    this.peer = peer;
    this.protocol = protocol;
  }

  @Override
  public final void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
    // Added once protocol-select is done: the stream is already active.
    peer.opened(protocol, ctx.channel());
    onOpen();
  }

  @Override
  public final void channelInactive(ChannelHandlerContext ctx) {
    peer.streamClosed(protocol, ctx.channel());
    waiting.clear();
    onClose();
    ctx.fireChannelInactive();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof ByteBuf buf)) {
      ctx.fireChannelRead(msg);
      return;
    }
    byte[] bytes;
    try {
      bytes = ByteBufUtil.getBytes(buf);
    } finally {
      buf.release();
    }
    if (busy) {
      waiting.add(bytes);
      return;
    }
    deliver(bytes);
  }

  private void deliver(byte[] bytes) {
    try {
      onMessage(bytes);
    } catch (RuntimeException e) {
      LOG.warn("{}: {} failed on a message", peer, protocol, e);
      peer.ban(Peer.BAD_MESSAGE_BAN, Reason.MALFORMED_MESSAGE,
          "protocol " + protocol.id() + " panic when process peer message");
    }
  }

  /**
   * The message being handled goes on elsewhere (the header follower's thread): the peer's next
   * messages are handled after {@code work} completes, in order, and reading stops meanwhile, so they
   * wait in the stream's flow-control window rather than in memory here (at most what one read
   * brought waits here).
   */
  void awaiting(CompletableFuture<?> work) {
    busy = true;
    reading(false);
    work.whenCompleteAsync((r, e) -> {
      busy = false;
      if (!isOpen()) {
        waiting.clear();
        return;
      }
      reading(true);
      while (!busy && isOpen() && !waiting.isEmpty()) {
        deliver(waiting.poll());
      }
    }, executor());
  }

  @Override
  public final void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (cause instanceof CkbException e && e.reason() == Reason.BAD_FRAME
        || cause instanceof TentacleException t && t.reason() == TentacleException.Reason.MESSAGE_TOO_LONG) {
      LOG.debug("{}: {} codec error: {}", peer, protocol, cause.getMessage());
      peer.ban(Peer.BAD_MESSAGE_BAN, Reason.BAD_FRAME, "ProtocolError id=" + protocol.id());
    } else if (!(cause instanceof StreamResetException)) {
      // The connection's failure reaches every stream before it closes: nothing to add.
      LOG.debug("{}: {} stream: {}", peer, protocol, cause.toString());
    }
  }

  /** The stream is open (protocol-select done). */
  void onOpen() {}

  /** A message's bytes (decompressed, for the compress codec's protocols). */
  abstract void onMessage(byte[] message);

  /** The stream closed. */
  void onClose() {}

  /** Writes one message. */
  ChannelFuture send(byte[] message) {
    return ctx.writeAndFlush(Unpooled.wrappedBuffer(message));
  }

  /** The stream's event loop: where work finished elsewhere (the header follower's thread) comes back to. */
  Executor executor() {
    return ctx.executor();
  }

  /** Whether the stream is still open. */
  boolean isOpen() {
    return ctx.channel().isActive();
  }

  /**
   * Stops or resumes reading the peer's messages: while a message's work is under way elsewhere,
   * the peer's next ones wait in its flow-control window rather than in memory here.
   */
  void reading(boolean on) {
    ctx.channel().config().setAutoRead(on);
    if (on) {
      ctx.read();
    }
  }

  /** Runs {@code task} after {@code delay} on the stream's event loop. */
  ScheduledFuture<?> schedule(Runnable task, Duration delay) {
    return ctx.executor().schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** Runs {@code task} every {@code period}, the first time one period from now. */
  ScheduledFuture<?> repeat(Runnable task, Duration period) {
    return ctx.executor().scheduleAtFixedRate(task, period.toNanos(), period.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** Ends the session: {@code reason} to the peer first. */
  void disconnect(Reason reason, String why) {
    peer.disconnect(new CkbException(reason, protocol.protocolName() + ": " + why), why);
  }
}
