package io.secio.ckb.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;
import java.util.List;

/**
 * The compress codec outbound ({@link CompressCodec#encode}): each payload written becomes a flag and
 * body, which tentacle's encoder then prefixes with its length (and refuses over the protocol's
 * limit). Stateless.
 */
@ChannelHandler.Sharable
public final class CompressEncoder extends MessageToMessageEncoder<ByteBuf> {
  /** The encoder that compresses payloads over 1024 bytes when it saves bytes. */
  public static final CompressEncoder COMPRESSING = new CompressEncoder(true);
  /** The encoder that never compresses (Filter's, since CKB v0.204). */
  public static final CompressEncoder RAW = new CompressEncoder(false);

  private final boolean compress;

  private CompressEncoder(boolean compress) {
    super(ByteBuf.class);
    this.compress = compress;
  }

  @Override
  protected void encode(ChannelHandlerContext ctx, ByteBuf payload, List<Object> out) {
    out.add(CompressCodec.encode(ctx.alloc(), payload.retain(), compress));
  }
}
