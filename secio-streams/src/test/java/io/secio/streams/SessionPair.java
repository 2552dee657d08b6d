package io.secio.streams;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Two sessions of one muxer in memory, a client and a server on two {@link EmbeddedChannel}s; {@link
 * #pump} carries each one's output to the other until both are quiet. Time is theirs to drive.
 */
public final class SessionPair implements AutoCloseable {
  public final EmbeddedChannel client;
  public final EmbeddedChannel server;
  /** Streams the server accepted (opened by the client), and the other way round. */
  public final List<CollectedStream> serverStreams = new ArrayList<>();
  public final List<CollectedStream> clientStreams = new ArrayList<>();

  public SessionPair(Muxer muxer) {
    this(muxer, null);
  }

  /** With {@code serverStreamInit} run on each stream the server accepts, before its collector. */
  public SessionPair(Muxer muxer, Consumer<Channel> serverStreamInit) {
    client = new EmbeddedChannel(muxer.client().apply(CollectedStream.into(clientStreams)));
    server = new EmbeddedChannel(muxer.server().apply(CollectedStream.into(serverStreams, serverStreamInit)));
  }

  /** With the sessions' handlers as they are; the stream lists stay empty. */
  public SessionPair(ChannelHandler clientHandler, ChannelHandler serverHandler) {
    client = new EmbeddedChannel(clientHandler);
    server = new EmbeddedChannel(serverHandler);
  }

  /** Moves bytes both ways until neither side writes more; returns how many moved. */
  public long pump() {
    long total = 0;
    for (;;) {
      long moved = move(client, server) + move(server, client);
      total += moved;
      if (moved == 0) {
        return total;
      }
    }
  }

  /** Moves everything {@code from} wrote to {@code to} as one read burst: one read complete for all of it. */
  public void deliverInOneRead(EmbeddedChannel from, EmbeddedChannel to) {
    from.runPendingTasks();
    List<Object> written = new ArrayList<>();
    for (Object msg; (msg = from.readOutbound()) != null; ) {
      written.add(msg);
    }
    to.writeInbound(written.toArray());
    to.runPendingTasks();
  }

  private static long move(EmbeddedChannel from, EmbeddedChannel to) {
    from.runPendingTasks();
    long moved = 0;
    for (Object msg; (msg = from.readOutbound()) != null; ) {
      ByteBuf buf = (ByteBuf) msg;
      moved += buf.readableBytes();
      if (to.isActive()) {
        to.writeInbound(buf);
      } else {
        buf.release();
      }
    }
    to.runPendingTasks();
    return moved;
  }

  /** Opens a stream from the client with {@code handler}, pumping until the server has it. */
  public StreamChannel open(ChannelHandler handler) {
    Future<StreamChannel> f = new StreamChannelBootstrap(client).handler(handler).open();
    client.runPendingTasks();
    pump();
    return f.getNow();
  }

  @Override
  public void close() {
    client.finishAndReleaseAll();
    server.finishAndReleaseAll();
  }
}
