package io.secio.netty.multistream;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerAdapter;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.Future;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.netty.NegotiatedProtocol;
import io.secio.netty.NegotiationCompletionEvent;
import io.secio.netty.Secio;
import io.secio.netty.negotiation.NegotiationStage;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * multistream-select 1.0.0, the stage in front of secio on a libp2p connection (and in front of the
 * stream muxer inside it). The libp2p connection upgrade in one line:
 *
 * <pre>{@code
 * // dialling a libp2p node: multistream-select picks /secio/1.0.0, then secio runs in its place
 * ch.pipeline().addLast(Multistream.secioInitiator(config, nodePeerId), new MyHandler());
 * // accepting libp2p nodes, in a ServerBootstrap's child ChannelInitializer
 * ch.pipeline().addLast(Multistream.secioResponder(config), new MyHandler());
 * // inside the secure channel, the muxer's negotiation (its handshake waits in secio's queue)
 * ch.pipeline().addLast(Multistream.secioInitiator(config, nodePeerId),
 *     Multistream.initiator("/mplex/6.7.0", new MyMplex()));
 * }</pre>
 *
 * <p>The returned handler replaces itself with a negotiating handler. On agreement that handler adds
 * the agreed protocol's handler in its own place, removes itself and passes on the bytes it read past
 * the negotiation (the peer's secio Propose often comes in the same read as the protocol's echo). It
 * queues application writes until then. The outcome is a {@link NegotiationCompletionEvent} for the
 * handlers behind it and {@link #negotiationFuture(Channel)}. A failure is a {@link
 * MultistreamException} and closes the channel.
 *
 * <p>The handlers returned here are {@link ChannelHandler.Sharable} and thread-safe. A protocol's
 * handler given as an instance is added to every channel the returned handler is used on, so it must
 * be sharable to be used on more than one channel; give a {@link Supplier} otherwise.
 */
public final class Multistream {
  /** The protocol id of secio. */
  public static final String SECIO = "/secio/1.0.0";
  /** Proposals (and {@code ls} requests) a responder answers before it gives up on the initiator. */
  public static final int DEFAULT_MAX_PROPOSALS = 16;
  /** How long a negotiation may take from the moment it sends its first message. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  private Multistream() {}

  /** A dialling side that negotiates secio and then runs {@link Secio#client(SecioConfig, PeerId)}. */
  public static ChannelHandler secioInitiator(SecioConfig config, PeerId expectedRemotePeer) {
    return initiator(SECIO, Secio.client(config, expectedRemotePeer));
  }

  /** An accepting side that offers secio and then runs {@link Secio#server(SecioConfig)}. */
  public static ChannelHandler secioResponder(SecioConfig config) {
    return responder(SECIO, Secio.server(config));
  }

  /** Proposes {@code protocol} only and, once accepted, puts {@code next} (may be null) in its place. */
  public static ChannelHandler initiator(String protocol, ChannelHandler next) {
    return initiator().protocol(protocol, () -> next).build();
  }

  /** Accepts {@code protocol} only and, once proposed, puts {@code next} (may be null) in its place. */
  public static ChannelHandler responder(String protocol, ChannelHandler next) {
    return responder().protocol(protocol, () -> next).build();
  }

  /** An initiator proposing its protocols in the order they are added. */
  public static Builder initiator() {
    return new Builder(true);
  }

  /** A responder accepting any of its protocols; {@code ls} lists them in the order they are added. */
  public static Builder responder() {
    return new Builder(false);
  }

  /**
   * The outcome of the latest negotiation on {@code channel}: the agreed protocol.
   *
   * @throws IllegalStateException if no multistream handler has been added to the channel
   */
  public static Future<NegotiatedProtocol> negotiationFuture(Channel channel) {
    Future<NegotiatedProtocol> future = NegotiationStage.negotiation(channel);
    if (future == null) {
      throw new IllegalStateException("no multistream handler on " + channel);
    }
    return future;
  }

  /** Builds a multistream handler. Not thread-safe; the handler it builds is. */
  public static final class Builder {
    private final boolean initiator;
    private final Map<String, Supplier<? extends ChannelHandler>> protocols = new LinkedHashMap<>();
    private Duration timeout = DEFAULT_TIMEOUT;
    private int maxProposals = DEFAULT_MAX_PROPOSALS;

    private Builder(boolean initiator) {
      this.initiator = initiator;
    }

    /**
     * Adds a protocol and what runs once it is agreed: {@code next} is asked for a handler per channel
     * and may answer {@code null} (nothing added; the application takes over the bytes).
     *
     * @throws IllegalArgumentException if the id is not a valid message or was added already
     */
    public Builder protocol(String id, Supplier<? extends ChannelHandler> next) {
      Objects.requireNonNull(next, "next");
      if (id.isEmpty() || id.equals(MultistreamMessage.NA) || id.equals(MultistreamMessage.LS)
          || id.equals(MultistreamMessage.HEADER)) {
        throw new IllegalArgumentException("not a protocol id: " + id);
      }
      MultistreamMessage.checkedUtf8(id);
      if (protocols.putIfAbsent(id, next) != null) {
        throw new IllegalArgumentException("added twice: " + id);
      }
      return this;
    }

    /** The time from the first message sent to agreement; {@link #DEFAULT_TIMEOUT} unless set. */
    public Builder timeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("timeout must be positive: " + timeout);
      }
      this.timeout = timeout;
      return this;
    }

    /** A responder's bound on proposals and {@code ls} requests; {@link #DEFAULT_MAX_PROPOSALS} unless set. */
    public Builder maxProposals(int maxProposals) {
      if (maxProposals < 1) {
        throw new IllegalArgumentException("maxProposals must be positive: " + maxProposals);
      }
      this.maxProposals = maxProposals;
      return this;
    }

    /** @throws IllegalStateException if no protocol was added */
    public ChannelHandler build() {
      if (protocols.isEmpty()) {
        throw new IllegalStateException("no protocol added");
      }
      return new Installer(initiator, Collections.unmodifiableMap(new LinkedHashMap<>(protocols)), timeout,
          maxProposals);
    }
  }

  @ChannelHandler.Sharable
  private static final class Installer extends ChannelHandlerAdapter {
    private final boolean initiator;
    private final Map<String, Supplier<? extends ChannelHandler>> protocols;
    private final List<String> ids;
    private final Duration timeout;
    private final int maxProposals;

    Installer(boolean initiator, Map<String, Supplier<? extends ChannelHandler>> protocols, Duration timeout,
        int maxProposals) {
      this.initiator = initiator;
      this.protocols = protocols;
      this.ids = List.copyOf(protocols.keySet());
      this.timeout = timeout;
      this.maxProposals = maxProposals;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      Negotiation negotiation = initiator
          ? Negotiation.initiator(ids)
          : Negotiation.responder(ids, maxProposals);
      ctx.pipeline().replace(this, ctx.name(), new MultistreamHandler(negotiation, protocols, timeout));
    }

    @Override
    public String toString() {
      return (initiator ? "Multistream.initiator" : "Multistream.responder") + ids;
    }
  }
}
