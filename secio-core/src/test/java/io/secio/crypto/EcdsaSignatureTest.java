package io.secio.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.secio.testing.Hex;
import java.math.BigInteger;
import java.security.SignatureException;
import org.junit.jupiter.api.Test;

/**
 * The strict DER of ECDSA signatures, byte by byte: one encoding per signature, and every other input,
 * however short or long, a {@link SignatureException} (never an index out of bounds).
 */
class EcdsaSignatureTest {

  private static void assertRefused(String hex) {
    assertThrows(SignatureException.class, () -> EcdsaSignature.fromDer(Hex.decode(hex)), hex);
  }

  @Test
  void toDerWritesMinimalPositiveIntegers() {
    assertEquals("3006020101020102",
        Hex.encode(new EcdsaSignature(BigInteger.ONE, BigInteger.TWO).toDer()));
    // A top bit set needs a leading zero to stay positive.
    assertEquals("30070202008002017f",
        Hex.encode(new EcdsaSignature(BigInteger.valueOf(0x80), BigInteger.valueOf(0x7f)).toDer()));
    // A short r and a long s.
    BigInteger top = new BigInteger(1, Hex.decode("80".repeat(32)));
    assertEquals("3026020101" + "0221" + "00" + "80".repeat(32),
        Hex.encode(new EcdsaSignature(BigInteger.ONE, top).toDer()));
  }

  @Test
  void fromDerReadsWhatToDerWrote() throws SignatureException {
    EcdsaSignature rs = new EcdsaSignature(
        BigInteger.ONE.shiftLeft(255).add(BigInteger.TEN), BigInteger.valueOf(0x1234));
    assertEquals(rs, EcdsaSignature.fromDer(rs.toDer()));
    assertEquals(new EcdsaSignature(BigInteger.valueOf(0x80), BigInteger.valueOf(0x7f)),
        EcdsaSignature.fromDer(Hex.decode("30070202008002017f")));
  }

  @Test
  void zeroHasItsOneByteFormAndIsLeftToTheRangeChecks() throws SignatureException {
    // 02 01 00 is the minimal encoding of 0; the verifiers refuse r or s = 0 by range, not here.
    assertEquals(new EcdsaSignature(BigInteger.ZERO, BigInteger.ONE),
        EcdsaSignature.fromDer(Hex.decode("3006020100020101")));
    assertEquals(new EcdsaSignature(BigInteger.ONE, BigInteger.ZERO),
        EcdsaSignature.fromDer(Hex.decode("3006020101020100")));
  }

  @Test
  void truncatedSignaturesAreRefused() {
    assertRefused("");
    assertRefused("30");
    assertRefused("3000");
    assertRefused("30020201");       // r's length byte, no content
    assertRefused("3003020101");     // r, then nothing where s belongs
    assertRefused("300402010102");   // s's tag only
    assertRefused("30050201010201"); // s's length byte, no content
    assertRefused("3006020101020201"); // s claims two bytes, one is there
  }

  @Test
  void nonMinimalIntegersAreRefused() {
    assertRefused("30070202000102017f"); // r = 00 01
    assertRefused("30070201010202007f"); // s = 00 7f
    assertRefused("3008020300008002017f"); // r = 00 00 80
  }

  @Test
  void integersLongerThan33BytesAreRefused() throws SignatureException {
    // 34 bytes: 00 then 33 bytes with the top bit set, positive and minimal, but over 256 bits.
    String r34 = "0222" + "00" + "80".repeat(33);
    assertRefused("3027" + r34 + "020101");
    // 33 bytes, the most a 256-bit value needs, are fine.
    BigInteger top = new BigInteger(1, Hex.decode("80".repeat(32)));
    assertEquals(new EcdsaSignature(top, BigInteger.ONE),
        EcdsaSignature.fromDer(Hex.decode("3026" + "0221" + "00" + "80".repeat(32) + "020101")));
  }

  @Test
  void negativeIntegersAndWrongTagsAreRefused() {
    assertRefused("3006020180020101"); // r = -128
    assertRefused("3006030101020101"); // r tagged BIT STRING
    assertRefused("3106020101020101"); // a SET, not a SEQUENCE
    assertRefused("300702010102010100"); // a byte after s, inside the sequence
    assertRefused("3006020101020101" + "00"); // a byte after the sequence
  }
}
