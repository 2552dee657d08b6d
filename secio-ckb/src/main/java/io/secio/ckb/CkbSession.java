package io.secio.ckb;

import io.netty.channel.Channel;
import io.netty.util.concurrent.Future;
import io.secio.PeerId;
import io.secio.ckb.protocol.Peer;
import io.secio.tentacle.TentacleSession;
import java.util.List;
import java.util.Optional;

/**
 * A CKB session whose peer identified on this side's network ({@link Ckb#sessionFuture}): the peer's
 * {@link IdentifyRecord}, what discovery and sync heard from it, its protocol streams, and the way to
 * end it with a reason the peer reads.
 *
 * <pre>{@code
 * CkbSession session = Ckb.sessionFuture(channel).sync().getNow();
 * session.identify().clientVersion();
 * List<Node> nodes = session.nodes().sync().getNow();    // the answer to this side's GetNodes
 * session.disconnect("goodbye");
 * }</pre>
 *
 * <p>Thread-safe: every method may be called from any thread.
 */
public final class CkbSession {
  private final Peer peer;

  CkbSession(Peer peer) {
    this.peer = peer;
  }

  /** What the peer said of itself. */
  public IdentifyRecord identify() {
    return peer.record();
  }

  /** Whether this side dialed. */
  public boolean isDialer() {
    return peer.isDialer();
  }

  /** The network. */
  public CkbNetwork network() {
    return peer.config().network();
  }

  /** The peer as secio authenticated it; empty without secio. */
  public Optional<PeerId> remotePeer() {
    return peer.tentacle() == null ? Optional.empty() : peer.tentacle().remotePeer();
  }

  /** The tentacle session underneath. */
  public TentacleSession tentacle() {
    return peer.tentacle();
  }

  /** The connection. */
  public Channel connection() {
    return peer.connection();
  }

  /**
   * The peer's answer to this side's GetNodes (sent on sessions this side dialed): completes with
   * its nodes, or fails with the session's end.
   */
  public Future<List<Node>> nodes() {
    return peer.nodesFuture();
  }

  /** Every node discovery brought so far: the answer and any announcements (at most 2000). */
  public List<Node> discoveredNodes() {
    return peer.discovered();
  }

  /** Whether the peer said on Sync that it is in its initial block download. */
  public boolean peerInIbd() {
    return peer.peerInIbd();
  }

  /** What the peer said on its disconnect message, if it said anything. */
  public Optional<String> peerGoodbye() {
    return Optional.ofNullable(peer.goodbye());
  }

  /**
   * The stream of {@code protocol} if it is open: for a protocol registered with a handler ({@link
   * CkbConfig.Builder#protocol}), write one payload {@code ByteBuf} per message on it.
   */
  public Optional<Channel> stream(CkbProtocol protocol) {
    return Optional.ofNullable(peer.stream(protocol));
  }

  /**
   * Ends the session: {@code reason} goes to the peer on its disconnect-message stream if that is
   * open, then the connection closes.
   *
   * @param reason the text, UTF-8 (cut at 1024 bytes)
   * @return the connection's close future
   */
  public Future<Void> disconnect(String reason) {
    Channel c = peer.connection();
    c.eventLoop().execute(() -> peer.disconnect(new CkbException(CkbException.Reason.CLOSED, reason), reason));
    return c.closeFuture();
  }

  /** Why the session ended, once it has. */
  public Optional<CkbException> closeCause() {
    return Optional.ofNullable(peer.closeCause());
  }

  @Override
  public String toString() {
    IdentifyRecord r = peer.record();
    return "CkbSession{" + peer + (r == null ? "" : ", " + r.clientVersion() + ", " + IdentifyFlags.describe(r.flags()))
        + "}";
  }
}
