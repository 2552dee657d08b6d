package io.secio.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The application end of a test pipeline: keeps the bytes, user events and exceptions that reach it,
 * releasing every buffer. Also stops exceptions from reaching an {@code EmbeddedChannel}'s tail, which
 * would rethrow them from the next write.
 */
final class Recorder extends ChannelInboundHandlerAdapter {
  final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  final List<Object> events = new ArrayList<>();
  final List<Throwable> exceptions = new ArrayList<>();
  int reads;
  int inactive;

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf buf = (ByteBuf) msg;
    try {
      reads++;
      byte[] b = new byte[buf.readableBytes()];
      buf.readBytes(b);
      bytes.writeBytes(b);
    } finally {
      buf.release();
    }
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    events.add(evt);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    exceptions.add(cause);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    inactive++;
  }

  byte[] received() {
    return bytes.toByteArray();
  }

  List<SecioHandshakeCompletionEvent> completions() {
    List<SecioHandshakeCompletionEvent> out = new ArrayList<>();
    for (Object e : events) {
      if (e instanceof SecioHandshakeCompletionEvent) {
        out.add((SecioHandshakeCompletionEvent) e);
      }
    }
    return out;
  }
}
