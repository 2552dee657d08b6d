package io.secio.crypto;

import java.security.PrivateKey;
import javax.security.auth.DestroyFailedException;
import javax.security.auth.Destroyable;

/** Wiping provider key objects where the provider can. */
final class PrivateKeys {
  /**
   * Whether a key class has a {@code destroy()} of its own. Most (Conscrypt's, SunEC's) keep {@link
   * Destroyable}'s default, which only throws: calling it would cost an exception and its stack trace
   * per key and wipe nothing.
   */
  private static final ClassValue<Boolean> CAN_DESTROY = new ClassValue<>() {
    @Override
    protected Boolean computeValue(Class<?> type) {
      try {
        return type.getMethod("destroy").getDeclaringClass() != Destroyable.class;
      } catch (NoSuchMethodException e) {
        return false;
      }
    }
  };

  private PrivateKeys() {}

  /** Whether keys of {@code type} have a {@code destroy()} that may wipe them. */
  static boolean canDestroy(Class<?> type) {
    return CAN_DESTROY.get(type);
  }

  /** Destroys {@code key} if its class can; otherwise dropping the reference is all anyone can do. */
  static void destroy(PrivateKey key) {
    if (!canDestroy(key.getClass())) {
      return;
    }
    try {
      key.destroy();
    } catch (DestroyFailedException | RuntimeException e) {
      // The provider could not wipe this one; the reference is dropped all the same.
    }
  }
}
