package io.secio.testing;

import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import java.security.SecureRandom;
import java.util.EnumMap;
import java.util.Map;

/** Identity keys for tests, generated once per JVM and type (RSA generation is slow). */
public final class TestIdentities {
  private static final Map<KeyType, IdentityKeyPair> FIRST = new EnumMap<>(KeyType.class);
  private static final Map<KeyType, IdentityKeyPair> SECOND = new EnumMap<>(KeyType.class);

  private TestIdentities() {}

  /** A key of this type, the same one every call. */
  public static synchronized IdentityKeyPair of(KeyType type) {
    return FIRST.computeIfAbsent(type, t -> IdentityKeyPair.generate(t, new SecureRandom()));
  }

  /** Another key of this type, different from {@link #of}. */
  public static synchronized IdentityKeyPair other(KeyType type) {
    return SECOND.computeIfAbsent(type, t -> IdentityKeyPair.generate(t, new SecureRandom()));
  }

  /** The Ed25519 key of a 32-byte seed, through the libp2p PrivateKey protobuf (seed || pub). */
  public static IdentityKeyPair ed25519FromSeed(byte[] seed, byte[] publicKeyProtobuf) {
    // PublicKey protobuf = 08 01 12 20 || pub; PrivateKey protobuf = 08 01 12 40 || seed || pub.
    byte[] privateKey = new byte[4 + 64];
    privateKey[0] = 0x08;
    privateKey[1] = 0x01;
    privateKey[2] = 0x12;
    privateKey[3] = 0x40;
    System.arraycopy(seed, 0, privateKey, 4, 32);
    System.arraycopy(publicKeyProtobuf, 4, privateKey, 36, 32);
    return IdentityKeyPair.fromProtobuf(privateKey);
  }

  /** The secp256k1 key of a 32-byte scalar, through the libp2p PrivateKey protobuf (08 02 12 20 || d). */
  public static IdentityKeyPair secp256k1(byte[] scalar) {
    byte[] privateKey = new byte[4 + 32];
    privateKey[0] = 0x08;
    privateKey[1] = 0x02;
    privateKey[2] = 0x12;
    privateKey[3] = 0x20;
    System.arraycopy(scalar, 0, privateKey, 4, 32);
    return IdentityKeyPair.fromProtobuf(privateKey);
  }
}
