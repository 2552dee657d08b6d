package io.secio.examples.cli;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.secio.SecioConfig;
import io.secio.ckb.Ckb;
import io.secio.ckb.CkbConfig;
import io.secio.ckb.CkbSession;
import io.secio.multiaddr.Multiaddr;
import io.secio.multiaddr.MultiaddrProtocol;
import io.secio.netty.Transports;
import io.secio.websocket.WebSocket;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Dials one CKB node for a {@code secio ckb} command: TCP within the timeout (and WebSocket when the
 * address has {@code /ws}), then secio, yamux and Identify ({@link Ckb#client}). The caller closes the connection ({@link #channel()}) when done.
 * Not thread-safe.
 */
final class CkbDial {
  private final ChannelFuture connect;
  private final Duration timeout;

  private CkbDial(ChannelFuture connect, Duration timeout) {
    this.connect = connect;
    this.timeout = timeout;
  }

  /** Starts dialling {@code address} (its {@code /p2p/} id, if any, checked by secio). */
  static CkbDial start(EventLoopGroup group, SecioConfig secio, CkbConfig config, Multiaddr address, Duration timeout) {
    InetSocketAddress socket = address.socketAddress().orElseThrow();
    ChannelFuture connect = new Bootstrap().group(group).channel(Transports.best().channelClass())
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()))
        .handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            if (address.has(MultiaddrProtocol.WS)) {
              ch.pipeline().addLast(WebSocket.client(webSocketUri(socket)));
            }
            ch.pipeline().addLast(Ckb.client(secio, config, address), new InOrderTeardown());
          }
        })
        .connect(socket.isUnresolved() ? new InetSocketAddress(socket.getHostString(), socket.getPort()) : socket);
    return new CkbDial(connect, timeout);
  }

  /**
   * The session once the node is identified.
   *
   * @throws ExecutionException with the cause if the connection or the session failed
   * @throws TimeoutException if either took longer than the timeout
   */
  CkbSession session() throws ExecutionException, TimeoutException, InterruptedException {
    // The handlers are added once the channel is registered, which a finished connect implies.
    if (!connect.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new TimeoutException("no connection within " + timeout.toSeconds() + " s");
    }
    if (!connect.isSuccess()) {
      throw new ExecutionException(connect.cause());
    }
    try {
      return Ckb.sessionFuture(connect.channel()).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new TimeoutException("no answer within " + timeout.toSeconds() + " s");
    }
  }

  /** The connection. */
  Channel channel() {
    return connect.channel();
  }

  /** Closes the connection and waits for it. */
  void close() {
    connect.channel().close().awaitUninterruptibly();
  }

  /** Whether a command can dial {@code address}: a host and TCP port, and no TLS ({@code /wss}). */
  static boolean dialable(Multiaddr address) {
    return address.socketAddress().isPresent() && !address.has(MultiaddrProtocol.WSS);
  }

  /** {@code ws://HOST:PORT/}: the path tentacle and CKB's light client dial. */
  private static URI webSocketUri(InetSocketAddress socket) {
    try {
      return new URI("ws", null, socket.getHostString(), socket.getPort(), "/", null, null);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("no WebSocket URI for " + socket, e);
    }
  }
}
