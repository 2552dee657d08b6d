package io.secio.ckb.protocol;

import io.secio.ckb.CkbException.Reason;
import io.secio.ckb.CkbProtocol;
import io.secio.ckb.IdentifyFlags;
import io.secio.ckb.IdentifyRecord;

/**
 * {@code /ckb/flr} as a node runs it ({@code feeler.rs}): it carries nothing; its opening proves the
 * address answers. The side that dialed records the address it dialed (with the flags the peer
 * announced, COMPATIBILITY if none yet), and both sides end the session ("feeler connection").
 */
final class FeelerHandler extends ProtocolHandler {
  FeelerHandler(Peer peer) {
    super(peer, CkbProtocol.FEELER);
  }

  @Override
  void onOpen() {
    if (peer.isDialer() && peer.dialed() != null) {
      IdentifyRecord record = peer.record();
      peer.config().addressBook().add(peer.dialed(), record != null ? record.flags() : IdentifyFlags.COMPATIBILITY);
    }
    disconnect(Reason.CLOSED, "feeler connection");
  }

  @Override
  void onMessage(byte[] message) {
    // Nothing is sent on a feeler stream: the session is ending.
  }
}
