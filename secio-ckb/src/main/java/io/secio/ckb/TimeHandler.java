package io.secio.ckb;

import io.secio.ckb.message.TimeMessage;
import io.secio.ckb.protocol.CkbException.Reason;
import io.secio.ckb.protocol.CkbException;
import io.secio.ckb.protocol.CkbProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /ckb/tim} as a node runs it ({@code net_time_checker.rs}): this side sends its clock once to
 * a peer that dialed it, and reads a peer's clock strictly (a malformed Time bans for 300 s), logging
 * an offset over 2 hours.
 */
final class TimeHandler extends ProtocolHandler {
  private static final Logger LOG = LoggerFactory.getLogger(TimeHandler.class);
  static final long TOLERANCE_MILLIS = 2 * 60 * 60 * 1000L;

  TimeHandler(Peer peer) {
    super(peer, CkbProtocol.TIME);
  }

  @Override
  void onOpen() {
    if (!peer.isDialer()) {
      send(new TimeMessage(peer.config().clock().millis()).encode());
    }
  }

  @Override
  void onMessage(byte[] message) {
    TimeMessage time;
    try {
      time = TimeMessage.decode(message);
    } catch (CkbException e) {
      peer.ban(Peer.BAD_MESSAGE_BAN, Reason.MALFORMED_MESSAGE, "send us a malformed message");
      return;
    }
    long offset = peer.config().clock().millis() - time.timestamp();
    if (Math.abs(offset) > TOLERANCE_MILLIS) {
      LOG.warn("{}: its clock is {} ms from ours", peer, offset);
    }
  }
}
