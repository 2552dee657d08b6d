package io.secio.ckb.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.secio.ckb.CkbException;

/**
 * Every message decoder on any bytes a peer can send: only {@link CkbException} MALFORMED_MESSAGE
 * escapes, and what decodes encodes to bytes that decode to the same encoding (molecule has one
 * encoding per value; extra fields a compatible reader skipped are dropped).
 */
class MessageFuzzTest {

  private interface Decoder<T> {
    T decode(byte[] bytes) throws CkbException;
  }

  private interface Encoder<T> {
    byte[] encode(T value);
  }

  private static <T> void roundTrip(byte[] bytes, Decoder<T> decoder, Encoder<T> encoder) {
    T value;
    try {
      value = decoder.decode(bytes);
    } catch (CkbException e) {
      assertEquals(CkbException.Reason.MALFORMED_MESSAGE, e.reason(), e.getMessage());
      return;
    }
    byte[] encoded = encoder.encode(value);
    try {
      assertArrayEquals(encoded, encoder.encode(decoder.decode(encoded)), "one encoding per value");
    } catch (CkbException e) {
      throw new AssertionError("an encoded message does not decode", e);
    }
  }

  @FuzzTest
  void identifyMessage(byte[] bytes) {
    roundTrip(bytes, IdentifyMessage::decode, m -> IdentifyMessage.encode(m.listenAddrs(), m.observedAddr(), m.identify()));
  }

  @FuzzTest
  void identify(byte[] bytes) {
    roundTrip(bytes, Identify::decode, Identify::encode);
  }

  @FuzzTest
  void ping(byte[] bytes) {
    roundTrip(bytes, PingMessage::decode, PingMessage::encode);
  }

  @FuzzTest
  void discovery(byte[] bytes) {
    roundTrip(bytes, DiscoveryMessage::decode, DiscoveryMessage::encode);
  }

  @FuzzTest
  void sync(byte[] bytes) {
    roundTrip(bytes, SyncMessage::decode, SyncMessage::encode);
  }

  @FuzzTest
  void time(byte[] bytes) {
    roundTrip(bytes, TimeMessage::decode, TimeMessage::encode);
  }
}
