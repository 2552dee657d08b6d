package io.secio.ckb;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.Future;
import io.secio.multiaddr.Multiaddr;
import io.secio.streams.StreamChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Our side (dialer or listener) against a {@link HostilePeer} on a {@link CkbPair}, on a driven clock:
 * the fixture of the rule tests. {@link #connect()} may be called again for a reconnection from the
 * same IP (the ban list and clock stay).
 */
final class Duel implements AutoCloseable {
  final boolean weDial;
  final MutableClock clock = new MutableClock();
  final CkbConfig config;
  final List<CkbEvent> events = new ArrayList<>();
  /** The versions the next hostile peer offers and accepts. */
  List<String> hostileVersions = List.of(CkbProtocol.VERSION);
  /** The protocols the next hostile peer does not have. */
  Set<CkbProtocol> hostileLacks = Set.of();
  /** The address our dialer dials (its observed address for the peer). */
  Multiaddr dialed;
  HostilePeer hostile;
  CkbPair pair;

  Duel(boolean weDial, UnaryOperator<CkbConfig.Builder> tweak) {
    this.weDial = weDial;
    this.config = tweak.apply(CkbConfig.builder(CkbNetwork.TESTNET).clock(clock).localAddresses(true)
        .listener((s, e) -> events.add(e))).build();
  }

  Duel(boolean weDial) {
    this(weDial, b -> b);
  }

  /** A new connection (from the same IP as before) and a hostile peer on it; pumped. */
  Duel connect() {
    if (pair != null) {
      pair.close();
    }
    hostile = new HostilePeer(hostileVersions, hostileLacks);
    pair = weDial
        ? new CkbPair(Ckb.insecure(config, true, dialed), hostile.listener())
        : new CkbPair(hostile.dialer(), Ckb.insecure(config, false, null));
    if (theirs().isOpen()) {
      hostile.attach(theirs());
    }
    pair.pump();
    return this;
  }

  /** Connects, and the hostile peer opens identify if it dials; it sends its Identify: a well-behaved start. */
  Duel identified() {
    connect();
    if (!weDial) {
      open(CkbProtocol.IDENTIFY);
    }
    hostile.identify(CkbNetwork.TESTNET.identifyName(), IdentifyFlags.FULL_NODE_REQUIRED | IdentifyFlags.COMPATIBILITY);
    pair.pump();
    assertTrue(session().isSuccess(), () -> "identified: " + session().cause());
    return this;
  }

  /** The hostile peer opens {@code protocol}; pumped. */
  StreamChannel open(CkbProtocol protocol) {
    Future<StreamChannel> f = hostile.open(protocol);
    pair.pump();
    assertTrue(f.isSuccess(), () -> protocol + " opened: " + f.cause());
    return f.getNow();
  }

  EmbeddedChannel ours() {
    return weDial ? pair.dialer : pair.listener;
  }

  EmbeddedChannel theirs() {
    return weDial ? pair.listener : pair.dialer;
  }

  Future<CkbSession> session() {
    return Ckb.sessionFuture(ours());
  }

  /** Sends and pumps. */
  void send(CkbProtocol protocol, byte[] bytes) {
    hostile.send(protocol, bytes);
    pair.pump();
  }

  /** Why our side ended the session: its close cause. */
  CkbException cause() {
    for (CkbEvent e : events) {
      if (e instanceof CkbEvent.Closed closed) {
        return closed.cause();
      }
    }
    throw new AssertionError("our side has not closed: " + events);
  }

  @Override
  public String toString() {
    return weDial ? "our dialer" : "our listener";
  }

  @Override
  public void close() {
    if (pair != null) {
      pair.close();
    }
  }
}
