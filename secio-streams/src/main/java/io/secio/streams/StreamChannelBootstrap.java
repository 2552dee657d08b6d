package io.secio.streams;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOption;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens outbound streams on a connection whose pipeline holds a stream muxer (a {@code
 * YamuxHandler}, or any other muxer of this library), as Netty's {@code Bootstrap} opens
 * connections ({@code docs/STREAMS.md} §2):
 *
 * <pre>{@code
 * StreamChannel stream = new StreamChannelBootstrap(connection)
 *     .option(ChannelOption.ALLOW_HALF_CLOSURE, true)
 *     .handler(new MyStreamHandler())
 *     .open().sync().getNow();
 * }</pre>
 *
 * <p>The handler, options and attributes are applied to each stream before it is registered, so a
 * {@code ChannelInitializer} sees them. The future fails when the connection has no muxer, is
 * closing or closed, or the muxer is at its stream limit; it succeeds once the stream's opening
 * frame is written, before the peer answers (yamux lets data follow the SYN at once), and waits
 * while the muxer's limit on unanswered opens is reached. A peer that refuses the stream resets it:
 * {@link StreamResetException} in the stream's pipeline.
 *
 * <p>Thread safety: configure from one thread; {@link #open()} may be called from any thread, any
 * number of times.
 */
public final class StreamChannelBootstrap {
  private static final Logger LOG = LoggerFactory.getLogger(StreamChannelBootstrap.class);

  private final Channel parent;
  private final Map<ChannelOption<?>, Object> options = new LinkedHashMap<>();
  private final Map<AttributeKey<?>, Object> attrs = new LinkedHashMap<>();
  private ChannelHandler handler;

  /**
   * A bootstrap for streams on {@code parent}.
   *
   * @param parent the connection; its pipeline must hold a stream muxer when {@link #open()} runs
   */
  public StreamChannelBootstrap(Channel parent) {
    this.parent = Objects.requireNonNull(parent, "parent");
  }

  /**
   * Sets an option of each stream opened from now on; {@code null} removes it.
   *
   * @param <T> the option's type
   * @param option a {@link ChannelOption} streams support: auto-read, water marks, allocator,
   *     half-closure, and the rest of Netty's generic channel options
   * @param value its value
   * @return this bootstrap
   */
  public <T> StreamChannelBootstrap option(ChannelOption<T> option, T value) {
    Objects.requireNonNull(option, "option");
    if (value == null) {
      options.remove(option);
    } else {
      options.put(option, value);
    }
    return this;
  }

  /**
   * Sets an attribute of each stream opened from now on; {@code null} removes it.
   *
   * @param <T> the attribute's type
   * @param key the attribute
   * @param value its value
   * @return this bootstrap
   */
  public <T> StreamChannelBootstrap attr(AttributeKey<T> key, T value) {
    Objects.requireNonNull(key, "key");
    if (value == null) {
      attrs.remove(key);
    } else {
      attrs.put(key, value);
    }
    return this;
  }

  /**
   * The handler added to each stream's pipeline; it must be {@code @Sharable} (a {@code
   * ChannelInitializer} is) when more than one stream is opened with it.
   *
   * @param handler the handler, or {@code null} for none
   * @return this bootstrap
   */
  public StreamChannelBootstrap handler(ChannelHandler handler) {
    this.handler = handler;
    return this;
  }

  /** Opens a stream; see the class comment for when the future fails. */
  public Future<StreamChannel> open() {
    return open(parent.eventLoop().newPromise());
  }

  /**
   * Opens a stream and completes {@code promise} with it.
   *
   * @param promise completed with the open stream, or failed
   * @return {@code promise}
   */
  public Future<StreamChannel> open(Promise<StreamChannel> promise) {
    Consumer<StreamChannel> init = initializer(handler, new LinkedHashMap<>(options), new LinkedHashMap<>(attrs));
    if (parent.eventLoop().inEventLoop()) {
      open(init, promise);
    } else {
      parent.eventLoop().execute(() -> open(init, promise));
    }
    return promise;
  }

  private void open(Consumer<StreamChannel> init, Promise<StreamChannel> promise) {
    StreamOpener muxer = parent.attr(StreamOpener.KEY).get();
    if (muxer == null) {
      promise.tryFailure(new IllegalStateException("no stream muxer in the pipeline of " + parent));
    } else if (promise.setUncancellable()) {
      muxer.open(init, promise);
    }
  }

  /** What a new stream gets before it is registered, as Netty's {@code Bootstrap.init}: options, attributes, handler. */
  private static Consumer<StreamChannel> initializer(ChannelHandler handler, Map<ChannelOption<?>, Object> options,
      Map<AttributeKey<?>, Object> attrs) {
    return stream -> {
      for (Map.Entry<ChannelOption<?>, Object> option : options.entrySet()) {
        setOption(stream, option.getKey(), option.getValue());
      }
      for (Map.Entry<AttributeKey<?>, Object> attr : attrs.entrySet()) {
        setAttr(stream, attr.getKey(), attr.getValue());
      }
      if (handler != null) {
        stream.pipeline().addLast(handler);
      }
    };
  }

  @SuppressWarnings("unchecked")
  private static <T> void setOption(Channel stream, ChannelOption<T> option, Object value) {
    if (!stream.config().setOption(option, (T) value)) {
      LOG.warn("{}: unknown stream option {}", stream, option);
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> void setAttr(Channel stream, AttributeKey<T> key, Object value) {
    stream.attr(key).set((T) value);
  }
}
