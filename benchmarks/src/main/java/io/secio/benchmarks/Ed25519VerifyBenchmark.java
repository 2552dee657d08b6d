package io.secio.benchmarks;

import io.secio.crypto.CryptoBackend;
import io.secio.crypto.CryptoBackends;
import io.secio.crypto.Ed25519KeySpecs;
import io.secio.crypto.Primitive;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.math.ec.rfc8032.Ed25519;
import org.conscrypt.Conscrypt;
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

/**
 * What the one Ed25519 rule (the cofactored equation on every backend, docs/PROTOCOL.md section 3.1)
 * costs per verification, against the provider's plain cofactorless check. {@code honest}: a valid
 * signature, accepted by the provider, so the rule adds nothing. {@code forged}: a signature with one
 * bit flipped, which the provider refuses and the rule then hands to Bouncy Castle's cofactored
 * check: the price of a bad signature. {@code nativeOnly}: the provider's own verdict on the honest
 * signature, without the seam, importing the key per call as the seam does (for {@code
 * bouncycastle}, its cofactored check itself).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class Ed25519VerifyBenchmark {
  /** Roughly what a secio transcript signs: two Propose messages and an ephemeral key. */
  private static final int SIGNED_MESSAGE_SIZE_IN_BYTES = 400;
  private static final byte[] PUBLIC_KEY_INFO_PREFIX = HexFormat.of().parseHex("302a300506032b6570032100");

  @Param({"conscrypt", "jdk", "bouncycastle"})
  String backend;

  private CryptoBackend crypto;
  private Ed25519KeySpecs.Public key;
  private byte[] message;
  private byte[] signature;
  private byte[] forged;
  private byte[] keyInfo;
  private String nativeAlgorithm;
  private Provider provider;

  @Setup
  public void setUp() throws GeneralSecurityException {
    crypto = CryptoBackends.named(backend).orElseThrow();
    SecureRandom random = new SecureRandom();
    byte[] seed = new byte[32];
    random.nextBytes(seed);
    byte[] pub = new byte[32];
    Ed25519.generatePublicKey(seed, 0, pub, 0);
    key = new Ed25519KeySpecs.Public(pub, Ed25519.validatePublicKeyPartialExport(pub, 0));
    message = new byte[SIGNED_MESSAGE_SIZE_IN_BYTES];
    random.nextBytes(message);
    signature = new byte[64];
    Ed25519.sign(seed, 0, message, 0, message.length, signature, 0);
    forged = signature.clone();
    forged[40] ^= 0x01;
    if (!backend.equals("bouncycastle")) {
      nativeAlgorithm = backend.equals("conscrypt") ? "EdDSA" : "Ed25519";
      provider = backend.equals("conscrypt") ? Conscrypt.newProvider() : null;
      keyInfo = Arrays.copyOf(PUBLIC_KEY_INFO_PREFIX, PUBLIC_KEY_INFO_PREFIX.length + 32);
      System.arraycopy(pub, 0, keyInfo, PUBLIC_KEY_INFO_PREFIX.length, 32);
    }
    if (!honest() || forged()) {
      throw new IllegalStateException("the rule gives the wrong verdict on " + backend);
    }
  }

  @Benchmark
  public boolean honest() throws GeneralSecurityException {
    return crypto.verify(Primitive.ED25519, key, message, signature);
  }

  @Benchmark
  public boolean forged() throws GeneralSecurityException {
    return crypto.verify(Primitive.ED25519, key, message, forged);
  }

  @Benchmark
  public boolean nativeOnly() throws GeneralSecurityException {
    if (keyInfo == null) {
      return Ed25519.verify(signature, 0, key.point(), message, 0, message.length);
    }
    PublicKey nativeKey = keyFactory().generatePublic(new X509EncodedKeySpec(keyInfo));
    Signature verifier = signature();
    verifier.initVerify(nativeKey);
    verifier.update(message);
    return verifier.verify(signature);
  }

  private KeyFactory keyFactory() throws GeneralSecurityException {
    return provider != null
        ? KeyFactory.getInstance(nativeAlgorithm, provider)
        : KeyFactory.getInstance(nativeAlgorithm);
  }

  private Signature signature() throws GeneralSecurityException {
    return provider != null
        ? Signature.getInstance(nativeAlgorithm, provider)
        : Signature.getInstance(nativeAlgorithm);
  }
}
