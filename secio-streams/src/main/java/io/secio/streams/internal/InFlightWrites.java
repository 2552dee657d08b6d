package io.secio.streams.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelPromise;
import java.util.ArrayDeque;

/**
 * A stream's writes handed to its connection whose promises wait for the socket ({@code
 * docs/STREAMS.md} §3). Each frame's connection promise reaches the stream's promise through a link
 * the stream can cut: when the stream closes, every promise still waiting completes at once, so the
 * frames a peer that reads nothing leaves in the connection's buffers keep nothing of a closed
 * stream (a stream's promise would keep the whole stream, its pipeline and handlers alive).
 * Allocated only when a stream first writes with a promise.
 *
 * <p>Not thread-safe: the connection's event loop.
 */
final class InFlightWrites {
  private final ArrayDeque<Link> links = new ArrayDeque<>(4);

  /** A promise of {@code connection} completing {@code streamPromise} with the frame's write, until the stream closes. */
  ChannelPromise link(ChannelPromise streamPromise, Channel connection) {
    Link link = new Link(streamPromise, links);
    links.add(link);
    ChannelPromise promise = connection.newPromise();
    promise.addListener(link);
    return promise;
  }

  /**
   * The stream closed: every promise still waiting succeeds (its bytes went to the connection before
   * the stream's end), or fails with {@code cause} when they may never go (a reset, a lost connection).
   */
  void closed(Throwable cause) {
    for (Link link; (link = links.poll()) != null; ) {
      link.complete(cause);
    }
  }

  /** From one frame's connection promise to the stream's promise; empty once completed. */
  private static final class Link implements ChannelFutureListener {
    private final ArrayDeque<Link> links;
    private ChannelPromise streamPromise;

    Link(ChannelPromise streamPromise, ArrayDeque<Link> links) {
      this.streamPromise = streamPromise;
      this.links = links;
    }

    @Override
    public void operationComplete(ChannelFuture written) {
      if (streamPromise == null) {
        return; // the stream closed first
      }
      if (links.peekFirst() == this) {
        links.pollFirst(); // frames leave in the order written
      } else {
        links.remove(this);
      }
      complete(written.isSuccess() ? null : written.cause());
    }

    void complete(Throwable cause) {
      ChannelPromise promise = streamPromise;
      streamPromise = null;
      if (cause == null) {
        promise.trySuccess();
      } else {
        promise.tryFailure(cause);
      }
    }
  }
}
