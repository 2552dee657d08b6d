package io.secio.crypto;

import io.secio.protocol.CipherAlgorithm;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.List;
import javax.crypto.AEADBadTagException;
import javax.crypto.BadPaddingException;
import javax.crypto.Cipher;

/**
 * AES-GCM or ChaCha20-Poly1305 on one JCA provider, through the provider's {@code ByteBuffer} API.
 * One {@link Cipher} serves every message: it is re-initialised with each call's nonce, which the JDK
 * allows because a sealing nonce never repeats (the JDK refuses to seal twice under one key and
 * nonce, and so may other providers: that is a feature).
 *
 * <p>The key lives in a {@link DestroyableKey} this class owns; {@link #destroy()} zeroes it, re-keys
 * the {@code Cipher} with a zero key and drops it. Not thread-safe.
 */
final class JcaAead implements AeadCipher {
  static final int NONCE_SIZE_IN_BYTES = 12;
  static final int TAG_SIZE_IN_BYTES = CipherAlgorithm.TAG_SIZE_IN_BYTES;

  private final JcaProfile profile;
  private final Primitive primitive;
  private final DestroyableKey key;
  private Cipher cipher;
  private boolean destroyed;
  /** The nonce of the previous call; the JDK's ChaCha20-Poly1305 refuses it even for opening. */
  private byte[] lastNonce;

  JcaAead(JcaProfile profile, CipherAlgorithm algorithm, byte[] key) throws GeneralSecurityException {
    if (!algorithm.isAead()) {
      throw new IllegalArgumentException(algorithm.wireName() + " is not an AEAD");
    }
    if (key == null || key.length != algorithm.keySizeInBytes()) {
      throw new IllegalArgumentException(
          algorithm.wireName() + " needs a " + algorithm.keySizeInBytes() + "-byte key");
    }
    this.profile = profile;
    this.primitive = Primitive.of(algorithm);
    this.cipher = profile.cipher(profile.aeadTransformation(primitive));
    this.key = new DestroyableKey(key, JcaProfile.aeadKeyAlgorithm(primitive));
  }

  @Override
  public int tagSizeInBytes() {
    return TAG_SIZE_IN_BYTES;
  }

  @Override
  public void seal(byte[] nonce, ByteBuffer plaintext, ByteBuffer out)
      throws GeneralSecurityException {
    checkNonce(nonce);
    checkLive();
    lastNonce = nonce.clone();
    cipher.init(Cipher.ENCRYPT_MODE, key, JcaProfile.aeadParameters(primitive, nonce));
    cipher.doFinal(plaintext, out);
  }

  @Override
  public void open(byte[] nonce, ByteBuffer ciphertextAndTag, ByteBuffer out)
      throws GeneralSecurityException {
    checkNonce(nonce);
    checkLive();
    int length = ciphertextAndTag.remaining();
    if (length < TAG_SIZE_IN_BYTES) {
      throw new AEADBadTagException("input shorter than the tag");
    }
    if (Arrays.equals(nonce, lastNonce)) {
      // Opening twice under one nonce is harmless, but some providers refuse any repeated
      // key and nonce on one Cipher object; a fresh one has no memory of the last call.
      cipher = profile.cipher(profile.aeadTransformation(primitive));
    }
    lastNonce = nonce.clone();
    cipher.init(Cipher.DECRYPT_MODE, key, JcaProfile.aeadParameters(primitive, nonce));
    int start = out.position();
    try {
      cipher.doFinal(ciphertextAndTag, out);
    } catch (AEADBadTagException e) {
      wipe(out, start, length - TAG_SIZE_IN_BYTES);
      throw e;
    } catch (BadPaddingException e) { // a provider that reports a bad tag less precisely
      wipe(out, start, length - TAG_SIZE_IN_BYTES);
      AEADBadTagException badTag = new AEADBadTagException("tag mismatch");
      badTag.initCause(e);
      throw badTag;
    }
  }

  /**
   * Zeroes what a provider may already have decrypted into {@code out} before finding the tag bad
   * (BoringSSL decrypts before it compares), and puts the position back.
   */
  private static void wipe(ByteBuffer out, int start, int length) {
    int end = Math.min(out.limit(), start + length);
    for (int i = start; i < end; i++) {
      out.put(i, (byte) 0);
    }
    out.position(start);
  }

  @Override
  public void destroy() {
    if (destroyed) {
      return;
    }
    destroyed = true;
    try {
      // Overwrites the provider's key schedule where it keeps one per Cipher; best effort only.
      byte[] zeroKey = new byte[key.ownedBytes().length];
      cipher.init(Cipher.ENCRYPT_MODE, new DestroyableKey(zeroKey, key.getAlgorithm()),
          JcaProfile.aeadParameters(primitive, new byte[NONCE_SIZE_IN_BYTES]));
    } catch (GeneralSecurityException | RuntimeException e) {
      // A provider that refuses the zero key keeps its copy until the Cipher is collected.
    } finally {
      key.destroy();
      cipher = null;
      lastNonce = null;
    }
  }

  /** The key arrays this object owns, for tests that check {@link #destroy()} zeroed them. */
  List<byte[]> ownedKeyArrays() {
    return List.of(key.ownedBytes());
  }

  private void checkLive() {
    if (destroyed) {
      throw new IllegalStateException("AEAD destroyed");
    }
  }

  private static void checkNonce(byte[] nonce) {
    if (nonce == null || nonce.length != NONCE_SIZE_IN_BYTES) {
      throw new IllegalArgumentException("an AEAD nonce is " + NONCE_SIZE_IN_BYTES + " bytes");
    }
  }

  @Override
  public String toString() {
    return "JcaAead{" + primitive + ", " + profile.name() + "}";
  }
}
