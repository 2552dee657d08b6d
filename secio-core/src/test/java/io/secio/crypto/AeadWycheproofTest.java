package io.secio.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.secio.protocol.CipherAlgorithm;
import io.secio.testing.Vectors;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Project Wycheproof AES-GCM and ChaCha20-Poly1305 vectors on every backend that offers the
 * primitive, one dynamic test per backend and tcId.
 *
 * <p>Routing: a vector with a 96-bit nonce, a 128-bit tag, no associated data and a key size secio
 * uses goes through {@link AeadCipher}, the code path frames use (heap buffers for odd tcIds, direct
 * buffers for even ones). Every other vector (associated data, AES-192, other nonce sizes) goes
 * through the same backend's own JCA {@link Cipher} for the same transformation.
 *
 * <p>Scope: secio only ever uses 96-bit nonces. A provider that refuses a <em>valid</em> vector's
 * non-96-bit nonce when the cipher is initialised (BoringSSL's AEAD API takes 96-bit nonces only) is
 * a correct refusal (no output is produced); if it accepts the nonce, the output must be exact. The same holds for AES-192 keys, which Conscrypt refuses and secio never uses. An <em>invalid</em> vector is always rejected: an invalid nonce by an exception at
 * init or doFinal, a modified tag by {@link AEADBadTagException}.
 */
class AeadWycheproofTest {
  private static final int SECIO_NONCE_SIZE_IN_BITS = 96;
  private static final int SECIO_TAG_SIZE_IN_BITS = 128;

  @TestFactory
  Stream<DynamicTest> aesGcm() {
    return vectors(Primitive.AES_GCM, "aes_gcm_test.json");
  }

  @TestFactory
  Stream<DynamicTest> chacha20Poly1305() {
    return vectors(Primitive.CHACHA20_POLY1305, "chacha20_poly1305_test.json");
  }

  private static Stream<DynamicTest> vectors(Primitive primitive, String file) {
    JsonObject suite = WycheproofFiles.suite(file);
    List<DynamicTest> tests = new ArrayList<>();
    for (JcaBackend backend : TestBackends.offering(primitive)) {
      for (JsonElement g : suite.getAsJsonArray("testGroups")) {
        JsonObject group = g.getAsJsonObject();
        for (JsonElement t : group.getAsJsonArray("tests")) {
          JsonObject test = t.getAsJsonObject();
          String name = backend.name() + " tcId " + test.get("tcId").getAsInt() + " ("
              + test.get("result").getAsString() + " " + test.get("flags") + ")";
          tests.add(TestBackends.test(name, () -> run(backend, primitive, group, test)));
        }
      }
    }
    return tests.stream();
  }

  private static void run(JcaBackend backend, Primitive primitive, JsonObject group, JsonObject test)
      throws GeneralSecurityException {
    byte[] key = Vectors.hex(test, "key");
    byte[] aad = Vectors.hex(test, "aad");
    Optional<CipherAlgorithm> secio = secioCipher(primitive, key.length);
    if (group.get("ivSize").getAsInt() == SECIO_NONCE_SIZE_IN_BITS
        && group.get("tagSize").getAsInt() == SECIO_TAG_SIZE_IN_BITS
        && aad.length == 0
        && secio.isPresent()) {
      throughAeadCipher(backend, secio.get(), test, key, test.get("tcId").getAsInt() % 2 == 0);
    } else {
      throughJca(backend, primitive, group, test, key, aad);
    }
  }

  /** The secio cipher with this primitive and key size; AES-192 is none. */
  private static Optional<CipherAlgorithm> secioCipher(Primitive primitive, int keySizeInBytes) {
    for (CipherAlgorithm c : CipherAlgorithm.values()) {
      if (c.isAead() && Primitive.of(c) == primitive && c.keySizeInBytes() == keySizeInBytes) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  private static void throughAeadCipher(JcaBackend backend, CipherAlgorithm cipher,
      JsonObject test, byte[] key, boolean direct) throws GeneralSecurityException {
    byte[] nonce = Vectors.hex(test, "iv");
    byte[] msg = Vectors.hex(test, "msg");
    byte[] sealed = concat(Vectors.hex(test, "ct"), Vectors.hex(test, "tag"));
    AeadCipher aead = backend.newAead(cipher, key);
    String result = test.get("result").getAsString();
    if (result.equals("valid")) {
      ByteBuffer out = allocate(sealed.length, direct);
      aead.seal(nonce, buffer(msg, direct), out);
      assertArrayEquals(sealed, contents(out), "seal");
      ByteBuffer opened = allocate(msg.length, direct);
      aead.open(nonce, buffer(sealed, direct), opened);
      assertArrayEquals(msg, contents(opened), "open");
    } else {
      assertEquals("invalid", result, "AEAD vectors are valid or invalid");
      assertThrows(AEADBadTagException.class,
          () -> aead.open(nonce, buffer(sealed, direct), allocate(sealed.length, direct)));
    }
  }

  private static void throughJca(JcaBackend backend, Primitive primitive, JsonObject group,
      JsonObject test, byte[] key, byte[] aad) throws GeneralSecurityException {
    JcaProfile profile = backend.profile();
    byte[] iv = Vectors.hex(test, "iv");
    byte[] msg = Vectors.hex(test, "msg");
    byte[] sealed = concat(Vectors.hex(test, "ct"), Vectors.hex(test, "tag"));
    SecretKeySpec keySpec = new SecretKeySpec(key, JcaProfile.aeadKeyAlgorithm(primitive));
    String transformation = profile.aeadTransformation(primitive);
    String result = test.get("result").getAsString();
    int ivSize = group.get("ivSize").getAsInt();
    if (result.equals("valid")) {
      Cipher encrypt = initInScope(profile.cipher(transformation), Cipher.ENCRYPT_MODE,
          keySpec, primitive, iv, ivSize);
      if (encrypt == null) {
        return;
      }
      encrypt.updateAAD(aad);
      assertArrayEquals(sealed, encrypt.doFinal(msg), "encrypt");
      Cipher decrypt = profile.cipher(transformation);
      decrypt.init(Cipher.DECRYPT_MODE, keySpec, JcaProfile.aeadParameters(primitive, iv));
      decrypt.updateAAD(aad);
      assertArrayEquals(msg, decrypt.doFinal(sealed), "decrypt");
      return;
    }
    assertEquals("invalid", result, "AEAD vectors are valid or invalid");
    if (test.getAsJsonArray("flags").toString().contains("ModifiedTag")) {
      Cipher decrypt = initInScope(profile.cipher(transformation), Cipher.DECRYPT_MODE,
          keySpec, primitive, iv, ivSize);
      if (decrypt == null) {
        return;
      }
      decrypt.updateAAD(aad);
      assertThrows(AEADBadTagException.class, () -> decrypt.doFinal(sealed));
      return;
    }
    // An invalid nonce (empty, or not 96 bits for ChaCha20-Poly1305): both directions must refuse.
    for (int mode : new int[] {Cipher.ENCRYPT_MODE, Cipher.DECRYPT_MODE}) {
      Cipher c = profile.cipher(transformation);
      try {
        c.init(mode, keySpec, JcaProfile.aeadParameters(primitive, iv));
        c.updateAAD(aad);
        c.doFinal(mode == Cipher.ENCRYPT_MODE ? msg : sealed);
        fail((mode == Cipher.ENCRYPT_MODE ? "encryption" : "decryption")
            + " accepted an invalid " + ivSize + "-bit nonce");
      } catch (GeneralSecurityException | IllegalArgumentException | IllegalStateException e) {
        // refused, as it must be
      }
    }
  }

  /**
   * Initialises {@code cipher}; returns null if the provider refuses, with a checked exception at
   * init, a key size or a nonce size that secio never uses (AES-192; nonces other than 96 bits):
   * refusing is a correct answer there, producing output is checked byte for byte by the caller.
   * Refusing anything secio does use fails the test.
   */
  private static Cipher initInScope(Cipher cipher, int mode,
      SecretKeySpec key, Primitive primitive, byte[] iv, int ivSizeInBits)
      throws GeneralSecurityException {
    try {
      cipher.init(mode, key, JcaProfile.aeadParameters(primitive, iv));
      return cipher;
    } catch (InvalidKeyException e) {
      if (secioCipher(primitive, key.getEncoded().length).isPresent()) {
        throw e;
      }
      return null;
    } catch (InvalidAlgorithmParameterException e) {
      if (ivSizeInBits == SECIO_NONCE_SIZE_IN_BITS) {
        throw e;
      }
      return null;
    }
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  static ByteBuffer allocate(int size, boolean direct) {
    return direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
  }

  static ByteBuffer buffer(byte[] bytes, boolean direct) {
    ByteBuffer b = allocate(bytes.length, direct);
    b.put(bytes).flip();
    return b;
  }

  /** Everything written so far (position 0 to the current position). */
  static byte[] contents(ByteBuffer written) {
    ByteBuffer b = written.duplicate().flip();
    byte[] out = new byte[b.remaining()];
    b.get(out);
    return out;
  }
}
