package io.secio.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.testing.Hex;
import org.junit.jupiter.api.Test;

/** The raw key handed to providers: copies in and out, zeroed and refused once destroyed. */
class DestroyableKeyTest {
  private static final byte[] KEY = Hex.decode("000102030405060708090a0b0c0d0e0f");

  @Test
  void aLiveKeyIsARawCopyOfTheBytesItWasGiven() {
    byte[] given = KEY.clone();
    DestroyableKey key = new DestroyableKey(given, "AES");

    given[0] = 0x7f;

    assertEquals("AES", key.getAlgorithm());
    assertEquals("RAW", key.getFormat(), "providers read getEncoded() only for RAW keys");
    assertFalse(key.isDestroyed());
    assertArrayEquals(KEY, key.getEncoded(), "the key copied its input");
    byte[] encoded = key.getEncoded();
    encoded[1] = 0x7f;
    assertArrayEquals(KEY, key.getEncoded(), "getEncoded() hands out a copy");
    assertNotSame(key.ownedBytes(), key.getEncoded());
  }

  @Test
  void destroyZeroesTheOwnedBytesAndRefusesLaterUse() {
    DestroyableKey key = new DestroyableKey(KEY, "HmacSHA256");
    byte[] owned = key.ownedBytes();

    key.destroy();

    assertTrue(key.isDestroyed());
    assertArrayEquals(new byte[KEY.length], owned);
    assertThrows(IllegalStateException.class, key::getEncoded);
  }

  @Test
  void toStringNamesTheAlgorithmAndSizeButNotTheBytes() {
    String s = new DestroyableKey(KEY, "AES").toString();

    assertEquals("DestroyableKey{AES, 16 bytes}", s);
  }
}
