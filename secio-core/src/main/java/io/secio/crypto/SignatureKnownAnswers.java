package io.secio.crypto;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPrivateKeySpec;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.KeySpec;
import java.security.spec.RSAPrivateCrtKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.Arrays;
import java.util.HexFormat;
import org.bouncycastle.asn1.pkcs.RSAPrivateKey;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * The known-answer self-tests of the identity signatures, run through {@link
 * CryptoBackend#newSigner} and {@link CryptoBackend#verify} as the handshake calls them: a published
 * signature must verify and stop verifying with one bit flipped; a fixed key must sign, and where the
 * scheme is deterministic make the published bytes. {@link KnownAnswers} dispatches here.
 *
 * <p>Stateless and thread-safe.
 */
final class SignatureKnownAnswers {
  private static final HexFormat HEX = HexFormat.of();
  private static final byte[] MESSAGE = "secio known answer".getBytes(StandardCharsets.US_ASCII);

  /**
   * A 2048-bit RSA key made for this test with {@code openssl genrsa} (PKCS#1 DER), and its
   * signature over {@link #MESSAGE} made by {@code openssl dgst -sha256 -sign}.
   */
  private static final String RSA_PRIVATE_KEY = ""
          + "308204a40201000282010100b9c3daaf40c930ee597833f38e21191cd768fa55e2d2d38f74ac4522589647873321047e"
      + "b4c2e1f88189ba7a9aa152d165fd1b5cc0e0bcb0645b1fa139ba383576aca15c45349ace78cb943018246a74183a8bc4"
      + "b945c9f3dee3c47c4e3370f7325533bb0eb7603b3fb383d3a24c4bd96f1bb4dce00ff6627d288a2643a6ac825186677c"
      + "fd145c992012c614b3c7e9a7a9c655a0298eab990848758be93834440bab21e89a42e680083b71ddeb7223419ec52297"
      + "58c4fdb5982b8ebb8db045ad4288ee9368a4f2c49b2d249489194224f9d4676ebbd7eb9ce1d432568fa07cb41c3096f1"
      + "f83b9a12c66daaaafe5d04868a59ff1bef73030c06318162c15d7ed30203010001028201002c9637bcecbddd82b7f2c3"
      + "f5675dc65b47d0a89548b5f5956f1992166650dba635bd6d08c4762a2aad5cd3676e09de88e803d237770bf9fe147852"
      + "a52de7e669deac1ca6baed9f628357c99fa98bc4094d6f6ff0adcf74639651f0ed2d0fe7c34d4f69f531d90dbdead239"
      + "87e8628baa0aa309cc21f372ddbcd0a827fb00dc529a539d3cf11a7f6c87d03e04156c9b216185a35d6adbfb2b0dc4ed"
      + "efa89276e1bd899790703cb11b6302bd8b14a5dea0da7a7b2bbdbb219f118ba3fbe773e3905fdc70ede3bcb59f51f299"
      + "9ce1b1ff6a472b7d0ad92196300eaed5c229103ef5385226a0121a2a690722494b13571f5e112b26614b175abdfdbffd"
      + "4ba629155102818100e4fd728dbea0b96814767d88fe2bdd3af629517fcb6037eb1a0ff36d96a3b9e6c52574e6abe0ac"
      + "c93f8b1d949bda882a7c5d07999f86182df40c6cbb48601f55c5a83e54af3fa37a921a7113a17c384c44820e156a0534"
      + "ef18fa441af71a2ad7df676edf5de1c8fef329fa45460e0591801604c51974f58dcd2021161e98341f02818100cfad30"
      + "f243f62f1aa9f339aa58ee39f614da9e113a95144b102b7e4cf518b3b67c7798ba961fcd958444a5b1ebd0302fd23fa7"
      + "03b2b0680c95fbd31394e6401dd1e213412790b554a74bdd6723110efc1cc45d9b7d4d45cdc42ea62f605edea50358b7"
      + "492d1c954c2cea8fec6e5a796bb4bd2234709f98f1dcca7fd8719bfecd02818100ad428351728203a7178c8bf1827747"
      + "fddbd16983eb2ad34484c4bae81949aa584ca4c9addb30b52bd4737b1f3d497d2bc04b577bca32d8cab4544e54ea2f28"
      + "a66a56a14acc0ab7b3ff261896c4e1cb6b118ee1ff1be7f2a4525ed1f7212e606a53f3dbf51000cd66f22fb9d87e680f"
      + "9886b4a2494bb8ae2eeb9cbacc14bc0efb02818100897fd2bb6451d7e82083c037500012722266886741d13889666055"
      + "942066c57dda34d8f318b85fc651b79db90a3761e017a53b30109c0997e3a9c29be166fd268132dcaab3c674b862b7b1"
      + "143b3c6d1e70f176449f968cd3eac334168408ec02770fc2f27922c69a93d68d89ed9a8b6fcb4fba18dc445ee02bde0a"
      + "fd446313350281800c0a469954d8094bcc6ab92f044cdf2fe1b9104eec0cf7aa6932aaf3bb5166436d72e744d7249ec8"
      + "45f8f29431803e8c789b01de0b8a566f64063bd33c44bcf7212b9fa18f52d9995c263232ba721a6c338ad3fce36a32dc"
      + "75fe6d0f3c1d3389ca54e9e5900c83bb7b2e9a1868466e122114951d90270b969287f2ab0655f48b";
  private static final String RSA_SIGNATURE = ""
      + "1f8411573796f260056a7940a1de4e5ee332d1d1fbb1c049b6e2026052a1737f8f5a0c9ebe98518d89f542eefe8058a4"
      + "29f3f7cdbee79ed77ad15427700c96222305b5911831b4e83062ae958e4d6c6999810cd5980f6653232bc9516365adbc"
      + "f555b62bf9e369b8f1041eac954f44d8e91872961d13e0280b3aea96256fc6f9f431c283dc4ac0cbf28f2b03df16e54a"
      + "58b51c5a6efccb1f53c15235cdc70286742c296e82717a4ea064899895ba87745a016f991b5e25b7e44cd4f3230970d1"
      + "8acef5d6d9fce9cfa33cb91ef77f4956b9d069cb8b6203f0a2065866a498c5c1a624c0f3aef7148423a10728c5c4af91"
      + "6c4e84695f6e67afbf1e50a48dcd6d5a";

  private SignatureKnownAnswers() {}

  static boolean pass(Primitive primitive, CryptoBackend backend) throws GeneralSecurityException {
    switch (primitive) {
      case ED25519:
        return ed25519(backend);
      case ECDSA_P256:
        return ecdsaP256(backend);
      case ECDSA_SECP256K1:
        return secp256k1(backend);
      case RSA_SHA256:
        return rsa(backend);
      default:
        throw new IllegalArgumentException(primitive + " is not a signature");
    }
  }

  /**
   * RFC 8032 section 7.1, TEST 1 and TEST 3: each signature must come out byte for byte, verify, and
   * stop verifying with one bit flipped or under another message; then the cofactored rule.
   */
  private static boolean ed25519(CryptoBackend backend) throws GeneralSecurityException {
    return ed25519(backend, "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
            "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b")
        && ed25519(backend, "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
            "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
            "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a")
        && cofactored(backend);
  }

  /**
   * The one Ed25519 rule (docs/PROTOCOL.md section 3.1): a signature over {@link #MESSAGE} by the
   * owner of a key with a component of order 8, whose hash scalar is not a multiple of 8, so that
   * the cofactorless equation fails and the cofactored one holds. Made for this test with plain
   * big-integer arithmetic (the tests' {@code EdwardsPoints}). Every backend must accept it, and
   * refuse it with a bit flipped.
   */
  private static boolean cofactored(CryptoBackend backend) throws GeneralSecurityException {
    byte[] publicData =
        HEX.parseHex("3925953e42056206e1252559c92356e90ad419dc8aebc1cd66d553082a0fe58f");
    Ed25519.PublicPoint point = Ed25519.validatePublicKeyPartialExport(publicData, 0);
    return point != null
        && verifies(backend, Primitive.ED25519, new Ed25519KeySpecs.Public(publicData, point),
            MESSAGE, HEX.parseHex("a7ae927833c1a6abc5d9bfc53617ffc3bdeea425637002abcf34d8414960814c"
                + "12909338abaed68e47fc79f5cc5af5e1060cfdf7c16248a76c0063ae47364e03"));
  }

  private static boolean ed25519(CryptoBackend backend, String seed, String publicKey,
      String message, String signature) throws GeneralSecurityException {
    byte[] publicData = HEX.parseHex(publicKey);
    Ed25519.PublicPoint point = Ed25519.validatePublicKeyPartialExport(publicData, 0);
    if (point == null) {
      return false;
    }
    byte[] m = HEX.parseHex(message);
    byte[] expected = HEX.parseHex(signature);
    byte[] made = backend.newSigner(Primitive.ED25519,
        new Ed25519KeySpecs.Private(HEX.parseHex(seed), publicData)).sign(m);
    return Arrays.equals(expected, made)
        && verifies(backend, Primitive.ED25519, new Ed25519KeySpecs.Public(publicData, point), m,
            expected)
        && !backend.verify(Primitive.ED25519, new Ed25519KeySpecs.Public(publicData, point),
            Arrays.copyOf(m, m.length + 1), expected);
  }

  /**
   * Project Wycheproof ecdsa_secp256r1_sha256_test.json tcId 1 (the empty message); then the RFC
   * 6979 section A.2.5 key signs, and its signature verifies.
   */
  private static boolean ecdsaP256(CryptoBackend backend) throws GeneralSecurityException {
    return ecdsa(backend, Primitive.ECDSA_P256, "secp256r1", EcKeySpecs.P256,
        "04aaec73635726f213fb8a9e64da3b8632e41495a944d0045b522eba7240fad5",
        "87d9315798aaa3a5ba01775787ced05eaaf7b4e09fc81d6d1aa546e8365d525d",
        "3045022100b292a619339f6e567a305c951c0dcbcc42d16e47f219f9e98e76e09d8770b34a02200177e6049"
            + "2c5a8242f76f07bfe3661bde59ec2a17ce5bd2dab2abebdf89a62e2");
  }

  /**
   * Project Wycheproof ecdsa_secp256k1_sha256_bitcoin_test.json tcId 442 (the empty message); then
   * a fixed key signs, and its signature verifies.
   */
  private static boolean secp256k1(CryptoBackend backend) throws GeneralSecurityException {
    return ecdsa(backend, Primitive.ECDSA_SECP256K1, "secp256k1", EcKeySpecs.SECP256K1,
        "782c8ed17e3b2a783b5464f33b09652a71c678e05ec51e84e2bcfc663a3de963",
        "af9acb4280b8c7f7c42f4ef9aba6245ec1ec1712fd38a0fa96418d8cd6aa6152",
        "3045022100f80ae4f96cdbc9d853f83d47aae225bf407d51c56b7776cd67d0dc195d99a9dc02204cfc1d941"
            + "e08cb9aceadde0f4ccead76b30d332fc442115d50e673e28686b70b");
  }

  /** The known signature over the empty message verifies under (x, y); then a fixed key signs. */
  private static boolean ecdsa(CryptoBackend backend, Primitive primitive, String curve,
      ECParameterSpec params, String x, String y, String signature)
      throws GeneralSecurityException {
    ECPublicKeySpec known = new ECPublicKeySpec(
        new ECPoint(new BigInteger(x, 16), new BigInteger(y, 16)), params);
    return verifies(backend, primitive, known, new byte[0], HEX.parseHex(signature))
        && signsEcdsa(backend, primitive, curve, params,
            "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721");
  }

  private static boolean signsEcdsa(CryptoBackend backend, Primitive primitive, String curve,
      ECParameterSpec params, String scalar) throws GeneralSecurityException {
    BigInteger d = new BigInteger(scalar, 16);
    org.bouncycastle.math.ec.ECPoint q = new FixedPointCombMultiplier()
        .multiply(CustomNamedCurves.getByName(curve).getG(), d).normalize();
    ECPublicKeySpec publicKey = new ECPublicKeySpec(
        new ECPoint(q.getAffineXCoord().toBigInteger(), q.getAffineYCoord().toBigInteger()), params);
    byte[] made = backend.newSigner(primitive, new ECPrivateKeySpec(d, params)).sign(MESSAGE);
    return verifies(backend, primitive, publicKey, MESSAGE, made);
  }

  /**
   * The openssl-made key above must make openssl's signature (PKCS#1 v1.5 is deterministic), which
   * must verify.
   */
  private static boolean rsa(CryptoBackend backend) throws GeneralSecurityException {
    RSAPrivateKey pkcs1 = RSAPrivateKey.getInstance(HEX.parseHex(RSA_PRIVATE_KEY));
    KeySpec privateKey = new RSAPrivateCrtKeySpec(pkcs1.getModulus(), pkcs1.getPublicExponent(),
        pkcs1.getPrivateExponent(), pkcs1.getPrime1(), pkcs1.getPrime2(), pkcs1.getExponent1(),
        pkcs1.getExponent2(), pkcs1.getCoefficient());
    KeySpec publicKey = new RSAPublicKeySpec(pkcs1.getModulus(), pkcs1.getPublicExponent());
    byte[] expected = HEX.parseHex(RSA_SIGNATURE);
    byte[] made = backend.newSigner(Primitive.RSA_SHA256, privateKey).sign(MESSAGE);
    return Arrays.equals(expected, made)
        && verifies(backend, Primitive.RSA_SHA256, publicKey, MESSAGE, expected);
  }

  /** {@code signature} verifies, and with its last bit flipped it does not (a refusal that throws counts). */
  private static boolean verifies(CryptoBackend backend, Primitive primitive, KeySpec key,
      byte[] message, byte[] signature) throws GeneralSecurityException {
    if (!backend.verify(primitive, key, message, signature)) {
      return false;
    }
    byte[] flipped = signature.clone();
    flipped[flipped.length - 1] ^= 0x01;
    try {
      return !backend.verify(primitive, key, message, flipped);
    } catch (java.security.SignatureException refused) {
      return true;
    }
  }
}
