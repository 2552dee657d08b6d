package io.secio.ckb.protocol;

import io.netty.channel.ChannelHandlerContext;
import io.secio.ckb.CkbProtocol;

/**
 * A registered protocol this side does not implement ({@code CkbConfig.Builder.protocol}): it stays
 * open and sends nothing; the peer's messages, once through the codec (whose errors still ban), go to
 * the user's handler after this one, or are dropped when there is none.
 */
final class SilentHandler extends ProtocolHandler {
  private final boolean passOn;

  SilentHandler(Peer peer, CkbProtocol protocol, boolean passOn) {
    super(peer, protocol);
    this.passOn = passOn;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (passOn) {
      ctx.fireChannelRead(msg);
    } else {
      super.channelRead(ctx, msg);
    }
  }

  @Override
  void onMessage(byte[] message) {
    // Dropped: nothing here speaks this protocol.
  }
}
