package io.secio.streams;

import io.netty.util.AttributeKey;
import io.netty.util.concurrent.Promise;
import java.util.function.Consumer;

/**
 * The muxer of a connection as {@link StreamChannelBootstrap} finds it: while a muxer runs on a
 * connection, the connection's {@link #KEY} attribute holds it. The muxers of this library ({@code
 * YamuxHandler}, {@code MplexHandler}) set it; an application opens streams with the bootstrap and
 * needs this type only to plug in a muxer of its own.
 *
 * <p>Thread safety: {@link #open} is called on the connection's event loop only.
 */
public interface StreamOpener {
  /** Where a connection's running muxer is found. */
  AttributeKey<StreamOpener> KEY = AttributeKey.valueOf(StreamOpener.class, "opener");

  /**
   * Opens a stream: {@code init} runs on it before it is registered (it adds the stream's handler
   * and sets its options and attributes), then {@code promise} succeeds with it; or {@code promise}
   * fails, for example when the session is ending or at its stream limit.
   *
   * @param init applied to the new stream before its registration
   * @param promise uncancellable; completed with the open stream or failed
   */
  void open(Consumer<? super StreamChannel> init, Promise<StreamChannel> promise);
}
