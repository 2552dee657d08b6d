package io.secio.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.socket.ChannelInputShutdownReadComplete;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The write after a peer's FIN that Netty 4.2's epoll loses ({@link EpollInterestGuard}), made to
 * happen every time: the peer half-closes at once; the server stops reading when its input ends, so
 * the epoll mask empties; then it writes more than the socket buffers hold, which needs EPOLLOUT, while
 * the peer reads nothing yet. Every byte must reach the peer. On Netty 4.2 that takes the guard (a
 * group from {@link Transports#EPOLL}, or secio's frame decoder in the pipeline of a channel on a
 * group made by Netty's own constructor); a plain 4.2 epoll group loses the tail, which this test also
 * shows, so that a Netty release that fixes it is noticed. Netty 4.1 needs no guard.
 */
class EpollInterestGuardTest {
  private static final int TAIL_IN_BYTES = 4 * 1024 * 1024;
  private static final int BUFFER_IN_BYTES = 32 * 1024;
  private static final long HANG_GUARD_SECONDS = 300;
  private static final boolean NETTY_42 = isNetty42();

  @Test
  void aGroupFromTransportsDeliversTheWholeTail() throws Exception {
    Outcome outcome = run(() -> Transports.EPOLL.newEventLoopGroup(1), null);
    assertEquals(new Outcome(TAIL_IN_BYTES, true), outcome);
  }

  @Test
  void theFrameDecoderGuardsAChannelOnAGroupMadeByNetty() throws Exception {
    Outcome outcome = run(EpollInterestGuardTest::plainEpollGroup, () -> new SecioFrameDecoder(1024));
    assertEquals(new Outcome(TAIL_IN_BYTES, true), outcome);
  }

  /** Fails once Netty fixes its epoll: then the guard can go (keep it for the versions without). */
  @Test
  void withoutTheGuardNetty42LosesTheTailAndNetty41DoesNot() throws Exception {
    Outcome outcome = run(EpollInterestGuardTest::plainEpollGroup, null);
    if (NETTY_42) {
      assertTrue(outcome.received() < TAIL_IN_BYTES && !outcome.written(), outcome::toString);
    } else {
      assertEquals(new Outcome(TAIL_IN_BYTES, true), outcome);
    }
  }

  /** What the peer read before the end of the stream, and whether the server's write succeeded. */
  record Outcome(int received, boolean written) {}

  private static Outcome run(Supplier<EventLoopGroup> groups, Supplier<ChannelHandler> first)
      throws Exception {
    EventLoopGroup group = groups.get();
    TailAfterFin tail = new TailAfterFin();
    try {
      Channel listener = new ServerBootstrap().group(group)
          .channel(Transports.EPOLL.serverChannelClass())
          .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
          .childOption(ChannelOption.SO_SNDBUF, BUFFER_IN_BYTES)
          .childHandler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              if (first != null) {
                ch.pipeline().addLast(first.get());
              }
              ch.pipeline().addLast(tail);
            }
          })
          .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
      try (Socket peer = new Socket()) {
        peer.setReceiveBufferSize(BUFFER_IN_BYTES);
        peer.setSoTimeout((int) TimeUnit.SECONDS.toMillis(HANG_GUARD_SECONDS));
        peer.connect(listener.localAddress());
        peer.shutdownOutput();
        // Nothing is read until the server's flush has left bytes waiting for EPOLLOUT.
        tail.flushed.get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
        int received = readToEnd(peer.getInputStream());
        return new Outcome(received, tail.written.get(HANG_GUARD_SECONDS, TimeUnit.SECONDS));
      } finally {
        listener.close().sync();
      }
    } finally {
      group.shutdownGracefully(0, HANG_GUARD_SECONDS, TimeUnit.SECONDS).sync();
    }
  }

  private static int readToEnd(InputStream in) {
    byte[] chunk = new byte[64 * 1024];
    int total = 0;
    try {
      for (int n; (n = in.read(chunk)) >= 0; ) {
        total += n;
      }
    } catch (IOException e) { // a reset ends the stream as surely as a FIN
      return total;
    }
    return total;
  }

  /** Stops reading when the input ends, then writes the tail from a later task and closes. */
  @ChannelHandler.Sharable
  private static final class TailAfterFin extends ChannelInboundHandlerAdapter {
    final CompletableFuture<Void> flushed = new CompletableFuture<>();
    final CompletableFuture<Boolean> written = new CompletableFuture<>();

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof ChannelInputShutdownReadComplete) {
        ctx.channel().config().setAutoRead(false);
        // After this event Netty clears EPOLLRDHUP: with EPOLLIN off too, the mask is empty.
        ctx.executor().execute(() -> {
          ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[TAIL_IN_BYTES])).addListener(f -> {
            written.complete(f.isSuccess());
            ctx.close();
          });
          flushed.complete(null);
        });
      }
      ctx.fireUserEventTriggered(evt);
    }
  }

  private static EventLoopGroup plainEpollGroup() {
    return NETTY_42 ? Netty42.plainEpollGroup() : netty41EpollGroup();
  }

  @SuppressWarnings("deprecation") // the 4.1 group; 4.2 deprecates it
  private static EventLoopGroup netty41EpollGroup() {
    return new EpollEventLoopGroup(1);
  }

  /** Named only on Netty 4.2. */
  private static final class Netty42 {
    static EventLoopGroup plainEpollGroup() {
      return new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
    }
  }

  private static boolean isNetty42() {
    try {
      Class.forName("io.netty.channel.IoHandlerFactory");
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}
