package io.secio.ckb;

import java.time.Duration;
import java.util.List;

/**
 * What happens on a CKB session, as a {@link CkbListener} hears it, on the session's event loop and in
 * order: the peer identified, addresses received, Pings answered, the peer in its initial block
 * download, a goodbye from the peer, and the end.
 */
public sealed interface CkbEvent {

  /**
   * The peer's Identify was accepted (and, on a session this side dialed, its flags met).
   *
   * @param record what the peer said of itself
   */
  record Identified(IdentifyRecord record) implements CkbEvent {}

  /**
   * Discovery addresses from the peer: the answer to this side's GetNodes, or an announcement.
   *
   * @param announce whether it was an announcement
   * @param nodes the nodes, each with at most 3 addresses
   */
  record NodesReceived(boolean announce, List<Node> nodes) implements CkbEvent {
    /** Copies the nodes. */
    public NodesReceived {
      nodes = List.copyOf(nodes);
    }
  }

  /**
   * The peer answered this side's Ping.
   *
   * @param roundTrip from the Ping's write to the Pong's read, on the system's nanosecond clock
   */
  record PingAnswered(Duration roundTrip) implements CkbEvent {}

  /** The peer answered on Sync that it is in its initial block download (it serves no headers). */
  record PeerInIbd() implements CkbEvent {}

  /**
   * The peer's disconnect message: why it is closing.
   *
   * @param message the text as it sent it (malformed UTF-8 replaced)
   */
  record PeerSaidGoodbye(String message) implements CkbEvent {}

  /**
   * The session ended.
   *
   * @param cause why: this side's reason (a ban included) or {@link CkbException.Reason#CLOSED}
   */
  record Closed(CkbException cause) implements CkbEvent {}
}
