package io.secio.ckb.header;

import java.nio.charset.StandardCharsets;
import org.bouncycastle.crypto.digests.Blake2bDigest;

/**
 * ckbhash: BLAKE2b with a 32-byte digest, no key, no salt and the personalization
 * {@code ckb-default-hash} (CKB's {@code util/hash}). Every hash CKB puts in a header, a block hash,
 * a PoW hash, an MMR node, is one. The only class that touches BLAKE2b: Bouncy Castle's
 * {@link Blake2bDigest} serves it.
 *
 * <p>An instance is a running hash and is not thread-safe; the static methods are.
 */
public final class Ckbhash {
  /** Size of a ckbhash output. */
  public static final int HASH_SIZE_IN_BYTES = 32;

  private static final byte[] PERSONALIZATION = "ckb-default-hash".getBytes(StandardCharsets.US_ASCII);

  private final Blake2bDigest digest =
      new Blake2bDigest(null, HASH_SIZE_IN_BYTES, null, PERSONALIZATION);

  /** A new running hash, empty. */
  public Ckbhash() {}

  /**
   * Adds bytes to the running hash.
   *
   * @param bytes holds the input
   * @param offset where it starts
   * @param length how many bytes
   * @return this
   */
  public Ckbhash update(byte[] bytes, int offset, int length) {
    digest.update(bytes, offset, length);
    return this;
  }

  /**
   * Adds bytes to the running hash.
   *
   * @param bytes the input
   * @return this
   */
  public Ckbhash update(byte[] bytes) {
    return update(bytes, 0, bytes.length);
  }

  /**
   * Writes the hash of everything added since the last finish and starts again empty.
   *
   * @param out receives 32 bytes
   * @param offset where they go
   */
  public void finish(byte[] out, int offset) {
    digest.doFinal(out, offset);
  }

  /**
   * The hash of everything added since the last finish; starts again empty.
   *
   * @return 32 bytes
   */
  public byte[] finish() {
    byte[] out = new byte[HASH_SIZE_IN_BYTES];
    finish(out, 0);
    return out;
  }

  /**
   * ckbhash of {@code bytes[offset, offset + length)}.
   *
   * @param bytes holds the input
   * @param offset where it starts
   * @param length how many bytes
   * @return 32 bytes
   */
  public static byte[] hash(byte[] bytes, int offset, int length) {
    return new Ckbhash().update(bytes, offset, length).finish();
  }

  /**
   * ckbhash of the concatenation of {@code parts}.
   *
   * @param parts the input, in order
   * @return 32 bytes
   */
  public static byte[] hash(byte[]... parts) {
    Ckbhash hash = new Ckbhash();
    for (byte[] part : parts) {
      hash.update(part);
    }
    return hash.finish();
  }
}
