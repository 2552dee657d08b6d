package io.secio.handshake;

import io.secio.Dialect;
import io.secio.PeerVerifier;
import io.secio.SecioConfig;
import io.secio.SecioObserver;
import io.secio.crypto.CryptoBackend;
import io.secio.crypto.Primitive;
import io.secio.frame.CipherPair;
import io.secio.identity.IdentityKeyPair;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.protocol.SecioException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Objects;

/**
 * Pays, before a node's first connection, what the first handshake in a JVM would otherwise pay
 * inside its {@linkplain SecioConfig#handshakeTimeout() timeout}: loading the handshake's classes and
 * the crypto providers (Conscrypt's native library, Bouncy Castle), and the known-answer self-test
 * each backend runs on a primitive before its first use. In a fresh JVM on a busy machine that first
 * handshake can take seconds (README, "Add it to your build"); call {@link #run} once at start-up,
 * before binding or dialling, and it costs the same there instead.
 *
 * <p>{@link #run} asks the config's backend for every primitive its proposals name (so each is
 * chosen and self-tested now), then, for each dialect the config speaks, runs one whole handshake in
 * memory between an engine of the config's and one of a throw-away peer with an identity of the same
 * type, and seals and opens one frame each way with the keys it yields; the keys are destroyed.
 * Nothing goes over a network, nothing reaches the config's {@link PeerVerifier} or {@link
 * SecioObserver}, no permit is taken from its limiter. It fails where a real handshake with this
 * config would fail for the same local reason: a primitive no backend offers here.
 *
 * <p>Thread-safe: it shares nothing but the config's backend and random source, both thread-safe.
 */
public final class WarmUp {
  /** Ample for a handshake's few messages; a rehearsal that needs more has gone wrong. */
  private static final int MAX_MESSAGES = 16;

  private WarmUp() {}

  /**
   * Loads and self-tests everything a handshake with {@code config} uses, and rehearses one
   * handshake per dialect it speaks, in memory. Idempotent; later calls cost what a handshake does.
   *
   * @throws SecioException if the rehearsal fails as a real handshake would ({@link
   *     SecioException.Reason#UNAVAILABLE}: a primitive no backend offers)
   * @throws IllegalStateException if the backend offers none of the proposed algorithms of a kind
   */
  public static void run(SecioConfig config) throws SecioException {
    run(Objects.requireNonNull(config, "config"), HandshakeEngine.backendOf(config));
  }

  /** As {@link #run(SecioConfig)}, on {@code backend} (tests spy on what is asked of it). */
  static void run(SecioConfig config, CryptoBackend backend) throws SecioException {
    for (ExchangeAlgorithm exchange : config.exchanges()) {
      backend.offers(Primitive.of(exchange));
    }
    for (CipherAlgorithm cipher : config.ciphers()) {
      backend.offers(Primitive.of(cipher));
    }
    for (HashAlgorithm hash : config.hashes()) {
      backend.offers(Primitive.of(hash));
    }
    IdentityKeyPair stranger = IdentityKeyPair.generate(config.identity().type(), config.random());
    for (Dialect dialect : Dialect.values()) {
      if (config.speaks(dialect)) {
        rehearse(config, stranger, dialect, backend);
      }
    }
  }

  /** One handshake of {@code config}'s side against {@code stranger}'s, then a frame each way. */
  private static void rehearse(SecioConfig config, IdentityKeyPair stranger, Dialect dialect,
      CryptoBackend backend) throws SecioException {
    SecioConfig local = config.toBuilder()
        .dialect(dialect)
        .expectedRemotePeer(null)
        .peerVerifier(PeerVerifier.ACCEPT_ALL)
        .observer(SecioObserver.NONE)
        .build();
    SecioConfig remote = local.toBuilder().identity(stranger).build();
    HandshakeEngine ours = HandshakeEngine.create(local, dialect, backend);
    HandshakeEngine theirs = HandshakeEngine.create(remote, dialect, backend);
    Deque<byte[]> toTheirs = new ArrayDeque<>(ours.start());
    Deque<byte[]> toOurs = new ArrayDeque<>(theirs.start());
    for (int messages = 0; !(ours.isComplete() && theirs.isComplete()); messages++) {
      if (messages > MAX_MESSAGES || (toOurs.isEmpty() && toTheirs.isEmpty())) {
        throw new IllegalStateException("the in-memory handshake stopped in " + ours.state()
            + " and " + theirs.state());
      }
      if (!toOurs.isEmpty() && !ours.isComplete()) {
        toTheirs.addAll(ours.receive(toOurs.poll()));
      }
      if (!toTheirs.isEmpty() && !theirs.isComplete()) {
        toOurs.addAll(theirs.receive(toTheirs.poll()));
      }
    }
    CipherPair ourCiphers = ours.split();
    CipherPair theirCiphers = theirs.split();
    try {
      byte[] plaintext = new byte[64];
      if (!Arrays.equals(plaintext, theirCiphers.opener().open(ourCiphers.sealer().seal(plaintext)))
          || !Arrays.equals(plaintext, ourCiphers.opener().open(theirCiphers.sealer().seal(plaintext)))) {
        throw new IllegalStateException("a frame sealed in the in-memory handshake opened differently");
      }
    } finally {
      ourCiphers.destroy();
      theirCiphers.destroy();
    }
  }
}
