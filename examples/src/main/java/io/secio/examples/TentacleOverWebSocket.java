package io.secio.examples;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.secio.SecioConfig;
import io.secio.netty.Transports;
import io.secio.tentacle.Tentacle;
import io.secio.tentacle.TentacleSession;
import io.secio.websocket.WebSocket;
import java.net.InetSocketAddress;
import java.net.URI;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * tentacle over WebSocket, as a CKB node serves browsers: one listener port for TCP and WebSocket
 * dialers ({@code WebSocket.serverOrTcp}), one for WebSocket alone ({@code WebSocket.server}); a
 * dialer over TCP and one over WebSocket ({@code WebSocket.client}) each open /test/echo.
 */
public final class TentacleOverWebSocket {
  public static void main(String[] args) throws Exception {
    run().forEach(System.out::println);
  }

  /** A line per dial: how it went and what came back. */
  static List<String> run() throws Exception {
    SecureRandom random = new SecureRandom();
    SecioConfig server = TentacleQuickStart.secio(random);
    SecioConfig client = TentacleQuickStart.secio(random);
    Transports transport = Transports.best();
    EventLoopGroup group = transport.newEventLoopGroup(0);
    try {
      Channel onePort = listen(group, transport, () -> WebSocket.serverOrTcp("/"), server);
      Channel webSocketOnly = listen(group, transport, () -> WebSocket.server("/"), server);
      List<String> lines = new ArrayList<>();
      lines.add("tcp to the one port: " + echo(group, transport, onePort, false, client, server));
      lines.add("ws to the one port: " + echo(group, transport, onePort, true, client, server));
      lines.add("ws to the ws port: " + echo(group, transport, webSocketOnly, true, client, server));
      onePort.close().sync();
      webSocketOnly.close().sync();
      return lines;
    } finally {
      group.shutdownGracefully().sync();
    }
  }

  private static Channel listen(EventLoopGroup group, Transports transport, Supplier<ChannelHandler> webSocket,
      SecioConfig server) throws InterruptedException {
    return new ServerBootstrap().group(group).channel(transport.serverChannelClass())
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            // WebSocket first: it hands the byte stream to the tentacle session behind it.
            ch.pipeline().addLast(webSocket.get(), Tentacle.server(server, TentacleQuickStart.echoProtocol()));
          }
        })
        .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
  }

  private static String echo(EventLoopGroup group, Transports transport, Channel listener, boolean overWebSocket,
      SecioConfig client, SecioConfig server) throws Exception {
    InetSocketAddress address = (InetSocketAddress) listener.localAddress();
    URI uri = URI.create("ws://127.0.0.1:" + address.getPort() + "/");
    Channel channel = new Bootstrap().group(group).channel(transport.channelClass())
        .handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            if (overWebSocket) {
              ch.pipeline().addLast(WebSocket.client(uri));
            }
            ch.pipeline().addLast(Tentacle.client(client, TentacleQuickStart.echoProtocol(), server.localPeerId()));
          }
        })
        .connect(address).sync().channel();
    TentacleSession session = Tentacle.awaitSession(channel);
    String line = TentacleQuickStart.echo(session) + (WebSocket.isWebSocket(channel) ? " over WebSocket" : " over TCP");
    session.close().sync();
    return line;
  }
}
