package io.secio;

import io.secio.identity.IdentityPublicKey;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.protocol.ProtocolVersion;
import java.util.Objects;

/**
 * The outcome of a completed handshake: who the two peers are and what was negotiated. A value and
 * nothing more: it holds no key and reaches no cipher (the connection's frame ciphers belong to the
 * transport that owns the connection, which destroys them when it ends), so it may be kept, passed
 * between threads and logged freely. Immutable and thread-safe; {@code toString} shows names.
 */
public final class SecioSession {
  private final Dialect dialect;
  private final PeerId localPeerId;
  private final PeerId remotePeerId;
  private final IdentityPublicKey remotePublicKey;
  private final ExchangeAlgorithm exchange;
  private final CipherAlgorithm cipher;
  private final HashAlgorithm hash;
  private final boolean localPreferred;
  private final String cipherBackend;

  /**
   * The outcome of a handshake in {@code dialect} (the handshake engine builds it). {@code
   * localPeerId} is in the dialect's form; the remote peer id is derived from {@code remotePublicKey}
   * by the dialect. {@code cipherBackend} names the crypto backend that serves the frames.
   */
  public SecioSession(
      Dialect dialect,
      PeerId localPeerId,
      IdentityPublicKey remotePublicKey,
      ExchangeAlgorithm exchange,
      CipherAlgorithm cipher,
      HashAlgorithm hash,
      boolean localPreferred,
      String cipherBackend) {
    this.dialect = Objects.requireNonNull(dialect, "dialect");
    this.localPeerId = Objects.requireNonNull(localPeerId, "localPeerId");
    this.remotePublicKey = Objects.requireNonNull(remotePublicKey, "remotePublicKey");
    this.remotePeerId = dialect.peerId(remotePublicKey);
    this.exchange = Objects.requireNonNull(exchange, "exchange");
    this.cipher = Objects.requireNonNull(cipher, "cipher");
    this.hash = Objects.requireNonNull(hash, "hash");
    this.localPreferred = localPreferred;
    this.cipherBackend = Objects.requireNonNull(cipherBackend, "cipherBackend");
  }

  /** The handshake dialect the two peers spoke. */
  public Dialect dialect() {
    return dialect;
  }

  /** The local peer id, in the dialect's form. */
  public PeerId localPeerId() {
    return localPeerId;
  }

  /** The remote peer id, in the dialect's form (a tentacle id hashes the raw secp256k1 key). */
  public PeerId remotePeerId() {
    return remotePeerId;
  }

  /** The remote peer's identity key, as its Propose carried it and its Exchange signature proved. */
  public IdentityPublicKey remotePublicKey() {
    return remotePublicKey;
  }

  /** The negotiated ephemeral key exchange. */
  public ExchangeAlgorithm exchange() {
    return exchange;
  }

  /** The negotiated frame cipher. */
  public CipherAlgorithm cipher() {
    return cipher;
  }

  /** The negotiated hash (key stretching, and the MAC of v0.1 frames). */
  public HashAlgorithm hash() {
    return hash;
  }

  /** v0.1 for CTR+HMAC, v0.2 for AEAD. */
  public ProtocolVersion version() {
    return cipher.version();
  }

  /** Whether the local side's proposal was the preferred one (docs/PROTOCOL.md section 5). */
  public boolean isLocalPreferred() {
    return localPreferred;
  }

  /** The backend that encrypts this session's frames, such as {@code conscrypt}. */
  public String cipherBackend() {
    return cipherBackend;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SecioSession s
        && dialect == s.dialect
        && localPeerId.equals(s.localPeerId)
        && remotePublicKey.equals(s.remotePublicKey)
        && exchange == s.exchange
        && cipher == s.cipher
        && hash == s.hash
        && localPreferred == s.localPreferred
        && cipherBackend.equals(s.cipherBackend);
  }

  @Override
  public int hashCode() {
    return Objects.hash(dialect, localPeerId, remotePublicKey, exchange, cipher, hash,
        localPreferred, cipherBackend);
  }

  @Override
  public String toString() {
    return "SecioSession{dialect=" + dialect
        + ", local=" + localPeerId
        + ", remote=" + remotePeerId
        + ", exchange=" + exchange.wireName()
        + ", cipher=" + cipher.wireName()
        + ", hash=" + hash.wireName()
        + ", version=" + version().label()
        + ", backend=" + cipherBackend
        + "}";
  }
}
