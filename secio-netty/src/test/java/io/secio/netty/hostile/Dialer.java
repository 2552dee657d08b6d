package io.secio.netty.hostile;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.netty.Secio;
import io.secio.netty.Transports;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A hostile listener (a plain {@link ServerSocket}) and a real secio dialer ({@link Secio#client}) with
 * its own event loops. Closing it closes every channel and waits for the event loops to stop.
 */
public final class Dialer implements AutoCloseable {
  /** The real client's connection and the hostile end it reached. */
  public record Dialled(Connection client, RawPeer hostile) {}

  private final EventLoopGroup group = Transports.best().newEventLoopGroup(1);
  private final ServerSocket hostileListener;
  private final List<Channel> channels = new ArrayList<>();
  private final List<RawPeer> accepted = new ArrayList<>();

  public Dialer() throws IOException {
    hostileListener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    hostileListener.setSoTimeout(Math.toIntExact(HostileConfigs.READ_TIMEOUT.toMillis()));
  }

  /** Dials the hostile listener with {@code Secio.client(config, expected)}. */
  public Dialled dial(SecioConfig config, PeerId expected, Duration readTimeout) throws IOException {
    return dial(config, expected, readTimeout, null);
  }

  /** As above, with {@code first} (if not null) in front of the secio handlers. */
  public Dialled dial(SecioConfig config, PeerId expected, Duration readTimeout, ChannelHandler first)
      throws IOException {
    App app = new App();
    Connection[] client = new Connection[1];
    Channel ch = new Bootstrap()
        .group(group)
        .channel(Transports.best().channelClass())
        .handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel c) {
            if (first != null) {
              c.pipeline().addLast(first);
            }
            c.pipeline().addLast(Secio.client(config, expected), app);
            client[0] = new Connection(c, app);
          }
        })
        .connect(hostileListener.getLocalSocketAddress())
        .syncUninterruptibly()
        .channel();
    channels.add(ch);
    Socket s = hostileListener.accept();
    RawPeer hostile = RawPeer.wrap(s, readTimeout);
    accepted.add(hostile);
    return new Dialled(client[0], hostile);
  }

  @Override
  public void close() throws IOException {
    for (Channel ch : channels) {
      ch.close().syncUninterruptibly();
    }
    for (RawPeer p : accepted) {
      p.close();
    }
    hostileListener.close();
    group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
