package io.secio.streams;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;

/** What an {@code EmbeddedChannel} wrote, for the tests. */
public final class Outbound {
  private Outbound() {}

  /** Every byte {@code channel} wrote since the last call (outbound messages taken and released). */
  public static byte[] take(EmbeddedChannel channel) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Object msg; (msg = channel.readOutbound()) != null; ) {
      ByteBuf buf = (ByteBuf) msg;
      byte[] bytes = new byte[buf.readableBytes()];
      buf.readBytes(bytes);
      buf.release();
      out.writeBytes(bytes);
    }
    return out.toByteArray();
  }
}
