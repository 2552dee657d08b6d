package io.secio.netty.negotiation;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.secio.netty.stage.StageHandler;
import io.secio.netty.stage.StageSink;
import java.util.function.Supplier;

/**
 * "Open a stream, then negotiate its protocol", for every stack on a muxer (tentacle's
 * protocol-select, libp2p's multistream-select): one pipeline shape and one completion for the
 * streams either side opens. A stream's pipeline is its {@link NegotiationStage}, the protocol's
 * handler (this side's streams: at once, its writes waiting in the stage; the peer's: in the stage's
 * place once agreed) and {@link #SINK} last. The open completes once the stage agreed, or fails with
 * the stage's failure, which the stage also fired into the stream before closing it. A stack gives
 * only its stage and its own bookkeeping.
 *
 * <p>Thread-safe. Not API, as {@link StageHandler}.
 */
public final class NegotiatedStreams {
  /**
   * Last in every negotiated stream's pipeline: a failure before agreement ends here (the stream is
   * closed, the open's future and the event told of it) instead of at Netty's tail; after it,
   * exceptions pass on as the protocol's handlers leave them.
   */
  public static final ChannelHandler SINK = new StageSink(stream -> NegotiationStage.agreed(stream).isPresent());

  private NegotiatedStreams() {}

  /**
   * The initializer of a stream this side opens: {@code stage}, then {@code handler}, then the sink.
   *
   * @param stage the stream's {@link NegotiationStage} (for this stream only), or a handler that
   *     installs one in its place
   * @param handler the protocol's handler for this stream; {@code @Sharable} to be used again
   * @return a handler for a stream bootstrap
   */
  public static ChannelHandler opening(ChannelHandler stage, ChannelHandler handler) {
    return new ChannelInitializer<Channel>() {
      @Override
      protected void initChannel(Channel stream) {
        stream.pipeline().addLast(stage, handler, SINK);
      }
    };
  }

  /**
   * The initializer of the streams the peer opens: a new stage each, then the sink; the stage puts
   * the agreed protocol's handler in its own place.
   *
   * @param stage makes each stream's negotiation
   * @return a {@code @Sharable} handler for a muxer's inbound streams
   */
  public static ChannelHandler accepting(Supplier<? extends ChannelHandler> stage) {
    return new ChannelInitializer<Channel>() {
      @Override
      protected void initChannel(Channel stream) {
        stream.pipeline().addLast(stage.get(), SINK);
      }
    };
  }

  /**
   * The stream of {@code opened} once its negotiation agreed; the open's failure, or the
   * negotiation's, otherwise.
   *
   * @param opened the open of a stream whose pipeline {@link #opening} made
   * @param executor completes the result (the connection's event loop)
   * @return the agreed stream
   */
  public static <C extends Channel> Future<C> whenAgreed(Future<C> opened, EventExecutor executor) {
    Promise<C> result = executor.newPromise();
    opened.addListener((Future<C> f) -> {
      if (!f.isSuccess()) {
        result.tryFailure(f.cause());
        return;
      }
      C stream = f.getNow();
      NegotiationStage.negotiation(stream).addListener(agreed -> {
        if (agreed.isSuccess()) {
          result.trySuccess(stream);
        } else {
          result.tryFailure(agreed.cause());
        }
      });
    });
    return result;
  }

  /**
   * Whether {@code handler} may be added to many channels, by Netty's own test: {@link
   * ChannelHandlerAdapter#isSharable()}, which a handler may override, or the
   * {@code @Sharable} annotation on another kind of handler.
   *
   * @param handler a protocol's handler
   * @return the handler
   * @throws IllegalArgumentException if it is not sharable
   */
  public static ChannelHandler requireSharable(ChannelHandler handler) {
    boolean sharable = handler instanceof ChannelHandlerAdapter adapter
        ? adapter.isSharable()
        : handler.getClass().isAnnotationPresent(ChannelHandler.Sharable.class);
    if (!sharable) {
      throw new IllegalArgumentException(handler.getClass().getName() + " is not @Sharable: every stream of "
          + "the protocol gets it (give a ChannelInitializer that adds a new handler per stream)");
    }
    return handler;
  }
}
