package io.secio.netty.hostile;

import static io.secio.netty.hostile.HostileConfigs.READ_TIMEOUT;
import static io.secio.netty.hostile.HostileConfigs.WAIT_SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundBuffer;
import io.secio.SecioConfig;
import io.secio.netty.SecioHandshakeCompletionEvent;
import io.secio.proto.Spipe;
import io.secio.protocol.SecioException.Reason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Memory a hostile peer can make the node hold: a declared frame length is not allocated up front,
 * a handshake message is bounded by the handshake limit (64 KiB) from its header, so 512 concurrent
 * hostile handshakes hold tens of MiB rather than GiB, and a peer that stops reading does not make
 * a writer that respects writability buffer without bound.
 */
class MemoryBoundsTest {
  private static final int HANDSHAKE_LIMIT = SecioConfig.DEFAULT_MAX_HANDSHAKE_MESSAGE_LENGTH_IN_BYTES;

  /** First in the pipeline: once {@code target} bytes have been read and decoded, samples the allocator. */
  private static final class MemoryProbe extends ChannelInboundHandlerAdapter {
    final CompletableFuture<Long> heldAtTarget = new CompletableFuture<>();
    private final UnpooledByteBufAllocator allocator;
    private final long target;
    private long read;

    MemoryProbe(UnpooledByteBufAllocator allocator, long target) {
      this.allocator = allocator;
      this.target = target;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      read += ((ByteBuf) msg).readableBytes();
      ctx.fireChannelRead(msg); // the decoder has cumulated these bytes when this returns
      if (read >= target) {
        heldAtTarget.complete(allocator.metric().usedHeapMemory() + allocator.metric().usedDirectMemory());
      }
    }
  }

  @Test
  void handshakeMessageDeclaredAtTheHandshakeLimitHoldsOnlyWhatArrived() throws Exception {
    UnpooledByteBufAllocator allocator = new UnpooledByteBufAllocator(true);
    int sent = 4 + 32 * 1024;
    MemoryProbe probe = new MemoryProbe(allocator, sent);
    try (Listener listener = Listener.builder().allocator(allocator).first(() -> probe)
            .start(HostileConfigs.node().build());
        RawPeer wire = RawPeer.dial(listener.address(), READ_TIMEOUT)) {
      Connection conn = listener.next(WAIT_SECONDS);
      // A 64 KiB Propose (allowed), of which only 32 KiB ever come.
      wire.writeRaw(Crafted.concat(Crafted.header(HANDSHAKE_LIMIT), new byte[32 * 1024]));
      long held = probe.heldAtTarget.get(WAIT_SECONDS, TimeUnit.SECONDS);
      assertTrue(held < 256 * 1024, "holds " + held + " bytes for " + sent + " received");
      Outcomes.assertHandshakeRefused(conn, Reason.TIMEOUT);
    }
  }

  @Test
  void frameDeclaredOverTheLimitIsRefusedWithoutBufferingIt() throws Exception {
    UnpooledByteBufAllocator allocator = new UnpooledByteBufAllocator(true);
    MemoryProbe probe = new MemoryProbe(allocator, 4);
    try (Listener listener = Listener.builder().allocator(allocator).first(() -> probe)
            .start(HostileConfigs.node().build());
        RawPeer wire = RawPeer.dial(listener.address(), READ_TIMEOUT)) {
      Connection conn = listener.next(WAIT_SECONDS);
      wire.writeRaw(Crafted.header(0xFFFFFFFFL));
      long held = probe.heldAtTarget.get(WAIT_SECONDS, TimeUnit.SECONDS);
      assertTrue(held < 64 * 1024, "holds " + held + " bytes after a 4-byte header");
      Outcomes.assertHandshakeRefused(conn, Reason.HANDSHAKE_MESSAGE_TOO_LONG);
    }
  }

  @Test
  void proposePaddedPastTheHandshakeLimitIsRefusedFromItsHeader() throws Exception {
    // Protobuf skips unknown fields, so padding makes a valid Propose of any size; until the nonce echo
    // is verified a frame may declare at most maxHandshakeMessageLength (64 KiB), not 8 MiB.
    UnpooledByteBufAllocator allocator = new UnpooledByteBufAllocator(true);
    MemoryProbe probe = new MemoryProbe(allocator, 4);
    try (Listener listener = Listener.builder().allocator(allocator).first(() -> probe)
            .start(HostileConfigs.node().build());
        RawPeer wire = RawPeer.dial(listener.address(), READ_TIMEOUT)) {
      Connection conn = listener.next(WAIT_SECONDS);
      PeerOnWire p = PeerOnWire.proposing(wire, "AES-128-GCM");
      byte[] padded = Spipe.Propose.parseFrom(p.peer.propose()).toBuilder()
          .setUnknownFields(UnknownFieldSet.newBuilder()
              .addField(15, UnknownFieldSet.Field.newBuilder()
                  .addLengthDelimited(ByteString.copyFrom(new byte[1024 * 1024])).build())
              .build())
          .build().toByteArray();
      wire.writeRaw(Crafted.header(padded.length));
      long held = probe.heldAtTarget.get(WAIT_SECONDS, TimeUnit.SECONDS);
      assertTrue(held < 64 * 1024, "holds " + held + " bytes after the padded Propose's header");
      Outcomes.assertHandshakeRefused(conn, Reason.HANDSHAKE_MESSAGE_TOO_LONG);
    }
  }

  /** Shared by every connection of a listener: samples the allocator once all of them sent their bytes. */
  @ChannelHandler.Sharable
  private static final class SharedProbe extends ChannelInboundHandlerAdapter {
    final CompletableFuture<Long> heldAtTarget = new CompletableFuture<>();
    private final UnpooledByteBufAllocator allocator;
    private final long target;
    private final AtomicLong read = new AtomicLong();

    SharedProbe(UnpooledByteBufAllocator allocator, long target) {
      this.allocator = allocator;
      this.target = target;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      long n = ((ByteBuf) msg).readableBytes();
      ctx.fireChannelRead(msg);
      if (read.addAndGet(n) >= target) {
        heldAtTarget.complete(allocator.metric().usedHeapMemory() + allocator.metric().usedDirectMemory());
      }
    }
  }

  @Test
  void fiveHundredTwelveHostileHandshakesHoldTensOfMiBNotGiB() throws Exception {
    // Each of 512 concurrent dialers (the default bound) declares a handshake message of the largest
    // size and sends all of it but the last byte: the most a handshake can make the node hold. Before
    // the handshake limit each could declare 8 MiB: 512 x 8 MiB = 4 GiB.
    int dialers = SecioConfig.DEFAULT_MAX_CONCURRENT_HANDSHAKES;
    int each = 4 + HANDSHAKE_LIMIT - 1;
    UnpooledByteBufAllocator allocator = new UnpooledByteBufAllocator(true);
    SharedProbe probe = new SharedProbe(allocator, (long) dialers * each);
    List<RawPeer> wires = new ArrayList<>();
    try (Listener listener = Listener.builder().allocator(allocator).first(() -> probe)
            // All 512 dial from 127.0.0.1: its share is the whole bound (FairShareTest covers shares).
            .start(HostileConfigs.node().handshakeTimeout(Duration.ofSeconds(60))
                .maxConcurrentHandshakesPerSource(dialers).build())) {
      try {
        byte[] almostWhole = Crafted.concat(Crafted.header(HANDSHAKE_LIMIT), new byte[HANDSHAKE_LIMIT - 1]);
        for (int i = 0; i < dialers; i++) {
          RawPeer wire = RawPeer.dial(listener.address(), READ_TIMEOUT);
          wires.add(wire);
          wire.writeRaw(almostWhole);
        }
        long held = probe.heldAtTarget.get(WAIT_SECONDS, TimeUnit.SECONDS);
        // Each holds its 64 KiB in a cumulation that doubled as it grew: at most 128 KiB, and 64 MiB
        // for all 512 (the bytes in flight are counted too).
        long bound = (long) dialers * 2 * HANDSHAKE_LIMIT;
        assertTrue(held <= bound, "512 hostile handshakes hold " + held + " bytes, bound " + bound);
      } finally {
        for (RawPeer wire : wires) {
          wire.close();
        }
      }
    }
  }

  /**
   * On the listener, after the handshake: writes 16 KiB chunks while the channel is writable, then
   * flushes; resumes when it is writable again. Records the most bytes ever held in user space.
   */
  private static final class Writer extends ChannelInboundHandlerAdapter {
    static final int CHUNK = 16 * 1024;
    final int total;
    final CompletableFuture<Long> firstStall = new CompletableFuture<>();
    volatile long maxHeld;
    private long written;

    Writer(int total) {
      this.total = total;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof SecioHandshakeCompletionEvent && ((SecioHandshakeCompletionEvent) evt).isSuccess()) {
        pump(ctx);
      }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
      if (ctx.channel().isWritable()) {
        pump(ctx);
      }
    }

    private void pump(ChannelHandlerContext ctx) {
      while (ctx.channel().isWritable() && written < total) {
        int n = (int) Math.min(CHUNK, total - written);
        byte[] chunk = new byte[n];
        for (int i = 0; i < n; i++) {
          chunk[i] = patternAt(written + i);
        }
        ctx.write(Unpooled.wrappedBuffer(chunk));
        written += n;
        maxHeld = Math.max(maxHeld, held(ctx));
      }
      ctx.flush();
      maxHeld = Math.max(maxHeld, held(ctx));
      if (!ctx.channel().isWritable() && held(ctx) > 0) {
        // The kernel took what it could and the rest waits here: the writer is held back.
        firstStall.complete(written);
      }
    }

    private static long held(ChannelHandlerContext ctx) {
      // Unflushed writes queued in the codec count here too: it reports them to the outbound buffer.
      ChannelOutboundBuffer out = ctx.channel().unsafe().outboundBuffer();
      return out == null ? 0 : out.totalPendingWriteBytes();
    }
  }

  static byte patternAt(long offset) {
    return (byte) (offset % 251);
  }

  @Test
  void peerThatStopsReadingHoldsTheWriterBackAndLosesNothing() throws Exception {
    int total = 8 * 1024 * 1024;
    Writer writer = new Writer(total);
    try (Listener listener = Listener.builder().sendBuffer(32 * 1024).last(() -> writer)
            .start(HostileConfigs.node().build());
        RawPeer wire = RawPeer.dialWithReceiveBuffer(listener.address(), READ_TIMEOUT, 32 * 1024)) {
      Connection conn = listener.next(WAIT_SECONDS);
      PeerOnWire peer = PeerOnWire.proposing(wire, "AES-128-GCM").handshake();
      conn.handshake.get(WAIT_SECONDS, TimeUnit.SECONDS);

      // The peer reads nothing until the writer has been held back.
      long writtenAtStall = writer.firstStall.get(WAIT_SECONDS, TimeUnit.SECONDS);
      assertTrue(writtenAtStall < 2 * 1024 * 1024, "wrote " + writtenAtStall + " bytes before being held back");

      long received = 0;
      while (received < total) {
        byte[] data = peer.readData();
        for (byte b : data) {
          assertEquals(patternAt(received), b, "byte " + received);
          received++;
        }
      }
      assertEquals(total, received);
      // High-water mark (64 KiB) + one chunk + per-frame and per-entry overheads.
      long bound = conn.channel.config().getWriteBufferHighWaterMark() + Writer.CHUNK + 8 * 1024;
      assertTrue(writer.maxHeld <= bound, "held " + writer.maxHeld + " bytes in user space, bound " + bound);
    }
  }
}
