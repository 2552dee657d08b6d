package io.secio.streams.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The small queues a stream and its connection keep, each on its own: the send queue (order, each
 * stream once, leaving from anywhere), a stream's pending writes (what a flush lets go, slices taken
 * off the first buffer, failing all), what it received (copies of small slices of large buffers,
 * merged into one copy), and its writes in flight (each promise once, whichever comes first: the
 * frame's write or the stream's close).
 */
class StreamQueuesTest {
  private final EmbeddedChannel channel = new EmbeddedChannel();

  @AfterEach
  void close() {
    channel.finishAndReleaseAll();
  }

  @Test
  void theSendQueueKeepsOrderHoldsEachStreamOnceAndLetsOneLeaveFromAnywhere() {
    SendQueue queue = new SendQueue();
    FlowState a = new FlowState(null);
    FlowState b = new FlowState(null);
    FlowState c = new FlowState(null);
    assertTrue(queue.isEmpty());
    queue.add(a);
    queue.add(b);
    queue.add(a);
    queue.add(c);
    assertFalse(queue.isEmpty());
    queue.remove(b);
    queue.remove(b);
    assertFalse(b.queued);
    assertSame(a, queue.poll());
    assertSame(c, queue.poll());
    assertNull(queue.poll());
    assertTrue(queue.isEmpty());
    queue.add(b);
    queue.add(c);
    queue.remove(c);
    queue.add(a);
    assertSame(b, queue.poll());
    assertSame(a, queue.poll());
    assertTrue(queue.isEmpty());
  }

  @Test
  void pendingWritesLetGoWhatAFlushReleasedAndCountTheBytesLeft() {
    PendingWrites pending = new PendingWrites();
    ChannelPromise first = channel.newPromise();
    ChannelPromise second = channel.newPromise();
    ChannelPromise end = channel.newPromise();
    pending.add(Unpooled.buffer().writeBytes(new byte[10]), first);
    assertNull(pending.peekFlushed(), "written, not flushed");
    pending.flush();
    ByteBuf unsent = Unpooled.buffer().writeBytes(new byte[5]);
    pending.add(unsent, second);
    pending.add(PendingWrites.END, end);
    assertEquals(15, pending.bytes());
    assertTrue(pending.holdsData());
    ByteBuf head = (ByteBuf) pending.peekFlushed();
    head.skipBytes(4);
    pending.took(4);
    assertEquals(11, pending.bytes());
    assertSame(first, pending.remove());
    head.release();
    assertNull(pending.peekFlushed(), "the second was written after the flush");
    assertEquals(5, pending.bytes(), "the first buffer's 6 left, counted on removal");
    pending.flush();
    assertFalse(pending.isEmpty());
    pending.failAll(new ClosedChannelException());
    assertEquals(0, unsent.refCnt(), "released with its write");
    assertTrue(pending.isEmpty());
    assertEquals(0, pending.bytes());
    assertFalse(pending.holdsData());
    assertNull(pending.peekFlushed());
    assertTrue(second.cause() instanceof ClosedChannelException && end.cause() instanceof ClosedChannelException);
  }

  @Test
  void aSmallSliceOfALargeBufferIsCopiedAndSmallCopiesMergeUntilTheirCapLargeSlicesAreKept() {
    ReceivedBytes received = new ReceivedBytes();
    ByteBuf read = Unpooled.buffer(1000).writeBytes(new byte[1000]);
    received.add(read.retainedSlice(0, 100), UnpooledByteBufAllocator.DEFAULT);
    received.add(read.retainedSlice(100, 100), UnpooledByteBufAllocator.DEFAULT);
    assertEquals(1, received.size(), "two small slices, one copy");
    assertEquals(200, received.bytes());
    ByteBuf large = read.retainedSlice(200, 600);
    received.add(large, UnpooledByteBufAllocator.DEFAULT);
    assertEquals(2, received.size(), "over half the buffer: kept as it is");
    received.add(read.retainedSlice(800, 100), UnpooledByteBufAllocator.DEFAULT);
    assertEquals(3, received.size(), "a small slice after a kept one starts a new copy");
    read.release();
    assertEquals(1, read.refCnt(), "only the slice kept holds the read buffer: the small ones were copied");
    ByteBuf copy = received.poll();
    assertEquals(200, copy.readableBytes());
    assertEquals(700, received.bytes());
    copy.release();
    assertSame(large, received.poll());
    large.release();
    ByteBuf whole = Unpooled.buffer(10).writeBytes(new byte[10]);
    received.add(whole, UnpooledByteBufAllocator.DEFAULT);
    assertEquals(2, received.size(), "a whole buffer is its own");
    assertEquals(110, received.releaseAll());
    assertTrue(received.isEmpty());
    assertEquals(0, received.bytes());
  }

  @Test
  void aChunkOfHalfItsBufferIsKeptAndACopyTakesSmallChunksUntilExactlyFull() {
    ReceivedBytes received = new ReceivedBytes();
    ByteBuf read = Unpooled.buffer(1000).writeBytes(new byte[1000]);
    ByteBuf half = read.retainedSlice(0, 500);
    received.add(half, UnpooledByteBufAllocator.DEFAULT);
    assertSame(half, received.poll(), "half of its buffer pins no more than it uses: kept");
    half.release();
    read.release();
    int copyCap = 64 * 1024;
    ByteBuf large = Unpooled.buffer(4 * copyCap).writeBytes(new byte[4 * copyCap]);
    received.add(large.retainedSlice(0, 1000), UnpooledByteBufAllocator.DEFAULT);
    received.add(large.retainedSlice(1000, copyCap - 1000), UnpooledByteBufAllocator.DEFAULT);
    assertEquals(1, received.size(), "the second fills the first's copy to its cap exactly");
    received.add(large.retainedSlice(copyCap, 1), UnpooledByteBufAllocator.DEFAULT);
    assertEquals(2, received.size(), "a full copy takes nothing more");
    large.release();
    assertEquals(copyCap + 1, received.releaseAll());
  }

  @Test
  void aWriteInFlightCompletesOnceWithItsFrameOrWithTheStreamsClose() {
    InFlightWrites inFlight = new InFlightWrites();
    List<String> heard = new ArrayList<>();
    ChannelPromise[] streams = new ChannelPromise[4];
    ChannelPromise[] frames = new ChannelPromise[4];
    for (int i = 0; i < 4; i++) {
      int n = i;
      streams[i] = channel.newPromise();
      streams[i].addListener(f -> heard.add(n + (f.isSuccess() ? " written" : " " + f.cause().getMessage())));
      frames[i] = inFlight.link(streams[i], channel);
    }
    frames[1].setSuccess(); // out of order: not the first in line
    frames[0].setFailure(new ClosedChannelException() {
      @Override
      public String getMessage() {
        return "lost";
      }
    });
    inFlight.closed(null); // 2 and 3 still wait: their bytes went before the stream's end
    frames[2].setSuccess(); // after the close: heard already, not again
    assertEquals(List.of("1 written", "0 lost", "2 written", "3 written"), heard);
    InFlightWrites reset = new InFlightWrites();
    ChannelPromise stream = channel.newPromise();
    reset.link(stream, channel);
    reset.closed(new ClosedChannelException());
    assertTrue(stream.cause() instanceof ClosedChannelException);
  }
}
