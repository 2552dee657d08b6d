package io.secio.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** An exception that nothing handles reaches the tail of an accepted connection, and the watch sees it. */
class TailWatchTest {
  /** Fails the connection on its first read, and leaves the exception to whatever is behind it. */
  private static final class FailsOnRead extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ReferenceCountUtil.release(msg);
      ctx.fireExceptionCaught(new IOException("nobody handles this"));
      ctx.close();
    }
  }

  @Test
  void anUnhandledExceptionOfAnAcceptedConnectionIsRecorded() throws Exception {
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    try {
      TailWatch watch = new TailWatch();
      Channel listener = watch.listen(group, FailsOnRead::new);
      Channel dialer = new Bootstrap().group(group).channel(NioSocketChannel.class)
          .handler(new ChannelInboundHandlerAdapter())
          .connect(listener.localAddress()).sync().channel();
      dialer.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1})).sync();
      AssertionFailedError e = assertThrows(AssertionFailedError.class,
          () -> watch.assertEachClosedWithNothingAtTheTail(1));
      assertTrue(e.getMessage().contains("nobody handles this"), e.getMessage());
      assertEquals("nobody handles this", watch.exceptionsAtTail().get(0).getMessage());
      assertTrue(dialer.closeFuture().await(1, TimeUnit.MINUTES), "hang guard");
      listener.close().sync();
    } finally {
      group.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
    }
  }
}
