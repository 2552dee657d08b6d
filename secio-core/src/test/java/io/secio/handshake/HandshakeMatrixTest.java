package io.secio.handshake;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.SecioMode;
import io.secio.SecioSession;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.testing.TestIdentities;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Two engines in memory for every mode x exchange x cipher x hash x pair of key types: one side
 * proposes its mode's lists, the other only the combination under test, so that it is what gets
 * chosen. Data of every size goes both ways.
 */
class HandshakeMatrixTest {
  private static final int[] SIZES = {0, 1, 15, 16, 17, 64 * 1024};
  private static final long SEED = 0xC0FFEEL;

  @TestFactory
  Stream<DynamicTest> everyCombination() {
    List<DynamicTest> tests = new ArrayList<>();
    for (SecioMode mode : SecioMode.values()) {
      for (ExchangeAlgorithm exchange : mode.exchanges()) {
        for (CipherAlgorithm cipher : mode.ciphers()) {
          for (HashAlgorithm hash : mode.hashes()) {
            for (KeyType a : KeyType.values()) {
              for (KeyType b : KeyType.values()) {
                String name = mode + " " + exchange.wireName() + " " + cipher.wireName() + " "
                    + hash.wireName() + " " + a + "<->" + b;
                tests.add(DynamicTest.dynamicTest(name,
                    () -> check(mode, exchange, cipher, hash, TestIdentities.of(a), TestIdentities.other(b), SIZES)));
              }
            }
          }
        }
      }
    }
    return tests.stream();
  }

  /** The largest frame each cipher may send: just under the 8 MiB limit once the MAC or tag is added. */
  @TestFactory
  Stream<DynamicTest> justUnderTheFrameLimit() {
    List<DynamicTest> tests = new ArrayList<>();
    for (CipherAlgorithm cipher : CipherAlgorithm.values()) {
      for (HashAlgorithm hash : HashAlgorithm.values()) {
        int overhead = cipher.isAead() ? CipherAlgorithm.TAG_SIZE_IN_BYTES : hash.macSizeInBytes();
        int size = SecioConfig.DEFAULT_MAX_FRAME_LENGTH_IN_BYTES - overhead;
        tests.add(DynamicTest.dynamicTest(cipher.wireName() + " " + hash.wireName(),
            () -> check(SecioMode.BRIDGE, ExchangeAlgorithm.P_256, cipher, hash,
                TestIdentities.of(KeyType.ED25519), TestIdentities.other(KeyType.ED25519), new int[] {size})));
      }
    }
    return tests.stream();
  }

  private static void check(SecioMode mode, ExchangeAlgorithm exchange, CipherAlgorithm cipher,
      HashAlgorithm hash, IdentityKeyPair a, IdentityKeyPair b, int[] sizes) throws Exception {
    SecioConfig configA = SecioConfig.builder(a).mode(mode).build();
    SecioConfig configB = SecioConfig.builder(b).mode(mode)
        .exchanges(List.of(exchange)).ciphers(List.of(cipher)).hashes(List.of(hash)).build();
    InMemoryHandshake h =
        new InMemoryHandshake(HandshakeEngine.create(configA), HandshakeEngine.create(configB)).run();
    assertNull(h.failureA);
    assertNull(h.failureB);
    SecioSession sa = h.sessionA();
    SecioSession sb = h.sessionB();
    for (SecioSession s : List.of(sa, sb)) {
      assertEquals(exchange, s.exchange());
      assertEquals(cipher, s.cipher());
      assertEquals(hash, s.hash());
      assertEquals(cipher.version(), s.version());
    }
    assertEquals(Dialect.LIBP2P.peerId(b.publicKey()), sa.remotePeerId());
    assertEquals(Dialect.LIBP2P.peerId(a.publicKey()), sb.remotePeerId());
    assertEquals(b.publicKey(), sa.remotePublicKey());
    assertTrue(sa.isLocalPreferred() != sb.isLocalPreferred());
    Random random = new Random(SEED);
    for (int size : sizes) {
      byte[] data = new byte[size];
      random.nextBytes(data);
      byte[] ab = h.ciphersA().sealer().seal(data);
      assertTrue(ab.length <= SecioConfig.DEFAULT_MAX_FRAME_LENGTH_IN_BYTES);
      assertArrayEquals(data, h.ciphersB().opener().open(ab), "A->B " + size);
      byte[] ba = h.ciphersB().sealer().seal(data);
      assertArrayEquals(data, h.ciphersA().opener().open(ba), "B->A " + size);
    }
    h.ciphersA().destroy();
    h.ciphersB().destroy();
  }
}
