package io.secio.netty;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerAdapter;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.Future;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import java.util.Objects;

/**
 * Secures a pipeline in one line:
 *
 * <pre>{@code
 * // client: fails the handshake with PEER_ID_MISMATCH unless the server is who we dialled
 * ch.pipeline().addLast(Secio.client(config, serverPeerId), new MyHandler());
 * // server, in a ServerBootstrap's child ChannelInitializer
 * ch.pipeline().addLast(Secio.server(config), new MyHandler());
 * }</pre>
 *
 * <p>The handler these return replaces itself, where it was added, with a {@link SecioFrameDecoder}
 * named {@value #DECODER_NAME} followed by a {@link SecioHandshakeHandler} named {@value #HANDLER_NAME},
 * which on completion becomes a {@link SecioFrameCodec} of the same name. Handlers added after it read
 * and write plaintext {@link io.netty.buffer.ByteBuf}s, and see a {@link SecioHandshakeCompletionEvent};
 * {@link #handshakeFuture(Channel)} gives the outcome as a future.
 *
 * <p>The returned handlers are {@link ChannelHandler.Sharable} and thread-safe. Every server handler
 * built from the same config shares one {@link HandshakeLimiter} ({@link
 * SecioConfig#maxConcurrentHandshakes()} handshakes at once), so building one per child channel keeps
 * the bound.
 */
public final class Secio {
  /** Name of the frame decoder in the pipeline. */
  public static final String DECODER_NAME = "secio-decoder";

  /** Name of the handshake handler, and after completion of the frame codec. */
  public static final String HANDLER_NAME = "secio";

  /** The handshake outcome of a channel, set when its {@link SecioHandshakeHandler} is added. */
  public static final AttributeKey<Future<SecioSession>> HANDSHAKE =
      AttributeKey.valueOf(Secio.class, "handshake");

  private Secio() {}

  /** The handlers of a dialling side that accepts only {@code expectedRemotePeer}. */
  public static ChannelHandler client(SecioConfig config, PeerId expectedRemotePeer) {
    Objects.requireNonNull(expectedRemotePeer, "expectedRemotePeer");
    return new Installer(config.withExpectedRemotePeer(expectedRemotePeer), null);
  }

  /**
   * The handlers of a dialling side that accepts whichever peer answers, unless {@code config} names
   * an expected peer. Prefer {@link #client(SecioConfig, PeerId)} when the peer is known.
   */
  public static ChannelHandler client(SecioConfig config) {
    return new Installer(Objects.requireNonNull(config, "config"), null);
  }

  /** The handlers of an accepting side, bounded by the limiter shared by every user of {@code config}. */
  public static ChannelHandler server(SecioConfig config) {
    return server(config, HandshakeLimiter.forConfig(config));
  }

  /** The handlers of an accepting side whose handshakes take permits from {@code limiter}. */
  public static ChannelHandler server(SecioConfig config, HandshakeLimiter limiter) {
    return new Installer(Objects.requireNonNull(config, "config"),
        Objects.requireNonNull(limiter, "limiter"));
  }

  /**
   * The handshake outcome of {@code channel}.
   *
   * @throws IllegalStateException if no secio handler has been added to the channel
   */
  public static Future<SecioSession> handshakeFuture(Channel channel) {
    Future<SecioSession> future = channel.attr(HANDSHAKE).get();
    if (future == null) {
      throw new IllegalStateException("no secio handler on " + channel);
    }
    return future;
  }

  @ChannelHandler.Sharable
  private static final class Installer extends ChannelHandlerAdapter {
    private final SecioConfig config;
    private final HandshakeLimiter limiter;

    Installer(SecioConfig config, HandshakeLimiter limiter) {
      this.config = config;
      this.limiter = limiter;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      // Runs on the event loop of a registered channel, so the handlers below start right away if the
      // channel is already active (an accepted child), or on channelActive (a dialling client).
      // Replacing rather than adding then removing frees this handler's own name first, so a user may
      // add the installer under the name "secio" (or "secio-decoder").
      ChannelPipeline pipeline = ctx.pipeline();
      pipeline.replace(this, HANDLER_NAME, new SecioHandshakeHandler(config, limiter));
      pipeline.addBefore(HANDLER_NAME, DECODER_NAME,
          new SecioFrameDecoder(config.maxFrameLength(), config.maxHandshakeMessageLength()));
    }

    @Override
    public String toString() {
      return limiter == null ? "Secio.client" : "Secio.server(" + limiter + ")";
    }
  }
}
