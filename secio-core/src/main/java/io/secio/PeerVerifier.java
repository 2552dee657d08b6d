package io.secio;

import io.secio.identity.IdentityPublicKey;
import io.secio.protocol.SecioException;
import java.util.Collection;
import java.util.Set;

/**
 * Decides who may connect. The handshake asks it once, as soon as the remote Propose is parsed and
 * before any signature or ECDH work, so refusing a peer costs almost nothing; a refusal fails the
 * handshake with {@link SecioException.Reason#PEER_REFUSED}. It complements {@link
 * SecioConfig#expectedRemotePeer()}, which pins one peer; when both are set, both must pass.
 *
 * <p>Implementations must be thread-safe (one config serves every connection, and with a {@link
 * SecioConfig#handshakeExecutor() handshake executor} the call runs on that executor's threads) and
 * should not block. An exception thrown by {@link #accept} refuses the peer, with it as the cause.
 */
@FunctionalInterface
public interface PeerVerifier {

  /** Accepts every peer: the default. */
  PeerVerifier ACCEPT_ALL = (peer, key) -> true;

  /**
   * Whether {@code peer}, which proved nothing yet beyond sending {@code publicKey} (the signature
   * over the handshake comes later and is checked against this same key), may continue.
   */
  boolean accept(PeerId peer, IdentityPublicKey publicKey);

  /** Accepts exactly the peers in {@code allowed} (copied: later changes to it are not seen). */
  static PeerVerifier allowList(Collection<PeerId> allowed) {
    Set<PeerId> copy = Set.copyOf(allowed);
    return (peer, key) -> copy.contains(peer);
  }
}
