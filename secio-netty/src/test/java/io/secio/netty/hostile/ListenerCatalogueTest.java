package io.secio.netty.hostile;

import static io.secio.netty.hostile.HostileConfigs.READ_TIMEOUT;
import static io.secio.netty.hostile.HostileConfigs.WAIT_SECONDS;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.identity.KeyType;
import io.secio.protocol.SecioException.Reason;
import io.secio.testing.TestIdentities;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The catalogue of hostile dialers against a real listener ({@code Secio.server}) over loopback TCP.
 * Each case is a script run by a plain blocking socket, and the reason the listener must refuse it
 * with. For every case: that reason, the channel closed within the handshake timeout, the completion
 * event exactly once, not one byte to the application, and (checked after each test) no leaked buffer.
 */
class ListenerCatalogueTest {
  /** What the hostile dialer does, on its socket. */
  interface Script {
    void run(RawPeer wire) throws Exception;
  }

  record Case(String name, Reason expected, Script script, UnaryOperator<SecioConfig.Builder> node) {
    @Override
    public String toString() {
      return name + " -> " + expected;
    }
  }

  private static Case c(String name, Reason expected, Script script) {
    return new Case(name, expected, script, UnaryOperator.identity());
  }

  private static PeerOnWire gcm(RawPeer wire) {
    return PeerOnWire.proposing(wire, "AES-128-GCM");
  }

  /** Honest up to the Exchange, which carries {@code epub} under a good signature. */
  private static Script epub(String exchange, byte[] epub) {
    return w -> {
      PeerOnWire p = new PeerOnWire(w, HostileConfigs.peerIdentity(), exchange, "AES-128-GCM", "SHA256");
      p.proposes();
      w.writeFrame(p.peer.exchange(epub, UnaryOperator.identity()));
    };
  }

  /** Honest up to the nonce echo, instead of which it sends the sealed {@code plaintext}. */
  private static Script echo(String ciphers, byte[] plaintext) {
    return w -> {
      PeerOnWire p = PeerOnWire.proposing(w, ciphers).proposes().sendExchange().readExchange();
      w.writeFrame(p.peer.seal(plaintext));
    };
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  static Stream<Case> cases() throws Exception {
    int limit = SecioConfig.DEFAULT_MAX_FRAME_LENGTH_IN_BYTES;
    return Stream.of(
        // Framing.
        // Until the nonce echo is verified the handshake limit (64 KiB) holds, not the frame limit.
        c("length header one over the limit", Reason.HANDSHAKE_MESSAGE_TOO_LONG,
            w -> w.writeRaw(Crafted.concat(Crafted.header(limit + 1L), new byte[64 * 1024]))),
        c("length header 0xFFFFFFFF", Reason.HANDSHAKE_MESSAGE_TOO_LONG, w -> w.writeRaw(Crafted.header(0xFFFFFFFFL))),
        c("an HTTP request (its first bytes read as a 1.2 GB length, and as text)", Reason.NOT_SECIO,
            w -> w.writeRaw(ascii("GET / HTTP/1.1\r\nHost: x\r\n\r\n"))),
        c("a libp2p dialer's multistream-select header", Reason.NOT_SECIO,
            w -> w.writeRaw(ascii("\u0013/multistream/1.0.0\n\r/secio/1.0.0\n"))),
        c("zero-length frame as the Propose", Reason.MALFORMED_MESSAGE, w -> w.writeFrame(new byte[0])),
        c("a header then silence", Reason.TIMEOUT, w -> w.writeRaw(Crafted.header(100))),
        c("a body cut short then silence", Reason.TIMEOUT,
            w -> w.writeRaw(Crafted.concat(Crafted.header(100), new byte[50]))),
        c("a body cut short then FIN", Reason.CLOSED, w -> {
          w.writeRaw(Crafted.concat(Crafted.header(100), new byte[50]));
          w.shutdownOutput();
        }),
        // Propose.
        c("garbage in a frame", Reason.MALFORMED_MESSAGE,
            w -> w.writeFrame(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, 0x01, 0x02})),
        c("a Propose cut in half", Reason.MALFORMED_MESSAGE, w -> {
          byte[] propose = gcm(w).peer.propose();
          w.writeFrame(Arrays.copyOf(propose, propose.length / 2));
        }),
        c("a Propose over the frame limit", Reason.HANDSHAKE_MESSAGE_TOO_LONG, w -> {
          w.writeRaw(Crafted.header(limit + 1L));
          w.writeRaw(gcm(w).peer.propose());
        }),
        c("a Propose one byte over the handshake limit", Reason.HANDSHAKE_MESSAGE_TOO_LONG, w -> {
          w.writeRaw(Crafted.header(SecioConfig.DEFAULT_MAX_HANDSHAKE_MESSAGE_LENGTH_IN_BYTES + 1L));
          w.writeRaw(gcm(w).peer.propose());
        }),
        c("a Propose without rand", Reason.MALFORMED_MESSAGE,
            w -> w.writeFrame(Crafted.proposeWithout(gcm(w).peer.propose(), 1))),
        c("a Propose without pubkey", Reason.MALFORMED_MESSAGE,
            w -> w.writeFrame(Crafted.proposeWithout(gcm(w).peer.propose(), 2))),
        c("a Propose without exchanges", Reason.MALFORMED_MESSAGE,
            w -> w.writeFrame(Crafted.proposeWithout(gcm(w).peer.propose(), 3))),
        c("a Propose without ciphers", Reason.MALFORMED_MESSAGE,
            w -> w.writeFrame(Crafted.proposeWithout(gcm(w).peer.propose(), 4))),
        c("a Propose without hashes", Reason.MALFORMED_MESSAGE,
            w -> w.writeFrame(Crafted.proposeWithout(gcm(w).peer.propose(), 5))),
        c("an unknown key type", Reason.MALFORMED_MESSAGE,
            w -> w.writeFrame(Crafted.proposeWithKey(gcm(w).peer.propose(), Crafted.publicKeyOfUnknownType()))),
        c("a nonce of 15 bytes", Reason.MALFORMED_MESSAGE,
            w -> w.writeFrame(gcm(w).peer.withNonce(new byte[15]).propose())),
        c("a nonce of 17 bytes", Reason.MALFORMED_MESSAGE,
            w -> w.writeFrame(gcm(w).peer.withNonce(new byte[17]).propose())),
        c("no common cipher", Reason.NO_COMMON_ALGORITHMS,
            w -> w.writeFrame(PeerOnWire.proposing(w, "AES-512,DES").peer.propose())),
        c("no common exchange", Reason.NO_COMMON_ALGORITHMS,
            w -> w.writeFrame(new PeerOnWire(w, HostileConfigs.peerIdentity(), "P-192", "AES-128", "SHA256")
                .peer.propose())),
        c("no common hash", Reason.NO_COMMON_ALGORITHMS,
            w -> w.writeFrame(new PeerOnWire(w, HostileConfigs.peerIdentity(), "P-256", "AES-128", "SHA1")
                .peer.propose())),
        c("only Twofish, Blowfish and NULL", Reason.NO_COMMON_ALGORITHMS,
            w -> w.writeFrame(PeerOnWire.proposing(w, "TwofishCTR,BlowfishCTR,Blowfish,NULL").peer.propose())),
        c("the listener's own Propose reflected (self-connection)", Reason.SELF_CONNECTION,
            w -> w.writeFrame(w.readFrame())),
        new Case("a peer the listener does not expect", Reason.PEER_ID_MISMATCH,
            w -> gcm(w).sendPropose(),
            b -> b.expectedRemotePeer(Dialect.LIBP2P.peerId(TestIdentities.of(KeyType.SECP256K1).publicKey()))),
        c("an Exchange first", Reason.MALFORMED_MESSAGE,
            w -> w.writeFrame(Crafted.exchange(Crafted.validP256Point(), new byte[64]))),
        // Exchange.
        c("an Exchange without epubkey", Reason.MALFORMED_MESSAGE,
            w -> gcm(w).proposes().wire.writeFrame(Crafted.exchange(null, new byte[64]))),
        c("an Exchange without signature", Reason.MALFORMED_MESSAGE,
            w -> gcm(w).proposes().wire.writeFrame(Crafted.exchange(Crafted.validP256Point(), null))),
        c("a second Propose instead of the Exchange", Reason.BAD_SIGNATURE, w -> {
          PeerOnWire p = gcm(w).proposes();
          w.writeFrame(p.proposeOut);
        }),
        c("a signature over other bytes", Reason.BAD_SIGNATURE, w -> {
          PeerOnWire p = gcm(w).proposes();
          byte[] wrong = p.identity.sign(ascii("something else"));
          w.writeFrame(p.peer.exchange(Crafted.validP256Point(), sig -> wrong));
        }),
        c("a signature with the two Proposes swapped", Reason.BAD_SIGNATURE, w -> {
          PeerOnWire p = gcm(w).proposes();
          byte[] epub = Crafted.validP256Point();
          byte[] swapped = p.identity.sign(Crafted.concat(p.proposeIn, p.proposeOut, epub));
          w.writeFrame(Crafted.exchange(epub, swapped));
        }),
        c("a signature by another key", Reason.BAD_SIGNATURE, w -> {
          PeerOnWire p = gcm(w).proposes();
          byte[] epub = Crafted.validP256Point();
          byte[] other = TestIdentities.other(KeyType.SECP256K1)
              .sign(Crafted.concat(p.proposeOut, p.proposeIn, epub));
          w.writeFrame(Crafted.exchange(epub, other));
        }),
        c("a high-S secp256k1 signature", Reason.BAD_SIGNATURE, w -> {
          PeerOnWire p = new PeerOnWire(w, TestIdentities.of(KeyType.SECP256K1), "P-256", "AES-128-GCM", "SHA256");
          p.proposes();
          w.writeFrame(p.peer.exchange(Crafted.validP256Point(), Crafted::toHighS));
        }),
        c("an ephemeral key of 64 bytes", Reason.BAD_EPHEMERAL_KEY, epub("P-256", new byte[64])),
        c("an ephemeral key of 66 bytes", Reason.BAD_EPHEMERAL_KEY,
            epub("P-256", Arrays.copyOf(Crafted.validP256Point(), 66))),
        c("a compressed ephemeral key", Reason.BAD_EPHEMERAL_KEY, epub("P-256", compressed())),
        c("an ephemeral key off the curve", Reason.BAD_EPHEMERAL_KEY, epub("P-256", Crafted.offCurveP256Point())),
        c("the point at infinity (00)", Reason.BAD_EPHEMERAL_KEY, epub("P-256", new byte[1])),
        c("an all-zero point of the right length", Reason.BAD_EPHEMERAL_KEY, epub("P-256", new byte[65])),
        c("a P-384 point where P-256 was agreed", Reason.BAD_EPHEMERAL_KEY, epub("P-256", new byte[97])),
        c("X25519 u = 0 (all-zero secret)", Reason.BAD_EPHEMERAL_KEY, epub("X25519", new byte[32])),
        c("X25519 u = 1 (all-zero secret)", Reason.BAD_EPHEMERAL_KEY, epub("X25519", Crafted.x25519LowOrderOne())),
        // Nonce echo.
        c("a wrong nonce echo", Reason.NONCE_MISMATCH, echo("AES-128-GCM", new byte[16])),
        c("application data instead of the echo", Reason.NONCE_MISMATCH, echo("AES-128-GCM", ascii("forged data!"))),
        c("an empty echo", Reason.NONCE_MISMATCH, echo("AES-128-GCM", new byte[0])),
        c("a wrong nonce echo, CTR", Reason.NONCE_MISMATCH, echo("AES-128", new byte[16])),
        c("the echo with a byte more", Reason.NONCE_MISMATCH, w -> {
          PeerOnWire p = gcm(w).proposes().sendExchange().readExchange();
          w.writeFrame(p.peer.seal(Arrays.copyOf(p.peer.remoteNonce(), 17)));
        }),
        c("the echo in plaintext", Reason.AUTHENTICATION_FAILED, w -> {
          PeerOnWire p = gcm(w).proposes().sendExchange().readExchange();
          w.writeFrame(Crafted.concat(p.peer.remoteNonce(), new byte[16]));
        }),
        c("an echo frame shorter than the tag", Reason.FRAME_TOO_SHORT,
            w -> gcm(w).proposes().sendExchange().readExchange().wire.writeFrame(new byte[15])),
        c("a Propose instead of the echo", Reason.AUTHENTICATION_FAILED, w -> {
          PeerOnWire p = gcm(w).proposes().sendExchange().readExchange();
          w.writeFrame(p.proposeOut);
        }),
        // A peer that stops after each step.
        c("silent after connecting", Reason.TIMEOUT, w -> { }),
        c("stops after its Propose", Reason.TIMEOUT, w -> gcm(w).proposes()),
        c("stops in the middle of its Exchange", Reason.TIMEOUT, w -> {
          PeerOnWire p = gcm(w).proposes();
          w.writeRaw(Arrays.copyOf(RawPeer.frame(p.peer.exchange()), 20));
        }),
        c("stops after its Exchange", Reason.TIMEOUT, w -> gcm(w).proposes().sendExchange().readExchange()));
  }

  private static byte[] compressed() throws Exception {
    byte[] p = Arrays.copyOf(Crafted.validP256Point(), 33);
    p[0] = 0x02;
    return p;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void listenerRefusesInTimeAndDeliversNothing(Case c) throws Exception {
    SecioConfig config = c.node().apply(HostileConfigs.node()).build();
    try (Listener listener = Listener.start(config);
        RawPeer wire = RawPeer.dial(listener.address(), READ_TIMEOUT)) {
      Connection accepted = listener.next(WAIT_SECONDS);
      c.script().run(wire);
      Outcomes.assertHandshakeRefused(accepted, c.expected());
      assertNotNull(wire.awaitEnd(), "the hostile peer saw the connection end");
    }
  }
}
