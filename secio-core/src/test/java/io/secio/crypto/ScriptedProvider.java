package io.secio.crypto;

import java.security.Provider;
import java.util.function.Supplier;

/**
 * A JCA provider whose services are whatever a test hands it, for the faults no real provider
 * shows: a key of the wrong type or encoding, a secret of the wrong length.
 */
final class ScriptedProvider extends Provider {
  private static final long serialVersionUID = 1L;

  ScriptedProvider() {
    super("Scripted", "1", "services supplied by a test");
  }

  /** Serves {@code type.algorithm} (e.g. KeyPairGenerator.EC) with a new {@code spi} per request. */
  ScriptedProvider with(String type, String algorithm, Supplier<?> spi) {
    putService(new Service(this, type, algorithm, "scripted", null, null) {
      @Override
      public Object newInstance(Object constructorParameter) {
        return spi.get();
      }
    });
    return this;
  }

  /** A profile like Conscrypt's (its own key pairs, XDH for X25519) on this provider alone. */
  JcaProfile profile() {
    return new JcaProfile("scripted", this, "ChaCha20-Poly1305", "XDH", false, true);
  }
}
