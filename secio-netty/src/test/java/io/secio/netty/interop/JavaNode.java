package io.secio.netty.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.Future;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.netty.Secio;
import io.secio.netty.Transports;
import io.secio.testsupport.Collect;
import io.secio.testsupport.Echo;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** The Java side of the interop tests: a secio echo server and a secio client, on loopback TCP. */
final class JavaNode {
  static final Transports TRANSPORT = Transports.best();

  private JavaNode() {}

  /** A channel the server accepted: its handshake and how many plaintext bytes it echoed. */
  record Accepted(Channel channel, Future<SecioSession> handshake, AtomicLong echoed) {
    SecioSession session() throws Exception {
      return handshake.get(JsPeer.WAIT_SECONDS, TimeUnit.SECONDS);
    }

    /** Waits until the peer has closed the connection, then returns the bytes echoed. */
    long echoedWhenClosed() {
      if (!channel.closeFuture().awaitUninterruptibly(JsPeer.WAIT_SECONDS, TimeUnit.SECONDS)) {
        throw new AssertionError(channel + " still open");
      }
      return echoed.get();
    }
  }

  /** A listening secio echo server; the channels it accepted, in order. */
  static final class EchoServer implements AutoCloseable {
    final Channel listener;
    final BlockingQueue<Accepted> accepted = new LinkedBlockingQueue<>();

    EchoServer(EventLoopGroup group, SecioConfig config) {
      listener = new ServerBootstrap()
          .group(group)
          .channel(TRANSPORT.serverChannelClass())
          .childHandler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              AtomicLong echoed = new AtomicLong();
              ch.pipeline().addLast(Secio.server(config), new Echo(echoed));
              accepted.add(new Accepted(ch, Secio.handshakeFuture(ch), echoed));
            }
          })
          .bind(new InetSocketAddress("127.0.0.1", 0))
          .syncUninterruptibly()
          .channel();
    }

    int port() {
      return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    Accepted next() throws InterruptedException {
      Accepted next = accepted.poll(JsPeer.WAIT_SECONDS, TimeUnit.SECONDS);
      if (next == null) {
        throw new AssertionError("no connection accepted in " + JsPeer.WAIT_SECONDS + " s");
      }
      return next;
    }

    @Override
    public void close() {
      listener.close().syncUninterruptibly();
    }
  }

  /** A secio client connection whose received plaintext is collected for {@link #echo}. */
  static final class Client implements AutoCloseable {
    final Channel channel;
    private final Collect collect = new Collect();

    /** Connects to 127.0.0.1:{@code port}, expecting {@code expectedPeer} there. */
    Client(EventLoopGroup group, SecioConfig config, PeerId expectedPeer, int port) {
      channel = new Bootstrap()
          .group(group)
          .channel(TRANSPORT.channelClass())
          .handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              ch.pipeline().addLast(Secio.client(config, expectedPeer), collect);
            }
          })
          .connect(new InetSocketAddress("127.0.0.1", port))
          .syncUninterruptibly()
          .channel();
    }

    Future<SecioSession> handshake() {
      return Secio.handshakeFuture(channel);
    }

    SecioSession session() throws Exception {
      return handshake().get(JsPeer.WAIT_SECONDS, TimeUnit.SECONDS);
    }

    /** Sends {@code data} and asserts that exactly the same bytes come back. */
    void echo(byte[] data) {
      int before = collect.received().length;
      channel.writeAndFlush(Unpooled.wrappedBuffer(data));
      byte[] all = collect.awaitBytes(before + data.length);
      assertArrayEquals(data, Arrays.copyOfRange(all, before, all.length), "echo of " + data.length + " bytes");
    }

    @Override
    public void close() {
      channel.close().syncUninterruptibly();
    }
  }
}
