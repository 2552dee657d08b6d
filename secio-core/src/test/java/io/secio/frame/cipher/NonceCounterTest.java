package io.secio.frame.cipher;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.gson.JsonObject;
import io.secio.protocol.SecioException;
import io.secio.testing.Hex;
import io.secio.testing.Vectors;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class NonceCounterTest {

  @Test
  void matchesTheCounterVectors() throws SecioException {
    JsonObject v = Vectors.kats().getAsJsonObject("aeadNonceCounter");
    NonceCounter counter = new NonceCounter();
    byte[] frame1 = counter.next().clone();
    assertArrayEquals(Vectors.hex(v, "frame1"), frame1);
    byte[] n = null;
    for (int i = 2; i <= 256; i++) {
      n = counter.next();
    }
    assertArrayEquals(Vectors.hex(v, "frame256"), n);
    // frame 2^32: start from the nonce of frame 2^32 - 1 (little-endian ff ff ff ff).
    byte[] before = new byte[12];
    Arrays.fill(before, 0, 4, (byte) 0xff);
    assertArrayEquals(Vectors.hex(v, "frame2^32"), new NonceCounter(before).next());
  }

  @Test
  void refusesToWrap() throws SecioException {
    byte[] nearEnd = new byte[12];
    Arrays.fill(nearEnd, (byte) 0xff);
    nearEnd[0] = (byte) 0xfe;
    NonceCounter counter = new NonceCounter(nearEnd);
    byte[] last = counter.next();
    assertEquals("ffffffffffffffffffffffff", Hex.encode(last));
    SecioException e = assertThrows(SecioException.class, counter::next);
    assertEquals(SecioException.Reason.NONCE_EXHAUSTED, e.reason());
    // and stays exhausted
    assertEquals(SecioException.Reason.NONCE_EXHAUSTED,
        assertThrows(SecioException.class, counter::next).reason());
  }
}
