package io.secio.tentacle;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/** The recordings' protocols, and a collector of messages. */
final class TestProtocols {
  static final String ECHO = "/test/echo";
  static final String CHATTER = "/test/chatter";
  static final List<Integer> CHATTER_SIZES = List.of(0, 1, 1000, 100000, 1000000);
  static final List<Integer> ECHO_SIZES = List.of(0, 1, 1000, 300000, 1100000, 7);

  private TestProtocols() {}

  /** Echoes every message on each stream. */
  @ChannelHandler.Sharable
  static final class Echo extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ctx.writeAndFlush(msg);
    }
  }

  /** Sends the recorded chatter messages as soon as its stream is open. */
  static ChannelHandler chatterSender() {
    return new ChannelInitializer<Channel>() {
      @Override
      protected void initChannel(Channel stream) {
        for (int k = 0; k < CHATTER_SIZES.size(); k++) {
          stream.write(Unpooled.wrappedBuffer(Recorded.chatterMessage(k, CHATTER_SIZES.get(k))));
        }
        stream.flush();
      }
    };
  }

  /** Keeps every message a stream reads, as bytes. */
  @ChannelHandler.Sharable
  static final class Collect extends ChannelInboundHandlerAdapter {
    final BlockingQueue<byte[]> messages = new LinkedBlockingQueue<>();

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf buf = (ByteBuf) msg;
      try {
        byte[] b = new byte[buf.readableBytes()];
        buf.readBytes(b);
        messages.add(b);
      } finally {
        buf.release();
      }
    }
  }

  static TentacleConfig listener() {
    return TentacleConfig.builder()
        .protocol(TentacleProtocol.of(ECHO, List.of("1", "2"), new Echo()))
        .protocol(TentacleProtocol.of(CHATTER, List.of("1"), chatterSender()))
        .build();
  }
}
