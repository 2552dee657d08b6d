package io.secio.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.secio.protocol.SecioException;
import io.secio.testing.Hex;
import org.junit.jupiter.api.Test;

/**
 * The byte-level rules of docs/PROTOCOL.md section 7 that run before or after any provider: a NIST secret is
 * exactly the field size, whatever length a provider returned it in, and an X25519 peer key is
 * reduced to its canonical u-coordinate (RFC 7748 section 5) so every provider sees the same input.
 */
class SharedSecretEncodingTest {

  @Test
  void aShortSecretIsLeftPaddedWithZeros() throws Exception {
    assertArrayEquals(Hex.decode("00000a0b0c"), EcdhKeyPair.fixedLength(Hex.decode("0a0b0c"), 5));
    assertArrayEquals(Hex.decode("0000000000"), EcdhKeyPair.fixedLength(new byte[0], 5));
  }

  @Test
  void aSecretOfTheFieldSizeIsKeptAsItIs() throws Exception {
    assertArrayEquals(Hex.decode("ff0a0b0c01"), EcdhKeyPair.fixedLength(Hex.decode("ff0a0b0c01"), 5));
    assertArrayEquals(Hex.decode("000a0b0c01"), EcdhKeyPair.fixedLength(Hex.decode("000a0b0c01"), 5));
  }

  @Test
  void leadingZerosBeyondTheFieldSizeAreDropped() throws Exception {
    assertArrayEquals(Hex.decode("8a0b0c0d01"),
        EcdhKeyPair.fixedLength(Hex.decode("00008a0b0c0d01"), 5));
  }

  @Test
  void aSecretLongerThanTheFieldIsRefused() {
    for (String tooLong : new String[] {"018a0b0c0d01", "00018a0b0c0d01", "01000000000000"}) {
      SecioException e = assertThrows(SecioException.class,
          () -> EcdhKeyPair.fixedLength(Hex.decode(tooLong), 5), tooLong);
      assertEquals(SecioException.Reason.BAD_EPHEMERAL_KEY, e.reason());
    }
  }

  @Test
  void aCanonicalX25519KeyIsUnchangedApartFromTheTopBit() {
    String below = "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"; // p - 1
    assertArrayEquals(Hex.decode(below), X25519KeyPair.canonical(Hex.decode(below)));
    String notAllOnes = "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f7f";
    assertArrayEquals(Hex.decode(notAllOnes), X25519KeyPair.canonical(Hex.decode(notAllOnes)));
    String lowTop = "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7e";
    assertArrayEquals(Hex.decode(lowTop), X25519KeyPair.canonical(Hex.decode(lowTop)));
    String small = "0900000000000000000000000000000000000000000000000000000000000000";
    assertArrayEquals(Hex.decode(small), X25519KeyPair.canonical(Hex.decode(small)));
    assertArrayEquals(Hex.decode(small), X25519KeyPair.canonical(
        Hex.decode("0900000000000000000000000000000000000000000000000000000000000080")),
        "the top bit is masked");
  }

  @Test
  void aKeyFromPTo2To255IsReducedModP() {
    String zero = "0000000000000000000000000000000000000000000000000000000000000000";
    assertArrayEquals(Hex.decode(zero), X25519KeyPair.canonical(
        Hex.decode("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")), "p");
    assertArrayEquals(Hex.decode("0100000000000000000000000000000000000000000000000000000000000000"),
        X25519KeyPair.canonical(
            Hex.decode("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff")),
        "p + 1 with the top bit set");
    assertArrayEquals(Hex.decode("1200000000000000000000000000000000000000000000000000000000000000"),
        X25519KeyPair.canonical(
            Hex.decode("ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")),
        "2^255 - 1 = p + 18");
  }

  @Test
  void canonicalLeavesItsInputAlone() {
    byte[] p = Hex.decode("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff");
    byte[] copy = p.clone();

    X25519KeyPair.canonical(p);

    assertArrayEquals(copy, p);
  }
}
