package io.secio.identity;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.secio.proto.Keys;
import io.secio.protocol.SecioException;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;

/**
 * The translation between identity keys and the libp2p {@code PublicKey} / {@code PrivateKey}
 * protobufs (docs/PROTOCOL.md section 3): the one class in this package that sees generated code. Each key type's
 * cryptography sits in its own {@link KeyScheme}. Stateless and thread-safe.
 */
final class IdentityKeys {
  /** Signed by every imported private key, to prove that it matches its public key. */
  private static final byte[] CONSISTENCY_MESSAGE =
      "secio identity key consistency check".getBytes(StandardCharsets.US_ASCII);

  private IdentityKeys() {}

  static IdentityPublicKey publicKeyFromProtobuf(byte[] encoded) throws SecioException {
    Objects.requireNonNull(encoded, "encoded");
    Keys.PublicKey message;
    try {
      message = Keys.PublicKey.parseFrom(encoded);
    } catch (InvalidProtocolBufferException e) {
      // Also an unknown key type: proto2 enums are closed, so the required Type goes missing.
      throw new SecioException(SecioException.Reason.MALFORMED_MESSAGE, "not a PublicKey protobuf", e);
    }
    // The peer id hashes these exact bytes while go-libp2p hashes its own re-encoding: accepting
    // only the canonical encoding (no unknown fields either) keeps both sides on the same id.
    if (!Arrays.equals(publicProtobuf(message.getType(), message.getData()), encoded)) {
      throw new SecioException(
          SecioException.Reason.MALFORMED_MESSAGE, "PublicKey protobuf is not canonically encoded");
    }
    KeyType type = KeyType.fromNumber(message.getType().getNumber())
        .orElseThrow(() -> new SecioException(
            SecioException.Reason.MALFORMED_MESSAGE, "unknown key type"));
    try {
      byte[] data = message.getData().toByteArray();
      return new Libp2pPublicKey(type, encoded, data, scheme(type).publicKey(data));
    } catch (InvalidKeyException e) {
      throw new SecioException(SecioException.Reason.MALFORMED_MESSAGE, e.getMessage(), e);
    }
  }

  /** The secp256k1 key of a compressed point, as the protobuf a libp2p peer would send for it. */
  static IdentityPublicKey secp256k1PublicKey(byte[] compressedPoint) throws SecioException {
    Objects.requireNonNull(compressedPoint, "compressedPoint");
    return publicKeyFromProtobuf(
        publicProtobuf(Keys.KeyType.Secp256k1, ByteString.copyFrom(compressedPoint)));
  }

  static IdentityKeyPair generate(KeyType type, SecureRandom random) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(random, "random");
    try {
      return keyPair(type, scheme(type).generate(random));
    } catch (InvalidKeyException e) {
      throw new IllegalStateException("generated " + type + " key does not validate", e);
    }
  }

  static IdentityKeyPair privateKeyFromProtobuf(byte[] encoded) {
    Objects.requireNonNull(encoded, "encoded");
    Keys.PrivateKey message;
    try {
      message = Keys.PrivateKey.parseFrom(encoded);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("not a PrivateKey protobuf", e);
    }
    KeyType type = KeyType.fromNumber(message.getType().getNumber())
        .orElseThrow(() -> new IllegalArgumentException("unknown key type"));
    byte[] data = message.getData().toByteArray();
    IdentityKeyPair pair;
    try {
      pair = keyPair(type, scheme(type).privateKey(data));
    } catch (InvalidKeyException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    } finally {
      Arrays.fill(data, (byte) 0);
    }
    checkConsistent(pair);
    return pair;
  }

  /** Refuses a stored key whose parts disagree (an RSA key with a wrong CRT value signs garbage). */
  private static void checkConsistent(IdentityKeyPair pair) {
    boolean consistent;
    try {
      consistent = pair.publicKey().verify(CONSISTENCY_MESSAGE, pair.sign(CONSISTENCY_MESSAGE));
    } catch (IllegalStateException e) {
      consistent = false; // SunRsaSign's own check of its CRT result tripped
    }
    if (!consistent) {
      throw new IllegalArgumentException(pair.type() + " private key does not match its public key");
    }
  }

  private static IdentityKeyPair keyPair(KeyType type, KeyScheme.SigningKey key)
      throws InvalidKeyException {
    Keys.KeyType protoType = Keys.KeyType.forNumber(type.number());
    byte[] publicProtobuf = publicProtobuf(protoType, ByteString.copyFrom(key.publicData()));
    byte[] privateProtobuf = Keys.PrivateKey.newBuilder()
        .setType(protoType)
        .setData(ByteString.copyFrom(key.privateData()))
        .build()
        .toByteArray();
    // The protobuf is the only copy kept of the bytes; the backends import key.privateSpec().
    Arrays.fill(key.privateData(), (byte) 0);
    IdentityPublicKey publicKey =
        new Libp2pPublicKey(
            type, publicProtobuf, key.publicData(), scheme(type).publicKey(key.publicData()));
    IdentityKeyPair pair = new Libp2pKeyPair(publicKey, privateProtobuf, key);
    Arrays.fill(privateProtobuf, (byte) 0);
    return pair;
  }

  private static byte[] publicProtobuf(Keys.KeyType type, ByteString data) {
    return Keys.PublicKey.newBuilder().setType(type).setData(data).build().toByteArray();
  }

  private static KeyScheme scheme(KeyType type) {
    return switch (type) {
      case RSA -> RsaIdentity.INSTANCE;
      case ED25519 -> Ed25519Identity.INSTANCE;
      case SECP256K1 -> Secp256k1Identity.INSTANCE;
      case ECDSA -> EcdsaIdentity.INSTANCE;
    };
  }
}
