package io.secio.ckb;

import io.netty.util.concurrent.ScheduledFuture;
import io.secio.ckb.message.Identify;
import io.secio.ckb.message.IdentifyMessage;
import io.secio.ckb.protocol.CkbException.Reason;
import io.secio.ckb.protocol.CkbException;
import io.secio.ckb.protocol.CkbProtocol;
import io.secio.ckb.protocol.IdentifyFlags;
import io.secio.ckb.protocol.IdentifyRecord;
import io.secio.multiaddr.Multiaddr;
import java.time.Duration;
import java.util.List;

/**
 * {@code /ckb/identify}, both roles, as a node runs it ({@code identify/mod.rs}). Sent at once: this
 * side's listen addresses (at most 10; globally reachable ones unless local addresses are allowed),
 * the peer's address as dialed (or as the socket shows it), and the Identify of the network, flags and
 * client version. Checked once: an undecodable message or a second one disconnects; an Identify that
 * is not strict, names another network or has no flag bans for 300 s ("The nodes are not on the same
 * network"); more than 10 listen addresses disconnects; none within 8 s disconnects. On a session
 * this side dialed, a peer whose flags lack the required ones is disconnected, and an identified
 * one's address goes to the address book.
 */
final class IdentifyHandler extends ProtocolHandler {
  static final Duration TIMEOUT = Duration.ofSeconds(8);
  static final String WRONG_NETWORK = "The nodes are not on the same network";

  private ScheduledFuture<?> deadline;
  private boolean received;

  IdentifyHandler(Peer peer) {
    super(peer, CkbProtocol.IDENTIFY);
  }

  @Override
  void onOpen() {
    CkbConfig config = peer.config();
    List<Multiaddr> listen = config.listenAddrs().stream()
        .filter(a -> config.localAddresses() || Reachability.isReachable(a))
        .limit(CkbConfig.MAX_LISTEN_ADDRS)
        .toList();
    byte[] identify = new Identify(config.flags(), config.network().identifyName(), config.clientVersion()).encode();
    send(IdentifyMessage.encode(listen, peer.observedAddress(), identify));
    deadline = schedule(() -> {
      if (!received) {
        disconnect(Reason.IDENTIFY_TIMEOUT, "no identify message within " + TIMEOUT.toSeconds() + " s");
      }
    }, TIMEOUT);
  }

  @Override
  void onClose() {
    if (deadline != null) {
      deadline.cancel(false);
    }
  }

  @Override
  void onMessage(byte[] message) {
    IdentifyMessage m;
    try {
      m = IdentifyMessage.decode(message);
    } catch (CkbException e) {
      disconnect(Reason.MALFORMED_MESSAGE, "invalid identify message: " + e.getMessage());
      return;
    }
    if (received) {
      disconnect(Reason.PROTOCOL_VIOLATION, "a second identify message");
      return;
    }
    received = true;
    deadline.cancel(false);
    CkbConfig config = peer.config();
    Identify identify;
    try {
      identify = Identify.decode(m.identify());
    } catch (CkbException e) {
      peer.ban(Peer.BAD_MESSAGE_BAN, Reason.WRONG_NETWORK, WRONG_NETWORK);
      return;
    }
    if (!identify.name().equals(config.network().identifyName()) || identify.flag() == 0) {
      peer.ban(Peer.BAD_MESSAGE_BAN, Reason.WRONG_NETWORK, WRONG_NETWORK);
      return;
    }
    if (peer.isDialer() && !IdentifyFlags.meets(identify.flag(), config.requiredFlags())) {
      disconnect(Reason.FLAGS_NOT_MET, "the peer's flags " + IdentifyFlags.describe(identify.flag())
          + " lack " + IdentifyFlags.describe(config.requiredFlags()));
      return;
    }
    if (m.listenAddrs().size() > CkbConfig.MAX_LISTEN_ADDRS) {
      disconnect(Reason.PROTOCOL_VIOLATION, m.listenAddrs().size() + " listen addresses, over 10");
      return;
    }
    List<Multiaddr> listen = m.listenAddrs().stream()
        .filter(a -> config.localAddresses() || Reachability.isReachable(a))
        .toList();
    if (peer.isDialer() && peer.dialed() != null) {
      config.addressBook().add(peer.dialed(), identify.flag());
    }
    peer.identified(new IdentifyRecord(identify.name(), identify.flag(), identify.clientVersion(), listen,
        m.observedAddr()));
  }
}
