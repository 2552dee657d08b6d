package io.secio.ckb;

import io.netty.util.concurrent.ScheduledFuture;
import io.secio.ckb.chain.HeaderFollower;
import io.secio.ckb.header.Byte32;
import io.secio.ckb.header.HeaderException;
import io.secio.ckb.lightclient.LastStateClient;
import io.secio.ckb.lightclient.LastStateServer;
import io.secio.ckb.lightclient.LastStateVerifier;
import io.secio.ckb.lightclient.LightClientCodec;
import io.secio.ckb.lightclient.LightClientMessage;
import io.secio.ckb.lightclient.LightClientMessageException;
import io.secio.ckb.protocol.CkbException.Reason;
import io.secio.ckb.protocol.CkbException;
import io.secio.ckb.protocol.CkbProtocol;
import io.secio.ckb.protocol.IdentifyFlags;
import io.secio.ckb.protocol.IdentifyRecord;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /ckb/lightclient} (RFC 0044), the two roles the config asks for.
 *
 * <p><b>Client</b> ({@link CkbConfig.Builder#subscribeLastState}, with a peer that announces
 * LIGHT_CLIENT): {@code GetLastState{subscribe}} when the stream opens, each {@code SendLastState}
 * checked by a {@link LastStateClient} and a new tip surfaced ({@link CkbEvent.LastStateReceived}),
 * asked again once the last answer is older than the re-ask interval. As the light client treats a
 * server: a malformed message bans it for 300 s at once; a refused tip ({@link
 * CkbEvent.LastStateRefused}) or an item a client does not expect counts, and the tenth within an hour
 * bans it for 300 s; a question unanswered for 60 s ends the session ("reach timeout").
 *
 * <p><b>Server</b> ({@link CkbConfig.Builder#serveLastState}): a {@code GetLastState} is answered with
 * the chain's tip ({@link LastStateServer}) and, when subscribed, again whenever the tip moves. As
 * the full node's server: a message that is not strict bans for 300 s, and so does an item a server
 * does not take (401); proof requests, which are strict but not served here, stay unanswered.
 */
final class LightClientHandler extends ProtocolHandler {
  private static final Logger LOG = LoggerFactory.getLogger(LightClientHandler.class);
  /** How often timers are looked at: the client's re-ask and timeout, the server's new tips. */
  static final Duration TICK = Duration.ofSeconds(1);
  /** The light client bans a server at this many 4xx answers within an hour. */
  static final int REFUSALS_BEFORE_BAN = 10;
  static final long REFUSAL_WINDOW_MILLIS = Duration.ofHours(1).toMillis();

  private final LastStateClient client;
  private final HeaderFollower served;
  private final LastStateServer server = new LastStateServer();
  private final Deque<Long> refusals = new ArrayDeque<>();
  private ScheduledFuture<?> ticks;
  private boolean subscribed;
  /** The tip last offered to a subscribed client (sent, or found not servable). */
  private Byte32 lastOffered;

  LightClientHandler(Peer peer) {
    super(peer, CkbProtocol.LIGHT_CLIENT);
    CkbConfig config = peer.config();
    IdentifyRecord record = peer.record();
    boolean serves = record != null && (record.flags() & IdentifyFlags.LIGHT_CLIENT) != 0;
    this.client = config.lastStateConsensus().filter(c -> serves)
        .map(c -> new LastStateClient(new LastStateVerifier(c, config.clock()), config.clock(), config.lastStateReAsk(),
            LastStateClient.DEFAULT_TIMEOUT))
        .orElse(null);
    this.served = config.lastStateServed().orElse(null);
  }

  @Override
  void onOpen() {
    if (client != null) {
      send(client.open());
    }
    if (client != null || served != null) {
      ticks = repeat(this::tick, TICK);
    }
  }

  @Override
  void onClose() {
    if (ticks != null) {
      ticks.cancel(false);
    }
  }

  private void tick() {
    if (client != null) {
      try {
        client.poll().ifPresent(this::send);
      } catch (LightClientMessageException e) {
        peer.disconnect(new CkbException(Reason.INVALID_LAST_STATE, e.getMessage()), "reach timeout");
        return;
      }
    }
    if (served != null && subscribed && !served.tip().hash().equals(lastOffered)) {
      serve();
    }
  }

  @Override
  void onMessage(byte[] message) {
    LightClientMessage m;
    try {
      m = LightClientCodec.decode(message);
    } catch (LightClientMessageException e) {
      unread(e);
      return;
    }
    if (m instanceof LightClientMessage.GetLastState get && served != null) {
      subscribed |= get.subscribe();
      awaiting(serve());
    } else if (m instanceof LightClientMessage.SendLastState && client != null) {
      received(message);
    } else {
      unexpected("UnexpectedProtocolMessage(401): " + m.getClass().getSimpleName());
    }
  }

  /** A message the codec does not read: malformed, a proof request, or a proof. */
  private void unread(LightClientMessageException e) {
    OptionalInt item = e.unsupportedItem();
    if (item.isEmpty()) {
      peer.ban(Peer.BAD_MESSAGE_BAN, Reason.MALFORMED_MESSAGE, "send us a malformed message");
    } else if (served != null && item.getAsInt() % 2 == 0) {
      LOG.debug("{}: proof request {} left unanswered: proofs are not served here", peer, item.getAsInt());
    } else {
      unexpected("UnexpectedProtocolMessage(401): item " + item.getAsInt());
    }
  }

  /** An item this side's roles do not take: a server bans at once, a client counts it. */
  private void unexpected(String status) {
    if (client == null) {
      peer.ban(Peer.BAD_MESSAGE_BAN, Reason.PROTOCOL_VIOLATION, status);
    } else {
      refused(status, null);
    }
  }

  private void received(byte[] message) {
    try {
      client.onMessage(message).ifPresent(s -> peer.emit(new CkbEvent.LastStateReceived(s.tip(), s.totalDifficulty())));
    } catch (HeaderException e) {
      peer.emit(new CkbEvent.LastStateRefused(e));
      refused("InvalidLastState(412): " + e.getMessage(), e);
    } catch (LightClientMessageException e) {
      // Decoded once already; a second read cannot fail.
      throw new IllegalStateException(e);
    }
  }

  /** A 4xx answer from the client's side: the tenth within an hour bans the server. */
  private void refused(String status, HeaderException cause) {
    long now = peer.config().clock().millis();
    refusals.add(now);
    while (now - refusals.peekFirst() > REFUSAL_WINDOW_MILLIS) {
      refusals.removeFirst();
    }
    LOG.debug("{}: {} ({} within an hour)", peer, status, refusals.size());
    if (refusals.size() >= REFUSALS_BEFORE_BAN) {
      peer.ban(Peer.BAD_MESSAGE_BAN, Reason.INVALID_LAST_STATE, status, cause);
    }
  }

  /** Sends the served chain's tip, if it can be served. */
  private CompletableFuture<Void> serve() {
    lastOffered = served.tip().hash();
    return served.call(server::lastState).thenAcceptAsync(last -> {
      if (!isOpen()) {
        return;
      }
      if (last.isEmpty()) {
        LOG.debug("{}: the tip {} cannot be served", peer, served.tip());
        return;
      }
      send(LightClientCodec.encode(new LightClientMessage.SendLastState(last.get())));
    }, executor());
  }
}
