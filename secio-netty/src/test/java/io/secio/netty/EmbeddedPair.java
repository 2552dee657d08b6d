package io.secio.netty;

import static org.junit.jupiter.api.Assertions.assertFalse;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;

/**
 * Two {@link EmbeddedChannel}s wired back to back: {@link #pump()} moves what each side wrote to the
 * other side's inbound, as a network would, until neither has anything left to send.
 */
final class EmbeddedPair implements AutoCloseable {
  final EmbeddedChannel client;
  final EmbeddedChannel server;
  /** Frames (outbound buffers) moved so far, each direction. */
  int buffersToServer;
  int buffersToClient;

  EmbeddedPair(ChannelHandler[] clientHandlers, ChannelHandler[] serverHandlers) {
    client = new EmbeddedChannel(clientHandlers);
    server = new EmbeddedChannel(serverHandlers);
  }

  /** Moves outbound buffers across until both sides are quiet; returns how many buffers moved. */
  int pump() {
    int moved = 0;
    for (;;) {
      int n = move(client, server);
      buffersToServer += n;
      int m = move(server, client);
      buffersToClient += m;
      if (n + m == 0) {
        return moved;
      }
      moved += n + m;
    }
  }

  /** Moves one side's outbound buffers to the other side, one by one. */
  static int move(EmbeddedChannel from, EmbeddedChannel to) {
    int moved = 0;
    for (Object msg; (msg = from.readOutbound()) != null; ) {
      moved++;
      if (to.isOpen() && ((ByteBuf) msg).isReadable()) {
        to.writeInbound(msg);
      } else {
        ReferenceCountUtil.release(msg);
      }
    }
    from.runPendingTasks();
    to.runPendingTasks();
    return moved;
  }

  /** Closes both sides and asserts nothing was left unread in either. */
  @Override
  public void close() {
    boolean clientLeft = client.finishAndReleaseAll();
    boolean serverLeft = server.finishAndReleaseAll();
    assertFalse(clientLeft, "client had unread messages");
    assertFalse(serverLeft, "server had unread messages");
  }
}
