package io.secio.tentacle;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.secio.netty.NegotiatedProtocol;
import io.secio.netty.negotiation.NegotiationStage;
import io.secio.streams.StreamChannel;
import io.secio.tentacle.TentacleException.Reason;
import java.util.List;

/**
 * Protocol-select on one yamux stream ({@code docs/STREAMS.md} §8.1), as a negotiation stage: the
 * start, timeout, queued writes, swap, completion event and failure path are the {@link
 * NegotiationStage}'s, as multistream-select's are.
 *
 * <p>The opener (dialer role) sends its {@link ProtocolInfo} as soon as the stream is active, in
 * the same flush as the stream's SYN, and takes the last version of the reply; the stream's
 * handler stands behind it from the start. The acceptor
 * (listener role) answers the first message as tentacle's {@code server_select} does: the name it
 * was sent and the one version {@link ProtocolInfo#selectVersion} chose, or an empty list; after an
 * empty list, or when the protocol already has its stream on the session, it resets the stream once
 * the reply is written (tentacle drops the stream). On agreement the message codec takes the stage's
 * place (followed, on the acceptor's side, by the protocol's handler), and the bytes read past the
 * reply reach them. Every failure resets the stream. Not sharable; runs on the stream's event loop.
 */
final class ProtocolSelectHandler extends NegotiationStage {

  private final TentacleSession session;
  /** The dialer role's protocol and offer; null in the listener role. */
  private final TentacleProtocol requested;
  private final List<String> offered;
  private ByteBuf cumulation;
  private boolean refusing;

  private ProtocolSelectHandler(TentacleSession session, TentacleProtocol requested, List<String> offered) {
    super(session.config().negotiationTimeout());
    this.session = session;
    this.requested = requested;
    this.offered = offered;
  }

  /** The opener's side: offers {@code offered} versions of {@code protocol}. */
  static ProtocolSelectHandler opener(TentacleSession session, TentacleProtocol protocol, List<String> offered) {
    return new ProtocolSelectHandler(session, protocol, List.copyOf(offered));
  }

  /** The acceptor's side: answers with the session's registered protocols. */
  static ProtocolSelectHandler acceptor(TentacleSession session) {
    return new ProtocolSelectHandler(session, null, null);
  }

  @Override
  protected void onStart() {
    if (requested != null) {
      send(frame(new ProtocolInfo(requested.name(), offered)));
    }
  }

  private ByteBuf frame(ProtocolInfo info) {
    byte[] body = info.encode();
    return context().alloc().buffer(MessageDecoder.PREFIX_SIZE_IN_BYTES + body.length)
        .writeInt(body.length)
        .writeBytes(body);
  }

  @Override
  protected void onRead(ByteBuf msg) throws TentacleException {
    if (refusing) {
      msg.release();
      return;
    }
    cumulation = cumulation == null
        ? msg
        : ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(context().alloc(), cumulation, msg);
    if (cumulation.readableBytes() < MessageDecoder.PREFIX_SIZE_IN_BYTES) {
      return;
    }
    long length = cumulation.getUnsignedInt(cumulation.readerIndex());
    if (length > TentacleConfig.MAX_SELECT_MESSAGE_LENGTH_IN_BYTES) {
      throw new TentacleException(Reason.MALFORMED_SELECT, "a protocol-select message of " + length
          + " bytes, over the limit of " + TentacleConfig.MAX_SELECT_MESSAGE_LENGTH_IN_BYTES);
    }
    if (cumulation.readableBytes() < MessageDecoder.PREFIX_SIZE_IN_BYTES + length) {
      return;
    }
    cumulation.skipBytes(MessageDecoder.PREFIX_SIZE_IN_BYTES);
    byte[] bytes = new byte[(int) length];
    cumulation.readBytes(bytes);
    ProtocolInfo info = ProtocolInfo.decode(bytes);
    if (requested != null) {
      accept(info);
    } else {
      answer(info);
    }
  }

  /** The opener reads the reply. */
  private void accept(ProtocolInfo reply) throws TentacleException {
    if (!reply.name().equals(requested.name())) {
      throw new TentacleException(Reason.BAD_SELECT_REPLY, "asked for " + requested.name()
          + ", the reply names " + reply.name());
    }
    if (reply.versions().isEmpty()) {
      throw new TentacleException(Reason.PROTOCOL_REFUSED, "the peer refused " + requested.name() + offered);
    }
    // tentacle's client_select takes the last version of the reply.
    String version = reply.versions().get(reply.versions().size() - 1);
    if (!offered.contains(version)) {
      throw new TentacleException(Reason.BAD_SELECT_REPLY, "the peer chose version " + version
          + " of " + requested.name() + ", not offered in " + offered);
    }
    open(requested, version);
  }

  /** The acceptor answers the offer. */
  private void answer(ProtocolInfo offer) {
    TentacleProtocol protocol = session.config().protocol(offer.name()).orElse(null);
    String version = protocol == null ? null : ProtocolInfo.selectVersion(protocol.versions(), offer.versions());
    ByteBuf reply = frame(new ProtocolInfo(offer.name(), version == null ? List.of() : List.of(version)));
    if (protocol == null) {
      refuse(reply, new TentacleException(Reason.UNKNOWN_PROTOCOL, "the peer asked for " + offer.name()
          + ", not registered here"));
    } else if (version == null) {
      refuse(reply, new TentacleException(Reason.PROTOCOL_REFUSED, "no version of " + offer.name()
          + protocol.versions() + " in the peer's offer " + offer.versions()));
    } else if (session.hasProtocol(offer.name())) {
      // As tentacle: the selection succeeds, then the session drops the second stream.
      refuse(reply, new TentacleException(Reason.ALREADY_OPEN, offer.name() + " has its stream already"));
    } else {
      send(reply);
      open(protocol, version);
    }
  }

  /** Writes the reply, then fails (which resets the stream) once it is written. */
  private void refuse(ByteBuf reply, TentacleException why) {
    refusing = true;
    releaseCumulation();
    context().writeAndFlush(reply).addListener(f -> fail(why));
  }

  private void open(TentacleProtocol protocol, String version) {
    StreamChannel stream = (StreamChannel) context().channel();
    if (requested == null && !session.opened(protocol.name(), stream)) {
      refusing = true;
      releaseCumulation();
      fail(new TentacleException(Reason.CLOSED, "the session is closing"));
      return;
    }
    ByteBuf rest = cumulation;
    cumulation = null;
    List<ByteBuf> readPast = List.of();
    if (rest.isReadable()) {
      readPast = List.of(rest);
    } else {
      rest.release();
    }
    // The opener's handler is behind this stage already; the acceptor's is the protocol's.
    ChannelHandler next = new MessageCodec(protocol.maxMessageLength(), requested == null ? protocol.handler() : null);
    agree(NegotiatedProtocol.of(protocol.name(), version), next, readPast);
  }

  private void releaseCumulation() {
    if (cumulation != null) {
      cumulation.release();
      cumulation = null;
    }
  }

  @Override
  protected void releaseOnFailure(Throwable cause) {
    releaseCumulation();
    // tentacle drops a stream whose selection failed: a reset, not an orderly end.
    ((StreamChannel) context().channel()).reset();
  }

  @Override
  protected Throwable timeoutFailure() {
    return new TentacleException(Reason.SELECT_TIMEOUT, "no protocol chosen within "
        + session.config().negotiationTimeout());
  }

  @Override
  protected Throwable closedFailure(String why, Throwable cause) {
    return new TentacleException(Reason.CLOSED, why, cause);
  }
}
