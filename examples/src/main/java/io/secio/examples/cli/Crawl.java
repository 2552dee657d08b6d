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
import io.secio.ckb.Node;
import io.secio.multiaddr.Multiaddr;
import io.secio.netty.Transports;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One node of a crawl: connect, identify, one GetNodes, print, goodbye. Not thread-safe; one visit at
 * a time.
 */
final class Crawl {
  static final String GOODBYE = "crawl done";

  private final EventLoopGroup group;
  private final SecioConfig secio;
  private final CkbConfig config;
  private final Duration timeout;
  private final PrintWriter out;
  private final PrintWriter err;

  Crawl(EventLoopGroup group, SecioConfig secio, CkbConfig config, Duration timeout, PrintWriter out, PrintWriter err) {
    this.group = group;
    this.secio = secio;
    this.config = config;
    this.timeout = timeout;
    this.out = out;
    this.err = err;
  }

  /** The node's nodes, printed with its record; null (and a {@code failed} line) if it failed. */
  List<Node> visit(Multiaddr address) throws InterruptedException {
    InetSocketAddress socket = address.socketAddress().orElseThrow();
    ChannelFuture connect = new Bootstrap().group(group).channel(Transports.best().channelClass())
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()))
        .handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(Ckb.client(secio, config, address), new InOrderTeardown());
          }
        })
        .connect(socket.isUnresolved() ? new InetSocketAddress(socket.getHostString(), socket.getPort()) : socket);
    Channel channel = connect.channel();
    try {
      // The handlers are added once the channel is registered, which a finished connect implies.
      if (!connect.await(timeout.toMillis(), TimeUnit.MILLISECONDS) || !connect.isSuccess()) {
        err.println(CkbLines.failed(address, connect.cause() != null ? connect.cause()
            : new TimeoutException("no connection within " + timeout.toSeconds() + " s")));
        return null;
      }
      CkbSession session = Ckb.sessionFuture(channel).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      out.println(CkbLines.identified(session));
      session.identify().listenAddrs().forEach(a -> out.println("listen " + a));
      List<Node> nodes = session.nodes().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      nodes.forEach(n -> out.println(CkbLines.node(n)));
      session.disconnect(GOODBYE).await(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return nodes;
    } catch (ExecutionException e) {
      err.println(CkbLines.failed(address, e.getCause()));
      return null;
    } catch (TimeoutException e) {
      err.println(CkbLines.failed(address, new TimeoutException("no answer within " + timeout.toSeconds() + " s")));
      return null;
    } finally {
      channel.close().awaitUninterruptibly();
    }
  }
}
