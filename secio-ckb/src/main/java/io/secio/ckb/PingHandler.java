package io.secio.ckb;

import io.netty.util.concurrent.ScheduledFuture;
import io.secio.ckb.message.PingMessage;
import io.secio.ckb.protocol.CkbException.Reason;
import io.secio.ckb.protocol.CkbException;
import io.secio.ckb.protocol.CkbProtocol;
import java.time.Duration;

/**
 * {@code /ckb/ping} as a node runs it ({@code ping.rs}): every Ping is answered with a Pong of its
 * nonce; this side pings every interval while no Ping of its own is outstanding, and a Ping
 * unanswered for the timeout ends the session ("ping timeout"). An undecodable message, or a Pong
 * that answers no outstanding Ping (a wrong nonce, or unasked), ends it too ("ping failed").
 */
final class PingHandler extends ProtocolHandler {
  private ScheduledFuture<?> pinging;
  private ScheduledFuture<?> timeout;
  private long nonce;
  private boolean outstanding;
  private long sentAt;

  PingHandler(Peer peer) {
    super(peer, CkbProtocol.PING);
  }

  @Override
  void onOpen() {
    pinging = repeat(this::ping, peer.config().pingInterval());
  }

  private void ping() {
    if (outstanding) {
      return;
    }
    outstanding = true;
    nonce = (nonce + 1) & 0xFFFF_FFFFL;
    sentAt = System.nanoTime();
    send(PingMessage.ping(nonce).encode());
    timeout = schedule(() -> disconnect(Reason.PING_TIMEOUT, "ping timeout"), peer.config().pingTimeout());
  }

  @Override
  void onClose() {
    if (pinging != null) {
      pinging.cancel(false);
    }
    if (timeout != null) {
      timeout.cancel(false);
    }
  }

  @Override
  void onMessage(byte[] message) {
    PingMessage m;
    try {
      m = PingMessage.decode(message);
    } catch (CkbException e) {
      disconnect(Reason.MALFORMED_MESSAGE, "ping failed");
      return;
    }
    if (!m.pong()) {
      send(PingMessage.pong(m.nonce()).encode());
      return;
    }
    if (!outstanding || m.nonce() != nonce) {
      disconnect(Reason.PROTOCOL_VIOLATION, "ping failed");
      return;
    }
    outstanding = false;
    timeout.cancel(false);
    peer.pingAnswered(Duration.ofNanos(System.nanoTime() - sentAt));
  }
}
