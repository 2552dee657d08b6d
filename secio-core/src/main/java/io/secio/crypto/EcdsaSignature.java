package io.secio.crypto;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.security.SignatureException;
import java.util.Arrays;

/**
 * An ECDSA signature {@code (r, s)} and its strict DER form {@code SEQUENCE { INTEGER r, INTEGER s }}
 * for curves of up to 256 bits. Immutable.
 *
 * <p>Parsing accepts exactly one encoding per signature (minimal short-form lengths, minimal positive
 * integers, nothing after the sequence), so a signature cannot be re-encoded into a second valid one.
 * The one DER codec of ECDSA signatures: the identity layer checks a peer's signature with it, and
 * {@link JcaSignatures} reads and writes Bouncy Castle's with it.
 *
 * @param r the signature's r, positive
 * @param s the signature's s, positive
 */
public record EcdsaSignature(BigInteger r, BigInteger s) {
  private static final int SEQUENCE = 0x30;
  private static final int INTEGER = 0x02;
  /** A positive 256-bit integer needs at most 33 bytes (a leading zero when the top bit is set). */
  private static final int MAX_INTEGER_SIZE_IN_BYTES = 33;

  /**
   * Parses strict DER.
   *
   * @throws SignatureException if {@code der} is not the DER encoding of two positive integers
   */
  public static EcdsaSignature fromDer(byte[] der) throws SignatureException {
    // Short-form lengths only: the longest valid body (2 + 33 + 2 + 33 = 70 bytes) is under 128.
    if (der.length < 2 || (der[0] & 0xff) != SEQUENCE || (der[1] & 0xff) != der.length - 2) {
      throw new SignatureException("not a DER sequence of the right length");
    }
    int rEnd = integerEnd(der, 2);
    int sEnd = integerEnd(der, rEnd);
    if (sEnd != der.length) {
      throw new SignatureException("trailing bytes in signature");
    }
    return new EcdsaSignature(integerAt(der, 2, rEnd), integerAt(der, rEnd, sEnd));
  }

  /** Checks the INTEGER at {@code offset} and returns the offset after it. */
  private static int integerEnd(byte[] der, int offset) throws SignatureException {
    if (offset + 2 > der.length || (der[offset] & 0xff) != INTEGER) {
      throw new SignatureException("expected an INTEGER");
    }
    int length = der[offset + 1] & 0xff;
    int content = offset + 2;
    if (length == 0 || length > MAX_INTEGER_SIZE_IN_BYTES || content + length > der.length) {
      throw new SignatureException("bad INTEGER length");
    }
    if ((der[content] & 0x80) != 0) {
      throw new SignatureException("negative INTEGER");
    }
    if (length > 1 && der[content] == 0 && (der[content + 1] & 0x80) == 0) {
      throw new SignatureException("INTEGER not minimally encoded");
    }
    return content + length;
  }

  private static BigInteger integerAt(byte[] der, int offset, int end) {
    return new BigInteger(1, Arrays.copyOfRange(der, offset + 2, end));
  }

  /** The DER encoding; {@code r} and {@code s} must be positive. */
  public byte[] toDer() {
    byte[] rBytes = r.toByteArray();
    byte[] sBytes = s.toByteArray();
    ByteArrayOutputStream out = new ByteArrayOutputStream(6 + rBytes.length + sBytes.length);
    out.write(SEQUENCE);
    out.write(4 + rBytes.length + sBytes.length);
    out.write(INTEGER);
    out.write(rBytes.length);
    out.writeBytes(rBytes);
    out.write(INTEGER);
    out.write(sBytes.length);
    out.writeBytes(sBytes);
    return out.toByteArray();
  }
}
