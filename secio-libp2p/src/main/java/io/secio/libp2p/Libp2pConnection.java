package io.secio.libp2p;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.secio.SecioSession;
import io.secio.identity.IdentityPublicKey;
import io.secio.libp2p.Libp2pException.Reason;
import io.secio.netty.multistream.Multistream;
import io.secio.netty.stage.StageSink;
import io.secio.streams.StreamChannel;
import io.secio.streams.StreamChannelBootstrap;
import io.secio.streams.mplex.MplexHandler;
import io.secio.streams.yamux.YamuxHandler;
import java.time.Duration;
import java.util.Optional;

/**
 * One libp2p connection ({@code docs/STREAMS.md} §10): once its muxer is agreed ({@link #ready()}),
 * streams open with a protocol negotiated on each ({@link #openStream}), the peer's identify record
 * is requested once and kept ({@link #identify()}), and pings measure the round trip ({@link
 * #ping()}). The peer's streams are served by the same connection: identify, ping and the protocols
 * of {@link Libp2pConfig#protocols()}, each chosen by multistream-select, an unknown one answered
 * {@code na}. Get it with {@link Libp2p#connection(Channel)}.
 *
 * <p>Thread-safe: every method may be called from any thread; the work runs on the channel's event
 * loop, and the futures complete there.
 */
public final class Libp2pConnection {
  static final AttributeKey<Libp2pConnection> KEY = AttributeKey.valueOf(Libp2pConnection.class, "libp2p");
  /**
   * Last in every stream's pipeline: until the stream's protocol is agreed, the failure of its
   * multistream-select has closed the stream already and ends here, not at Netty's tail with a
   * warning and a stack trace in the application's log; once agreed, exceptions pass on.
   */
  static final StageSink NEGOTIATION_SINK = new StageSink(stream -> Multistream.negotiationFuture(stream).isSuccess());

  private final Channel channel;
  private final Libp2pConfig config;
  private final IdentityPublicKey localKey;
  private final boolean initiator;
  private final Promise<Libp2pConnection> ready;
  private final ChannelHandler inboundStreams;
  private volatile SecioSession session;
  private volatile Muxer muxer;
  // The event loop's only.
  private Future<IdentifyRecord> identify;

  Libp2pConnection(Channel channel, Libp2pConfig config, IdentityPublicKey localKey, boolean initiator) {
    this.channel = channel;
    this.config = config;
    this.localKey = localKey;
    this.initiator = initiator;
    this.ready = channel.eventLoop().newPromise();
    Multistream.Builder responder = Multistream.responder()
        .protocol(Libp2pConfig.IDENTIFY, () -> new IdentifyResponder(this))
        .protocol(Libp2pConfig.PING, () -> new PingResponder(this))
        .timeout(config.negotiationTimeout());
    config.protocols().forEach(responder::protocol);
    ChannelHandler dispatch = responder.build();
    this.inboundStreams = new ChannelInitializer<Channel>() {
      @Override
      protected void initChannel(Channel stream) {
        stream.pipeline().addLast(dispatch, NEGOTIATION_SINK);
      }
    };
  }

  /** The connection's channel. */
  public Channel channel() {
    return channel;
  }

  /** Completes with this connection once the muxer is agreed, or fails with why there is none. */
  public Future<Libp2pConnection> ready() {
    return ready;
  }

  /** The agreed muxer, or {@code null} before {@link #ready()}. */
  public Muxer muxer() {
    return muxer;
  }

  /** The secure channel's session, once its handshake is done; empty over a channel secured otherwise. */
  public Optional<SecioSession> session() {
    return Optional.ofNullable(session);
  }

  /**
   * Opens a stream and negotiates {@code protocol} on it. {@code handler} (may be null) is added
   * behind the negotiation at once: its writes wait until the protocol is agreed, and it reads the
   * peer's bytes from the first. The future completes with the stream once the protocol is agreed, or
   * fails (the peer answered {@code na}: a {@code MultistreamException}; no muxer: why).
   *
   * @param protocol the protocol id
   * @param handler the stream's handler, used for this stream only unless {@code @Sharable}
   * @return the stream, once the peer agreed
   */
  public Future<StreamChannel> openStream(String protocol, ChannelHandler handler) {
    Promise<StreamChannel> result = channel.eventLoop().newPromise();
    ChannelHandler stage = Multistream.initiator().protocol(protocol, () -> null)
        .timeout(config.negotiationTimeout()).build();
    ready.addListener(r -> {
      if (!r.isSuccess()) {
        result.tryFailure(new Libp2pException(Reason.CONNECTION_CLOSED, "no muxer on " + channel, r.cause()));
        return;
      }
      new StreamChannelBootstrap(channel).handler(new ChannelInitializer<Channel>() {
        @Override
        protected void initChannel(Channel stream) {
          stream.pipeline().addLast(stage);
          if (handler != null) {
            stream.pipeline().addLast(handler);
          }
          stream.pipeline().addLast(NEGOTIATION_SINK);
        }
      }).open().addListener(opened -> {
        if (!opened.isSuccess()) {
          result.tryFailure(opened.cause());
          return;
        }
        StreamChannel stream = (StreamChannel) opened.getNow();
        Multistream.negotiationFuture(stream).addListener(agreed -> {
          if (agreed.isSuccess()) {
            result.trySuccess(stream);
          } else {
            result.tryFailure(agreed.cause());
          }
        });
      });
    });
    return result;
  }

  /**
   * The peer's identify record: requested on the first call (the same future after), its key checked
   * against the secure channel's peer id. Fails with {@link Libp2pException} when the record is over
   * {@link Libp2pConfig#maxIdentifySize()}, malformed or someone else's, and with {@link
   * IllegalStateException} over a channel without secio (no peer id to check the key against).
   *
   * @return the peer's record
   */
  public Future<IdentifyRecord> identify() {
    Promise<IdentifyRecord> promise = channel.eventLoop().newPromise();
    channel.eventLoop().execute(() -> {
      if (identify != null) {
        identify.addListener(f -> relay(f, promise));
        return;
      }
      identify = promise;
      ready.addListener(r -> {
        if (!r.isSuccess()) {
          promise.tryFailure(new Libp2pException(Reason.CONNECTION_CLOSED, "no muxer on " + channel, r.cause()));
        } else if (session == null) {
          promise.tryFailure(new IllegalStateException("no secio session on " + channel
              + ": nothing to check the peer's identify key against"));
        } else {
          openStream(Libp2pConfig.IDENTIFY, new IdentifyReader(config.maxIdentifySize(), session.remotePeerId(),
              promise)).addListener(f -> {
                if (!f.isSuccess()) {
                  promise.tryFailure(f.cause());
                }
              });
        }
      });
    });
    return promise;
  }

  @SuppressWarnings("unchecked")
  private static <T> void relay(Future<? super T> from, Promise<T> to) {
    if (from.isSuccess()) {
      to.trySuccess((T) from.getNow());
    } else {
      to.tryFailure(from.cause());
    }
  }

  /**
   * One ping on a stream of its own: 32 random bytes, the time until the peer echoed them (from the
   * moment the stream agreed on ping), checked byte for byte; the stream closes after.
   *
   * @return the round trip, or a {@link Libp2pException} {@code PING_MISMATCH}
   */
  public Future<Duration> ping() {
    Promise<Duration> promise = channel.eventLoop().newPromise();
    openStream(Libp2pConfig.PING, new PingRequester(promise)).addListener(f -> {
      if (!f.isSuccess()) {
        promise.tryFailure(f.cause());
      }
    });
    return promise;
  }

  @Override
  public String toString() {
    return "Libp2pConnection(" + channel + ", " + (muxer == null ? "no muxer yet" : muxer.protocolId()) + ")";
  }

  // ---- for the connection's handlers (event loop) ----

  Libp2pConfig config() {
    return config;
  }

  IdentityPublicKey localKey() {
    return localKey;
  }

  /** The muxer's handler, for the stage that agreed on {@code muxer}. */
  ChannelHandler muxerHandler(Muxer agreed) {
    if (agreed == Muxer.MPLEX) {
      return MplexHandler.create(config.mplex(), inboundStreams);
    }
    return initiator ? YamuxHandler.client(config.yamux(), inboundStreams)
        : YamuxHandler.server(config.yamux(), inboundStreams);
  }

  void secured(SecioSession session) {
    this.session = session;
  }

  void muxerAgreed(Muxer agreed) {
    this.muxer = agreed;
    ready.trySuccess(this);
  }

  void failed(Throwable cause) {
    ready.tryFailure(cause);
  }

  /** The peer's new ping stream; its older one is reset (one inbound ping stream per peer). */
  void inboundPing(StreamChannel stream) {
    SecioSession secured = session;
    config.inboundPings().opened(secured != null ? secured.remotePeerId() : this, stream);
  }
}
