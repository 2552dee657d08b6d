package io.secio.crypto;

import java.security.spec.ECFieldFp;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.EllipticCurve;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;

/**
 * The curves of the ECDSA identity keys, as the JDK's {@link ECParameterSpec}: what an {@link
 * java.security.spec.ECPrivateKeySpec} or {@link java.security.spec.ECPublicKeySpec} handed to
 * {@link CryptoBackend#newSigner} or {@link CryptoBackend#verify} carries.
 */
public final class EcKeySpecs {
  /** P-256 (secp256r1), for {@link Primitive#ECDSA_P256}. */
  public static final ECParameterSpec P256 = of("secp256r1");
  /** secp256k1, for {@link Primitive#ECDSA_SECP256K1}. */
  public static final ECParameterSpec SECP256K1 = of("secp256k1");

  private EcKeySpecs() {}

  private static ECParameterSpec of(String curve) {
    X9ECParameters x9 = CustomNamedCurves.getByName(curve);
    org.bouncycastle.math.ec.ECPoint g = x9.getG().normalize();
    return new ECParameterSpec(
        new EllipticCurve(new ECFieldFp(x9.getCurve().getField().getCharacteristic()),
            x9.getCurve().getA().toBigInteger(), x9.getCurve().getB().toBigInteger()),
        new ECPoint(g.getAffineXCoord().toBigInteger(), g.getAffineYCoord().toBigInteger()),
        x9.getN(), x9.getH().intValueExact());
  }
}
