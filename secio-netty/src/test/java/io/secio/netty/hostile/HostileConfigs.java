package io.secio.netty.hostile;

import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.testing.TestIdentities;
import java.time.Duration;

/** Identities and configs of the hostile tests: short handshake timeouts so that timeouts are quick. */
public final class HostileConfigs {
  /** The handshake timeout of every node under attack here. */
  public static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(2);
  /** How long a blocking read of the hostile peer waits. */
  public static final Duration READ_TIMEOUT = Duration.ofMinutes(5);
  /** Bound on any wait for an outcome; far above the handshake timeout, so it only catches hangs. */
  public static final long WAIT_SECONDS = 300;

  private HostileConfigs() {}

  /** The real node under test (listener or dialer). */
  public static IdentityKeyPair nodeIdentity() {
    return TestIdentities.other(KeyType.ED25519);
  }

  /** The hostile peer. */
  public static IdentityKeyPair peerIdentity() {
    return TestIdentities.of(KeyType.ED25519);
  }

  /** The node's config: bridge mode (every exchange and cipher), the short timeout. */
  public static SecioConfig.Builder node() {
    return SecioConfig.builder(nodeIdentity()).handshakeTimeout(HANDSHAKE_TIMEOUT);
  }
}
