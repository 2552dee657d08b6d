package io.secio.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Locale;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Each backend's provider and the names it gives the algorithms, built afresh here: {@link
 * CryptoBackends} builds each profile once per JVM, so these factories are checked directly.
 */
class JcaProfileTest {

  @Test
  void theJdkProfileUsesTheDefaultProviders() throws Exception {
    JcaProfile jdk = JcaProfile.jdk();

    assertEquals("jdk", jdk.name());
    assertEquals("SunJCE", jdk.cipher(JcaProfile.AES_GCM_TRANSFORMATION).getProvider().getName());
    assertEquals("ChaCha20-Poly1305", jdk.aeadTransformation(Primitive.CHACHA20_POLY1305));
    assertEquals("XDH", jdk.xdhAlgorithm());
  }

  @Test
  void bouncyCastleIsAPrivateProviderInstance() throws Exception {
    JcaProfile bc = JcaProfile.bouncyCastle().orElseThrow();

    assertEquals("bouncycastle", bc.name());
    assertEquals("BC", bc.keyFactory("EC").getProvider().getName());
    assertNotSame(bc.keyFactory("EC").getProvider(),
        JcaProfile.bouncyCastle().orElseThrow().keyFactory("EC").getProvider(),
        "a new provider per profile, never a registered one");
    assertInstanceOf(BcCtrCipher.class, bc.ctrCipher(), "the lightweight CTR, not BC's JCA one");
    assertEquals("X25519", bc.xdhAlgorithm());
  }

  @Test
  void conscryptLoadsWhereTheUberJarShipsNatives() throws Exception {
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch");
    Assumptions.assumeTrue(os.contains("linux") && List.of("amd64", "x86_64", "aarch64").contains(arch),
        "conscrypt-openjdk-uber ships Linux natives for x86_64 and aarch64 only");

    JcaProfile conscrypt = JcaProfile.conscrypt().orElseThrow();

    assertEquals("conscrypt", conscrypt.name());
    assertEquals("Conscrypt", conscrypt.mac("HmacSHA256").getProvider().getName());
    assertEquals("ChaCha20/Poly1305/NoPadding",
        conscrypt.aeadTransformation(Primitive.CHACHA20_POLY1305));
    assertTrue(JcaProfile.conscryptProvider().isPresent());
  }

  @Test
  void aeadNamesAndParameters() {
    JcaProfile jdk = JcaProfile.jdk();
    byte[] nonce = new byte[12];

    assertEquals("AES/GCM/NoPadding", jdk.aeadTransformation(Primitive.AES_GCM));
    assertEquals("AES", JcaProfile.aeadKeyAlgorithm(Primitive.AES_GCM));
    assertEquals("ChaCha20", JcaProfile.aeadKeyAlgorithm(Primitive.CHACHA20_POLY1305));
    GCMParameterSpec gcm = assertInstanceOf(GCMParameterSpec.class,
        JcaProfile.aeadParameters(Primitive.AES_GCM, nonce));
    assertEquals(128, gcm.getTLen());
    assertInstanceOf(IvParameterSpec.class,
        JcaProfile.aeadParameters(Primitive.CHACHA20_POLY1305, nonce));
    assertThrows(IllegalArgumentException.class, () -> jdk.aeadTransformation(Primitive.AES_CTR));
  }
}
