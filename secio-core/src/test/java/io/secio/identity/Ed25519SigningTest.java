package io.secio.identity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.testing.Hex;
import java.security.KeyFactory;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.spec.EdECPrivateKeySpec;
import java.security.spec.NamedParameterSpec;
import java.util.Random;
import java.util.stream.Stream;
import org.bouncycastle.math.ec.rfc8032.Ed25519;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Ed25519 signing is deterministic, so a change of signer must not change one byte: the RFC 8032
 * test vectors, and the JDK's SunEC (the signer before Bouncy Castle) on seeded random keys and
 * messages of many lengths.
 */
class Ed25519SigningTest {

  /** RFC 8032 section 7.1, TEST 1 to 3: secret key, public key, message, signature. */
  static Stream<Arguments> rfc8032() {
    return Stream.of(
        Arguments.of(
            "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
            "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
            "",
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
        Arguments.of(
            "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
            "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
            "72",
            "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
        Arguments.of(
            "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
            "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
            "af82",
            "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"));
  }

  @ParameterizedTest
  @MethodSource("rfc8032")
  void signsTheRfc8032Vectors(String seed, String pub, String message, String signature)
      throws Exception {
    IdentityKeyPair pair = keyPair(Hex.decode(seed), Hex.decode(pub));

    assertArrayEquals(Hex.decode(signature), pair.sign(Hex.decode(message)));
  }

  /** Seeded so that a failure reproduces; the seed is in the test's name. */
  @ParameterizedTest(name = "random seed {0}")
  @ValueSource(longs = {1L, 2L, 3L, 20240601L})
  void signsExactlyAsSunEcDid(long randomSeed) throws Exception {
    Random random = new Random(randomSeed);
    KeyFactory keys = KeyFactory.getInstance("Ed25519", "SunEC");
    for (int length : new int[] {0, 1, 31, 32, 63, 64, 65, 127, 128, 400, 1000}) {
      byte[] seed = new byte[32];
      random.nextBytes(seed);
      byte[] message = new byte[length];
      random.nextBytes(message);
      byte[] pub = new byte[32];
      Ed25519.generatePublicKey(seed, 0, pub, 0);
      Signature sunEc = Signature.getInstance("Ed25519", "SunEC");
      sunEc.initSign(keys.generatePrivate(new EdECPrivateKeySpec(NamedParameterSpec.ED25519, seed)));
      sunEc.update(message);

      assertArrayEquals(sunEc.sign(), keyPair(seed, pub).sign(message),
          "seed " + Hex.encode(seed) + ", message length " + length);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 400})
  void generatedKeySignsDeterministicallyAndOnlyForItsMessage(int length) {
    IdentityKeyPair pair = IdentityKeyPair.generate(KeyType.ED25519, new SecureRandom());
    byte[] message = new byte[length];
    new SecureRandom().nextBytes(message);

    byte[] signature = pair.sign(message);
    assertEquals(64, signature.length);
    assertArrayEquals(signature, pair.sign(message));
    assertTrue(pair.publicKey().verify(message, signature));
    byte[] other = IdentityKeyPair.generate(KeyType.ED25519, new SecureRandom()).sign(message);
    assertFalse(pair.publicKey().verify(message, other));
  }

  /** Through the libp2p PrivateKey protobuf ({@code seed || pub}), as a node loads its key. */
  private static IdentityKeyPair keyPair(byte[] seed, byte[] pub) {
    byte[] data = new byte[64];
    System.arraycopy(seed, 0, data, 0, 32);
    System.arraycopy(pub, 0, data, 32, 32);
    return IdentityKeyPair.fromProtobuf(KeyProtobufs.encode(KeyType.ED25519, data));
  }
}
