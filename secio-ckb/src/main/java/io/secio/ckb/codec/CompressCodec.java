package io.secio.ckb.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.compression.DecompressionException;
import io.netty.handler.codec.compression.Snappy;
import io.secio.ckb.CkbException;

/**
 * CKB's compress codec ({@code network/src/compress.rs}), inside each length-delimited message of
 * Sync, Relay, Time, Alert, LightClient and Filter:
 *
 * <pre>
 * | flag u8 | body |        the message's length (tentacle's u32 prefix) counts the flag
 * flag bit 7 set:   body is a snappy raw block (varint uncompressed length, then elements)
 * flag bit 7 clear: body is the payload as is;  bits 0-6 are reserved and ignored
 * </pre>
 *
 * <p>Reading, as v0.204+: a message under 2 bytes, an announced length over 8 MiB (checked before
 * anything is decompressed), or a block that is not snappy (an element cut short, a copy from before
 * the start, more or fewer bytes than announced, bytes left over) is {@link
 * CkbException.Reason#BAD_FRAME}; a node bans for it. Writing: snappy (flag 0x80) only for a payload
 * over 1024 bytes whose block is shorter, else flag 0x00; older peers compress regardless, and both
 * flags are read everywhere. Snappy's raw block is Netty's ({@link Snappy}).
 *
 * <p>Stateless and thread-safe.
 */
public final class CompressCodec {
  /** Payloads up to this size are sent as they are. */
  public static final int COMPRESSION_THRESHOLD_IN_BYTES = 1024;
  /** The largest payload a compressed body may announce: 8 MiB. */
  public static final int MAX_UNCOMPRESSED_LENGTH_IN_BYTES = 1 << 23;
  /** A message's shortest length: the flag and one byte. */
  public static final int MIN_MESSAGE_LENGTH_IN_BYTES = 2;
  static final int SNAPPY_FLAG = 0x80;
  static final int RAW_FLAG = 0x00;
  /** snap's varint reader gives up once its shift passes 63 bits. */
  private static final int MAX_VARINT_BYTES = 10;
  /** snappy compresses in fragments of 64 KiB: no copy reaches further back. */
  private static final int FRAGMENT_SIZE_IN_BYTES = 1 << 16;
  /** Netty's encoder keeps a hash table per thread instead of one per message. */
  private static final Snappy ENCODER = Snappy.withHashTableReuse();

  private CompressCodec() {}

  /**
   * The message for {@code payload}: flag then body; {@code payload} is released.
   *
   * @param alloc allocates the flag and a compressed body
   * @param payload the payload; ownership passes to this method
   * @param compress whether the protocol compresses (Filter's v0.204+ writer does not)
   * @return the message, ownership to the caller
   */
  public static ByteBuf encode(ByteBufAllocator alloc, ByteBuf payload, boolean compress) {
    int length = payload.readableBytes();
    if (length == 0) {
      payload.release();
      // A message of the flag alone is under 2 bytes: a v0.204+ reader bans for it.
      throw new IllegalArgumentException("an empty payload cannot be sent on a compress-codec protocol");
    }
    ByteBuf body = payload;
    int flag = RAW_FLAG;
    if (compress && length > COMPRESSION_THRESHOLD_IN_BYTES) {
      ByteBuf block = compress(payload);
      if (block.readableBytes() < length) {
        payload.release();
        body = block;
        flag = SNAPPY_FLAG;
      } else {
        block.release();
      }
    }
    CompositeByteBuf message = alloc.compositeBuffer(2);
    message.addComponents(true, alloc.buffer(1).writeByte(flag), body);
    return message;
  }

  /**
   * One raw block of {@code payload}: its length, then the elements of each 64 KiB fragment, each
   * compressed on its own as snappy's own compressor does (Netty's encoder writes 2-byte offsets, so
   * it is given no more than 64 KiB at once).
   */
  private static ByteBuf compress(ByteBuf payload) {
    int length = payload.readableBytes();
    // Heap buffers of our own: the encoder's many small reads stay out of any leak-detector records.
    ByteBuf input = Unpooled.wrappedBuffer(ByteBufUtil.getBytes(payload));
    ByteBuf block = Unpooled.buffer(length + length / 6 + 32);
    writeVarint(block, length);
    ByteBuf fragment = Unpooled.buffer(FRAGMENT_SIZE_IN_BYTES + FRAGMENT_SIZE_IN_BYTES / 6 + 32);
    for (int at = 0; at < length; at += FRAGMENT_SIZE_IN_BYTES) {
      int size = Math.min(FRAGMENT_SIZE_IN_BYTES, length - at);
      fragment.clear();
      // Netty's encoder reads its input from index 0 to `size` and writes that size first.
      ENCODER.encode(input.slice(at, size), fragment, size);
      fragment.skipBytes(varintSize(size));
      block.writeBytes(fragment);
    }
    return block;
  }

  private static void writeVarint(ByteBuf out, int v) {
    while (v >= 0x80) {
      out.writeByte(v & 0x7F | 0x80);
      v >>>= 7;
    }
    out.writeByte(v);
  }

  private static int varintSize(int v) {
    int size = 1;
    while (v >= 0x80) {
      v >>>= 7;
      size++;
    }
    return size;
  }

  /**
   * The payload of a peer's {@code message}; {@code message} is not released.
   *
   * @param alloc allocates a decompressed payload
   * @param message the message without its length prefix
   * @return the payload (a retained slice of {@code message}, or a new buffer), ownership to the caller
   * @throws CkbException {@link CkbException.Reason#BAD_FRAME}
   */
  public static ByteBuf decode(ByteBufAllocator alloc, ByteBuf message) throws CkbException {
    int length = message.readableBytes();
    if (length < MIN_MESSAGE_LENGTH_IN_BYTES) {
      throw bad("a message of " + length + " bytes, under 2");
    }
    int at = message.readerIndex();
    if ((message.getByte(at) & SNAPPY_FLAG) == 0) {
      return message.retainedSlice(at + 1, length - 1);
    }
    int varintEnd = at + 1;
    long announced = 0;
    for (int shift = 0; ; shift += 7) {
      if (varintEnd == at + length || shift >= 7 * MAX_VARINT_BYTES) {
        throw bad("a snappy block without its length");
      }
      int b = message.getUnsignedByte(varintEnd++);
      announced |= (long) (b & 0x7F) << shift;
      if (b < 0x80) {
        break;
      }
    }
    if (announced < 0 || announced > MAX_UNCOMPRESSED_LENGTH_IN_BYTES) {
      throw bad("a snappy block announcing " + Long.toUnsignedString(announced) + " bytes, over 8 MiB");
    }
    ByteBuf elements = message.slice(varintEnd, at + length - varintEnd);
    if (announced == 0) {
      if (elements.isReadable()) {
        throw bad("a snappy block of 0 bytes with elements");
      }
      return alloc.buffer(0, 0);
    }
    return decompress(elements, (int) announced);
  }

  private static ByteBuf decompress(ByteBuf elements, int announced) throws CkbException {
    byte[] block = ByteBufUtil.getBytes(elements);
    String refusal = SnappyElements.refusal(block, announced);
    if (refusal != null) {
      throw bad("not a snappy block: " + refusal);
    }
    // Netty reads the length itself (4 bytes at most): give it the minimal form of the one read here.
    ByteBuf preamble = Unpooled.buffer(5);
    writeVarint(preamble, announced);
    ByteBuf out = Unpooled.buffer(announced, announced);
    try {
      new Snappy().decode(Unpooled.wrappedBuffer(preamble, Unpooled.wrappedBuffer(block)), out);
    } catch (DecompressionException | IndexOutOfBoundsException | IllegalArgumentException e) {
      out.release();
      throw new CkbException(CkbException.Reason.BAD_FRAME, "not a snappy block: " + e.getMessage(), false, null);
    }
    if (out.readableBytes() != announced) {
      out.release();
      throw bad("a snappy block of " + out.readableBytes() + " bytes, announcing " + announced);
    }
    return out;
  }

  private static CkbException bad(String message) {
    return new CkbException(CkbException.Reason.BAD_FRAME, message);
  }
}
