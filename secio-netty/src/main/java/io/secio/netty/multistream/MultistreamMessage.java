package io.secio.netty.multistream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.secio.netty.multistream.MultistreamException.Reason;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The multistream-select 1.0.0 wire format, in one place:
 *
 * <pre>
 *   +--------------------------+----------------------------+------+
 *   | length: unsigned varint  | text: UTF-8, length-1 bytes | '\n' |
 *   +--------------------------+----------------------------+------+
 *   the length counts the text and the newline; at most 1 KiB here
 * </pre>
 *
 * <p>The answer to {@code ls} is one such message whose text is the protocols, each itself encoded as
 * a message ({@link #encodeList}), as js-libp2p and go-libp2p send it. Stateless and thread-safe.
 */
public final class MultistreamMessage {
  /** The first message of each side. */
  public static final String HEADER = "/multistream/1.0.0";
  /** A responder's refusal of a proposed protocol. */
  public static final String NA = "na";
  /** An initiator's request for the responder's protocols. */
  public static final String LS = "ls";
  /** The longest message accepted, newline included (what go-multistream allows for a protocol). */
  public static final int MAX_MESSAGE_LENGTH_IN_BYTES = 1024;

  private static final byte NEWLINE = '\n';

  private MultistreamMessage() {}

  /**
   * Appends {@code text} as one message.
   *
   * @throws IllegalArgumentException if the text holds a newline or its message would be over the limit
   */
  public static void encode(String text, ByteBuf out) {
    writeRaw(checkedUtf8(text), out);
  }

  /** The UTF-8 of a text that fits in one message. @throws IllegalArgumentException otherwise */
  static byte[] checkedUtf8(String text) {
    if (text.indexOf('\n') >= 0) {
      throw new IllegalArgumentException("a multistream message cannot hold a newline: " + text);
    }
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    if (utf8.length + 1 > MAX_MESSAGE_LENGTH_IN_BYTES) {
      throw new IllegalArgumentException("over " + MAX_MESSAGE_LENGTH_IN_BYTES + " bytes: " + text);
    }
    return utf8;
  }

  /** Appends the answer to {@code ls}: one message holding each protocol as a message. */
  public static void encodeList(List<String> protocols, ByteBuf out) {
    ByteBuf lines = out.alloc().buffer();
    try {
      for (String protocol : protocols) {
        encode(protocol, lines);
      }
      writeRaw(ByteBufUtil.getBytes(lines), out);
    } finally {
      lines.release();
    }
  }

  private static void writeRaw(byte[] body, ByteBuf out) {
    writeUnsignedVarint(body.length + 1, out);
    out.writeBytes(body).writeByte(NEWLINE);
  }

  private static void writeUnsignedVarint(int value, ByteBuf out) {
    while ((value & ~0x7f) != 0) {
      out.writeByte((value & 0x7f) | 0x80);
      value >>>= 7;
    }
    out.writeByte(value);
  }

  /**
   * Reads the next message's text, or returns {@code null} without consuming anything if {@code in}
   * holds only part of one. The length is checked as soon as its bytes are there, before the body
   * is waited for.
   *
   * @throws MultistreamException {@link Reason#MESSAGE_TOO_LONG} or {@link Reason#MALFORMED_MESSAGE}
   */
  public static String decode(ByteBuf in) throws MultistreamException {
    int start = in.readerIndex();
    if (!in.isReadable()) {
      return null;
    }
    int length = in.getUnsignedByte(start);
    int lengthBytes = 1;
    if ((length & 0x80) != 0) {
      // 1024 fits in two varint bytes; a third byte means at least 2^14.
      if (in.readableBytes() < 2) {
        return null;
      }
      int high = in.getUnsignedByte(start + 1);
      if ((high & 0x80) != 0) {
        throw new MultistreamException(Reason.MESSAGE_TOO_LONG, "length of three or more varint bytes");
      }
      if (high == 0) {
        throw new MultistreamException(Reason.MALFORMED_MESSAGE, "length varint not minimal");
      }
      length = (length & 0x7f) | (high << 7);
      lengthBytes = 2;
    }
    if (length > MAX_MESSAGE_LENGTH_IN_BYTES) {
      throw new MultistreamException(Reason.MESSAGE_TOO_LONG, length + " bytes");
    }
    if (length == 0) {
      throw new MultistreamException(Reason.MALFORMED_MESSAGE, "empty message");
    }
    if (in.readableBytes() < lengthBytes + length) {
      return null;
    }
    int textStart = start + lengthBytes;
    int newline = textStart + length - 1;
    if (in.getByte(newline) != NEWLINE) {
      throw new MultistreamException(Reason.MALFORMED_MESSAGE, "no trailing newline");
    }
    if (in.indexOf(textStart, newline, NEWLINE) >= 0) {
      throw new MultistreamException(Reason.MALFORMED_MESSAGE, "newline inside a message");
    }
    String text = utf8(in.nioBuffer(textStart, length - 1));
    in.readerIndex(newline + 1);
    return text;
  }

  private static String utf8(ByteBuffer bytes) throws MultistreamException {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(bytes)
          .toString();
    } catch (CharacterCodingException e) {
      throw new MultistreamException(Reason.MALFORMED_MESSAGE, "not UTF-8", e);
    }
  }
}
