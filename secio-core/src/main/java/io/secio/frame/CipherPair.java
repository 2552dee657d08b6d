package io.secio.frame;

import java.util.Objects;

/**
 * The frame ciphers of one established connection, oriented for the local side: the {@link
 * #sealer()} seals what we send, the {@link #opener()} opens what the peer sent. The handshake hands
 * the pair out once ({@code HandshakeEngine.split()}); from then on its one owner is the transport
 * that moves the connection's bytes, which must destroy it, on its own thread, when the connection
 * ends. Sealing on one thread while another destroys the keys is a misuse this class cannot catch.
 *
 * <p>Not thread-safe. {@code toString} shows no secret.
 */
public final class CipherPair {
  private final FrameSealer sealer;
  private final FrameOpener opener;
  private boolean destroyed;

  /** A pair of a sealer and an opener, both now owned by the pair. */
  public CipherPair(FrameSealer sealer, FrameOpener opener) {
    this.sealer = Objects.requireNonNull(sealer, "sealer");
    this.opener = Objects.requireNonNull(opener, "opener");
  }

  /** Seals the frames the local side sends. */
  public FrameSealer sealer() {
    return sealer;
  }

  /** Opens the frames the remote side sent. */
  public FrameOpener opener() {
    return opener;
  }

  /**
   * Destroys both directions' keys (see {@link FrameSealer#destroy()} for what that wipes); later
   * seals and opens fail. Idempotent. The opener is destroyed even if destroying the sealer throws.
   */
  public void destroy() {
    if (destroyed) {
      return;
    }
    destroyed = true;
    try {
      sealer.destroy();
    } finally {
      opener.destroy();
    }
  }

  /** Whether {@link #destroy()} has been called. */
  public boolean isDestroyed() {
    return destroyed;
  }

  @Override
  public String toString() {
    return "CipherPair{overhead=" + sealer.overhead() + (destroyed ? ", destroyed" : "") + "}";
  }
}
