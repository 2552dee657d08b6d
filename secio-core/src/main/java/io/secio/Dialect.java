package io.secio;

import io.secio.identity.IdentityPublicKey;
import io.secio.identity.KeyType;
import java.util.List;
import java.util.Objects;

/**
 * The two handshakes that lead to secio's frames (spec sections 2 to 4, and 11). They share the
 * state machine, key stretching, frames and nonce echo; they differ in how Propose and Exchange are
 * encoded, which identity keys they carry, what the order hashes, how a peer id is formed and which
 * algorithms may be negotiated.
 */
public enum Dialect {
  /** go- and js-libp2p's secio: protobuf messages, any identity key type, v0.1 and v0.2 ciphers. */
  LIBP2P(
      List.of(ExchangeAlgorithm.values()),
      List.of(CipherAlgorithm.values()),
      List.of(HashAlgorithm.values())),
  /**
   * tentacle-secio's (Nervos CKB): molecule messages, secp256k1 identities only, AEAD ciphers only,
   * the peer id hashing the raw compressed key. The lists are tentacle's defaults, in its order.
   */
  TENTACLE(
      List.of(ExchangeAlgorithm.P_256, ExchangeAlgorithm.P_384, ExchangeAlgorithm.X25519),
      List.of(CipherAlgorithm.AES_128_GCM, CipherAlgorithm.AES_256_GCM, CipherAlgorithm.CHACHA20_POLY1305),
      List.of(HashAlgorithm.SHA256, HashAlgorithm.SHA512));

  private final List<ExchangeAlgorithm> exchanges;
  private final List<CipherAlgorithm> ciphers;
  private final List<HashAlgorithm> hashes;

  Dialect(List<ExchangeAlgorithm> exchanges, List<CipherAlgorithm> ciphers, List<HashAlgorithm> hashes) {
    this.exchanges = exchanges;
    this.ciphers = ciphers;
    this.hashes = hashes;
  }

  /** The exchanges this dialect can negotiate, in its default order. */
  public List<ExchangeAlgorithm> exchanges() {
    return exchanges;
  }

  /** The ciphers this dialect can negotiate, in its default order. */
  public List<CipherAlgorithm> ciphers() {
    return ciphers;
  }

  /** The hashes this dialect can negotiate, in its default order. */
  public List<HashAlgorithm> hashes() {
    return hashes;
  }

  /** Whether an identity of this type can take part in this dialect's handshake. */
  public boolean supports(KeyType type) {
    return this == LIBP2P || type == KeyType.SECP256K1;
  }

  /**
   * The peer id of {@code key} in this dialect's form: libp2p's multihash of the {@code PublicKey}
   * protobuf, or tentacle's {@code 0x12 0x20 || SHA256(compressed key)}.
   *
   * @throws IllegalArgumentException if this dialect does not carry keys of that type
   */
  public PeerId peerId(IdentityPublicKey key) {
    Objects.requireNonNull(key, "key");
    if (this == LIBP2P) {
      return key.peerId();
    }
    if (!supports(key.type())) {
      throw new IllegalArgumentException("a " + this + " peer id needs a secp256k1 key, not " + key.type());
    }
    return PeerId.ofSha256(key.keyData());
  }
}
