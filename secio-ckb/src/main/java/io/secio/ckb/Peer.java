package io.secio.ckb;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.netty.util.concurrent.ScheduledFuture;
import io.secio.ckb.protocol.CkbException.Reason;
import io.secio.ckb.protocol.CkbException;
import io.secio.ckb.protocol.CkbProtocol;
import io.secio.ckb.protocol.IdentifyFlags;
import io.secio.ckb.protocol.IdentifyRecord;
import io.secio.ckb.protocol.Node;
import io.secio.multiaddr.Multiaddr;
import io.secio.tentacle.TentacleSession;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One CKB session's state and its one way out, shared by the handlers of its protocol streams: the
 * tentacle session, the peer's identify record, the open protocol streams, what discovery and sync
 * heard, and {@link #disconnect}/{@link #ban} (the reason on {@code /ckb/disconnectmsg} first, then the
 * close). The session-wide rule lives here too: Sync or Feeler open 10 s after the start, checked
 * every 30 s ({@code protocol_type_checker.rs}).
 *
 * <p>Changed on the connection's event loop only; read from any thread.
 */
final class Peer {
  private static final Logger LOG = LoggerFactory.getLogger(Peer.class);
  private static final AttributeKey<Peer> KEY = AttributeKey.valueOf(Peer.class, "ckb");
  static final Duration REQUIRED_PROTOCOLS_GRACE = Duration.ofSeconds(10);
  static final Duration REQUIRED_PROTOCOLS_CHECK = Duration.ofSeconds(30);
  /** A node's ban of a peer for a bad message or codec error. */
  static final Duration BAD_MESSAGE_BAN = Duration.ofSeconds(300);
  /** How long a goodbye may take to be written before the connection closes regardless. */
  static final Duration GOODBYE_WRITE_TIMEOUT = Duration.ofSeconds(5);
  /** The most discovered nodes a session keeps (a peer's announcements could go on for days). */
  static final int MAX_DISCOVERED = 2000;

  private final CkbConfig config;
  private final boolean dialer;
  private final Channel connection;
  private final Multiaddr dialed;
  private final CkbSession view;
  private final Promise<CkbSession> identified;
  private final Promise<List<Node>> nodes;
  private final Map<CkbProtocol, Channel> streams = new ConcurrentHashMap<>();
  private final List<Node> discovered = Collections.synchronizedList(new ArrayList<>());
  private volatile TentacleSession tentacle;
  private volatile IdentifyRecord record;
  private volatile boolean peerInIbd;
  private volatile String goodbye;
  private volatile CkbException closeCause;
  private ScheduledFuture<?> requiredCheck;

  /**
   * The state of a new connection, kept on it.
   *
   * @param config the session's config
   * @param dialer whether this side dialed
   * @param connection the connection
   * @param dialed the address dialed, or null (the observed address is then the socket's)
   * @param view makes the user's view of this state
   */
  Peer(CkbConfig config, boolean dialer, Channel connection, Multiaddr dialed, Function<Peer, CkbSession> view) {
    this.config = config;
    this.dialer = dialer;
    this.connection = connection;
    this.dialed = dialed;
    this.identified = connection.eventLoop().newPromise();
    this.nodes = connection.eventLoop().newPromise();
    connection.attr(KEY).set(this);
    this.view = view.apply(this);
    connection.closeFuture().addListener(f -> closed());
  }

  /** The state on {@code connection}, or null. */
  static Peer of(Channel connection) {
    return connection.attr(KEY).get();
  }

  /** The tentacle session started (secio and yamux are on): a dialer opens Identify. */
  void started(Future<TentacleSession> started) {
    if (!started.isSuccess()) {
      identified.tryFailure(started.cause());
      return;
    }
    tentacle = started.getNow();
    long check = REQUIRED_PROTOCOLS_CHECK.toNanos();
    requiredCheck = connection.eventLoop().scheduleAtFixedRate(this::checkRequiredProtocols, check, check, TimeUnit.NANOSECONDS);
    if (dialer) {
      open(CkbProtocol.IDENTIFY);
    }
  }

  private void checkRequiredProtocols() {
    if (!streams.containsKey(CkbProtocol.SYNC) && !streams.containsKey(CkbProtocol.FEELER)) {
      disconnect(new CkbException(Reason.INCOMPLETE_PROTOCOLS, "neither Sync nor Feeler open "
          + REQUIRED_PROTOCOLS_GRACE.toSeconds() + " s after the start"), "open protocols error: incomplete open protocols");
    }
  }

  private void open(CkbProtocol protocol) {
    TentacleStack.open(tentacle, protocol).addListener(f -> {
      if (!f.isSuccess()) {
        LOG.debug("{}: {} not opened: {}", this, protocol, f.cause().toString());
      }
    });
  }

  /** The peer's Identify was accepted: the session is ready, and a dialer opens the other protocols. */
  void identified(IdentifyRecord accepted) {
    record = accepted;
    emit(new CkbEvent.Identified(accepted));
    if (dialer) {
      for (CkbProtocol p : List.of(CkbProtocol.PING, CkbProtocol.DISCOVERY, CkbProtocol.DISCONNECT_MESSAGE,
          CkbProtocol.SYNC, CkbProtocol.TIME)) {
        open(p);
      }
      config.extraProtocols().keySet().forEach(this::open);
      if (config.lastStateConsensus().isPresent() && (accepted.flags() & IdentifyFlags.LIGHT_CLIENT) != 0) {
        open(CkbProtocol.LIGHT_CLIENT);
      }
    }
    identified.trySuccess(view);
  }

  void opened(CkbProtocol protocol, Channel stream) {
    streams.put(protocol, stream);
  }

  void streamClosed(CkbProtocol protocol, Channel stream) {
    streams.remove(protocol, stream);
  }

  void nodesReceived(boolean announce, List<Node> received) {
    if (discovered.size() < MAX_DISCOVERED) {
      discovered.addAll(received);
    }
    emit(new CkbEvent.NodesReceived(announce, received));
    if (!announce) {
      nodes.trySuccess(List.copyOf(received));
    }
  }

  void pingAnswered(Duration roundTrip) {
    emit(new CkbEvent.PingAnswered(roundTrip));
  }

  void inIbd() {
    peerInIbd = true;
    emit(new CkbEvent.PeerInIbd());
  }

  void saidGoodbye(String message) {
    goodbye = message;
    emit(new CkbEvent.PeerSaidGoodbye(message));
  }

  /**
   * Ends the session for {@code cause}: {@code reason} goes on the disconnect-message stream if it is
   * open (the connection closes once it is written, or after 5 s), then the connection closes.
   */
  void disconnect(CkbException cause, String reason) {
    if (closeCause != null || !connection.isOpen()) {
      return;
    }
    closeCause = cause;
    LOG.debug("{}: disconnecting: {}", this, reason);
    Channel goodbyeStream = streams.get(CkbProtocol.DISCONNECT_MESSAGE);
    if (goodbyeStream == null || !goodbyeStream.isActive()) {
      connection.close();
      return;
    }
    goodbyeStream.writeAndFlush(Unpooled.wrappedBuffer(utf8(reason, CkbProtocol.DISCONNECT_MESSAGE.maxFrameLength())))
        .addListener(f -> connection.close());
    connection.eventLoop().schedule(() -> connection.close(), GOODBYE_WRITE_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS);
  }

  /**
   * Bans the peer's IP for {@code duration} and ends the session with CKB's message: {@code "Ban for N
   * seconds, reason: …"}.
   */
  void ban(Duration duration, Reason reason, String why) {
    ban(duration, reason, why, null);
  }

  /** As {@link #ban(Duration, Reason, String)}, with what caused it (a refused header, say). */
  void ban(Duration duration, Reason reason, String why, Throwable cause) {
    InetAddress ip = remoteIp();
    if (ip != null) {
      config.banList().ban(ip, duration, why);
    }
    String message = "Ban for " + duration.toSeconds() + " seconds, reason: " + why;
    disconnect(new CkbException(reason, message, true, cause), message);
  }

  /** The first {@code max} bytes of {@code text} in UTF-8, cut at a character's end. */
  private static byte[] utf8(String text, int max) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    if (bytes.length <= max) {
      return bytes;
    }
    int end = max;
    while (end > 0 && (bytes[end] & 0xC0) == 0x80) {
      end--;
    }
    return Arrays.copyOf(bytes, end);
  }

  private void closed() {
    if (requiredCheck != null) {
      requiredCheck.cancel(false);
    }
    CkbException cause = closeCause != null ? closeCause
        : new CkbException(Reason.CLOSED, goodbye != null ? "the peer said goodbye: " + goodbye : "the connection closed");
    closeCause = cause;
    identified.tryFailure(cause);
    nodes.tryFailure(cause);
    emit(new CkbEvent.Closed(cause));
  }

  /** Tells the config's listener, on the connection's event loop. */
  void emit(CkbEvent event) {
    config.listener().ifPresent(l -> {
      try {
        l.onEvent(view, event);
      } catch (RuntimeException e) {
        LOG.warn("{}: a CkbListener threw on {}", this, event, e);
      }
    });
  }

  /** The peer's IP, or null when the connection has none (an in-memory channel). */
  InetAddress remoteIp() {
    return connection.remoteAddress() instanceof InetSocketAddress a ? a.getAddress() : null;
  }

  /** The address this side sends as the peer's observed address: as dialed, or the socket's. */
  Multiaddr observedAddress() {
    if (dialed != null) {
      return dialed;
    }
    if (connection.remoteAddress() instanceof InetSocketAddress a && a.getAddress() != null) {
      return Multiaddr.of(a);
    }
    return Multiaddr.fromBytes(new byte[0]);
  }

  // The user's view reads these.

  CkbConfig config() {
    return config;
  }

  boolean isDialer() {
    return dialer;
  }

  Channel connection() {
    return connection;
  }

  Multiaddr dialed() {
    return dialed;
  }

  TentacleSession tentacle() {
    return tentacle;
  }

  IdentifyRecord record() {
    return record;
  }

  Future<CkbSession> identifiedFuture() {
    return identified;
  }

  Future<List<Node>> nodesFuture() {
    return nodes;
  }

  List<Node> discovered() {
    synchronized (discovered) {
      return List.copyOf(discovered);
    }
  }

  boolean peerInIbd() {
    return peerInIbd;
  }

  String goodbye() {
    return goodbye;
  }

  CkbException closeCause() {
    return closeCause;
  }

  Channel stream(CkbProtocol protocol) {
    return streams.get(protocol);
  }

  @Override
  public String toString() {
    return "ckb " + (dialer ? "to " : "from ") + connection.remoteAddress();
  }
}
