package io.secio.libp2p;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.secio.PeerId;
import io.secio.SecioSession;
import io.secio.identity.IdentityPublicKey;
import io.secio.libp2p.Libp2pException.Reason;
import io.secio.netty.multistream.Multistream;
import io.secio.netty.negotiation.NegotiatedStreams;
import io.secio.streams.StreamChannel;
import io.secio.streams.StreamChannelBootstrap;
import io.secio.streams.mplex.MplexHandler;
import io.secio.streams.yamux.YamuxHandler;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One libp2p session on a connection ({@code docs/STREAMS.md} §10), once its muxer is agreed: streams
 * open with a protocol negotiated on each ({@link #openStream}), the peer's identify record is
 * requested once and kept ({@link #identify()}), and pings measure the round trip ({@link #ping()}).
 * The peer's streams are served by the same session: identify, ping and the protocols of {@link
 * Libp2pConfig#protocols()}, each chosen by multistream-select, an unknown one answered {@code na}.
 * Get it with {@link Libp2p#awaitSession} or {@link Libp2p#sessionFuture}.
 *
 * <p>Thread-safe: every method may be called from any thread; the work runs on the connection's event
 * loop, and the futures complete there.
 */
public final class Libp2pSession {
  private final Channel connection;
  private final Libp2pConfig config;
  private final IdentityPublicKey localKey;
  private final boolean initiator;
  private final Promise<Libp2pSession> ready;
  private final ChannelHandler inboundStreams;
  private volatile SecioSession secio;
  private volatile Muxer muxer;
  // The event loop's only.
  private Future<IdentifyRecord> identify;

  Libp2pSession(Channel connection, Libp2pConfig config, IdentityPublicKey localKey, boolean initiator) {
    this.connection = connection;
    this.config = config;
    this.localKey = localKey;
    this.initiator = initiator;
    this.ready = connection.eventLoop().newPromise();
    Multistream.Builder responder = Multistream.responder()
        .protocol(Libp2pConfig.IDENTIFY, () -> new IdentifyResponder(this))
        .protocol(Libp2pConfig.PING, () -> new PingResponder(this))
        .timeout(config.negotiationTimeout());
    config.protocols().forEach((id, handler) -> responder.protocol(id, () -> handler));
    ChannelHandler dispatch = responder.build();
    this.inboundStreams = NegotiatedStreams.accepting(() -> dispatch);
  }

  /** The connection: the secure channel (or the plaintext one of {@link Libp2p#insecureClient}), with the muxer on it. */
  public Channel connection() {
    return connection;
  }

  /** The agreed muxer. */
  public Muxer muxer() {
    return muxer;
  }

  /** The secure channel's session, as secio established it; empty over a channel secured otherwise. */
  public Optional<SecioSession> secioSession() {
    return Optional.ofNullable(secio);
  }

  /** The remote peer as secio authenticated it; empty over a channel secured otherwise. */
  public Optional<PeerId> remotePeer() {
    return secioSession().map(SecioSession::remotePeerId);
  }

  /**
   * Opens a stream and negotiates {@code protocol} on it, with {@code handler} behind the negotiation
   * at once: its writes wait until the protocol is agreed, and it reads the peer's bytes from the
   * first. The stream completes once the peer agreed, or fails, and then {@code handler} has heard the
   * failure too (a failed {@code NegotiationCompletionEvent}, one {@code exceptionCaught}) and the
   * stream is closed: the peer answered {@code na} ({@code MultistreamException}
   * NO_COMMON_PROTOCOL), the muxer refused the stream, the session ended.
   *
   * @param protocol the protocol id
   * @param handler the stream's handler, for this stream only unless {@code @Sharable}
   * @return the stream, once the peer agreed
   */
  public Future<StreamChannel> openStream(String protocol, ChannelHandler handler) {
    ChannelHandler stage = Multistream.initiator().protocol(protocol, () -> null)
        .timeout(config.negotiationTimeout()).build();
    Objects.requireNonNull(handler, "handler");
    Promise<StreamChannel> result = connection.eventLoop().newPromise();
    ready.addListener(r -> {
      if (!r.isSuccess()) {
        result.tryFailure(new Libp2pException(Reason.CONNECTION_CLOSED, "no muxer on " + connection, r.cause()));
        return;
      }
      StreamChannelBootstrap bootstrap = new StreamChannelBootstrap(connection)
          .handler(NegotiatedStreams.opening(stage, handler));
      NegotiatedStreams.whenAgreed(bootstrap.open(), connection.eventLoop()).addListener(agreed -> relay(agreed, result));
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
    Promise<IdentifyRecord> promise = connection.eventLoop().newPromise();
    connection.eventLoop().execute(() -> {
      if (identify != null) {
        identify.addListener(f -> relay(f, promise));
        return;
      }
      identify = promise;
      ready.addListener(r -> {
        if (!r.isSuccess()) {
          promise.tryFailure(new Libp2pException(Reason.CONNECTION_CLOSED, "no muxer on " + connection, r.cause()));
        } else if (secio == null) {
          promise.tryFailure(new IllegalStateException("no secio session on " + connection
              + ": nothing to check the peer's identify key against"));
        } else {
          openStream(Libp2pConfig.IDENTIFY, new IdentifyReader(config.maxIdentifySize(), secio.remotePeerId(),
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
    Promise<Duration> promise = connection.eventLoop().newPromise();
    openStream(Libp2pConfig.PING, new PingRequester(promise)).addListener(f -> {
      if (!f.isSuccess()) {
        promise.tryFailure(f.cause());
      }
    });
    return promise;
  }

  /** Ends the session: the muxer's close (yamux's GoAway), then the connection closes. */
  public ChannelFuture close() {
    return connection.close();
  }

  @Override
  public String toString() {
    return "Libp2pSession(" + connection + ", " + (muxer == null ? "no muxer yet" : muxer.protocolId()) + ")";
  }

  // ---- for the connection's handlers (event loop) ----

  /** Completes once the muxer is agreed. */
  Future<Libp2pSession> ready() {
    return ready;
  }

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
    this.secio = session;
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
    SecioSession secured = secio;
    config.inboundPings().opened(secured != null ? secured.remotePeerId() : this, stream);
  }
}
