package io.secio.crypto;

import java.security.spec.KeySpec;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * How an Ed25519 key reaches a backend: the JDK has no key spec that every provider here takes for
 * both halves, and the verifier wants the point that key validation already decoded.
 */
public final class Ed25519KeySpecs {
  /** Ed25519 keys and points are 32 bytes. */
  public static final int KEY_SIZE_IN_BYTES = 32;
  /** Ed25519 signatures are 64 bytes. */
  public static final int SIGNATURE_SIZE_IN_BYTES = 64;

  private Ed25519KeySpecs() {}

  /**
   * A private key: its 32-byte seed and the public key derived from it. The backend copies what it
   * keeps; the caller wipes its arrays.
   */
  public record Private(byte[] seed, byte[] publicData) implements KeySpec {
    /** Never the seed. */
    @Override
    public String toString() {
      return "Ed25519 private key";
    }
  }

  /**
   * A validated public key: its 32-byte encoding and the point Bouncy Castle decoded from it (on the
   * curve, canonical, not of small order; the caller checked).
   */
  public record Public(byte[] encoded, Ed25519.PublicPoint point) implements KeySpec {}
}
