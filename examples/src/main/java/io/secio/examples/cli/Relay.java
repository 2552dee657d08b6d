package io.secio.examples.cli;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.netty.NegotiationCompletionEvent;
import io.secio.netty.Secio;
import io.secio.netty.SecioHandshakeCompletionEvent;
import java.io.PrintStream;
import java.net.SocketAddress;
import java.util.ArrayDeque;
import java.util.Queue;

/**
 * One bridged connection, seen from its accepted (inbound) side. Once the inbound handshake succeeds
 * it dials the upstream with its own secio session, then copies plaintext both ways, one read at a
 * time (the next read waits until the other side took the last one, so a slow side slows the other
 * instead of filling memory). A half-close is carried across: when one side ends its output, the
 * other side's output is shut down after what was already read is written, and the other direction
 * keeps relaying until it ends too; then both close. When either side closes, the other is closed
 * after what was already read is written. Prints {@code secured}, {@code upstream PEERID ... for
 * CLIENT}, {@code failed} (also for a client whose multistream-select negotiation failed; {@code
 * failed UPSTREAM reason} when the upstream fails, {@code failed CLIENT the client left during the
 * upstream handshake} when the client goes first) and {@code closed CLIENT} lines.
 *
 * <p>The inbound channel runs without auto-read; the upstream channel is created on the inbound's
 * event loop, so both sides of a connection are handled by one thread. Not sharable.
 */
final class Relay extends ChannelInboundHandlerAdapter {
  private final Network network;
  private final HostPort upstream;
  private final SecioConfig upstreamConfig;
  private final PeerId upstreamPeer;
  private final PrintStream out;
  // Plaintext that arrived with the inbound handshake's last frames, before the upstream was ready.
  private final Queue<Object> early = new ArrayDeque<>();
  private Channel inbound;
  private Channel outbound;
  private String client;
  private SocketAddress clientAddress;
  private boolean relaying;
  /** The client's connection closed; if the upstream was not ready yet, that is why it failed. */
  private boolean clientLeft;
  private boolean reportedClosed;
  /** The client ended its output; relayed as a half-close to the upstream. */
  private boolean clientEnded;
  /** The upstream ended its output (or closed); relayed as a half-close to the client. */
  private boolean upstreamEnded;

  Relay(Network network, HostPort upstream, SecioConfig upstreamConfig, PeerId upstreamPeer, PrintStream out) {
    this.network = network;
    this.upstream = upstream;
    this.upstreamConfig = upstreamConfig;
    this.upstreamPeer = upstreamPeer;
    this.out = out;
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof SecioHandshakeCompletionEvent) {
      SecioHandshakeCompletionEvent event = (SecioHandshakeCompletionEvent) evt;
      if (event.isSuccess()) {
        client = event.session().remotePeerId().toBase58();
        out.println(Report.secured(event.session()));
        dialUpstream(ctx.channel());
      } else {
        out.println(Report.failed(ctx.channel().remoteAddress(), event.cause()));
      }
    } else if (Report.failedNegotiation(evt)) {
      // A negotiation that failed never reaches secio, so this is the connection's only line.
      out.println(Report.failed(ctx.channel().remoteAddress(), ((NegotiationCompletionEvent) evt).cause()));
    } else if (evt instanceof ChannelInputShutdownEvent) {
      clientEnded(ctx.channel());
    }
    ctx.fireUserEventTriggered(evt);
  }

  private void clientEnded(Channel client) {
    clientEnded = true;
    if (outbound == null || (!relaying && !outbound.isOpen())) {
      client.close(); // no upstream to carry it to
    } else if (relaying) {
      // Before the upstream is ready, upstreamSecured() carries it across after the early data.
      endOutput(outbound);
    }
    closeIfBothEnded();
  }

  private void upstreamEnded() {
    upstreamEnded = true;
    endOutput(inbound);
    closeIfBothEnded();
  }

  /** Shuts {@code channel}'s output down once everything written to it before has gone out. */
  private static void endOutput(Channel channel) {
    if (channel.isActive()) {
      Secio.shutdownOutput(channel);
    }
  }

  private void closeIfBothEnded() {
    if (clientEnded && upstreamEnded) {
      closeAfterFlush(inbound);
      closeAfterFlush(outbound);
    }
  }

  private void dialUpstream(Channel accepted) {
    inbound = accepted;
    clientAddress = accepted.remoteAddress();
    inbound.closeFuture().addListener(f -> closed());
    ChannelFuture connect = network.dialFrom(inbound, upstream, false, ch -> ch.pipeline().addLast(
        upstreamPeer != null ? Secio.client(upstreamConfig, upstreamPeer) : Secio.client(upstreamConfig),
        new Backend()));
    outbound = connect.channel();
    outbound.closeFuture().addListener(f -> closed());
    // One read while the upstream gets ready: what it brings waits in early (one buffer at most,
    // auto-read being off), and a client that resets meanwhile is seen now, not at the upstream's timeout.
    inbound.read();
    connect.addListener(f -> {
      if (!f.isSuccess()) {
        upstreamFailed(f.cause());
      } else {
        Secio.handshakeFuture(outbound).addListener(this::upstreamSecured);
      }
    });
  }

  private void upstreamSecured(Future<? super SecioSession> handshake) {
    if (!handshake.isSuccess()) {
      upstreamFailed(handshake.cause());
      return;
    }
    out.println("upstream " + Report.session((SecioSession) handshake.getNow()) + " for " + client);
    relaying = true;
    Object msg;
    while ((msg = early.poll()) != null) {
      outbound.write(msg);
    }
    outbound.flush();
    if (clientEnded) {
      endOutput(outbound);
    } else {
      inbound.read();
    }
    outbound.read();
  }

  private void upstreamFailed(Throwable cause) {
    // Which side left matters to whoever reads the line: the upstream is not at fault for this one.
    out.println(clientLeft ? Report.failed(clientAddress, "the client left during the upstream handshake")
        : Report.failed(upstream.toAddress(), cause));
    inbound.close();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!relaying) {
      if (outbound != null && outbound.isOpen()) {
        early.add(msg);
      } else {
        ReferenceCountUtil.release(msg);
      }
      return;
    }
    outbound.writeAndFlush(msg).addListener(f -> {
      if (f.isSuccess()) {
        inbound.read();
      } else {
        inbound.close();
      }
    });
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    clientLeft = true;
    if (relaying) {
      closeAfterFlush(outbound);
    } else if (outbound != null) {
      outbound.close(); // a flush would wait in secio's queue until the upstream handshake ended
    }
    Object msg;
    while ((msg = early.poll()) != null) {
      ReferenceCountUtil.release(msg);
    }
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    ctx.close(); // the inbound connection is lost; closing it closes the upstream too
  }

  private void closed() {
    if (!reportedClosed && !inbound.isOpen() && !outbound.isOpen()) {
      reportedClosed = true;
      out.println("closed " + client);
    }
  }

  private static void closeAfterFlush(Channel channel) {
    if (channel != null && channel.isActive()) {
      channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    } else if (channel != null) {
      channel.close();
    }
  }

  /** The upstream side: copies to the inbound channel and closes it when the upstream closes. */
  private final class Backend extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      inbound.writeAndFlush(msg).addListener(f -> {
        if (f.isSuccess()) {
          outbound.read();
        } else {
          outbound.close();
        }
      });
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof ChannelInputShutdownEvent) {
        upstreamEnded();
      }
      ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      closeAfterFlush(inbound);
      ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }
}
