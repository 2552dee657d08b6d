package io.secio.tentacle;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.secio.PeerId;
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
 * §8.2): opens its registered protocols, each on its own stream, and accepts the peer's.
 *
 * <pre>{@code
 * TentacleSession session = Tentacle.sessionFuture(channel).sync().getNow();
 * ProtocolStream echo = session.open("/test/echo", List.of("2", "1")).sync().getNow();
 * echo.version();                                          // what the listener chose
 * echo.channel().writeAndFlush(Unpooled.wrappedBuffer(message));  // one message
 * }</pre>
 *
 * <p><b>One stream per protocol</b>, as tentacle: while a protocol has its stream (opening or
 * open) on this session, a second {@link #open} of it fails with {@link Reason#ALREADY_OPEN} and
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
  private final PeerId remotePeer;
  /** Protocol name to its stream (or {@link #OPENING}); changed on the event loop only. */
  private final Map<String, Object> protocols = new ConcurrentHashMap<>();

  TentacleSession(TentacleConfig config, Channel connection, PeerId remotePeer) {
    this.config = config;
    this.connection = connection;
    this.remotePeer = remotePeer;
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

  /** The connection: secio's (or plain TCP's in tentacle's no-secio mode), with yamux last. */
  public Channel connection() {
    return connection;
  }

  /** The remote peer as secio authenticated it; empty in tentacle's no-secio mode. */
  public Optional<PeerId> remotePeer() {
    return Optional.ofNullable(remotePeer);
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
   * Opens {@code protocol} offering every version registered for it.
   *
   * @param protocol a registered protocol's name
   * @return the open protocol, or the failure (a {@link TentacleException} or the muxer's)
   */
  public Future<ProtocolStream> open(String protocol) {
    TentacleProtocol registered = config.protocol(Objects.requireNonNull(protocol, "protocol")).orElse(null);
    return open(protocol, registered == null ? List.of() : registered.versions());
  }

  /**
   * Opens {@code protocol} on a new stream, offering {@code versions} (ascending, as tentacle's
   * listener assumes), and completes with the version the listener chose: the last of its reply.
   *
   * @param protocol a registered protocol's name
   * @param versions the versions to offer; not empty
   * @return the open protocol, or the failure: {@link Reason#UNKNOWN_PROTOCOL}, {@link
   *     Reason#ALREADY_OPEN}, {@link Reason#PROTOCOL_REFUSED}, {@link Reason#BAD_SELECT_REPLY},
   *     {@link Reason#SELECT_TIMEOUT}, {@link Reason#CLOSED}, or the muxer's own
   */
  public Future<ProtocolStream> open(String protocol, List<String> versions) {
    Objects.requireNonNull(protocol, "protocol");
    List<String> offered = List.copyOf(versions);
    Promise<ProtocolStream> promise = connection.eventLoop().newPromise();
    if (connection.eventLoop().inEventLoop()) {
      openNow(protocol, offered, promise);
    } else {
      connection.eventLoop().execute(() -> openNow(protocol, offered, promise));
    }
    return promise;
  }

  private void openNow(String name, List<String> offered, Promise<ProtocolStream> promise) {
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
    new StreamChannelBootstrap(connection)
        .handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel stream) {
            stream.pipeline().addLast(ProtocolSelectHandler.opener(TentacleSession.this, protocol, offered),
                ProtocolSelectHandler.UNSELECTED_SINK);
          }
        })
        .open()
        .addListener((Future<StreamChannel> opened) -> {
          if (!opened.isSuccess()) {
            protocols.remove(name, OPENING);
            promise.tryFailure(opened.cause());
            return;
          }
          StreamChannel stream = opened.getNow();
          stream.attr(ProtocolSelectHandler.SELECTION).get().addListener((Future<ProtocolStream> selected) -> {
            if (selected.isSuccess() && stream.isActive() && protocols.replace(name, OPENING, stream)) {
              stream.closeFuture().addListener(f -> protocols.remove(name, stream));
              promise.trySuccess(selected.getNow());
            } else {
              protocols.remove(name, OPENING);
              promise.tryFailure(selected.isSuccess()
                  ? new TentacleException(Reason.CLOSED, "the stream of " + name + " closed")
                  : selected.cause());
            }
          });
        });
  }

  /** The peer opened {@code opened}: false if the session has it already or is gone. */
  boolean opened(ProtocolStream opened) {
    StreamChannel stream = opened.channel();
    if (!connection.isActive() || protocols.putIfAbsent(opened.protocol(), stream) != null) {
      return false;
    }
    stream.closeFuture().addListener(f -> protocols.remove(opened.protocol(), stream));
    return true;
  }

  /** Ends the session: GoAway 0, then the connection closes. */
  public ChannelFuture close() {
    return connection.close();
  }

  @Override
  public String toString() {
    return "TentacleSession{" + (remotePeer == null ? "no secio" : remotePeer) + ", open=" + protocols.keySet() + "}";
  }
}
