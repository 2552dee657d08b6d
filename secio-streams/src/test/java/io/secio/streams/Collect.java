package io.secio.streams;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.ChannelInputShutdownReadComplete;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/** Records what one stream's pipeline sees: bytes, events in order, errors (the mplex tests use it too). */
public final class Collect extends ChannelInboundHandlerAdapter {
  public final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  public final List<String> events = new CopyOnWriteArrayList<>();
  public final List<Throwable> errors = new CopyOnWriteArrayList<>();
  public volatile StreamChannel stream;

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    stream = (StreamChannel) ctx.channel();
    events.add("active");
    ctx.fireChannelActive();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf buf = (ByteBuf) msg;
    synchronized (bytes) {
      byte[] b = new byte[buf.readableBytes()];
      buf.readBytes(b);
      bytes.writeBytes(b);
    }
    buf.release();
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof ChannelInputShutdownEvent) {
      events.add("inputShutdown");
    } else if (evt instanceof ChannelInputShutdownReadComplete) {
      events.add("inputShutdownReadComplete");
    }
    ctx.fireUserEventTriggered(evt);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    errors.add(cause);
    events.add("exception " + cause.getClass().getSimpleName());
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    events.add("inactive");
    ctx.fireChannelInactive();
  }

  public byte[] received() {
    synchronized (bytes) {
      return bytes.toByteArray();
    }
  }

  /** An initializer giving every stream a new Collect, added to {@code sink}, then {@code more}. */
  public static ChannelInitializer<Channel> into(List<Collect> sink, Consumer<Channel> more) {
    return new ChannelInitializer<>() {
      @Override
      protected void initChannel(Channel ch) {
        Collect c = new Collect();
        c.stream = (StreamChannel) ch;
        sink.add(c);
        if (more != null) {
          more.accept(ch);
        }
        ch.pipeline().addLast(c);
      }
    };
  }

  public static ChannelInitializer<Channel> into(List<Collect> sink) {
    return into(sink, null);
  }

  public static List<Collect> list() {
    return new ArrayList<>();
  }
}
