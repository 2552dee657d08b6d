package io.secio.identity;

import io.secio.SecioException;
import java.security.SecureRandom;

/** Encoding, decoding and generation of identity keys. STUB: to be replaced by the real implementation. */
final class IdentityKeys {
  private IdentityKeys() {}

  static IdentityPublicKey publicKeyFromProtobuf(byte[] encoded) throws SecioException {
    throw new UnsupportedOperationException("not yet");
  }

  static IdentityKeyPair generate(KeyType type, SecureRandom random) {
    throw new UnsupportedOperationException("not yet");
  }

  static IdentityKeyPair privateKeyFromProtobuf(byte[] encoded) {
    throw new UnsupportedOperationException("not yet");
  }
}
