package io.secio.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.SecioException;
import java.nio.ByteBuffer;
import java.security.AlgorithmParameters;
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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import javax.crypto.AEADBadTagException;
import javax.crypto.BadPaddingException;
import javax.crypto.KeyAgreementSpi;
import javax.crypto.SecretKey;
import org.junit.jupiter.api.Test;

/**
 * A provider that hands back the wrong thing is caught at the boundary: a generated key that is not
 * the kind or encoding asked for fails with {@link InvalidKeyException} (so its self-test fails and
 * the backend is not offered), an X25519 secret of the wrong length or all zero with
 * BAD_EPHEMERAL_KEY, an AEAD that reports a bad tag as a {@link BadPaddingException} as a bad tag
 * with its partial output wiped. And where a provider's private keys can be destroyed, a destroyed
 * ephemeral key destroys them.
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
  void anX25519SecretOfTheWrongLengthOrAllZeroIsRefused() throws Exception {
    byte[] peer = KeyPairGenerator.getInstance("X25519").generateKeyPair().getPublic().getEncoded();
    byte[] peerKey = Arrays.copyOfRange(peer, peer.length - 32, peer.length);
    for (int length : new int[] {31, 33, 32}) {
      // 32 bytes of zeros: what a provider that does not refuse small-order points itself returns.
      byte[] secret = new byte[length];
      Arrays.fill(secret, length == 32 ? 0 : (byte) 1);
      JcaPrimitives scripted = new JcaPrimitives(new ScriptedProvider()
          .with("KeyFactory", "XDH", () -> new JdkKeys("XDH"))
          .with("KeyAgreement", "XDH", () -> new FixedSecret(secret))
          .profile());
      EphemeralKeyPair local =
          scripted.ephemeralFromPrivate(ExchangeAlgorithm.X25519, new byte[32]);

      SecioException e = assertThrows(SecioException.class, () -> local.agree(peerKey));
      assertEquals(SecioException.Reason.BAD_EPHEMERAL_KEY, e.reason(), length + " bytes");
    }
  }

  @Test
  void destroyingAnEphemeralKeyDestroysAProviderKeyThatCanBe() throws Exception {
    JcaPrimitives scripted = new JcaPrimitives(new ScriptedProvider()
        .with("KeyFactory", "XDH", () -> new JdkKeys("XDH"))
        .with("KeyFactory", "EC", () -> new JdkKeys("EC"))
        .profile());
    byte[] scalar = new byte[32];
    scalar[31] = 5;
    for (ExchangeAlgorithm exchange : new ExchangeAlgorithm[] {
        ExchangeAlgorithm.X25519, ExchangeAlgorithm.P_256}) {
      JdkKeys.made.clear();
      EphemeralKeyPair pair = scripted.ephemeralFromPrivate(exchange, scalar);
      assertEquals(1, JdkKeys.made.size(), exchange + ": one provider key");
      WipeablePrivateKey providerKey = JdkKeys.made.get(0);
      assertFalse(providerKey.isDestroyed());

      pair.destroy();
      pair.destroy(); // the second call has nothing left to destroy

      assertTrue(providerKey.isDestroyed(), exchange.wireName());
      assertEquals(1, providerKey.destroyCalls, exchange + ": destroyed once");
    }
  }

  @Test
  void aBadTagReportedAsBadPaddingIsABadTagWithTheOutputWiped() throws Exception {
    BadPaddingGcm.calls = 0;
    AeadCipher aead = new JcaAead(new ScriptedProvider()
        .with("Cipher", "AES/GCM/NoPadding", BadPaddingGcm::new).profile(),
        CipherAlgorithm.AES_128_GCM, new byte[16]);
    int plaintext = 24;
    ByteBuffer out = ByteBuffer.allocate(2 + plaintext + 20);
    Arrays.fill(out.array(), (byte) 0xaa);
    out.position(2);

    AEADBadTagException e = assertThrows(AEADBadTagException.class,
        () -> aead.open(new byte[12], ByteBuffer.allocate(plaintext + 16), out));

    assertInstanceOf(BadPaddingException.class, e.getCause());
    assertEquals(2, out.position(), "no output claimed");
    for (int i = 0; i < out.capacity(); i++) {
      byte expected = i >= 2 && i < 2 + plaintext ? 0 : (byte) 0xaa;
      assertEquals(expected, out.get(i), "byte " + i);
    }
  }

  @Test
  void anInputShorterThanATagNeverReachesTheProvider() throws Exception {
    BadPaddingGcm.calls = 0;
    AeadCipher aead = new JcaAead(new ScriptedProvider()
        .with("Cipher", "AES/GCM/NoPadding", BadPaddingGcm::new).profile(),
        CipherAlgorithm.AES_128_GCM, new byte[16]);

    assertThrows(AEADBadTagException.class,
        () -> aead.open(new byte[12], ByteBuffer.allocate(15), ByteBuffer.allocate(16)));

    assertEquals(0, BadPaddingGcm.calls);
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

  /**
   * The JDK's key factory for {@code algorithm}, served under the scripted provider; the private
   * keys it makes come wrapped as destroyable ones, and are remembered in {@link #made}.
   */
  private static final class JdkKeys extends KeyFactorySpi {
    static final List<WipeablePrivateKey> made = new ArrayList<>();
    private final KeyFactory jdk;

    JdkKeys(String algorithm) {
      try {
        jdk = KeyFactory.getInstance(algorithm);
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
      WipeablePrivateKey key = new WipeablePrivateKey(jdk.generatePrivate(spec));
      made.add(key);
      return key;
    }

    @Override
    protected <T extends KeySpec> T engineGetKeySpec(Key key, Class<T> type) {
      throw new UnsupportedOperationException();
    }

    @Override
    protected Key engineTranslateKey(Key key) {
      throw new UnsupportedOperationException();
    }
  }

  /** A provider's private key with a destroy() of its own, which counts its calls. */
  private static final class WipeablePrivateKey implements PrivateKey {
    private static final long serialVersionUID = 1L;
    private final transient PrivateKey real;
    int destroyCalls;

    WipeablePrivateKey(PrivateKey real) {
      this.real = real;
    }

    @Override
    public String getAlgorithm() {
      return real.getAlgorithm();
    }

    @Override
    public String getFormat() {
      return real.getFormat();
    }

    @Override
    public byte[] getEncoded() {
      return real.getEncoded();
    }

    @Override
    public void destroy() {
      destroyCalls++;
    }

    @Override
    public boolean isDestroyed() {
      return destroyCalls > 0;
    }
  }

  /**
   * An AES-GCM that, like some providers, writes plaintext before it checks the tag and then reports
   * the bad tag as a plain {@link BadPaddingException}; it counts the frames it is given.
   */
  private static final class BadPaddingGcm extends FaultyCipherSpi {
    static int calls;

    @Override
    protected int engineDoFinal(ByteBuffer input, ByteBuffer output) throws BadPaddingException {
      calls++;
      int plaintext = input.remaining() - 16;
      for (int i = 0; i < plaintext; i++) {
        output.put((byte) 0x77);
      }
      input.position(input.limit());
      throw new BadPaddingException("mac check failed");
    }

    @Override
    protected void engineInit(int opmode, Key key, SecureRandom random) {}

    @Override
    protected void engineInit(int opmode, Key key, AlgorithmParameterSpec params, SecureRandom r) {}

    @Override
    protected void engineInit(int opmode, Key key, AlgorithmParameters params, SecureRandom r) {}

    @Override
    protected byte[] engineUpdate(byte[] input, int offset, int length) {
      throw new UnsupportedOperationException();
    }

    @Override
    protected int engineUpdate(byte[] input, int offset, int length, byte[] out, int outOffset) {
      throw new UnsupportedOperationException();
    }

    @Override
    protected byte[] engineDoFinal(byte[] input, int offset, int length) {
      throw new UnsupportedOperationException();
    }

    @Override
    protected int engineDoFinal(byte[] input, int offset, int length, byte[] out, int outOffset) {
      throw new UnsupportedOperationException();
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
