package io.secio.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.secio.frame.Frames;
import java.nio.ByteBuffer;

/**
 * How {@link SecioFrameDecoder} gathers reads into frames, copying only the frame that straddles two
 * reads. Netty's merge cumulator copies every read that arrives while part of a frame waits, and the
 * whole of what waits again whenever a frame passed on is still held (an echo holds each until it has
 * written it back): with 64 KiB frames and reads of at most 64 KiB, that is one and a half to two
 * copies of the stream. Here a read that completes the waiting frame gives up just the bytes the
 * frame lacks, copied behind the waiting part; the rest of the read is used where it lies, as the
 * second part of a two-part buffer whose parts end at a frame boundary. Each frame thus lies in one
 * piece of memory, which a provider reads without another copy; a stream is copied at most once, and
 * not at all where frames end where reads end.
 *
 * <p>The waiting part is never given room for more than has arrived plus what the read brings (or
 * double what waits, while a long frame trickles in), so a declared length is not allocated up front.
 * A header not yet complete, a length the decoder will refuse, a whole frame left waiting (after the
 * decoder failed) and a read in several pieces go to Netty's merge cumulator.
 */
final class FrameCumulator implements ByteToMessageDecoder.Cumulator {
  private final long maxFrameSizeInBytes;

  /** For a decoder whose payloads are at most {@code maxFrameLength} bytes. */
  FrameCumulator(int maxFrameLength) {
    this.maxFrameSizeInBytes = Frames.HEADER_SIZE_IN_BYTES + (long) maxFrameLength;
  }

  @Override
  public ByteBuf cumulate(ByteBufAllocator alloc, ByteBuf cumulation, ByteBuf in) {
    if (!cumulation.isReadable() && in.isContiguous()) {
      cumulation.release();
      return in;
    }
    long frame = frameSize(cumulation, in);
    if (frame < 0 || frame > maxFrameSizeInBytes || frame <= cumulation.readableBytes()
        || !in.isContiguous()) {
      return ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(alloc, inOnePiece(alloc, cumulation, in), in);
    }
    // The decoder has taken every whole frame, so what waits is the start of one frame.
    int waiting = cumulation.readableBytes();
    int take = (int) Math.min(frame - waiting, in.readableBytes());
    ByteBuf head;
    try {
      head = roomFor(alloc, cumulation, take, frame);
      head.writeBytes(in, take);
    } catch (Throwable t) {
      in.release();
      throw t;
    }
    if (!in.isReadable()) {
      in.release();
      return head;
    }
    CompositeByteBuf parts = alloc.compositeBuffer(2);
    parts.addComponents(true, head, in);
    return parts;
  }

  /**
   * {@code cumulation} itself unless it is the two-part buffer of an earlier read, whose waiting bytes
   * are then copied into one buffer with room for {@code in}: the merge cumulator would append a
   * third part, and a frame across two parts would be copied again to be opened.
   */
  private static ByteBuf inOnePiece(ByteBufAllocator alloc, ByteBuf cumulation, ByteBuf in) {
    if (!(cumulation instanceof CompositeByteBuf)) {
      return cumulation;
    }
    try {
      return moved(alloc, cumulation, cumulation.readableBytes() + in.readableBytes());
    } catch (Throwable t) {
      in.release();
      throw t;
    }
  }

  /**
   * {@code cumulation} if it can take {@code take} more bytes where it is (its own, in one piece);
   * otherwise a new buffer holding what waits, with room for the rest of the frame if this read
   * completes it, or else for this read and at least as much again.
   */
  private static ByteBuf roomFor(ByteBufAllocator alloc, ByteBuf cumulation, int take, long frame) {
    int waiting = cumulation.readableBytes();
    if (!(cumulation instanceof CompositeByteBuf) && cumulation.refCnt() == 1
        && !cumulation.isReadOnly() && cumulation.maxFastWritableBytes() >= take) {
      return cumulation;
    }
    long capacity = waiting + take == frame
        ? frame
        : Math.min(frame, Math.max((long) waiting + take, 2L * waiting));
    return moved(alloc, cumulation, (int) capacity);
  }

  /** A new buffer of {@code capacity} bytes holding what waits in {@code cumulation}, released. */
  private static ByteBuf moved(ByteBufAllocator alloc, ByteBuf cumulation, int capacity) {
    ByteBuf copy = alloc.ioBuffer(capacity);
    try {
      copy.writeBytes(cumulation, cumulation.readerIndex(), cumulation.readableBytes());
    } catch (Throwable t) {
      copy.release();
      throw t;
    }
    cumulation.release();
    return copy;
  }

  /**
   * Header plus payload of the frame that starts at {@code cumulation}'s reader index, its length
   * field read across both buffers where needed; -1 while the length field is incomplete.
   */
  private static long frameSize(ByteBuf cumulation, ByteBuf in) {
    int header = Frames.HEADER_SIZE_IN_BYTES;
    int waiting = cumulation.readableBytes();
    if (waiting >= header) {
      return header + SecioFrameDecoder.declaredLength(cumulation, cumulation.readerIndex());
    }
    if (waiting + in.readableBytes() < header) {
      return -1;
    }
    ByteBuffer split = ByteBuffer.allocate(header);
    cumulation.getBytes(cumulation.readerIndex(), split.array(), 0, waiting);
    in.getBytes(in.readerIndex(), split.array(), waiting, header - waiting);
    return header + Frames.declaredLength(split);
  }
}
