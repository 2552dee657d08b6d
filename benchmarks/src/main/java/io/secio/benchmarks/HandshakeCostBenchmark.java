package io.secio.benchmarks;

import io.secio.SecioConfig;
import io.secio.crypto.BackendKeys;
import io.secio.crypto.CryptoBackend;
import io.secio.crypto.CryptoBackends;
import io.secio.crypto.EphemeralKeyPair;
import io.secio.frame.cipher.FrameCiphers;
import io.secio.frame.cipher.KeyStretcher;
import io.secio.handshake.HandshakeEngine;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.IdentityPublicKey;
import io.secio.identity.KeyType;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.protocol.SecioException;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.math.ec.rfc8032.Ed25519;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What one side of a handshake costs in primitives, on the default backend (or the one the {@code
 * backend} parameters name): an ephemeral key, the
 * key agreement, one identity signature and one verification, key stretching with the frame ciphers'
 * setup. Their sum is the floor of one side's CPU time, so {@code 1 / sum} handshakes per second is
 * what the primitives allow on one core (the two sides of a loopback handshake run on two).
 * {@link #engines} is both sides' whole handshake in memory, without I/O.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HandshakeCostBenchmark {
  /** Roughly what a secio transcript signs: two Propose messages and an ephemeral key. */
  private static final int SIGNED_MESSAGE_SIZE_IN_BYTES = 400;
  private static final CipherAlgorithm CIPHER = CipherAlgorithm.AES_128_GCM;

  @State(Scope.Thread)
  public static class Exchange {
    @Param({"P_256", "X25519"})
    ExchangeAlgorithm exchange;

    /** {@code auto} (the default backend), or one backend by name to compare them. */
    @Param({"auto"})
    String backend;

    final SecureRandom random = new SecureRandom();
    CryptoBackend crypto;
    EphemeralKeyPair local;
    byte[] remotePublicKey;

    @Setup
    public void setUp() throws GeneralSecurityException {
      crypto = backend(backend);
      local = crypto.generateEphemeral(exchange, random);
      remotePublicKey = crypto.generateEphemeral(exchange, random).publicKey();
    }
  }

  @State(Scope.Thread)
  public static class Identity {
    @Param({"ED25519", "SECP256K1"})
    KeyType identity;

    /** Distinct keys, messages and signatures, taken in turn (see {@link #next}). */
    @Param({"64"})
    int inputs;

    /** {@code auto} (the default backend), or one backend by name: where sign and verify run. */
    @Param({"auto"})
    String backend;

    CryptoBackend crypto;

    IdentityKeyPair[] keys;
    IdentityPublicKey[] publicKeys;
    byte[][] publicKeyProtobufs;
    byte[][] messages;
    byte[][] signatures;
    int index;

    @Setup
    public void setUp() {
      crypto = backend(backend);
      SecureRandom random = new SecureRandom();
      keys = new IdentityKeyPair[inputs];
      publicKeys = new IdentityPublicKey[inputs];
      publicKeyProtobufs = new byte[inputs][];
      messages = new byte[inputs][SIGNED_MESSAGE_SIZE_IN_BYTES];
      signatures = new byte[inputs][];
      for (int i = 0; i < inputs; i++) {
        keys[i] = IdentityKeyPair.generate(identity, random);
        publicKeys[i] = keys[i].publicKey();
        publicKeyProtobufs[i] = publicKeys[i].toProtobuf();
        random.nextBytes(messages[i]);
        signatures[i] = keys[i].sign(messages[i]);
      }
    }

    /**
     * The next input. A handshake never signs or checks the same bytes twice; one fixed input
     * would let the branch predictor learn the variable-time code's path and flatter the bound.
     */
    int next() {
      index = index + 1 == inputs ? 0 : index + 1;
      return index;
    }
  }

  @State(Scope.Thread)
  public static class Secret {
    final CryptoBackend backend = CryptoBackends.defaultBackend();
    final byte[] secret = new byte[32];
  }

  @State(Scope.Thread)
  public static class Engines {
    @Param({"P_256:ED25519", "P_256:SECP256K1", "X25519:ED25519", "X25519:SECP256K1"})
    String handshake;

    SecioConfig a;
    SecioConfig b;

    @Setup
    public void setUp() {
      String[] parts = handshake.split(":");
      KeyType type = KeyType.valueOf(parts[1]);
      List<ExchangeAlgorithm> exchange = List.of(ExchangeAlgorithm.valueOf(parts[0]));
      List<CipherAlgorithm> cipher = List.of(CIPHER);
      a = SecioConfig.builder(IdentityKeyPair.generate(type, new SecureRandom()))
          .exchanges(exchange).ciphers(cipher).build();
      b = SecioConfig.builder(IdentityKeyPair.generate(type, new SecureRandom()))
          .exchanges(exchange).ciphers(cipher).build();
    }
  }

  @Benchmark
  public byte[] generateEphemeral(Exchange s) throws GeneralSecurityException {
    EphemeralKeyPair pair = s.crypto.generateEphemeral(s.exchange, s.random);
    byte[] publicKey = pair.publicKey();
    pair.destroy();
    return publicKey;
  }

  @Benchmark
  public byte[] agree(Exchange s) throws GeneralSecurityException {
    return s.local.agree(s.remotePublicKey);
  }

  /** {@code auto} is the default backend; any other value names one. */
  static CryptoBackend backend(String name) {
    return name.equals("auto") ? CryptoBackends.defaultBackend() : CryptoBackends.named(name).orElseThrow();
  }

  @Benchmark
  public byte[] sign(Identity s) throws GeneralSecurityException {
    int i = s.next();
    return ((BackendKeys.Private) s.keys[i]).sign(s.crypto, s.messages[i]);
  }

  /**
   * A signature check under a key just received, as a handshake does it: the peer's key is parsed
   * and validated (for Ed25519 canonical, on the curve and not of small order, for
   * secp256k1 that it is on the curve), then the signature verified. An Ed25519 key that passed is
   * remembered (1,024 keys): with the default 64 {@code inputs} this is a peer met again, with 2048
   * every key is new to the node.
   */
  @Benchmark
  public boolean verify(Identity s) throws SecioException {
    int i = s.next();
    return ((BackendKeys.Public) IdentityPublicKey.fromProtobuf(s.publicKeyProtobufs[i]))
        .verify(s.crypto, s.messages[i], s.signatures[i]);
  }

  /** The signature check alone, under a key parsed once. */
  @Benchmark
  public boolean verifyParsedKey(Identity s) throws SecioException {
    int i = s.next();
    return ((BackendKeys.Public) s.publicKeys[i]).verify(s.crypto, s.messages[i], s.signatures[i]);
  }

  /** 64 distinct Ed25519 public keys, for the cost of checking one from a peer met for the first time. */
  @State(Scope.Thread)
  public static class Ed25519Keys {
    /**
     * {@code full}: canonical, on the curve, in the prime-order subgroup (what the library once did,
     * and what it no longer needs); {@code smallOrder}: canonical, on the curve, not one of the eight points of small
     * order (Bouncy Castle's partial check, what the library does for a key it has not met), for
     * docs/PROTOCOL.md section 3.1.
     */
    @Param({"full", "smallOrder"})
    String check;

    final byte[][] keys = new byte[64][32];
    int index;

    @Setup
    public void setUp() {
      SecureRandom random = new SecureRandom();
      for (byte[] key : keys) {
        byte[] seed = new byte[32];
        random.nextBytes(seed);
        Ed25519.generatePublicKey(seed, 0, key, 0);
      }
      byte[] neutral = new byte[32];
      neutral[0] = 1;
      if (Ed25519.validatePublicKeyPartialExport(neutral, 0) != null) {
        throw new IllegalStateException("the small-order check accepts the neutral element");
      }
    }
  }

  @Benchmark
  public Object checkEd25519Key(Ed25519Keys s) {
    s.index = (s.index + 1) % s.keys.length;
    byte[] key = s.keys[s.index];
    return s.check.equals("full")
        ? Ed25519.validatePublicKeyFullExport(key, 0)
        : Ed25519.validatePublicKeyPartialExport(key, 0);
  }

  @Benchmark
  public void stretchAndKeyCiphers(Secret s, Blackhole blackhole) throws GeneralSecurityException {
    KeyStretcher.StretchedKeys keys =
        KeyStretcher.stretch(CIPHER, HashAlgorithm.SHA256, s.secret);
    blackhole.consume(FrameCiphers.sealer(s.backend, CIPHER, HashAlgorithm.SHA256, keys.k1()));
    blackhole.consume(FrameCiphers.opener(s.backend, CIPHER, HashAlgorithm.SHA256, keys.k2()));
    keys.destroy();
  }

  @Benchmark
  public Object engines(Engines s) throws GeneralSecurityException {
    HandshakeEngine a = HandshakeEngine.create(s.a);
    HandshakeEngine b = HandshakeEngine.create(s.b);
    Queue<byte[]> toA = new ArrayDeque<>(b.start());
    Queue<byte[]> toB = new ArrayDeque<>(a.start());
    while (!(a.isComplete() && b.isComplete())) {
      if (!toA.isEmpty()) {
        toB.addAll(a.receive(toA.remove()));
      }
      if (!toB.isEmpty()) {
        toA.addAll(b.receive(toB.remove()));
      }
    }
    return a.session();
  }
}
