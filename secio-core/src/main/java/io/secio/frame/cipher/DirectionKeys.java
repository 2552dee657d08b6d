package io.secio.frame.cipher;

import java.util.Arrays;

/**
 * The keys of one direction after stretching (docs/PROTOCOL.md section 8): {@code iv | cipherKey | macKey}. AEAD
 * ciphers use only {@code cipherKey}. Holds secrets: {@link #destroy()} zeroes them and {@code
 * toString} never shows them. Not thread-safe.
 */
public final class DirectionKeys {
  /** The macKey size of every cipher. */
  public static final int MAC_KEY_SIZE_IN_BYTES = 20;

  private final byte[] iv;
  private final byte[] cipherKey;
  private final byte[] macKey;

  public DirectionKeys(byte[] iv, byte[] cipherKey, byte[] macKey) {
    this.iv = iv.clone();
    this.cipherKey = cipherKey.clone();
    this.macKey = macKey.clone();
  }

  public byte[] iv() {
    return iv.clone();
  }

  public byte[] cipherKey() {
    return cipherKey.clone();
  }

  public byte[] macKey() {
    return macKey.clone();
  }

  /** Zeroes the keys. */
  public void destroy() {
    Arrays.fill(iv, (byte) 0);
    Arrays.fill(cipherKey, (byte) 0);
    Arrays.fill(macKey, (byte) 0);
  }

  @Override
  public String toString() {
    return "DirectionKeys{cipherKey=" + cipherKey.length + " bytes}";
  }
}
