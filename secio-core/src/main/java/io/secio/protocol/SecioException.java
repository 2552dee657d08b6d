package io.secio.protocol;

import java.security.GeneralSecurityException;
import java.util.Objects;

/**
 * The one checked failure of this library: a handshake or a frame went wrong. The {@link #reason()}
 * says what, in words a user can act on; the message never carries key material.
 *
 * <p>Every {@code SecioException} is fatal for its connection.
 */
public final class SecioException extends GeneralSecurityException {
  private static final long serialVersionUID = 1L;

  /** What went wrong. */
  public enum Reason {
    /** The two proposals share no exchange, cipher or hash that this node implements. */
    NO_COMMON_ALGORITHMS("no common algorithms"),
    /** The remote identity key is our own (or the two orders tie): the node dialled itself. */
    SELF_CONNECTION("connected to self"),
    /** The remote key does not hash to the expected peer id. */
    PEER_ID_MISMATCH("remote peer id does not match the expected one"),
    /** The configured {@link io.secio.PeerVerifier} did not accept the remote peer. */
    PEER_REFUSED("remote peer refused"),
    /** The Exchange signature does not verify under the remote identity key. */
    BAD_SIGNATURE("bad signature in Exchange"),
    /** The remote ephemeral key has the wrong length, is not on the curve, or gives a zero secret. */
    BAD_EPHEMERAL_KEY("bad ephemeral public key"),
    /** The first decrypted frame is not our own nonce. */
    NONCE_MISMATCH("nonce echo mismatch"),
    /** A handshake message could not be parsed or lacks a required field. */
    MALFORMED_MESSAGE("malformed handshake message"),
    /** A handshake message header declares a length over the handshake message limit. */
    HANDSHAKE_MESSAGE_TOO_LONG("handshake message too long"),
    /**
     * The peer's first bytes are not a secio handshake message but another protocol's: text (an HTTP
     * or SSH server, say), TLS, or multistream-select (a libp2p node, which wants multistream-select
     * in front of secio). The message shows those bytes, escaped.
     */
    NOT_SECIO("the peer does not speak secio"),
    /** A Propose list has too many entries, or an entry is too long. */
    PROPOSAL_TOO_LONG("proposal list too long"),
    /**
     * The local side failed during the handshake (a signing or provider failure, a bug): not the
     * peer's fault.
     */
    LOCAL_FAILURE("local failure during the handshake"),
    /** The handshake did not complete in time. */
    TIMEOUT("handshake timed out"),
    /** The connection closed before the handshake completed. */
    CLOSED("connection closed during handshake"),
    /**
     * After the handshake, the transport failed under the session: a reset, a write the peer
     * refused. The transport's {@link java.io.IOException} is the cause.
     */
    CONNECTION_FAILED("connection failed"),
    /** A frame header declares a length over the limit. */
    FRAME_TOO_LONG("frame too long"),
    /** A frame body is shorter than its MAC or tag. */
    FRAME_TOO_SHORT("frame too short"),
    /** A frame's MAC or tag does not verify. */
    AUTHENTICATION_FAILED("frame authentication failed"),
    /** The AEAD nonce counter is exhausted; the connection must close before it would wrap. */
    NONCE_EXHAUSTED("nonce counter exhausted"),
    /** The local node is already running as many handshakes as it allows. */
    TOO_MANY_HANDSHAKES("too many concurrent handshakes"),
    /** A required crypto primitive is not available on any backend. */
    UNAVAILABLE("crypto primitive unavailable");

    private final String description;

    Reason(String description) {
      this.description = description;
    }

    /** A short human-readable description. */
    public String description() {
      return description;
    }
  }

  private final Reason reason;

  /** A failure for {@code reason}; the message is the reason's description. */
  public SecioException(Reason reason) {
    this(reason, null, null);
  }

  /**
   * A failure for {@code reason}; the message is the reason's description, then {@code detail}
   * (already escaped and bounded when it quotes a peer: {@link io.secio.PeerText}).
   */
  public SecioException(Reason reason, String detail) {
    this(reason, detail, null);
  }

  /**
   * A failure for {@code reason} caused by {@code cause}; the message as {@link
   * #SecioException(Reason, String)} builds it.
   */
  public SecioException(Reason reason, String detail, Throwable cause) {
    super(message(reason, detail), cause);
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  private static String message(Reason reason, String detail) {
    Objects.requireNonNull(reason, "reason");
    return detail == null || detail.isEmpty()
        ? reason.description()
        : reason.description() + ": " + detail;
  }

  /** What went wrong. */
  public Reason reason() {
    return reason;
  }
}
