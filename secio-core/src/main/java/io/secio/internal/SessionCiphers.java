package io.secio.internal;

import io.secio.CipherAlgorithm;
import io.secio.Dialect;
import io.secio.ExchangeAlgorithm;
import io.secio.HashAlgorithm;
import io.secio.PeerId;
import io.secio.SecioSession;
import io.secio.frame.FrameOpener;
import io.secio.frame.FrameSealer;
import io.secio.identity.IdentityPublicKey;
import java.util.Objects;

/**
 * Not API: the live frame sealer and opener of a {@link SecioSession}, for the one transport adapter
 * that owns the connection (secio-netty's frame codec). One frame sealed or opened anywhere else puts
 * the stream out of step with the peer, and two threads sealing at once can reuse an AEAD nonce, so
 * applications read a session's negotiated outcome and never its ciphers.
 *
 * <p>{@link SecioSession} registers its {@link Access} when its class is initialised, which happens
 * before any session can be passed here. Thread-safe.
 */
public final class SessionCiphers {
  private static volatile Access access;

  private SessionCiphers() {}

  /** How this class reaches a session's private ciphers; implemented once, by {@link SecioSession}. */
  public interface Access {
    FrameSealer sealer(SecioSession session);

    FrameOpener opener(SecioSession session);

    SecioSession newSession(Dialect dialect, PeerId localPeerId, IdentityPublicKey remotePublicKey,
        ExchangeAlgorithm exchange, CipherAlgorithm cipher, HashAlgorithm hash, boolean localPreferred,
        String cipherBackend, FrameSealer sealer, FrameOpener opener);
  }

  /**
   * Called once, by {@link SecioSession}.
   *
   * @throws IllegalStateException on a second call
   */
  public static synchronized void register(Access sessionAccess) {
    if (access != null) {
      throw new IllegalStateException("session access already registered");
    }
    access = Objects.requireNonNull(sessionAccess, "sessionAccess");
  }

  /** Seals the frames the local side of {@code session} sends. */
  public static FrameSealer sealer(SecioSession session) {
    return access().sealer(Objects.requireNonNull(session, "session"));
  }

  /** Opens the frames the remote side of {@code session} sent. */
  public static FrameOpener opener(SecioSession session) {
    return access().opener(Objects.requireNonNull(session, "session"));
  }

  /**
   * A new session of {@code dialect} holding {@code sealer} and {@code opener}, for the handshake
   * that negotiated them. {@code localPeerId} is in the dialect's form.
   */
  public static SecioSession newSession(Dialect dialect, PeerId localPeerId,
      IdentityPublicKey remotePublicKey, ExchangeAlgorithm exchange, CipherAlgorithm cipher,
      HashAlgorithm hash, boolean localPreferred, String cipherBackend, FrameSealer sealer,
      FrameOpener opener) {
    return access().newSession(dialect, localPeerId, remotePublicKey, exchange, cipher, hash,
        localPreferred, cipherBackend, sealer, opener);
  }

  private static Access access() {
    if (access == null) {
      try {
        // SecioSession registers its Access in its static initialiser.
        Class.forName(SecioSession.class.getName(), true, SecioSession.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(e);
      }
    }
    return access;
  }
}
