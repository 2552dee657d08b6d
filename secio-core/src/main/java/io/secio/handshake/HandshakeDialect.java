package io.secio.handshake;

import io.secio.Dialect;
import io.secio.identity.IdentityPublicKey;
import io.secio.protocol.SecioException;
import java.nio.ByteBuffer;

/**
 * What the two handshake dialects do differently (docs/PROTOCOL.md section 14), behind the one seam the engine
 * uses: how Propose and Exchange are encoded, what Propose.pubkey carries and which key bytes the
 * order hashes. The state machine, the signature corpus, refusing our own key, selection, stretching
 * and the nonce echo are the engine's, the same for both.
 */
enum HandshakeDialect {
  LIBP2P(Dialect.LIBP2P) {
    @Override
    byte[] encodePropose(Propose p) {
      return ProtobufMessages.encodePropose(p);
    }

    @Override
    Propose decodePropose(byte[] bytes) throws SecioException {
      return ProtobufMessages.decodePropose(bytes);
    }

    @Override
    byte[] encodeExchange(Exchange e) {
      return ProtobufMessages.encodeExchange(e);
    }

    @Override
    Exchange decodeExchange(byte[] bytes) throws SecioException {
      return ProtobufMessages.decodeExchange(bytes);
    }

    @Override
    byte[] proposedKey(IdentityPublicKey key) {
      return key.toProtobuf();
    }

    @Override
    IdentityPublicKey remoteKey(byte[] proposedKey) throws SecioException {
      return IdentityPublicKey.fromProtobuf(proposedKey);
    }

    @Override
    byte[] orderKey(IdentityPublicKey key) {
      return key.toProtobuf();
    }
  },

  TENTACLE(Dialect.TENTACLE) {
    @Override
    byte[] encodePropose(Propose p) {
      return MoleculeMessages.encodePropose(p);
    }

    @Override
    Propose decodePropose(byte[] bytes) throws SecioException {
      return MoleculeMessages.decodePropose(bytes);
    }

    @Override
    byte[] encodeExchange(Exchange e) {
      return MoleculeMessages.encodeExchange(e);
    }

    @Override
    Exchange decodeExchange(byte[] bytes) throws SecioException {
      return MoleculeMessages.decodeExchange(bytes);
    }

    @Override
    byte[] proposedKey(IdentityPublicKey key) {
      return MoleculeMessages.encodePublicKey(key.keyData());
    }

    @Override
    IdentityPublicKey remoteKey(byte[] proposedKey) throws SecioException {
      return IdentityPublicKey.fromSecp256k1(MoleculeMessages.decodePublicKey(proposedKey));
    }

    @Override
    byte[] orderKey(IdentityPublicKey key) {
      return key.keyData();
    }
  };

  private final Dialect dialect;

  HandshakeDialect(Dialect dialect) {
    this.dialect = dialect;
  }

  /** The public name of this dialect. */
  Dialect dialect() {
    return dialect;
  }

  static HandshakeDialect of(Dialect dialect) {
    return switch (dialect) {
      case LIBP2P -> LIBP2P;
      case TENTACLE -> TENTACLE;
    };
  }

  /**
   * The dialect of a dialer's first message, its Propose (docs/PROTOCOL.md section 14.4): tentacle's
   * when it begins as a molecule table of at least five fields exactly as long as the message, else
   * libp2p's. A protobuf Propose begins {@code 0a 10}, so it reads as a table only if it is at least
   * 4,106 bytes long (and its nonce's first bytes fit): real ones are under 3 KiB.
   */
  static Dialect of(ByteBuffer firstMessage) {
    return MoleculeMessages.startsLikeTable(
            firstMessage, firstMessage.remaining(), MoleculeMessages.PROPOSE_FIELD_COUNT)
        ? Dialect.TENTACLE
        : Dialect.LIBP2P;
  }

  abstract byte[] encodePropose(Propose p);

  abstract Propose decodePropose(byte[] bytes) throws SecioException;

  abstract byte[] encodeExchange(Exchange e);

  abstract Exchange decodeExchange(byte[] bytes) throws SecioException;

  /** What our Propose carries as {@code pubkey}. */
  abstract byte[] proposedKey(IdentityPublicKey key);

  /**
   * The identity key in a peer's Propose.pubkey.
   *
   * @throws SecioException MALFORMED_MESSAGE if it is not a key this dialect carries
   */
  abstract IdentityPublicKey remoteKey(byte[] proposedKey) throws SecioException;

  /** The key bytes the order hashes (docs/PROTOCOL.md section 5). */
  abstract byte[] orderKey(IdentityPublicKey key);
}
