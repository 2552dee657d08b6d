package io.secio.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.spec.ECParameterSpec;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The JCA lookups outside the backends: SHA-256 ({@link Sha256}) and the JDK's pinned key engines
 * ({@link JdkKeys}), which must give the same answer on every node whatever its backend.
 */
class JdkEnginesTest {
  private static final HexFormat HEX = HexFormat.of();
  /** FIPS 180-2, appendix B.1. */
  private static final String SHA256_OF_ABC =
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
  /** The order of the P-256 group (FIPS 186-4, D.1.2.3). */
  private static final BigInteger P256_ORDER = new BigInteger(
      "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", 16);

  @Test
  void sha256HasItsKnownAnswer() {
    assertEquals(SHA256_OF_ABC, HEX.formatHex(Sha256.digest("abc".getBytes(StandardCharsets.US_ASCII))));
    assertEquals(Sha256.DIGEST_SIZE_IN_BYTES, Sha256.digest().length);
  }

  /** However the input is cut into parts, the digest is that of the whole. */
  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5})
  void sha256OfPartsIsSha256OfTheWhole(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    byte[] whole = new byte[random.nextInt(1, 300)];
    random.nextBytes(whole);
    int cut = random.nextInt(whole.length + 1);
    byte[] expected = Sha256.digest(whole);
    assertArrayEquals(expected, Sha256.digest(Arrays.copyOf(whole, cut),
        Arrays.copyOfRange(whole, cut, whole.length)), "seed " + seed + ", cut at " + cut);
    assertArrayEquals(expected, Sha256.digest(new byte[0], whole, new byte[0]), "seed " + seed);
  }

  @Test
  void theKeyEnginesAreTheJdksOwnByName() {
    assertEquals("SunRsaSign", JdkKeys.rsaKeyFactory().getProvider().getName());
    assertEquals("SunRsaSign", JdkKeys.rsaKeyPairGenerator().getProvider().getName());
    assertEquals("SunEC", JdkKeys.ecKeyFactory().getProvider().getName());
    assertEquals(JdkKeys.RSA_PROVIDER, JdkKeys.rsaKeyFactory().getProvider().getName());
    assertEquals(JdkKeys.EC_PROVIDER, JdkKeys.ecKeyFactory().getProvider().getName());
  }

  @Test
  void theP256ParametersAreP256s() {
    ECParameterSpec p256 = JdkKeys.ecParameters("secp256r1");
    assertEquals(P256_ORDER, p256.getOrder());
    assertEquals(1, p256.getCofactor());
  }

  @Test
  void aCurveTheJdkLacksIsAnIllegalState() {
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> JdkKeys.ecParameters("no-such-curve"));
    assertEquals("SunEC lacks no-such-curve", e.getMessage());
  }
}
