package io.secio.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.secio.protocol.CipherAlgorithm;
import io.secio.testing.TestBackends;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** A destroyed AEAD of every backend refuses to work and holds no key array with a non-zero byte. */
class AeadKeyDestructionTest {

  @TestFactory
  Stream<DynamicTest> destroyedAeadIsZeroedAndRefusesWork() {
    List<DynamicTest> tests = new ArrayList<>();
    for (CipherAlgorithm cipher : CipherAlgorithm.values()) {
      if (!cipher.isAead()) {
        continue;
      }
      for (CryptoBackend backend : TestBackends.offering(Primitive.of(cipher))) {
        tests.add(DynamicTest.dynamicTest(cipher.wireName() + " on " + backend.name(),
            () -> check(backend, cipher)));
      }
    }
    return tests.stream();
  }

  private static void check(CryptoBackend backend, CipherAlgorithm cipher) throws Exception {
    byte[] key = new byte[cipher.keySizeInBytes()];
    Arrays.fill(key, (byte) 0x5a);
    JcaAead aead = (JcaAead) backend.newAead(cipher, key);
    byte[] nonce = new byte[JcaAead.NONCE_SIZE_IN_BYTES];
    nonce[0] = 1;
    ByteBuffer sealed = ByteBuffer.allocate(3 + aead.tagSizeInBytes());
    aead.seal(nonce, ByteBuffer.wrap(new byte[] {1, 2, 3}), sealed);
    List<byte[]> owned = aead.ownedKeyArrays();
    assertFalse(owned.isEmpty());
    assertArrayEquals(key, owned.get(0), "the key is held until destroyed");

    aead.destroy();

    for (byte[] array : owned) {
      assertEquals(0, nonZeroBytes(array), "owned key array zeroed");
    }
    nonce[0] = 2;
    assertThrows(IllegalStateException.class,
        () -> aead.seal(nonce, ByteBuffer.wrap(new byte[] {1}), ByteBuffer.allocate(64)));
    sealed.flip();
    assertThrows(IllegalStateException.class,
        () -> aead.open(nonce, sealed, ByteBuffer.allocate(64)));
    aead.destroy(); // idempotent
  }

  private static int nonZeroBytes(byte[] array) {
    int n = 0;
    for (byte b : array) {
      n += b != 0 ? 1 : 0;
    }
    return n;
  }
}
