package io.secio.identity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.testing.Hex;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import org.bouncycastle.asn1.ASN1EncodableVector;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.junit.jupiter.api.Test;

/** The secp256k1 signature rules of docs/PROTOCOL.md section 3: deterministic, DER, low-S, high-S rejected. */
class Secp256k1SignatureTest {
  private static final BigInteger N = CustomNamedCurves.getByName("secp256k1").getN();
  private static final byte[] MESSAGE = "Satoshi Nakamoto".getBytes(StandardCharsets.US_ASCII);

  private static IdentityKeyPair keyOne() {
    return IdentityKeyPair.fromProtobuf(KeyProtobufs.encode(KeyType.SECP256K1, Hex.decode(
        "0000000000000000000000000000000000000000000000000000000000000001")));
  }

  /** A widely published RFC 6979 secp256k1 vector (private key 1, SHA-256, low S). */
  @Test
  void signatureIsTheRfc6979One() {
    assertEquals(
        "3045022100934b1ea10a4b3c1757e2b0c017d0b6143ce3c9a7e6a4a49860d7a6ab210ee3d8"
            + "02202442ce9d2b916064108014783e923ec36b49743e2ffa1c4496f01a512aafd9e5",
        Hex.encode(keyOne().sign(MESSAGE)));
  }

  @Test
  void signingIsDeterministicAndAlwaysLowS() {
    IdentityKeyPair pair = IdentityKeyPair.generate(KeyType.SECP256K1, new SecureRandom());
    for (int i = 0; i < 64; i++) {
      byte[] message = ("message " + i).getBytes(StandardCharsets.US_ASCII);
      byte[] signature = pair.sign(message);
      assertArrayEquals(signature, pair.sign(message));
      BigInteger[] rs = decode(signature);
      assertTrue(rs[1].compareTo(N.shiftRight(1)) <= 0, "high S for message " + i);
      // About half of the raw signatures come out high-S; their twin (r, n - s) must not verify.
      byte[] high = encode(rs[0], N.subtract(rs[1]));
      assertFalse(pair.publicKey().verify(message, high), "high-S twin accepted, message " + i);
      assertTrue(pair.publicKey().verify(message, signature));
    }
  }

  @Test
  void highSTwinOfOwnSignatureIsRejected() {
    IdentityKeyPair pair = keyOne();
    byte[] signature = pair.sign(MESSAGE);
    BigInteger[] rs = decode(signature);
    assertTrue(pair.publicKey().verify(MESSAGE, signature));
    assertFalse(pair.publicKey().verify(MESSAGE, encode(rs[0], N.subtract(rs[1]))));
  }

  @Test
  void nonDerAndOutOfRangeSignaturesAreRejected() {
    IdentityKeyPair pair = keyOne();
    IdentityPublicKey key = pair.publicKey();
    byte[] signature = pair.sign(MESSAGE);
    BigInteger[] rs = decode(signature);

    byte[] trailing = IdentityKeyVectorsTest.concat(signature, new byte[] {0});
    assertFalse(key.verify(MESSAGE, trailing), "trailing byte");
    byte[] longFormLength = IdentityKeyVectorsTest.concat(
        new byte[] {0x30, (byte) 0x81, signature[1]},
        Arrays.copyOfRange(signature, 2, signature.length));
    assertFalse(key.verify(MESSAGE, longFormLength), "long-form length");
    byte[] paddedR = rawSequence(
        IdentityKeyVectorsTest.concat(new byte[] {0}, rs[0].toByteArray()), rs[1].toByteArray());
    assertFalse(key.verify(MESSAGE, paddedR), "non-minimal r");
    assertFalse(key.verify(MESSAGE, encode(rs[0].add(N), rs[1])), "r + n");
    assertFalse(key.verify(MESSAGE, encode(rs[0], BigInteger.ZERO)), "s = 0");
    assertFalse(key.verify(MESSAGE, encode(BigInteger.ZERO, rs[1])), "r = 0");
    assertFalse(key.verify(MESSAGE, encode(rs[0].negate(), rs[1])), "negative r");
  }

  private static BigInteger[] decode(byte[] der) {
    ASN1Sequence sequence = ASN1Sequence.getInstance(der);
    return new BigInteger[] {
      ASN1Integer.getInstance(sequence.getObjectAt(0)).getValue(),
      ASN1Integer.getInstance(sequence.getObjectAt(1)).getValue()
    };
  }

  private static byte[] encode(BigInteger r, BigInteger s) {
    ASN1EncodableVector v = new ASN1EncodableVector();
    v.add(new ASN1Integer(r));
    v.add(new ASN1Integer(s));
    try {
      return new DERSequence(v).getEncoded(ASN1Encoding.DER);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static byte[] rawSequence(byte[] r, byte[] s) {
    byte[] rTlv = IdentityKeyVectorsTest.concat(new byte[] {0x02, (byte) r.length}, r);
    byte[] sTlv = IdentityKeyVectorsTest.concat(new byte[] {0x02, (byte) s.length}, s);
    return IdentityKeyVectorsTest.concat(
        new byte[] {0x30, (byte) (rTlv.length + sTlv.length)}, rTlv, sTlv);
  }
}
