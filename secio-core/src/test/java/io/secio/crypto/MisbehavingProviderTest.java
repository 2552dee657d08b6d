package io.secio.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.secio.ExchangeAlgorithm;
import io.secio.SecioException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.KeyFactory;
import java.security.KeyFactorySpi;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyPairGeneratorSpi;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.KeySpec;
import java.util.Arrays;
import java.util.function.Supplier;
import javax.crypto.KeyAgreementSpi;
import javax.crypto.SecretKey;
import org.junit.jupiter.api.Test;

/**
 * A provider that hands back the wrong thing is caught at the boundary: a generated key that is not
 * the kind or encoding asked for fails with {@link InvalidKeyException} (so its self-test fails and
 * the backend is not offered), an X25519 secret of the wrong length with BAD_EPHEMERAL_KEY.
 */
class MisbehavingProviderTest {
  private static final SecureRandom RANDOM = new SecureRandom();

  @Test
  void anEcGeneratorWhosePublicKeyHasNoAffinePointIsRefused() throws Exception {
    KeyPair x25519 = KeyPairGenerator.getInstance("X25519").generateKeyPair();
    KeyPair ec = KeyPairGenerator.getInstance("EC").generateKeyPair();
    JcaPrimitives scripted = new JcaPrimitives(new ScriptedProvider()
        .with("KeyPairGenerator", "EC", generating(new KeyPair(x25519.getPublic(), ec.getPrivate())))
        .profile());

    assertThrows(InvalidKeyException.class,
        () -> scripted.generateEphemeral(ExchangeAlgorithm.P_256, RANDOM));
  }

  @Test
  void anX25519PublicKeyThatIsNotX509OfX25519IsRefused() throws Exception {
    byte[] good = KeyPairGenerator.getInstance("X25519").generateKeyPair().getPublic().getEncoded();
    byte[] ed25519 = KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPublic().getEncoded();
    assertEquals(good.length, ed25519.length, "same length, another algorithm's OID");
    PrivateKey priv = KeyPairGenerator.getInstance("X25519").generateKeyPair().getPrivate();

    for (byte[] encoded : new byte[][] {
        null, Arrays.copyOf(good, good.length - 1), Arrays.copyOf(good, good.length + 1), ed25519}) {
      JcaPrimitives scripted = new JcaPrimitives(new ScriptedProvider()
          .with("KeyPairGenerator", "XDH", generating(new KeyPair(encodedAs(encoded), priv)))
          .profile());

      assertThrows(InvalidKeyException.class,
          () -> scripted.generateEphemeral(ExchangeAlgorithm.X25519, RANDOM),
          encoded == null ? "no encoding" : encoded.length + " bytes");
    }
  }

  @Test
  void anX25519SecretOfTheWrongLengthIsRefused() throws Exception {
    byte[] peer = KeyPairGenerator.getInstance("X25519").generateKeyPair().getPublic().getEncoded();
    byte[] peerKey = Arrays.copyOfRange(peer, peer.length - 32, peer.length);
    for (int length : new int[] {31, 33}) {
      byte[] secret = new byte[length];
      Arrays.fill(secret, (byte) 1);
      JcaPrimitives scripted = new JcaPrimitives(new ScriptedProvider()
          .with("KeyFactory", "XDH", JdkXdhKeys::new)
          .with("KeyAgreement", "XDH", () -> new FixedSecret(secret))
          .profile());
      EphemeralKeyPair local =
          scripted.ephemeralFromPrivate(ExchangeAlgorithm.X25519, new byte[32]);

      SecioException e = assertThrows(SecioException.class, () -> local.agree(peerKey));
      assertEquals(SecioException.Reason.BAD_EPHEMERAL_KEY, e.reason(), length + " bytes");
    }
  }

  private static Supplier<KeyPairGeneratorSpi> generating(KeyPair pair) {
    return () -> new KeyPairGeneratorSpi() {
      @Override
      public void initialize(int keysize, SecureRandom random) {}

      @Override
      public void initialize(AlgorithmParameterSpec params, SecureRandom random) {}

      @Override
      public KeyPair generateKeyPair() {
        return pair;
      }
    };
  }

  private static PublicKey encodedAs(byte[] encoded) {
    return new PublicKey() {
      private static final long serialVersionUID = 1L;

      @Override
      public String getAlgorithm() {
        return "XDH";
      }

      @Override
      public String getFormat() {
        return "X.509";
      }

      @Override
      public byte[] getEncoded() {
        return encoded == null ? null : encoded.clone();
      }
    };
  }

  /** The JDK's XDH key factory, served under the scripted provider. */
  private static final class JdkXdhKeys extends KeyFactorySpi {
    private final KeyFactory jdk;

    JdkXdhKeys() {
      try {
        jdk = KeyFactory.getInstance("XDH");
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }

    @Override
    protected PublicKey engineGeneratePublic(KeySpec spec)
        throws java.security.spec.InvalidKeySpecException {
      return jdk.generatePublic(spec);
    }

    @Override
    protected PrivateKey engineGeneratePrivate(KeySpec spec)
        throws java.security.spec.InvalidKeySpecException {
      return jdk.generatePrivate(spec);
    }

    @Override
    protected <T extends KeySpec> T engineGetKeySpec(Key key, Class<T> type)
        throws java.security.spec.InvalidKeySpecException {
      return jdk.getKeySpec(key, type);
    }

    @Override
    protected Key engineTranslateKey(Key key) throws InvalidKeyException {
      return jdk.translateKey(key);
    }
  }

  /** A key agreement that returns the same secret, whatever the keys. */
  private static final class FixedSecret extends KeyAgreementSpi {
    private final byte[] secret;

    FixedSecret(byte[] secret) {
      this.secret = secret;
    }

    @Override
    protected void engineInit(Key key, SecureRandom random) {}

    @Override
    protected void engineInit(Key key, AlgorithmParameterSpec params, SecureRandom random) {}

    @Override
    protected Key engineDoPhase(Key key, boolean lastPhase) {
      return null;
    }

    @Override
    protected byte[] engineGenerateSecret() {
      return secret.clone();
    }

    @Override
    protected int engineGenerateSecret(byte[] sharedSecret, int offset) {
      System.arraycopy(secret, 0, sharedSecret, offset, secret.length);
      return secret.length;
    }

    @Override
    protected SecretKey engineGenerateSecret(String algorithm) {
      throw new UnsupportedOperationException();
    }
  }
}
