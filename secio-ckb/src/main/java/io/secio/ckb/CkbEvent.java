package io.secio.ckb;

import io.secio.ckb.chain.Tip;
import io.secio.ckb.header.HeaderException;
import io.secio.ckb.lightclient.VerifiableHeader;
import io.secio.ckb.protocol.CkbException;
import io.secio.ckb.protocol.IdentifyRecord;
import io.secio.ckb.protocol.Node;
import java.math.BigInteger;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What happens on a CKB session, as a {@link CkbListener} hears it, on the session's event loop and in
 * order: the peer identified, addresses received, Pings answered, the peer in its initial block
 * download, headers followed from it, its light-client tips, a goodbye from the peer, and the end.
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
   * A {@code SendHeaders} from the peer passed the checks and is stored: the follower's progress.
   *
   * @param received how many headers the message held
   * @param added how many of them were new
   * @param tip the main chain's tip afterwards
   */
  record HeadersAccepted(int received, int added, Tip tip) implements CkbEvent {
    /** Checks the tip is there. */
    public HeadersAccepted {
      Objects.requireNonNull(tip, "tip");
    }
  }

  /**
   * Headers from the peer moved the main chain's tip (along the chain, or to a heavier branch).
   *
   * @param tip the new tip
   */
  record NewTip(Tip tip) implements CkbEvent {}

  /**
   * The peer has no more headers for now (it sent fewer than 2000): the follower is synced with it
   * and asks again at the re-ask interval.
   *
   * @param tip the main chain's tip
   */
  record HeadersSynced(Tip tip) implements CkbEvent {}

  /**
   * A light-client server's tip passed the checks ({@link io.secio.ckb.lightclient.LastStateVerifier})
   * and differs from the one it sent before.
   *
   * @param tip the tip, with its uncles hash, extension and parent chain root
   * @param totalDifficulty the total difficulty it claims: its parent chain root's plus its own
   */
  record LastStateReceived(VerifiableHeader tip, BigInteger totalDifficulty) implements CkbEvent {}

  /**
   * A light-client server's tip failed a check and was refused; the session goes on until the tenth
   * refusal within an hour, which bans the peer, as the light client does.
   *
   * @param cause the header and the rule it broke
   */
  record LastStateRefused(HeaderException cause) implements CkbEvent {}

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
