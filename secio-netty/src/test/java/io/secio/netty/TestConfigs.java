package io.secio.netty;

import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.testing.TestIdentities;

/** Two distinct Ed25519 nodes for tests. */
final class TestConfigs {
  private TestConfigs() {}

  static IdentityKeyPair clientIdentity() {
    return TestIdentities.of(KeyType.ED25519);
  }

  static IdentityKeyPair serverIdentity() {
    return TestIdentities.other(KeyType.ED25519);
  }

  static SecioConfig.Builder client() {
    return SecioConfig.builder(clientIdentity());
  }

  static SecioConfig.Builder server() {
    return SecioConfig.builder(serverIdentity());
  }
}
