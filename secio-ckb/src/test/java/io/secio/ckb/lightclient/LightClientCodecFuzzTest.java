package io.secio.ckb.lightclient;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * The light-client codec on any bytes a server can send: only {@link LightClientMessageException}
 * escapes, and what decodes is read strictly, so it re-encodes to exactly the input.
 */
class LightClientCodecFuzzTest {

  @FuzzTest
  void anyMessage(byte[] bytes) {
    LightClientMessage message;
    try {
      message = LightClientCodec.decode(bytes);
    } catch (LightClientMessageException e) {
      return;
    }
    byte[] encoded = LightClientCodec.encode(message);
    assertArrayEquals(bytes, encoded, "one encoding per message");
    try {
      assertEquals(message, LightClientCodec.decode(encoded));
    } catch (LightClientMessageException e) {
      throw new AssertionError("its own encoding does not decode", e);
    }
  }
}
