package io.secio.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.secio.crypto.BackendKeys;
import io.secio.crypto.CryptoBackend;
import io.secio.protocol.SecioException;
import io.secio.testing.TestBackends;
import io.secio.testing.Vectors;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Project Wycheproof signature vectors, one dynamic test per {@code tcId}, against {@link
 * IdentityPublicKey#verify} with the file's key put into a libp2p {@code PublicKey} protobuf. Every
 * {@code valid} case must be accepted and every {@code invalid} one rejected, except where a comment
 * says otherwise; each {@code acceptable} case gets a decision written next to its file.
 *
 * <p>A key our import refuses counts as rejecting every signature, but a {@code valid} case whose key
 * is refused fails the test.
 */
class WycheproofSignatureTest {
  private static final BigInteger SECP256K1_HALF_ORDER =
      CustomNamedCurves.getByName("secp256k1").getN().shiftRight(1);

  @TestFactory
  Stream<DynamicTest> ed25519() {
    // The file has no acceptable cases.
    return run("ed25519_test.json",
        group -> KeyProtobufs.encode(KeyType.ED25519,
            Vectors.hex(group.getAsJsonObject("publicKey"), "pk")),
        WycheproofSignatureTest::validOnly);
  }

  /**
   * Every signature file straight through each backend that loads here, as a handshake pinned to
   * that backend checks signatures: every backend gives the same verdict on every case.
   */
  @TestFactory
  Stream<DynamicTest> everyFileOnEveryBackend() {
    return TestBackends.all().stream().flatMap(backend -> Stream.of(
        run(backend.name() + " ", "ed25519_test.json",
            group -> KeyProtobufs.encode(KeyType.ED25519,
                Vectors.hex(group.getAsJsonObject("publicKey"), "pk")),
            WycheproofSignatureTest::validOnly, on(backend)),
        run(backend.name() + " ", "ecdsa_secp256k1_sha256_bitcoin_test.json",
            WycheproofSignatureTest::secp256k1Key, WycheproofSignatureTest::validOnly, on(backend)),
        run(backend.name() + " ", "ecdsa_secp256r1_sha256_test.json",
            group -> KeyProtobufs.encode(KeyType.ECDSA, Vectors.hex(group, "publicKeyDer")),
            WycheproofSignatureTest::validOnly, on(backend)),
        // BoringSSL refuses the acceptable MissingNull, which only the key's owner can make; the JDK
        // and Bouncy Castle accept it (see rsa2048 above). The one case where backends differ.
        run(backend.name() + " ", "rsa_signature_2048_sha256_test.json",
            group -> KeyProtobufs.encode(KeyType.RSA, Vectors.hex(group, "publicKeyDer")),
            test -> isAcceptable(test)
                ? flags(test).equals(List.of("MissingNull")) && !backend.name().equals("conscrypt")
                : validOnly(test),
            on(backend)))
        .flatMap(s -> s));
  }

  @TestFactory
  Stream<DynamicTest> secp256k1Bitcoin() {
    // The low-S variant: exactly the libp2p rule, so valid accepted, invalid (incl. high S) rejected.
    return run("ecdsa_secp256k1_sha256_bitcoin_test.json",
        WycheproofSignatureTest::secp256k1Key, WycheproofSignatureTest::validOnly);
  }

  @TestFactory
  Stream<DynamicTest> secp256k1() {
    // Plain ECDSA allows both s and n - s. Our libp2p verifier rejects valid high-S signatures by
    // design (docs/PROTOCOL.md section 3: js-libp2p-secio does), so a valid case is accepted exactly when s <= n/2.
    return run("ecdsa_secp256k1_sha256_test.json",
        WycheproofSignatureTest::secp256k1Key,
        test -> validOnly(test) && !isHighS(Vectors.hex(test, "sig")));
  }

  @Test
  void plainSecp256k1FileExercisesBothSidesOfTheLowSRule() {
    long low = 0;
    long high = 0;
    for (JsonObject test : tests(Vectors.wycheproof("ecdsa_secp256k1_sha256_test.json"))) {
      if (test.get("result").getAsString().equals("valid")) {
        if (isHighS(Vectors.hex(test, "sig"))) {
          high++;
        } else {
          low++;
        }
      }
    }
    assertTrue(low > 0 && high > 0, "valid low-S: " + low + ", valid high-S: " + high);
  }

  @TestFactory
  Stream<DynamicTest> ecdsaP256() {
    // The file has no acceptable cases.
    return run("ecdsa_secp256r1_sha256_test.json",
        group -> KeyProtobufs.encode(KeyType.ECDSA, Vectors.hex(group, "publicKeyDer")),
        WycheproofSignatureTest::validOnly);
  }

  @TestFactory
  Stream<DynamicTest> rsa2048() {
    // The one acceptable case, MissingNull (a DigestInfo without its NULL parameters), is accepted:
    // only the key's owner can make one (no forgery, nothing a third party can re-encode), SunRsaSign
    // accepts it, and libp2p signers always write the NULL, so rejecting it would buy nothing.
    return run("rsa_signature_2048_sha256_test.json",
        group -> KeyProtobufs.encode(KeyType.RSA, Vectors.hex(group, "publicKeyDer")),
        test -> isAcceptable(test) ? flags(test).equals(List.of("MissingNull")) : validOnly(test));
  }

  /** Accept {@code valid}, reject {@code invalid}; a file with acceptable cases decides them itself. */
  private static boolean validOnly(JsonObject test) {
    assertFalse(isAcceptable(test), "an acceptable case nobody has decided on");
    return test.get("result").getAsString().equals("valid");
  }

  private static boolean isAcceptable(JsonObject test) {
    return test.get("result").getAsString().equals("acceptable");
  }

  private static boolean isHighS(byte[] der) {
    BigInteger s = ASN1Integer.getInstance(ASN1Sequence.getInstance(der).getObjectAt(1)).getValue();
    return s.compareTo(SECP256K1_HALF_ORDER) > 0;
  }

  /** Wycheproof gives secp256k1 keys uncompressed; libp2p carries the 33-byte compressed point. */
  private static byte[] secp256k1Key(JsonObject group) {
    byte[] uncompressed = Vectors.hex(group.getAsJsonObject("publicKey"), "uncompressed");
    assertEquals(65, uncompressed.length);
    assertEquals(0x04, uncompressed[0]);
    byte[] compressed = new byte[33];
    compressed[0] = (byte) (0x02 | (uncompressed[64] & 1));
    System.arraycopy(uncompressed, 1, compressed, 1, 32);
    return KeyProtobufs.encode(KeyType.SECP256K1, compressed);
  }

  private static Stream<DynamicTest> run(
      String file, Function<JsonObject, byte[]> keyProtobuf, Predicate<JsonObject> accept) {
    return run("", file, keyProtobuf, accept, WycheproofSignatureTest::throughProtobuf);
  }

  /** Checks one signature; throwing counts as rejecting it. */
  @FunctionalInterface
  private interface Check {
    boolean verify(byte[] message, byte[] signature) throws GeneralSecurityException;
  }

  /** Imports a key from the file's encoding; throwing means the key is refused. */
  @FunctionalInterface
  private interface KeyImport {
    Check load(byte[] key) throws Exception;
  }

  private static Check throughProtobuf(byte[] keyProtobuf) throws SecioException {
    return IdentityPublicKey.fromProtobuf(keyProtobuf)::verify;
  }

  /** The key from its protobuf, checking on {@code backend} as the handshake does. */
  private static KeyImport on(CryptoBackend backend) {
    return keyProtobuf -> {
      BackendKeys.Public key = (BackendKeys.Public) IdentityPublicKey.fromProtobuf(keyProtobuf);
      return (message, signature) -> key.verify(backend, message, signature);
    };
  }

  private static Stream<DynamicTest> run(String prefix, String file, Function<JsonObject, byte[]> key,
      Predicate<JsonObject> accept, KeyImport keyImport) {
    JsonObject vectors = Vectors.wycheproof(file);
    List<DynamicTest> cases = new ArrayList<>();
    for (JsonElement element : vectors.getAsJsonArray("testGroups")) {
      JsonObject group = element.getAsJsonObject();
      byte[] encoded = key.apply(group);
      for (JsonObject test : tests(group)) {
        String name = prefix + "tcId " + test.get("tcId").getAsInt() + " "
            + test.get("result").getAsString() + " " + flags(test) + " "
            + test.get("comment").getAsString();
        cases.add(DynamicTest.dynamicTest(name,
            () -> check(keyImport, encoded, test, accept.test(test))));
      }
    }
    assertEquals(vectors.get("numberOfTests").getAsInt(), cases.size(), file);
    return cases.stream();
  }

  private static void check(KeyImport keyImport, byte[] encoded, JsonObject test,
      boolean expectAccepted) {
    Check verifier;
    try {
      verifier = keyImport.load(encoded);
    } catch (Exception e) {
      if (expectAccepted) {
        fail("key of a case we must accept was refused: " + e.getMessage(), e);
      }
      return;
    }
    boolean accepted;
    try {
      accepted = verifier.verify(Vectors.hex(test, "msg"), Vectors.hex(test, "sig"));
    } catch (GeneralSecurityException | RuntimeException e) {
      accepted = false; // as IdentityPublicKey.verify treats a verifier that throws
    }
    assertEquals(expectAccepted, accepted, expectAccepted ? "must accept" : "must reject");
  }

  private static List<JsonObject> tests(JsonObject vectorsOrGroup) {
    List<JsonObject> out = new ArrayList<>();
    if (vectorsOrGroup.has("testGroups")) {
      for (JsonElement group : vectorsOrGroup.getAsJsonArray("testGroups")) {
        out.addAll(tests(group.getAsJsonObject()));
      }
      return out;
    }
    for (JsonElement test : vectorsOrGroup.getAsJsonArray("tests")) {
      out.add(test.getAsJsonObject());
    }
    return out;
  }

  private static List<String> flags(JsonObject test) {
    return StreamSupport.stream(test.getAsJsonArray("flags").spliterator(), false)
        .map(JsonElement::getAsString)
        .toList();
  }
}
