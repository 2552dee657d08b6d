package io.secio.tentacle;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.secio.PeerId;
import io.secio.SecioSession;
import io.secio.netty.negotiation.NegotiatedStreams;
import io.secio.streams.StreamChannel;
import io.secio.streams.StreamChannelBootstrap;
import io.secio.tentacle.TentacleException.Reason;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A tentacle session on one connection, after secio and with yamux on it ({@code docs/STREAMS.md}
 * §8.2): opens its registered protocols, each on its own stream, and accepts the peer's. Get it with
 * {@link Tentacle#awaitSession} or {@link Tentacle#sessionFuture}.
 *
 * <pre>{@code
 * TentacleSession session = Tentacle.awaitSession(channel);
 * StreamChannel echo = session.openStream("/test/echo", new MyEcho()).sync().getNow();
 * Tentacle.protocol(echo).orElseThrow().version();                 // what the listener chose
 * echo.writeAndFlush(Unpooled.wrappedBuffer(message));              // one message
 * }</pre>
 *
 * <p><b>One stream per protocol</b>, as tentacle: while a protocol has its stream (opening or
 * open) on this session, a second {@link #openStream} of it fails with {@link Reason#ALREADY_OPEN} and
 * puts nothing on the wire; once that stream closes the protocol may be opened again. A second
 * stream of an open protocol from the peer is answered and then reset, as tentacle does.
 *
 * <p><b>The session timeout</b>: if no protocol is open {@link TentacleConfig#sessionTimeout()}
 * after the session started, the session ends with GoAway 0 (tentacle's {@code SessionTimeout}).
 *
 * <p>Thread-safe: every method may be called from any thread; the work runs on the connection's
 * event loop.
 */
public final class TentacleSession {
  /** Marks a protocol whose stream is opening. */
  private static final Object OPENING = new Object();

  private final TentacleConfig config;
  private final Channel connection;
  private final SecioSession secio;
  /** Protocol name to its stream (or {@link #OPENING}); changed on the event loop only. */
  private final Map<String, Object> protocols = new ConcurrentHashMap<>();

  TentacleSession(TentacleConfig config, Channel connection, SecioSession secio) {
    this.config = config;
    this.connection = connection;
    this.secio = secio;
  }

  /** Starts the session timeout; on the event loop. */
  void start() {
    connection.eventLoop().schedule(() -> {
      if (openCount() == 0 && connection.isActive()) {
        // yamux's close: GoAway 0, then the connection closes once it is written.
        connection.close();
      }
    }, config.sessionTimeout().toNanos(), TimeUnit.NANOSECONDS);
  }

  /** The session's config. */
  public TentacleConfig config() {
    return config;
  }

  /** The connection: secio's (or plain TCP's in tentacle's no-secio mode), with yamux on it. */
  public Channel connection() {
    return connection;
  }

  /** The secure channel's session, as secio established it; empty in tentacle's no-secio mode. */
  public Optional<SecioSession> secioSession() {
    return Optional.ofNullable(secio);
  }

  /** The remote peer as secio authenticated it, a tentacle id; empty in tentacle's no-secio mode. */
  public Optional<PeerId> remotePeer() {
    return secioSession().map(SecioSession::remotePeerId);
  }

  /** Whether {@code protocol} has its stream on this session, opening or open. */
  public boolean hasProtocol(String protocol) {
    return protocols.containsKey(protocol);
  }

  /** How many protocols are open (protocol-select done, stream not closed). */
  public int openCount() {
    int open = 0;
    for (Object o : protocols.values()) {
      if (o != OPENING) {
        open++;
      }
    }
    return open;
  }

  /**
   * Opens {@code protocol} offering every version registered for it; see {@link #openStream(String,
   * List, ChannelHandler)}.
   *
   * @param protocol a registered protocol's name
   * @param handler the stream's handler
   * @return the stream, once the listener chose a version
   */
  public Future<StreamChannel> openStream(String protocol, ChannelHandler handler) {
    TentacleProtocol registered = config.protocol(Objects.requireNonNull(protocol, "protocol")).orElse(null);
    return openStream(protocol, registered == null ? List.of() : registered.versions(), handler);
  }

  /**
   * Opens {@code protocol} on a new stream, offering {@code versions} (ascending, as tentacle's
   * listener assumes), with {@code handler} behind protocol-select at once: its writes wait until the
   * listener chose, then go out as messages (one {@code ByteBuf} each); it reads whole messages. The
   * stream completes once the listener chose a version (the last of its reply; {@link
   * Tentacle#protocol} tells it), or fails, and then {@code handler} has heard the failure too (a
   * failed {@code NegotiationCompletionEvent}, one {@code exceptionCaught}) and the stream is reset.
   *
   * @param protocol a registered protocol's name
   * @param versions the versions to offer; not empty
   * @param handler the stream's handler, for this stream only unless {@code @Sharable}
   * @return the stream, or the failure: {@link Reason#UNKNOWN_PROTOCOL}, {@link
   *     Reason#ALREADY_OPEN}, {@link Reason#PROTOCOL_REFUSED}, {@link Reason#BAD_SELECT_REPLY},
   *     {@link Reason#SELECT_TIMEOUT}, {@link Reason#CLOSED}, or the muxer's own
   */
  public Future<StreamChannel> openStream(String protocol, List<String> versions, ChannelHandler handler) {
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(handler, "handler");
    List<String> offered = List.copyOf(versions);
    Promise<StreamChannel> promise = connection.eventLoop().newPromise();
    if (connection.eventLoop().inEventLoop()) {
      openNow(protocol, offered, handler, promise);
    } else {
      connection.eventLoop().execute(() -> openNow(protocol, offered, handler, promise));
    }
    return promise;
  }

  private void openNow(String name, List<String> offered, ChannelHandler handler, Promise<StreamChannel> promise) {
    try {
      open(name, offered, handler, promise);
    } catch (RuntimeException e) {
      protocols.remove(name, OPENING);
      promise.tryFailure(e);
    }
  }

  private void open(String name, List<String> offered, ChannelHandler handler, Promise<StreamChannel> promise) {
    TentacleProtocol protocol = config.protocol(name).orElse(null);
    if (protocol == null) {
      promise.setFailure(new TentacleException(Reason.UNKNOWN_PROTOCOL, name + " is not registered here"));
      return;
    }
    if (offered.isEmpty()) {
      promise.setFailure(new IllegalArgumentException("offer at least one version of " + name));
      return;
    }
    if (protocols.putIfAbsent(name, OPENING) != null) {
      promise.setFailure(new TentacleException(Reason.ALREADY_OPEN, name
          + " has its stream on this session already (tentacle opens one stream per protocol)"));
      return;
    }
    ChannelHandler stream = NegotiatedStreams.opening(ProtocolSelectHandler.opener(this, protocol, offered), handler);
    NegotiatedStreams.whenAgreed(new StreamChannelBootstrap(connection).handler(stream).open(), connection.eventLoop())
        .addListener((Future<StreamChannel> agreed) -> {
          StreamChannel opened = agreed.getNow();
          if (opened != null && opened.isActive() && protocols.replace(name, OPENING, opened)) {
            opened.closeFuture().addListener(f -> protocols.remove(name, opened));
            promise.trySuccess(opened);
          } else {
            protocols.remove(name, OPENING);
            promise.tryFailure(opened != null
                ? new TentacleException(Reason.CLOSED, "the stream of " + name + " closed")
                : agreed.cause());
          }
        });
  }

  /** The peer opened {@code stream} for {@code protocol}: false if the session has it already or is gone. */
  boolean opened(String protocol, StreamChannel stream) {
    if (!connection.isActive() || protocols.putIfAbsent(protocol, stream) != null) {
      return false;
    }
    stream.closeFuture().addListener(f -> protocols.remove(protocol, stream));
    return true;
  }

  /** Ends the session: GoAway 0, then the connection closes. */
  public ChannelFuture close() {
    return connection.close();
  }

  @Override
  public String toString() {
    return "TentacleSession{" + remotePeer().map(PeerId::toString).orElse("no secio") + ", open="
        + protocols.keySet() + "}";
  }
}
