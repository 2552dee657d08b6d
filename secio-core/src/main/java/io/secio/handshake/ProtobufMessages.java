package io.secio.handshake;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.secio.proto.Spipe;
import io.secio.protocol.SecioException;

/**
 * The libp2p dialect's message codec: translates {@link Propose} and {@link Exchange}
 * (docs/PROTOCOL.md sections 4 and 7) between protobuf bytes and those plain values. The only class
 * of the handshake that sees generated code. Fields are written in field-number order.
 */
final class ProtobufMessages {
  private ProtobufMessages() {}

  static byte[] encodePropose(Propose p) {
    return Spipe.Propose.newBuilder()
        .setRand(ByteString.copyFrom(p.rand()))
        .setPubkey(ByteString.copyFrom(p.pubkey()))
        .setExchanges(p.exchanges())
        .setCiphers(p.ciphers())
        .setHashes(p.hashes())
        .build()
        .toByteArray();
  }

  static Propose decodePropose(byte[] bytes) throws SecioException {
    Spipe.Propose m;
    try {
      m = Spipe.Propose.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw malformed("Propose is not a valid protobuf");
    }
    if (!m.hasRand() || !m.hasPubkey() || !m.hasExchanges() || !m.hasCiphers() || !m.hasHashes()
        || m.getPubkey().isEmpty() || m.getExchanges().isEmpty() || m.getCiphers().isEmpty()
        || m.getHashes().isEmpty()) {
      throw malformed("Propose lacks a field");
    }
    if (m.getRand().size() != Propose.NONCE_SIZE_IN_BYTES) {
      throw malformed("Propose nonce is " + m.getRand().size() + " bytes, not 16");
    }
    Propose.checkBounded(m.getExchanges(), "exchanges");
    Propose.checkBounded(m.getCiphers(), "ciphers");
    Propose.checkBounded(m.getHashes(), "hashes");
    return new Propose(
        m.getRand().toByteArray(),
        m.getPubkey().toByteArray(),
        m.getExchanges(),
        m.getCiphers(),
        m.getHashes());
  }

  static byte[] encodeExchange(Exchange e) {
    return Spipe.Exchange.newBuilder()
        .setEpubkey(ByteString.copyFrom(e.epubkey()))
        .setSignature(ByteString.copyFrom(e.signature()))
        .build()
        .toByteArray();
  }

  static Exchange decodeExchange(byte[] bytes) throws SecioException {
    Spipe.Exchange m;
    try {
      m = Spipe.Exchange.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw malformed("Exchange is not a valid protobuf");
    }
    if (m.getEpubkey().isEmpty() || m.getSignature().isEmpty()) {
      throw malformed("Exchange lacks a field");
    }
    return new Exchange(m.getEpubkey().toByteArray(), m.getSignature().toByteArray());
  }

  private static SecioException malformed(String detail) {
    return new SecioException(SecioException.Reason.MALFORMED_MESSAGE, detail);
  }
}
