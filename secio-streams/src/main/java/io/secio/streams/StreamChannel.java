package io.secio.streams;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DuplexChannel;
import io.netty.channel.socket.DuplexChannelConfig;

/**
 * One stream of a multiplexed connection, as a child {@link Channel} with its own pipeline, config and
 * attributes ({@code docs/STREAMS.md} §2). {@link #parent()} is the connection; the stream shares its
 * event loop.
 *
 * <p>What a stream does, whichever muxer carries it:
 *
 * <ul>
 *   <li>reads and writes {@code ByteBuf}s; anything else written fails with {@link
 *       IllegalArgumentException};
 *   <li>{@link #shutdownOutput()} half-closes: the muxer's end-of-stream frame goes out after every
 *       byte already written, and writes after it fail;
 *   <li>the peer's half-close is {@code ChannelInputShutdownEvent} and then {@code
 *       ChannelInputShutdownReadComplete} when {@code ChannelOption.ALLOW_HALF_CLOSURE} is set, and a
 *       close otherwise; either comes only after every byte the peer sent before it was read;
 *   <li>{@link #close()} ends the stream gracefully: end-of-stream after what was already handed to
 *       the connection, or a reset when written bytes had to be dropped (see {@code docs/STREAMS.md}
 *       §2 for the exact frames and what happens to the peer's later data);
 *   <li>{@link #reset()} aborts it, {@link #reset(Throwable)} refuses it (the reset first, then its
 *       pipeline hears why); the peer's reset reaches this pipeline as {@code exceptionCaught}
 *       with a {@link StreamResetException}, and then the stream closes;
 *   <li>the connection's failure reaches every open stream as {@code exceptionCaught} with the
 *       muxer's error before it closes; the connection's orderly end closes each stream after the
 *       bytes it had received were read;
 *   <li>it is unwritable while the peer has granted no credit for it, while more than the write
 *       buffer high water mark waits in it, and while the connection itself is unwritable.
 * </ul>
 *
 * <p>Thread safety: as any {@link Channel}, callable from any thread; its events run on the
 * connection's event loop.
 */
public interface StreamChannel extends DuplexChannel {

  /** The stream's id on the wire, as the muxer numbers it. */
  long streamId();

  /** {@code true} when this side opened the stream, {@code false} when the peer did. */
  boolean isInitiator();

  /** The connection this stream runs on. */
  @Override
  Channel parent();

  /** The stream's config: Netty's generic options and {@code ALLOW_HALF_CLOSURE}. */
  @Override
  DuplexChannelConfig config();

  /**
   * Aborts the stream: the muxer's reset goes out at once (unless the stream or its connection is
   * already gone), bytes not yet sent are dropped, and the stream closes.
   *
   * @return a future completed when the stream is closed
   */
  ChannelFuture reset();

  /**
   * As {@link #reset()}, completing {@code promise}.
   *
   * @param promise completed when the stream is closed
   * @return {@code promise}
   */
  ChannelFuture reset(ChannelPromise promise);

  /**
   * Refuses the stream for {@code cause}: as {@link #reset()}, and the stream's pipeline hears {@code
   * cause} as {@code exceptionCaught} after the reset went out and before the stream closes. So a
   * handler that closes the stream there cannot turn the refusal into a clean end. For a handler
   * that refuses what its peer sent (a message over a limit, a bad request).
   *
   * @param cause why the stream is refused
   * @return a future completed when the stream is closed
   */
  ChannelFuture reset(Throwable cause);
}
