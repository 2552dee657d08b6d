package io.secio.netty.multistream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.secio.netty.multistream.MultistreamException.Reason;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The wire format, byte-exact, with every way a message can be malformed. */
class MultistreamMessageTest {
  static final String HEADER_HEX = "13" + "2f6d756c746973747265616d2f312e302e30" + "0a";
  static final String SECIO_HEX = "0d" + "2f736563696f2f312e302e30" + "0a";
  static final String NA_HEX = "03" + "6e61" + "0a";

  static String encoded(String... texts) {
    ByteBuf out = Unpooled.buffer();
    try {
      for (String text : texts) {
        MultistreamMessage.encode(text, out);
      }
      return ByteBufUtil.hexDump(out);
    } finally {
      out.release();
    }
  }

  @Test
  void headerSecioAndNaAreTheBytesOfTheSpec() {
    assertEquals(HEADER_HEX, encoded(MultistreamMessage.HEADER));
    assertEquals(SECIO_HEX, encoded(Multistream.SECIO));
    assertEquals(NA_HEX, encoded(MultistreamMessage.NA));
  }

  @Test
  void anLsAnswerIsOneMessageHoldingEachProtocolAsAMessage() {
    ByteBuf out = Unpooled.buffer();
    try {
      MultistreamMessage.encodeList(List.of("/secio/1.0.0", "/a"), out);
      // 14 + 4 bytes of lines, plus the closing newline: 19 = 0x13
      assertEquals("13" + SECIO_HEX + "03" + "2f61" + "0a" + "0a", ByteBufUtil.hexDump(out));
    } finally {
      out.release();
    }
  }

  @Test
  void aLengthOfTwoVarintBytesIsEncodedLittleEndianIn7BitGroups() {
    String text = "a".repeat(MultistreamMessage.MAX_MESSAGE_LENGTH_IN_BYTES - 1);
    assertEquals("8008" + "61".repeat(1023) + "0a", encoded(text));
  }

  @Test
  void eachPrefixOfAMessageIsIncompleteAndConsumesNothing() throws MultistreamException {
    byte[] wire = ByteBufUtil.decodeHexDump(HEADER_HEX + SECIO_HEX);
    for (int k = 0; k < HEADER_HEX.length() / 2; k++) {
      ByteBuf in = Unpooled.wrappedBuffer(wire, 0, k);
      assertNull(MultistreamMessage.decode(in), "prefix of " + k + " bytes");
      assertEquals(0, in.readerIndex());
    }
    ByteBuf in = Unpooled.wrappedBuffer(wire);
    assertEquals(MultistreamMessage.HEADER, MultistreamMessage.decode(in));
    assertEquals(Multistream.SECIO, MultistreamMessage.decode(in));
    assertNull(MultistreamMessage.decode(in));
  }

  @Test
  void theLongestMessageIsAccepted() throws MultistreamException {
    String text = "\u00e9".repeat(511) + "a"; // 1023 bytes of UTF-8, 512 characters
    ByteBuf in = Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(encoded(text)));
    assertEquals(text, MultistreamMessage.decode(in));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
    "00, MALFORMED_MESSAGE",             // empty: not even the newline
    "8000, MALFORMED_MESSAGE",           // length varint with a needless zero byte
    "8108, MESSAGE_TOO_LONG",            // 1025, known from the two length bytes alone
    "ff7f, MESSAGE_TOO_LONG",            // 16383
    "808001, MESSAGE_TOO_LONG",          // three length bytes
    "03616263, MALFORMED_MESSAGE",       // no trailing newline
    "030a610a, MALFORMED_MESSAGE",       // a newline inside
    "03c3280a, MALFORMED_MESSAGE",       // not UTF-8
    "04eda0800a, MALFORMED_MESSAGE",     // a UTF-16 surrogate in UTF-8 (CESU), not valid UTF-8
    "04c0af610a, MALFORMED_MESSAGE",     // an overlong encoding of '/'
  })
  void malformedInputFailsWithItsReason(String hex, Reason reason) {
    ByteBuf in = Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(hex));
    assertEquals(reason, assertThrows(MultistreamException.class, () -> MultistreamMessage.decode(in)).reason());
  }

  @Test
  void textsThatCannotBeAMessageAreRefusedWhenEncoding() {
    ByteBuf out = Unpooled.buffer();
    try {
      assertThrows(IllegalArgumentException.class, () -> MultistreamMessage.encode("a\nb", out));
      assertThrows(IllegalArgumentException.class, () -> MultistreamMessage.encode("a".repeat(1024), out));
      assertEquals(0, out.readableBytes());
    } finally {
      out.release();
    }
  }
}
