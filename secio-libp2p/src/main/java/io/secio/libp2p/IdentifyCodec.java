package io.secio.libp2p;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.secio.Dialect;
import io.secio.PeerId;
import io.secio.identity.IdentityPublicKey;
import io.secio.libp2p.Libp2pException.Reason;
import io.secio.multiaddr.Multiaddr;
import io.secio.proto.IdentifyMessages.Identify;
import io.secio.protocol.SecioException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The identify message ({@code docs/STREAMS.md} §10) to and from its protobuf: the one class that
 * sees the generated {@code Identify}. What this side sends is one uvarint-length-prefixed message.
 *
 * <p>Static methods; thread-safe.
 */
final class IdentifyCodec {
  private IdentifyCodec() {}

  /** This side's identify message, length-prefixed; {@code localKey} may be null (no secure channel). */
  static ByteBuf encode(ByteBufAllocator alloc, IdentityPublicKey localKey, Libp2pConfig config,
      SocketAddress observed) {
    Identify.Builder b = Identify.newBuilder()
        .setProtocolVersion(Libp2pConfig.PROTOCOL_VERSION)
        .setAgentVersion(config.agentVersion())
        .addAllProtocols(config.servedProtocols());
    if (localKey != null) {
      b.setPublicKey(ByteString.copyFrom(localKey.toProtobuf()));
    }
    for (Multiaddr addr : config.listenAddrs()) {
      b.addListenAddrs(ByteString.copyFrom(addr.toBytes()));
    }
    if (observed instanceof InetSocketAddress && ((InetSocketAddress) observed).getAddress() != null) {
      b.setObservedAddr(ByteString.copyFrom(Multiaddr.of((InetSocketAddress) observed).toBytes()));
    }
    byte[] message = b.build().toByteArray();
    ByteBuf out = alloc.buffer(message.length + 5);
    LengthPrefix.write(out, message.length);
    out.writeBytes(message);
    return out;
  }

  /**
   * The peer's record from its message (without the length prefix), checked against {@code
   * expected}, the secure channel's peer id.
   */
  static IdentifyRecord decode(byte[] message, PeerId expected) throws Libp2pException {
    Identify id;
    try {
      id = Identify.parseFrom(message);
    } catch (InvalidProtocolBufferException e) {
      throw new Libp2pException(Reason.IDENTIFY_MALFORMED, "not an Identify protobuf (" + message.length
          + " bytes)", e);
    }
    if (!id.hasPublicKey()) {
      throw new Libp2pException(Reason.IDENTIFY_KEY_MISMATCH, "no public key in the record");
    }
    IdentityPublicKey key;
    try {
      key = IdentityPublicKey.fromProtobuf(id.getPublicKey().toByteArray());
    } catch (SecioException e) {
      throw new Libp2pException(Reason.IDENTIFY_KEY_MISMATCH, "an unreadable public key", e);
    }
    if (!Dialect.LIBP2P.matches(expected, key)) {
      throw new Libp2pException(Reason.IDENTIFY_KEY_MISMATCH, "the key's peer id is "
          + Dialect.LIBP2P.peerId(key).toBase58() + ", the secure channel's " + expected.toBase58());
    }
    List<Multiaddr> listen = new ArrayList<>();
    for (ByteString addr : id.getListenAddrsList()) {
      listen.add(Multiaddr.fromBytes(addr.toByteArray()));
    }
    return new IdentifyRecord(expected, key, id.getProtocolVersion(), id.getAgentVersion(), id.getProtocolsList(),
        listen, id.getObservedAddr().isEmpty() ? null : Multiaddr.fromBytes(id.getObservedAddr().toByteArray()));
  }
}
