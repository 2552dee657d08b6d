package io.secio.handshake;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.secio.SecioException;
import io.secio.proto.Spipe;

/**
 * Translates Propose and Exchange (spec section 2) between protobuf bytes and plain values. The only
 * class of the handshake that sees generated code. Fields are written in field-number order.
 */
final class HandshakeMessages {
  static final int NONCE_SIZE_IN_BYTES = 16;
  /** Most names one Propose list may carry; every real list has fewer than ten. */
  static final int MAX_PROPOSAL_ENTRIES = 64;
  /** Longest name in a Propose list; the longest real one, {@code ChaCha20Poly1305}, has 16. */
  static final int MAX_PROPOSAL_NAME_LENGTH_IN_CHARS = 64;

  private HandshakeMessages() {}

  /** A parsed Propose: every field present and non-empty, the nonce 16 bytes. */
  record Propose(byte[] rand, byte[] pubkey, String exchanges, String ciphers, String hashes) {}

  /** A parsed Exchange: both fields present and non-empty. */
  record Exchange(byte[] epubkey, byte[] signature) {}

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
    if (m.getRand().size() != NONCE_SIZE_IN_BYTES) {
      throw malformed("Propose nonce is " + m.getRand().size() + " bytes, not 16");
    }
    checkBounded(m.getExchanges(), "exchanges");
    checkBounded(m.getCiphers(), "ciphers");
    checkBounded(m.getHashes(), "hashes");
    return new Propose(
        m.getRand().toByteArray(),
        m.getPubkey().toByteArray(),
        m.getExchanges(),
        m.getCiphers(),
        m.getHashes());
  }

  /**
   * Checks a comma-separated list against the entry and name limits without splitting it, so that a
   * hostile {@code a,a,a,...} never becomes a string per entry. Both dialects' Proposes go through it.
   */
  static void checkBounded(String list, String kind) throws SecioException {
    int entries = 1;
    int nameLength = 0;
    for (int i = 0; i < list.length(); i++) {
      if (list.charAt(i) == ',') {
        entries++;
        nameLength = 0;
      } else {
        nameLength++;
      }
      if (entries > MAX_PROPOSAL_ENTRIES || nameLength > MAX_PROPOSAL_NAME_LENGTH_IN_CHARS) {
        throw new SecioException(SecioException.Reason.PROPOSAL_TOO_LONG,
            kind + ": at most " + MAX_PROPOSAL_ENTRIES + " names of at most "
                + MAX_PROPOSAL_NAME_LENGTH_IN_CHARS + " characters");
      }
    }
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
