package io.secio.frame.cipher;

import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.HashAlgorithm;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.bouncycastle.crypto.Digest;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.digests.SHA512Digest;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.KeyParameter;

/**
 * secio key stretching (docs/PROTOCOL.md section 8): HMAC with the shared secret as key over the seed {@code key
 * expansion}, expanded until both directions' {@code iv | cipherKey | macKey} are filled.
 *
 * <p>Bouncy Castle's HMAC is used here because it runs once per handshake and, unlike JCA, accepts any
 * key length (the published vectors include an empty secret).
 */
public final class KeyStretcher {
  private static final byte[] SEED = "key expansion".getBytes(StandardCharsets.US_ASCII);

  private KeyStretcher() {}

  /** k1 and k2: k1 is what the preferred side sends with. */
  public record StretchedKeys(DirectionKeys k1, DirectionKeys k2) {
    public void destroy() {
      k1.destroy();
      k2.destroy();
    }

    @Override
    public String toString() {
      return "StretchedKeys{}";
    }
  }

  /** Stretches {@code secret} into k1 and k2 for {@code cipher}. */
  public static StretchedKeys stretch(CipherAlgorithm cipher, HashAlgorithm hash, byte[] secret) {
    int half = cipher.ivSizeInBytes() + cipher.keySizeInBytes() + DirectionKeys.MAC_KEY_SIZE_IN_BYTES;
    byte[] out = expand(hash, secret, 2 * half);
    try {
      return new StretchedKeys(split(cipher, out, 0), split(cipher, out, half));
    } finally {
      Arrays.fill(out, (byte) 0);
    }
  }

  /** The first {@code length} bytes of the expansion. */
  public static byte[] expand(HashAlgorithm hash, byte[] secret, int length) {
    HMac hmac = new HMac(digest(hash));
    hmac.init(new KeyParameter(secret));
    int macSize = hmac.getMacSize();
    byte[] a = mac(hmac, SEED);
    byte[] block = new byte[macSize];
    byte[] out = new byte[length];
    int filled = 0;
    while (filled < length) {
      hmac.update(a, 0, a.length);
      hmac.update(SEED, 0, SEED.length);
      hmac.doFinal(block, 0);
      int n = Math.min(macSize, length - filled);
      System.arraycopy(block, 0, out, filled, n);
      filled += n;
      byte[] next = mac(hmac, a);
      Arrays.fill(a, (byte) 0);
      a = next;
    }
    Arrays.fill(a, (byte) 0);
    Arrays.fill(block, (byte) 0);
    return out;
  }

  private static byte[] mac(HMac hmac, byte[] message) {
    hmac.update(message, 0, message.length);
    byte[] result = new byte[hmac.getMacSize()];
    hmac.doFinal(result, 0);
    return result;
  }

  private static DirectionKeys split(CipherAlgorithm cipher, byte[] out, int offset) {
    int ivEnd = offset + cipher.ivSizeInBytes();
    int keyEnd = ivEnd + cipher.keySizeInBytes();
    byte[] iv = Arrays.copyOfRange(out, offset, ivEnd);
    byte[] key = Arrays.copyOfRange(out, ivEnd, keyEnd);
    byte[] macKey = Arrays.copyOfRange(out, keyEnd, keyEnd + DirectionKeys.MAC_KEY_SIZE_IN_BYTES);
    try {
      return new DirectionKeys(iv, key, macKey);
    } finally {
      Arrays.fill(iv, (byte) 0);
      Arrays.fill(key, (byte) 0);
      Arrays.fill(macKey, (byte) 0);
    }
  }

  private static Digest digest(HashAlgorithm hash) {
    return hash == HashAlgorithm.SHA256 ? new SHA256Digest() : new SHA512Digest();
  }
}
