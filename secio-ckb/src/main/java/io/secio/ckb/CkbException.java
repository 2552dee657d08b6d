package io.secio.ckb;

import java.io.IOException;

/**
 * A CKB session failed or refused something ({@code docs/CKB.md}, "Network protocols"): the failure
 * of {@link Ckb#sessionFuture}, what a protocol stream's pipeline sees in {@code exceptionCaught}, and
 * the cause a closed {@link CkbSession} gives. {@link #reason()} says what happened; {@link
 * #isBan()} whether the peer's address was banned for it.
 *
 * <p>Immutable. The message names protocols, sizes and rules, never a message's bytes.
 */
public final class CkbException extends IOException {
  private static final long serialVersionUID = 1L;

  /** What went wrong. */
  public enum Reason {
    /** A message that is not the molecule value its protocol carries, or breaks its strictness. */
    MALFORMED_MESSAGE,
    /** A compress-codec frame under 2 bytes, over 8 MiB decompressed, or not snappy. */
    BAD_FRAME,
    /** The peer's Identify names another network, has no flag, or is not a strict Identify. */
    WRONG_NETWORK,
    /** No Identify within 8 s of the protocol opening. */
    IDENTIFY_TIMEOUT,
    /** The peer's flags lack what this side requires of a peer it dialed. */
    FLAGS_NOT_MET,
    /** A message a protocol's rules forbid: a second Identify, too many addresses, a bad Pong. */
    PROTOCOL_VIOLATION,
    /** No Pong within the ping timeout. */
    PING_TIMEOUT,
    /** Neither Sync nor Feeler open 10 s after the session started. */
    INCOMPLETE_PROTOCOLS,
    /** The peer's address is banned here. */
    BANNED,
    /** The peer said goodbye (a disconnect message) or closed the connection. */
    CLOSED
  }

  private final Reason reason;
  private final boolean ban;

  /**
   * A failure that is not a ban.
   *
   * @param reason what went wrong
   * @param message details: protocols, sizes, rules
   */
  public CkbException(Reason reason, String message) {
    this(reason, message, false, null);
  }

  /**
   * A failure.
   *
   * @param reason what went wrong
   * @param message details: protocols, sizes, rules
   * @param ban whether the peer's address is banned for it
   * @param cause what caused it, or null
   */
  public CkbException(Reason reason, String message, boolean ban, Throwable cause) {
    super(reason + ": " + message, cause);
    this.reason = reason;
    this.ban = ban;
  }

  /** What went wrong. */
  public Reason reason() {
    return reason;
  }

  /** Whether the peer's address was banned for it, as a CKB node bans. */
  public boolean isBan() {
    return ban;
  }
}
