package io.secio.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.PrivateKey;
import javax.security.auth.DestroyFailedException;
import org.junit.jupiter.api.Test;

/** Wiping provider keys: done where a key class can, skipped (and silent) where it cannot. */
class PrivateKeysTest {
  @Test
  void aKeyThatCanBeDestroyedIsDestroyed() {
    WipeableKey key = new WipeableKey();

    PrivateKeys.destroy(key);

    assertTrue(key.isDestroyed());
  }

  @Test
  void aKeyWithoutItsOwnDestroyIsLeftAloneQuietly() {
    DefaultKey key = new DefaultKey();

    PrivateKeys.destroy(key);

    assertFalse(PrivateKeys.canDestroy(DefaultKey.class), "Destroyable's default only throws");
    assertTrue(PrivateKeys.canDestroy(WipeableKey.class));
    assertFalse(key.isDestroyed());
  }

  @Test
  void aKeyWhoseDestroyFailsIsDroppedQuietly() {
    FailingKey key = new FailingKey();

    PrivateKeys.destroy(key);

    assertEquals(1, key.destroyCalls);
  }

  private abstract static class TestKey implements PrivateKey {
    @Override
    public String getAlgorithm() {
      return "TEST";
    }

    @Override
    public String getFormat() {
      return null;
    }

    @Override
    public byte[] getEncoded() {
      return null;
    }
  }

  private static final class WipeableKey extends TestKey {
    private boolean destroyed;

    @Override
    public void destroy() {
      destroyed = true;
    }

    @Override
    public boolean isDestroyed() {
      return destroyed;
    }
  }

  /** No destroy() of its own: Destroyable's default applies. */
  private static final class DefaultKey extends TestKey {}

  private static final class FailingKey extends TestKey {
    int destroyCalls;

    @Override
    public void destroy() throws DestroyFailedException {
      destroyCalls++;
      throw new DestroyFailedException("cannot");
    }
  }
}
