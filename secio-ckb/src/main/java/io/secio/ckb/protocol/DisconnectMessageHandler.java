package io.secio.ckb.protocol;

import io.secio.ckb.CkbProtocol;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /ckb/disconnectmsg} as a node runs it ({@code disconnect_message.rs}): whatever the peer
 * sends is its reason for closing, raw UTF-8 without molecule; it is logged (debug) and surfaced, and the
 * session ends. This side's own reasons go out through {@link Peer#disconnect}.
 */
final class DisconnectMessageHandler extends ProtocolHandler {
  private static final Logger LOG = LoggerFactory.getLogger(DisconnectMessageHandler.class);

  DisconnectMessageHandler(Peer peer) {
    super(peer, CkbProtocol.DISCONNECT_MESSAGE);
  }

  @Override
  void onMessage(byte[] message) {
    String text = new String(message, StandardCharsets.UTF_8);
    LOG.debug("{} says goodbye: {}", peer, text);
    peer.saidGoodbye(text);
    peer.connection().close();
  }
}
