package io.secio.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.DefaultChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.Future;
import io.secio.SecioSession;
import io.secio.protocol.SecioException;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A dial that never connects: Netty takes the pipeline apart from the tail, so the application's
 * handlers are gone when secio's handshake handler is removed. The handshake future fails with
 * {@code CLOSED}, and no exception falls through to Netty's tail (which would log a warning with a
 * stack trace in every application).
 */
class RefusedConnectTest {
  /** Only guards against a hang: a busy machine may be slow, never this slow. */
  private static final long HANG_GUARD_SECONDS = 300;

  /** A channel whose pipeline records what reaches its tail unhandled. */
  public static final class RecordingChannel extends NioSocketChannel {
    static final List<Throwable> AT_TAIL = new CopyOnWriteArrayList<>();

    public RecordingChannel() {}

    @Override
    protected DefaultChannelPipeline newChannelPipeline() {
      return new DefaultChannelPipeline(this) {
        @Override
        protected void onUnhandledInboundException(Throwable cause) {
          AT_TAIL.add(cause);
          super.onUnhandledInboundException(cause);
        }
      };
    }
  }

  @Test
  void aRefusedDialFailsTheFutureAndNothingReachesTheTail() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    List<Throwable> caught = new CopyOnWriteArrayList<>();
    EventLoopGroup group = Transports.NIO.newEventLoopGroup(1);
    try {
      ChannelFuture connect = new Bootstrap()
          .group(group)
          .channel(RecordingChannel.class)
          .handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              ch.pipeline().addLast(Secio.client(TestConfigs.client().build()),
                  new ChannelInboundHandlerAdapter() {
                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                      caught.add(cause);
                      ctx.close();
                    }
                  });
            }
          })
          .connect("127.0.0.1", closedPort);
      assertTrue(connect.await(HANG_GUARD_SECONDS, TimeUnit.SECONDS), "connect still pending");
      assertFalse(connect.isSuccess(), "connected to a closed port");
      // The installer put the handshake handler in place at registration, before the connect failed.
      Future<SecioSession> handshake = Secio.handshakeFuture(connect.channel());
      assertTrue(handshake.await(HANG_GUARD_SECONDS, TimeUnit.SECONDS), "handshake still pending");
      SecioException cause = assertInstanceOf(SecioException.class, handshake.cause());
      assertEquals(SecioException.Reason.CLOSED, cause.reason());
      assertTrue(connect.channel().closeFuture().await(HANG_GUARD_SECONDS, TimeUnit.SECONDS));
      // Deregistration, and with it the teardown, follows the close on the event loop.
      group.submit(() -> { }).await(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
      assertEquals(List.of(), RecordingChannel.AT_TAIL, "exceptions reached Netty's tail");
    } finally {
      group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }
}
