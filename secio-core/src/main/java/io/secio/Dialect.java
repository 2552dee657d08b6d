package io.secio;

import io.secio.identity.IdentityPublicKey;
import io.secio.identity.KeyType;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import java.util.List;
import java.util.Objects;

/**
 * The two handshakes that lead to secio's frames (docs/PROTOCOL.md sections 3 to 9, and 14). They share the
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
   * Whether a node with an identity of {@code type} proposing these lists can speak this dialect:
   * it supports the key type and can negotiate something of each kind.
   */
  public boolean canSpeak(KeyType type, List<ExchangeAlgorithm> proposedExchanges,
      List<CipherAlgorithm> proposedCiphers, List<HashAlgorithm> proposedHashes) {
    return supports(type) && proposesSomethingOfEachKind(proposedExchanges, proposedCiphers, proposedHashes);
  }

  /**
   * The same check for a config forced to this dialect, saying why it fails.
   *
   * @throws IllegalArgumentException if the identity or the lists cannot speak this dialect
   */
  void requireSpeakable(KeyType type, List<ExchangeAlgorithm> proposedExchanges,
      List<CipherAlgorithm> proposedCiphers, List<HashAlgorithm> proposedHashes) {
    if (!supports(type)) {
      throw new IllegalArgumentException(this + " dialect needs a secp256k1 identity, not " + type);
    }
    if (!proposesSomethingOfEachKind(proposedExchanges, proposedCiphers, proposedHashes)) {
      throw new IllegalArgumentException(
          "the " + this + " dialect can negotiate none of the proposed exchanges, ciphers or hashes");
    }
  }

  private boolean proposesSomethingOfEachKind(List<ExchangeAlgorithm> proposedExchanges,
      List<CipherAlgorithm> proposedCiphers, List<HashAlgorithm> proposedHashes) {
    return proposedExchanges.stream().anyMatch(exchanges::contains)
        && proposedCiphers.stream().anyMatch(ciphers::contains)
        && proposedHashes.stream().anyMatch(hashes::contains);
  }

  /**
   * The peer id of {@code key} in this dialect's form: libp2p's multihash of the {@code PublicKey}
   * protobuf (the identity multihash up to 42 bytes of protobuf, sha2-256 above), or tentacle's
   * {@code 0x12 0x20 || SHA256(compressed key)}. The one place peer ids are derived.
   *
   * @throws IllegalArgumentException if this dialect does not carry keys of that type
   */
  public PeerId peerId(IdentityPublicKey key) {
    Objects.requireNonNull(key, "key");
    if (this == LIBP2P) {
      byte[] protobuf = key.toProtobuf();
      return protobuf.length <= PeerId.MAX_INLINE_KEY_SIZE_IN_BYTES
          ? PeerId.ofIdentity(protobuf)
          : PeerId.ofSha256(protobuf);
    }
    if (!supports(key.type())) {
      throw new IllegalArgumentException("a " + this + " peer id needs a secp256k1 key, not " + key.type());
    }
    return PeerId.ofSha256(key.keyData());
  }

  /** Whether {@code id} is the peer id of {@code key} in this dialect's form. */
  public boolean matches(PeerId id, IdentityPublicKey key) {
    Objects.requireNonNull(id, "id");
    return supports(key.type()) && id.equals(peerId(key));
  }
}
