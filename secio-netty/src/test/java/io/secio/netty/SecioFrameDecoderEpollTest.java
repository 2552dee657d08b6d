package io.secio.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoRegistration;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.util.concurrent.Future;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.identity.KeyType;
import io.secio.testing.TestIdentities;
import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * On an event loop that Netty's own constructor built (not {@link Transports#EPOLL}, whose loops
 * guard every registration themselves), the frame decoder moves an active epoll channel to a {@link
 * GuardedEventLoop} over that same loop, against Netty 4.2's empty-interest defect ({@link
 * EpollInterestGuard}; {@link EpollInterestGuardTest} shows the behaviour): an accepted channel at
 * once, a dialling one once connected, a channel registered on the bare loop again anew. On real
 * epoll sockets; the registration is read through the channel's own protected accessor. Netty 4.2
 * only: 4.1 has nothing to guard, so the {@code netty41} profile leaves this class out.
 */
class SecioFrameDecoderEpollTest {
  private static final long HANG_GUARD_SECONDS = 300;

  private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());

  @AfterEach
  void shutDown() {
    await(group.shutdownGracefully(0, HANG_GUARD_SECONDS, TimeUnit.SECONDS));
  }

  @Test
  void anAcceptedChannelMovesToAGuardedViewOfItsOwnLoop() throws Exception {
    Registrations child = new Registrations(2);
    Channel listener = listen(child);
    EventLoop loop = group.next();
    try (Socket peer = new Socket()) {
      peer.connect(listener.localAddress());
      Channel ch = child.moved.get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
      assertEquals(List.of("registered", "active", "unregistered", "registered"), child.events());
      assertMovedFrom(loop, ch);
    } finally {
      listener.close().sync();
    }
  }

  @Test
  void aDiallingChannelMovesOnlyOnceConnected() throws Exception {
    Registrations client = new Registrations(2);
    try (ServerSocket peer = new ServerSocket(0)) {
      Bootstrap bootstrap = new Bootstrap().group(group).channel(EpollSocketChannel.class)
          .handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              ch.pipeline().addLast(new SecioFrameDecoder(1024), client);
            }
          });
      Channel ch = bootstrap.register().sync().channel();
      EventLoop loop = ch.eventLoop();
      // Registered but not connected: a move now would drop the EPOLLOUT a connect waits for.
      assertSame(loop, onLoop(ch, ch::eventLoop));
      ch.connect(peer.getLocalSocketAddress()).sync();
      try (Socket accepted = peer.accept()) {
        assertSame(ch, client.moved.get(HANG_GUARD_SECONDS, TimeUnit.SECONDS));
        assertEquals(List.of("registered", "active", "unregistered", "registered"), client.events());
        assertMovedFrom(loop, ch);
      } finally {
        ch.close().sync();
      }
    }
  }

  @Test
  void aChannelRegisteredOnTheBareLoopAgainMovesAgain() throws Exception {
    Registrations child = new Registrations(4);
    Channel listener = listen(child);
    EventLoop loop = group.next();
    try (Socket peer = new Socket()) {
      peer.connect(listener.localAddress());
      Channel ch = child.second.get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
      ch.deregister().sync();
      loop.register(ch).sync();
      assertSame(ch, child.moved.get(HANG_GUARD_SECONDS, TimeUnit.SECONDS));
      assertMovedFrom(loop, ch);
    } finally {
      listener.close().sync();
    }
  }

  /** The handshake stage asks again for the read the move dropped: with auto-read off both sides finish. */
  @Test
  void aHandshakeWithAutoReadOffOnBothSidesCompletes() throws Exception {
    SecioConfig server = SecioConfig.builder(TestIdentities.of(KeyType.ED25519)).build();
    SecioConfig client = SecioConfig.builder(TestIdentities.other(KeyType.ED25519)).build();
    CompletableFuture<Channel> accepted = new CompletableFuture<>();
    Channel listener = new ServerBootstrap().group(group).channel(EpollServerSocketChannel.class)
        .childOption(ChannelOption.AUTO_READ, false)
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(Secio.server(server));
            accepted.complete(ch);
          }
        })
        .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
    EventLoop loop = group.next();
    try {
      Channel ch = new Bootstrap().group(group).channel(EpollSocketChannel.class)
          .option(ChannelOption.AUTO_READ, false)
          .handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel c) {
              c.pipeline().addLast(Secio.client(client, server.localPeerId()));
            }
          })
          .connect(listener.localAddress()).sync().channel();
      Channel child = accepted.get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
      SecioSession dialled = Secio.handshakeFuture(ch).get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
      SecioSession answered = Secio.handshakeFuture(child).get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
      assertEquals(server.localPeerId(), dialled.remotePeerId());
      assertEquals(client.localPeerId(), answered.remotePeerId());
      assertMovedFrom(loop, ch);
      assertMovedFrom(loop, child);
      ch.close().sync();
    } finally {
      listener.close().sync();
    }
  }

  /** A listener whose accepted channels get a decoder, then {@code child}. */
  private Channel listen(Registrations child) throws InterruptedException {
    return new ServerBootstrap().group(group).channel(EpollServerSocketChannel.class)
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(new SecioFrameDecoder(1024), child);
          }
        })
        .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
  }

  private static void assertMovedFrom(EventLoop loop, Channel ch) throws Exception {
    GuardedEventLoop view = assertInstanceOf(GuardedEventLoop.class, ch.eventLoop());
    assertSame(loop, view.loop());
    IoRegistration registration = onLoop(ch, () -> registration(ch));
    assertInstanceOf(EpollInterestGuard.GuardedRegistration.class, registration);
    assertTrue(registration.isValid());
  }

  /** Records a channel's registrations; {@code moved} completes at the {@code count}-th one. */
  private static final class Registrations extends ChannelInboundHandlerAdapter {
    final CompletableFuture<Channel> second = new CompletableFuture<>();
    final CompletableFuture<Channel> moved = new CompletableFuture<>();
    private final List<String> events = new ArrayList<>();
    private final int count;
    private int registrations;

    Registrations(int count) {
      this.count = count;
    }

    synchronized List<String> events() {
      return List.copyOf(events);
    }

    @Override
    public void channelRegistered(ChannelHandlerContext ctx) {
      synchronized (this) {
        events.add("registered");
        registrations++;
      }
      if (registrations == 2) {
        second.complete(ctx.channel());
      }
      if (registrations == count) {
        moved.complete(ctx.channel());
      }
      ctx.fireChannelRegistered();
    }

    @Override
    public synchronized void channelUnregistered(ChannelHandlerContext ctx) {
      events.add("unregistered");
      ctx.fireChannelUnregistered();
    }

    @Override
    public synchronized void channelActive(ChannelHandlerContext ctx) {
      events.add("active");
      ctx.fireChannelActive();
    }
  }

  private static <T> T onLoop(Channel ch, Callable<T> task) throws Exception {
    Future<T> f = ch.eventLoop().submit(task);
    await(f);
    return f.getNow();
  }

  private static IoRegistration registration(Channel channel) throws ReflectiveOperationException {
    Method accessor = Class.forName("io.netty.channel.epoll.AbstractEpollChannel")
        .getDeclaredMethod("registration");
    accessor.setAccessible(true);
    return (IoRegistration) accessor.invoke(channel);
  }

  private static void await(Future<?> f) {
    assertTrue(f.awaitUninterruptibly(HANG_GUARD_SECONDS, TimeUnit.SECONDS), "hang guard");
    if (f.cause() != null) {
      throw new AssertionError(f.cause());
    }
  }
}
