package io.secio;

import io.secio.frame.FrameOpener;
import io.secio.frame.FrameSealer;
import io.secio.identity.IdentityPublicKey;
import io.secio.internal.SessionCiphers;
import java.util.Objects;

/**
 * The outcome of a completed handshake: who the two peers are and what was negotiated. It also holds
 * the frame sealer and opener oriented for the local side, which only the transport adapter that owns
 * the connection reaches (through {@link SessionCiphers}); applications read and write plaintext
 * through that adapter. The outcome is immutable and thread-safe; {@code toString} shows names, never
 * secrets; {@link #destroy()} destroys the frame keys (see {@link FrameSealer#destroy()}).
 */
public final class SecioSession {
  static {
    SessionCiphers.register(new SessionCiphers.Access() {
      @Override
      public FrameSealer sealer(SecioSession session) {
        return session.sealer;
      }

      @Override
      public FrameOpener opener(SecioSession session) {
        return session.opener;
      }

      @Override
      public SecioSession newSession(Dialect dialect, PeerId localPeerId, IdentityPublicKey remotePublicKey,
          ExchangeAlgorithm exchange, CipherAlgorithm cipher, HashAlgorithm hash, boolean localPreferred,
          String cipherBackend, FrameSealer sealer, FrameOpener opener) {
        return new SecioSession(dialect, localPeerId, remotePublicKey, exchange, cipher, hash,
            localPreferred, cipherBackend, sealer, opener);
      }
    });
  }

  private final Dialect dialect;
  private final PeerId localPeerId;
  private final PeerId remotePeerId;
  private final IdentityPublicKey remotePublicKey;
  private final ExchangeAlgorithm exchange;
  private final CipherAlgorithm cipher;
  private final HashAlgorithm hash;
  private final boolean localPreferred;
  private final String cipherBackend;
  private final FrameSealer sealer;
  private final FrameOpener opener;

  /**
   * A session of {@code dialect}; {@code localPeerId} is in that dialect's form. Built by the
   * handshake through {@link SessionCiphers#newSession}, never by applications.
   */
  private SecioSession(
      Dialect dialect,
      PeerId localPeerId,
      IdentityPublicKey remotePublicKey,
      ExchangeAlgorithm exchange,
      CipherAlgorithm cipher,
      HashAlgorithm hash,
      boolean localPreferred,
      String cipherBackend,
      FrameSealer sealer,
      FrameOpener opener) {
    this.dialect = Objects.requireNonNull(dialect);
    this.localPeerId = Objects.requireNonNull(localPeerId);
    this.remotePublicKey = Objects.requireNonNull(remotePublicKey);
    this.remotePeerId = dialect.peerId(remotePublicKey);
    this.exchange = Objects.requireNonNull(exchange);
    this.cipher = Objects.requireNonNull(cipher);
    this.hash = Objects.requireNonNull(hash);
    this.localPreferred = localPreferred;
    this.cipherBackend = Objects.requireNonNull(cipherBackend);
    this.sealer = Objects.requireNonNull(sealer);
    this.opener = Objects.requireNonNull(opener);
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

  public IdentityPublicKey remotePublicKey() {
    return remotePublicKey;
  }

  public ExchangeAlgorithm exchange() {
    return exchange;
  }

  public CipherAlgorithm cipher() {
    return cipher;
  }

  public HashAlgorithm hash() {
    return hash;
  }

  /** v0.1 for CTR+HMAC, v0.2 for AEAD. */
  public ProtocolVersion version() {
    return cipher.version();
  }

  /** Whether the local side's proposal was the preferred one (spec section 3, order &gt; 0). */
  public boolean isLocalPreferred() {
    return localPreferred;
  }

  /** The backend that encrypts this session's frames, such as {@code conscrypt}. */
  public String cipherBackend() {
    return cipherBackend;
  }

  /** Destroys the frame keys; the connection's frames can no longer be sealed or opened. */
  public void destroy() {
    sealer.destroy();
    opener.destroy();
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
