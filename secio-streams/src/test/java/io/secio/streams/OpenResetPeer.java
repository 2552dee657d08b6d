package io.secio.streams;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.ResourceLeakDetector;
import io.secio.streams.mplex.MplexWire;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A peer that opens streams, resets each at once and never reads, against a node of a stack above
 * the muxers (tentacle, libp2p) on loopback: the soak of {@code docs/STREAMS.md} §5. It sends the
 * pairs in batches, one write each, over a connection the stack's test dialled; when the node cuts
 * it off (its answers unread past the bound), it half-closes, waits for the node's close and dials
 * again. Every {@code pairs / samples} pairs it measures the live heap: the heap used right after a
 * full collection. Netty's leak detection runs sampled meanwhile, not paranoid: a paranoid record of
 * every buffer the node holds for the peer (stack traces, KiBs each) would be most of what the soak
 * measures, and twice its time; the suites that run the same code at paranoid check for leaks.
 */
public final class OpenResetPeer {
  /** How long any one step may take before the soak fails: a hang guard, not a timing. */
  public static final long GUARD_MINUTES = 2;
  /**
   * How long a write may wait for the node before the peer takes the node to have stopped reading it:
   * TCP's own backpressure, which bounds the node as well as a cut-off does. The peer then resets the
   * connection and dials again. Not a timing: a slow node only costs the soak a connection more.
   */
  private static final long STALL_SECONDS = 30;

  /** The muxer the peer speaks, and the bytes of its open and reset. */
  public enum Frames {
    /** yamux: {@code WindowUpdate SYN}, then {@code WindowUpdate RST}, on the dialer's odd ids from 1. */
    YAMUX(1, 2) {
      @Override
      void pair(ByteBuf out, long id) {
        header(out, 1, id);
        header(out, 8, id);
      }

      private void header(ByteBuf out, int flags, long id) {
        out.writeByte(0).writeByte(1).writeShort(flags).writeInt((int) id).writeInt(0);
      }
    },
    /** mplex: NewStream, then ResetInitiator, on ids from 0. */
    MPLEX(0, 1) {
      @Override
      void pair(ByteBuf out, long id) {
        out.writeBytes(MplexWire.bytes(id, 0, new byte[0]));
        out.writeBytes(MplexWire.bytes(id, 6, new byte[0]));
      }
    };

    private final long firstId;
    private final long step;

    Frames(long firstId, long step) {
      this.firstId = firstId;
      this.step = step;
    }

    abstract void pair(ByteBuf out, long id);
  }

  /**
   * One connection to the node: the peer's channel, whose writes go below the node's muxer as they
   * are and which reads nothing, and the node's end of it, with an {@link Ended} behind its stack.
   */
  public record Connection(Channel peer, Channel node, Ended ended) {}

  /** Dials the node for the soak. */
  @FunctionalInterface
  public interface Dialer {
    /** A new connection, ready for muxer frames. */
    Connection dial() throws Exception;
  }

  /**
   * What the soak saw: the live heap at each sample, in bytes, how many connections it took, and on
   * how many of them the node stopped reading rather than cut the peer off.
   */
  public record Result(List<Long> liveHeap, int connections, int stalls) {
    /**
     * How far the live heap rose in the second half of the soak above its highest point in the first
     * half: about 0 when what the node keeps is bounded (it fills up early, then stays), and half of
     * all that was kept when something is kept per pair.
     */
    public long secondHalfRise() {
      int half = liveHeap.size() / 2;
      long first = liveHeap.subList(0, half).stream().mapToLong(Long::longValue).max().orElseThrow();
      long second = liveHeap.subList(half, liveHeap.size()).stream().mapToLong(Long::longValue).max().orElseThrow();
      return second - first;
    }

    @Override
    public String toString() {
      return "live heap " + liveHeap.stream().map(b -> b / 1024 / 1024 + " MiB").toList() + " over " + connections
          + " connections (" + stalls + " stalled)";
    }
  }

  /** Last in the node's pipeline: hears the session's end (the stack passes every failure on to it). */
  @ChannelHandler.Sharable
  public static final class Ended extends ChannelInboundHandlerAdapter {
    /** Completes with the cause that reached the end of the pipeline, or null for a close. */
    public final CompletableFuture<Throwable> cause = new CompletableFuture<>();

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      this.cause.complete(cause);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      cause.complete(null);
      ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ReferenceCountUtil.release(msg);
    }
  }

  private OpenResetPeer() {}

  /**
   * Sends {@code pairs} opens and resets, {@code perWrite} a write, and samples the live heap {@code
   * samples} times, the first after the first {@code pairs / samples}.
   */
  public static Result run(Dialer dialer, Frames frames, int pairs, int perWrite, int samples) throws Exception {
    ResourceLeakDetector.Level level = ResourceLeakDetector.getLevel();
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.SIMPLE);
    try {
      return soak(dialer, frames, pairs, perWrite, samples);
    } finally {
      ResourceLeakDetector.setLevel(level);
    }
  }

  private static Result soak(Dialer dialer, Frames frames, int pairs, int perWrite, int samples) throws Exception {
    List<Long> heap = new ArrayList<>();
    int sampleEvery = pairs / samples;
    Connection c = dialer.dial();
    int connections = 1;
    int stalls = 0;
    long nextId = frames.firstId;
    for (int sent = 0; sent < pairs; ) {
      if (c.ended().cause.isDone() || !c.peer().isActive()) {
        hangUp(c);
        c = dialer.dial();
        connections++;
        nextId = frames.firstId;
      }
      int n = Math.min(perWrite, sampleEvery - sent % sampleEvery);
      ByteBuf batch = c.peer().alloc().buffer(n * 24);
      for (int i = 0; i < n; i++) {
        frames.pair(batch, nextId);
        nextId += frames.step;
      }
      ChannelFuture written = c.peer().writeAndFlush(batch);
      if (!written.await(STALL_SECONDS, TimeUnit.SECONDS)) {
        stalls++;
        reset(c);
        if (!written.await(GUARD_MINUTES, TimeUnit.MINUTES)) {
          throw new AssertionError("hang guard: a write of " + n + " pairs outlived its connection");
        }
      }
      if (!written.isSuccess()) {
        continue; // the node closed meanwhile: dial again, the pairs are sent there
      }
      sent += n;
      if (sent % sampleEvery == 0) {
        heap.add(liveHeap());
      }
    }
    hangUp(c);
    return new Result(heap, connections, stalls);
  }

  /** Closes with bytes unread, so the kernel resets the connection, and waits for the node to close. */
  private static void reset(Connection c) throws InterruptedException {
    c.peer().close().await(GUARD_MINUTES, TimeUnit.MINUTES);
    if (!c.node().closeFuture().await(GUARD_MINUTES, TimeUnit.MINUTES)) {
      throw new AssertionError("hang guard: the node kept a connection its peer reset");
    }
  }

  /** Half-closes (the node closes on our FIN) and waits for the node to close, then closes. */
  private static void hangUp(Connection c) throws InterruptedException {
    c.peer().config().setAutoRead(false);
    if (c.peer().isActive()) {
      ((DuplexChannel) c.peer()).shutdownOutput().await(GUARD_MINUTES, TimeUnit.MINUTES);
    }
    if (!c.node().closeFuture().await(GUARD_MINUTES, TimeUnit.MINUTES)) {
      throw new AssertionError("hang guard: the node kept a connection whose peer hung up");
    }
    c.peer().close().await(GUARD_MINUTES, TimeUnit.MINUTES);
  }

  /** The heap in use right after a full collection: what is live. */
  public static long liveHeap() {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    System.gc();
    System.gc();
    return memory.getHeapMemoryUsage().getUsed();
  }
}
