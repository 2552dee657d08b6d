package io.secio.netty.hostile;

import static io.secio.netty.hostile.HostileConfigs.READ_TIMEOUT;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.secio.Dialect;
import io.secio.PeerId;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.protocol.SecioException.Reason;
import io.secio.testing.TestIdentities;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The catalogue of hostile listeners (a plain {@code ServerSocket}) against a real dialer ({@code
 * Secio.client} expecting the peer it dials). Same assertions as {@link ListenerCatalogueTest}: the
 * reason, the close within the handshake timeout, one completion event, nothing delivered, no leak.
 */
class DialerCatalogueTest {
  interface Script {
    void run(RawPeer wire) throws Exception;
  }

  /** {@code identity}: who the hostile listener is; the dialer expects {@code expected}. */
  record Case(String name, Reason expected, IdentityKeyPair identity, PeerId expectedPeer, Script script) {
    @Override
    public String toString() {
      return name + " -> " + expected;
    }
  }

  private static final IdentityKeyPair HOSTILE = HostileConfigs.peerIdentity();
  private static final IdentityKeyPair SECP = TestIdentities.of(KeyType.SECP256K1);

  private static Case c(String name, Reason expected, Script script) {
    return new Case(name, expected, HOSTILE, Dialect.LIBP2P.peerId(HOSTILE.publicKey()), script);
  }

  private static PeerOnWire gcm(RawPeer w) {
    return PeerOnWire.proposing(w, "AES-128-GCM");
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("a listener that is not the peer dialled", Reason.PEER_ID_MISMATCH, HOSTILE,
            Dialect.LIBP2P.peerId(SECP.publicKey()), w -> {
              gcm(w).proposes();
              // The dialer checks the id before any more work: no Exchange follows its Propose.
              assertThrows(IOException.class, w::readFrame);
            }),
        c("length header over the limit", Reason.HANDSHAKE_MESSAGE_TOO_LONG,
            w -> w.writeRaw(Crafted.header(0x7fffffffL))),
        c("garbage in a frame", Reason.MALFORMED_MESSAGE,
            w -> w.writeFrame("not a protobuf".getBytes(StandardCharsets.US_ASCII))),
        c("a nonce of 15 bytes", Reason.MALFORMED_MESSAGE,
            w -> w.writeFrame(gcm(w).peer.withNonce(new byte[15]).propose())),
        c("only Twofish, Blowfish and NULL", Reason.NO_COMMON_ALGORITHMS,
            w -> w.writeFrame(PeerOnWire.proposing(w, "TwofishCTR,BlowfishCTR,NULL").peer.propose())),
        // A dialer that dials its own peer id and meets a mirror.
        new Case("the dialer's own Propose reflected", Reason.SELF_CONNECTION, HOSTILE,
            Dialect.LIBP2P.peerId(HostileConfigs.nodeIdentity().publicKey()), w -> w.writeFrame(w.readFrame())),
        c("a signature over other bytes", Reason.BAD_SIGNATURE, w -> {
          PeerOnWire p = gcm(w).proposes();
          byte[] wrong = p.identity.sign("other".getBytes(StandardCharsets.US_ASCII));
          w.writeFrame(p.peer.exchange(Crafted.validP256Point(), sig -> wrong));
        }),
        new Case("a high-S secp256k1 signature", Reason.BAD_SIGNATURE, SECP, Dialect.LIBP2P.peerId(SECP.publicKey()), w -> {
          PeerOnWire p = new PeerOnWire(w, SECP, "P-256", "AES-128-GCM", "SHA256").proposes();
          w.writeFrame(p.peer.exchange(Crafted.validP256Point(), Crafted::toHighS));
        }),
        c("an ephemeral key off the curve", Reason.BAD_EPHEMERAL_KEY, w -> {
          PeerOnWire p = gcm(w).proposes();
          w.writeFrame(p.peer.exchange(Crafted.offCurveP256Point(), UnaryOperator.identity()));
        }),
        c("X25519 u = 0", Reason.BAD_EPHEMERAL_KEY, w -> {
          PeerOnWire p = new PeerOnWire(w, HOSTILE, "X25519", "AES-128-GCM", "SHA256").proposes();
          w.writeFrame(p.peer.exchange(new byte[32], UnaryOperator.identity()));
        }),
        c("a wrong nonce echo", Reason.NONCE_MISMATCH, w -> {
          PeerOnWire p = gcm(w).proposes().sendExchange().readExchange();
          w.writeFrame(p.peer.seal(new byte[16]));
        }),
        c("data instead of the echo, CTR", Reason.NONCE_MISMATCH, w -> {
          PeerOnWire p = PeerOnWire.proposing(w, "AES-256").proposes().sendExchange().readExchange();
          w.writeFrame(p.peer.seal("forged".getBytes(StandardCharsets.US_ASCII)));
        }),
        c("silent after accepting", Reason.TIMEOUT, w -> { }),
        c("stops after its Propose", Reason.TIMEOUT, w -> gcm(w).proposes()),
        c("stops after its Exchange", Reason.TIMEOUT, w -> gcm(w).proposes().sendExchange().readExchange()),
        c("closes after its Propose", Reason.CLOSED, w -> {
          gcm(w).proposes();
          w.close();
        }),
        c("resets after its Propose", Reason.CLOSED, w -> {
          gcm(w).proposes();
          w.reset();
        }));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void dialerRefusesInTimeAndDeliversNothing(Case c) throws Exception {
    try (Dialer dialer = new Dialer()) {
      Dialer.Dialled d = dialer.dial(HostileConfigs.node().build(), c.expectedPeer(), READ_TIMEOUT);
      c.script().run(d.hostile());
      Outcomes.assertHandshakeRefused(d.client(), c.expected());
      if (!d.hostile().isClosed()) {
        assertNotNull(d.hostile().awaitEnd(), "the hostile listener saw the connection end");
      }
    }
  }
}
