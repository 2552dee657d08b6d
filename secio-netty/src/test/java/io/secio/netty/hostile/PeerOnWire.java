package io.secio.netty.hostile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.secio.handshake.ScriptedPeer;
import io.secio.identity.IdentityKeyPair;
import java.io.IOException;
import java.security.SecureRandom;

/**
 * A {@link ScriptedPeer} speaking over a {@link RawPeer}: each honest step is one method, so a test
 * runs the steps it wants honestly and bends or skips the rest. Works for either end of a connection,
 * since both sides of secio send the same messages at the same time.
 *
 * <p>Not thread-safe.
 */
public final class PeerOnWire {
  public final RawPeer wire;
  public final ScriptedPeer peer;
  public final IdentityKeyPair identity;
  /** Our nonce, which the other side must echo. */
  public final byte[] nonce = new byte[16];
  /** Our Propose as sent, and the other side's as received. */
  public byte[] proposeOut;
  public byte[] proposeIn;
  public byte[] exchangeIn;

  public PeerOnWire(RawPeer wire, IdentityKeyPair identity, String exchanges, String ciphers, String hashes) {
    this.wire = wire;
    this.identity = identity;
    new SecureRandom().nextBytes(nonce);
    this.peer = new ScriptedPeer(identity).withNonce(nonce).proposing(exchanges, ciphers, hashes);
  }

  /** A peer with the default test identity proposing P-256, {@code ciphers}, SHA256. */
  public static PeerOnWire proposing(RawPeer wire, String ciphers) {
    return new PeerOnWire(wire, HostileConfigs.peerIdentity(), "P-256", ciphers, "SHA256");
  }

  /** Sends our Propose. */
  public PeerOnWire sendPropose() {
    proposeOut = peer.propose();
    wire.writeFrame(proposeOut);
    return this;
  }

  /** Reads the other side's Propose and negotiates. */
  public PeerOnWire readPropose() throws Exception {
    proposeIn = wire.readFrame();
    peer.receivePropose(proposeIn);
    return this;
  }

  /** Both Proposes, honestly. */
  public PeerOnWire proposes() throws Exception {
    return sendPropose().readPropose();
  }

  /** Sends an honest Exchange. */
  public PeerOnWire sendExchange() throws Exception {
    wire.writeFrame(peer.exchange());
    return this;
  }

  /** Reads the other side's Exchange and derives the frame keys. */
  public PeerOnWire readExchange() throws Exception {
    exchangeIn = wire.readFrame();
    peer.receiveExchange(exchangeIn);
    return this;
  }

  /** Reads the other side's first encrypted frame and checks that it is our nonce. */
  public PeerOnWire readEcho() throws Exception {
    assertArrayEquals(nonce, peer.open(wire.readFrame()), "the other side echoed something else");
    return this;
  }

  /** Sends the honest echo of the other side's nonce. */
  public PeerOnWire sendEcho() throws Exception {
    wire.writeFrame(peer.seal(peer.remoteNonce()));
    return this;
  }

  /** The whole handshake, honestly, up to the point where both sides hold an established session. */
  public PeerOnWire handshake() throws Exception {
    return proposes().sendExchange().readExchange().sendEcho().readEcho();
  }

  /** The next data frame, sealed, with its length header: {@code u32 length || body}. */
  public byte[] sealedFrame(byte[] plaintext) throws Exception {
    return RawPeer.frame(peer.seal(plaintext));
  }

  /** Reads and opens one data frame. */
  public byte[] readData() throws IOException, Exception {
    return peer.open(wire.readFrame());
  }
}
