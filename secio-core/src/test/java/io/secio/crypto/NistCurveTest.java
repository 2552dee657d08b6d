package io.secio.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.security.KeyFactory;
import java.security.SecureRandom;
import java.security.interfaces.ECPublicKey;
import java.security.spec.X509EncodedKeySpec;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.math.ec.ECPoint;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The DER wrapping of a peer's point, which the key agreement hands to every provider. */
class NistCurveTest {
  private static final int POINTS_PER_CURVE = 20;

  @ParameterizedTest
  @EnumSource(NistCurve.class)
  void publicKeyInfoIsTheDerEncoderOutputAndParsesToThePoint(NistCurve curve) throws Exception {
    SecureRandom random = new SecureRandom(new byte[] {(byte) curve.ordinal()});
    BigInteger n = CustomNamedCurves.getByName(jcaName(curve)).getN();
    AlgorithmIdentifier algorithm = new AlgorithmIdentifier(
        X9ObjectIdentifiers.id_ecPublicKey,
        CustomNamedCurves.getOID(jcaName(curve)));
    KeyFactory jdk = KeyFactory.getInstance("EC", "SunEC");
    for (int i = 0; i < POINTS_PER_CURVE; i++) {
      BigInteger d = new BigInteger(n.bitLength() + 64, random).mod(n.subtract(BigInteger.ONE)).add(BigInteger.ONE);
      byte[] point = curve.publicKeyOf(d);

      byte[] info = curve.subjectPublicKeyInfo(point);

      assertArrayEquals(new SubjectPublicKeyInfo(algorithm, point).getEncoded(), info);
      ECPublicKey parsed = (ECPublicKey) jdk.generatePublic(new X509EncodedKeySpec(info));
      ECPoint expected = curve.decodeRemote(point);
      assertEquals(expected.getAffineXCoord().toBigInteger(), parsed.getW().getAffineX());
      assertEquals(expected.getAffineYCoord().toBigInteger(), parsed.getW().getAffineY());
    }
  }

  private static String jcaName(NistCurve curve) {
    switch (curve) {
      case P_256:
        return "secp256r1";
      case P_384:
        return "secp384r1";
      default:
        return "secp521r1";
    }
  }
}
