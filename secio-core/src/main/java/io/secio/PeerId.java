package io.secio;

import io.secio.crypto.Sha256;
import java.util.Arrays;
import java.util.Objects;

/**
 * A peer id: a multihash, shown in base58 (docs/PROTOCOL.md section 3). A plain value: which key an
 * id belongs to depends on the dialect, so deriving and matching ids are {@link Dialect}'s ({@link
 * Dialect#peerId}, {@link Dialect#matches}). Immutable, thread-safe, equal when the multihashes are
 * equal.
 *
 * <p>Only the two multihashes a public key can produce are peer ids: the identity multihash
 * {@code 0x00 len bytes} of at most 42 bytes (a libp2p id of an Ed25519 or secp256k1 key), and
 * sha2-256 {@code 0x12 0x20 digest} (a libp2p id of an RSA or ECDSA key, and every tentacle id).
 */
public final class PeerId {
  private static final int IDENTITY_CODE = 0x00;
  private static final int SHA2_256_CODE = 0x12;
  private static final int SHA2_256_DIGEST_SIZE_IN_BYTES = 32;
  /** Data up to this size is inlined in the id (the identity multihash) instead of hashed. */
  static final int MAX_INLINE_KEY_SIZE_IN_BYTES = 42;
  /** Longer than any valid id (44 bytes are at most 61 base58 characters); bounds the decoding work. */
  private static final int MAX_TEXT_LENGTH = 128;

  private final byte[] multihash;
  /**
   * The text form, made on first use: a handshake makes a peer id that is often never printed.
   * Racy but safe, as {@code String.hashCode} is: every thread computes the same immutable string.
   */
  private String base58;

  private PeerId(byte[] multihash) {
    this.multihash = multihash;
  }

  /** The identity multihash id of {@code data}, at most 42 bytes: libp2p's for a short protobuf. */
  static PeerId ofIdentity(byte[] data) {
    if (data.length < 1 || data.length > MAX_INLINE_KEY_SIZE_IN_BYTES) {
      throw new IllegalArgumentException("an identity multihash holds 1 to 42 bytes: " + data.length);
    }
    byte[] multihash = new byte[2 + data.length];
    multihash[0] = IDENTITY_CODE;
    multihash[1] = (byte) data.length;
    System.arraycopy(data, 0, multihash, 2, data.length);
    return new PeerId(multihash);
  }

  /** The sha2-256 multihash id of {@code data}: libp2p's for a long protobuf, tentacle's for a raw key. */
  static PeerId ofSha256(byte[] data) {
    byte[] multihash = new byte[2 + SHA2_256_DIGEST_SIZE_IN_BYTES];
    multihash[0] = SHA2_256_CODE;
    multihash[1] = SHA2_256_DIGEST_SIZE_IN_BYTES;
    System.arraycopy(Sha256.digest(data), 0, multihash, 2, SHA2_256_DIGEST_SIZE_IN_BYTES);
    return new PeerId(multihash);
  }

  /**
   * Parses the base58 text form.
   *
   * @throws IllegalArgumentException if it is not base58 or not one of the two peer-id multihashes
   */
  public static PeerId parse(String base58) {
    Objects.requireNonNull(base58, "base58");
    if (base58.isEmpty() || base58.length() > MAX_TEXT_LENGTH) {
      throw new IllegalArgumentException("not a peer id: length " + base58.length());
    }
    return fromBytes(Base58.decode(base58));
  }

  /**
   * The peer id whose multihash is {@code multihash} (the inverse of {@link #toBytes()}).
   *
   * @throws IllegalArgumentException if it is not one of the two peer-id multihashes
   */
  public static PeerId fromBytes(byte[] multihash) {
    byte[] copy = multihash.clone();
    if (!isPeerIdMultihash(copy)) {
      throw new IllegalArgumentException("not a peer id multihash");
    }
    return new PeerId(copy);
  }

  private static boolean isPeerIdMultihash(byte[] m) {
    if (m.length < 2) {
      return false;
    }
    int code = m[0] & 0xff;
    int length = m[1] & 0xff;
    if (code == IDENTITY_CODE) {
      // An identity multihash of a longer key would never be produced: that key is hashed instead.
      return length >= 1 && length <= MAX_INLINE_KEY_SIZE_IN_BYTES && m.length == 2 + length;
    }
    return code == SHA2_256_CODE
        && length == SHA2_256_DIGEST_SIZE_IN_BYTES
        && m.length == 2 + SHA2_256_DIGEST_SIZE_IN_BYTES;
  }

  /** The multihash bytes. */
  public byte[] toBytes() {
    return multihash.clone();
  }

  /** Base58 (bitcoin alphabet) of the multihash. */
  public String toBase58() {
    String text = base58;
    if (text == null) {
      text = Base58.encode(multihash);
      base58 = text;
    }
    return text;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PeerId && Arrays.equals(multihash, ((PeerId) o).multihash);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(multihash);
  }

  @Override
  public String toString() {
    return toBase58();
  }
}
