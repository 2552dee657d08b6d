package io.secio.handshake;

import io.secio.crypto.CryptoBackend;
import io.secio.crypto.CryptoBackends;
import io.secio.crypto.EphemeralKeyPair;
import io.secio.frame.FrameOpener;
import io.secio.frame.FrameSealer;
import io.secio.frame.cipher.FrameCiphers;
import io.secio.frame.cipher.KeyStretcher;
import io.secio.identity.IdentityKeyPair;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.SecioException;
import java.security.SecureRandom;
import java.util.function.UnaryOperator;

/**
 * A peer whose every step a test can bend: it speaks secio from its own parts (messages, negotiation,
 * stretching, frame ciphers) so that it can send a bad point with a good signature, a wrong nonce echo,
 * and so on. Not thread-safe.
 */
public final class ScriptedPeer {
  private final IdentityKeyPair identity;
  private final CryptoBackend backend = CryptoBackends.defaultBackend();
  private final SecureRandom random = new SecureRandom();
  private byte[] nonce = new byte[16];
  private String exchanges = "P-256";
  private String ciphers = "AES-128-GCM";
  private String hashes = "SHA256";

  private byte[] proposeOut;
  private byte[] proposeIn;
  private Propose remote;
  private boolean preferred;
  private Negotiation.Selection selection;
  private EphemeralKeyPair ephemeral;
  private FrameSealer sealer;
  private FrameOpener opener;

  public ScriptedPeer(IdentityKeyPair identity) {
    this.identity = identity;
    random.nextBytes(nonce);
  }

  public ScriptedPeer proposing(String exchanges, String ciphers, String hashes) {
    this.exchanges = exchanges;
    this.ciphers = ciphers;
    this.hashes = hashes;
    return this;
  }

  public ScriptedPeer withNonce(byte[] nonce) {
    this.nonce = nonce.clone();
    return this;
  }

  /** Our Propose bytes. */
  public byte[] propose() {
    proposeOut = ProtobufMessages.encodePropose(new Propose(
        nonce, identity.publicKey().toProtobuf(), exchanges, ciphers, hashes));
    return proposeOut;
  }

  /** Takes the other side's Propose and negotiates as docs/PROTOCOL.md says. */
  public void receivePropose(byte[] propose) throws SecioException {
    proposeIn = propose.clone();
    remote = ProtobufMessages.decodePropose(propose);
    preferred = Negotiation.order(identity.publicKey().toProtobuf(), nonce, remote.pubkey(), remote.rand()) > 0;
    selection = Negotiation.select(preferred, exchanges, ciphers, hashes,
        remote.exchanges(), remote.ciphers(), remote.hashes());
  }

  /** An honest Exchange. */
  public byte[] exchange() throws Exception {
    ephemeral = backend.generateEphemeral(selection.exchange(), random);
    return exchange(ephemeral.publicKey(), UnaryOperator.identity());
  }

  /** An Exchange carrying {@code epub}, correctly signed, then the signature passed through {@code bend}. */
  public byte[] exchange(byte[] epub, UnaryOperator<byte[]> bend) {
    byte[] signed = concat(proposeOut, proposeIn, epub);
    return ProtobufMessages.encodeExchange(
        new Exchange(epub, bend.apply(identity.sign(signed))));
  }

  /** Takes the other side's Exchange (signature unchecked) and derives the frame ciphers. */
  public void receiveExchange(byte[] exchange) throws Exception {
    Exchange e = ProtobufMessages.decodeExchange(exchange);
    byte[] secret = ephemeral.agree(e.epubkey());
    CipherAlgorithm cipher = selection.cipher();
    KeyStretcher.StretchedKeys keys = KeyStretcher.stretch(cipher, selection.hash(), secret);
    sealer = FrameCiphers.sealer(backend, cipher, selection.hash(), preferred ? keys.k1() : keys.k2());
    opener = FrameCiphers.opener(backend, cipher, selection.hash(), preferred ? keys.k2() : keys.k1());
  }

  /** The other side's nonce, which an honest peer echoes. */
  public byte[] remoteNonce() {
    return remote.rand().clone();
  }

  public byte[] seal(byte[] plaintext) throws SecioException {
    return sealer.seal(plaintext);
  }

  public byte[] open(byte[] body) throws SecioException {
    return opener.open(body);
  }

  private static byte[] concat(byte[]... parts) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }
}
