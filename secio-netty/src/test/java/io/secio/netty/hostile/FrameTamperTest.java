package io.secio.netty.hostile;

import static io.secio.netty.hostile.HostileConfigs.READ_TIMEOUT;
import static io.secio.netty.hostile.HostileConfigs.WAIT_SECONDS;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.protocol.SecioException.Reason;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * After an honest handshake, the hostile dialer damages one data frame and keeps sending honest ones
 * behind it, all in one write. For every cipher family the listener's application gets exactly the
 * frames before the damage, then one {@code SecioException} with the asserted reason; the channel
 * closes and nothing after the bad frame is delivered.
 */
class FrameTamperTest {
  private static final byte[] BEFORE = ascii("an honest frame before the damage");
  /** Odd length, so flipping bit 0 of its header shortens it and flipping bit 2 lengthens it. */
  private static final byte[] DAMAGED = ascii("hello world");
  private static final byte[] AFTER = ascii("an honest frame after it, to be dropped");

  /** Cipher and hash the hostile peer proposes (the listener offers everything). */
  record Suite(String cipher, String hash, int overhead) {
    @Override
    public String toString() {
      return cipher + "/" + hash;
    }
  }

  static final List<Suite> SUITES = List.of(
      new Suite("AES-128-GCM", "SHA256", 16),
      new Suite("CHACHA20_POLY1305", "SHA256", 16),
      new Suite("AES-128", "SHA256", 32),
      new Suite("AES-256", "SHA512", 64));

  /** How the damaged frame (header and body, sealed honestly) is bent. */
  interface Damage {
    byte[] apply(byte[] frame, Suite suite);
  }

  record Tamper(String name, Reason expected, Damage damage) {
    @Override
    public String toString() {
      return name;
    }
  }

  static final List<Tamper> TAMPERS = List.of(
      new Tamper("bit 0 of the length flipped (one byte short)", Reason.AUTHENTICATION_FAILED,
          (f, s) -> flip(f, 31)),
      new Tamper("bit 2 of the length flipped (four bytes long)", Reason.AUTHENTICATION_FAILED,
          (f, s) -> flip(f, 29)),
      new Tamper("bit 31 of the length flipped", Reason.FRAME_TOO_LONG, (f, s) -> flip(f, 0)),
      new Tamper("first ciphertext bit flipped", Reason.AUTHENTICATION_FAILED, (f, s) -> flip(f, 32)),
      new Tamper("last ciphertext bit flipped", Reason.AUTHENTICATION_FAILED,
          (f, s) -> flip(f, 8 * (f.length - s.overhead()) - 1)),
      new Tamper("first MAC or tag bit flipped", Reason.AUTHENTICATION_FAILED,
          (f, s) -> flip(f, 8 * (f.length - s.overhead()))),
      new Tamper("last MAC or tag bit flipped", Reason.AUTHENTICATION_FAILED, (f, s) -> flip(f, 8 * f.length - 1)),
      new Tamper("MAC or tag cut off", Reason.FRAME_TOO_SHORT,
          (f, s) -> RawPeer.frame(Arrays.copyOfRange(f, 4, 4 + s.overhead() - 1))),
      new Tamper("a zero-length frame", Reason.FRAME_TOO_SHORT, (f, s) -> RawPeer.frame(new byte[0])),
      new Tamper("MAC or tag alone, no ciphertext", Reason.AUTHENTICATION_FAILED,
          (f, s) -> RawPeer.frame(Arrays.copyOfRange(f, f.length - s.overhead(), f.length))));

  static Stream<Arguments> everySuiteAndTamper() {
    List<Arguments> args = new ArrayList<>();
    for (Suite s : SUITES) {
      for (Tamper t : TAMPERS) {
        args.add(Arguments.of(s, t));
      }
    }
    return args.stream();
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("everySuiteAndTamper")
  void damagedFrameIsFatalAndNothingAfterItIsDelivered(Suite suite, Tamper tamper) throws Exception {
    try (Listener listener = Listener.start(HostileConfigs.node().build());
        RawPeer wire = RawPeer.dial(listener.address(), READ_TIMEOUT)) {
      Connection conn = listener.next(WAIT_SECONDS);
      PeerOnWire peer = new PeerOnWire(wire, HostileConfigs.peerIdentity(), "P-256", suite.cipher(), suite.hash())
          .handshake();
      // Sealed in sending order: each frame consumes the next nonce or keystream.
      byte[] before = peer.sealedFrame(BEFORE);
      byte[] damaged = tamper.damage().apply(peer.sealedFrame(DAMAGED), suite);
      byte[] after = peer.sealedFrame(AFTER);
      long sent = System.nanoTime();
      wire.writeRaw(Crafted.concat(before, damaged, after));
      Outcomes.assertFrameRefused(conn, tamper.expected(), BEFORE, sent);
      wire.awaitEnd();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("suites")
  void undamagedFramesAllArrive(Suite suite) throws Exception {
    // The control for the cases above: the same frames, undamaged, all reach the application.
    try (Listener listener = Listener.start(HostileConfigs.node().build());
        RawPeer wire = RawPeer.dial(listener.address(), READ_TIMEOUT)) {
      Connection conn = listener.next(WAIT_SECONDS);
      PeerOnWire peer = new PeerOnWire(wire, HostileConfigs.peerIdentity(), "P-256", suite.cipher(), suite.hash())
          .handshake();
      byte[] all = Crafted.concat(BEFORE, DAMAGED, AFTER);
      wire.writeRaw(Crafted.concat(peer.sealedFrame(BEFORE), peer.sealedFrame(DAMAGED), peer.sealedFrame(AFTER)));
      assertTrue(conn.app.awaitBytes(all.length, WAIT_SECONDS), "not everything arrived");
      org.junit.jupiter.api.Assertions.assertArrayEquals(all, conn.app.received());
      org.junit.jupiter.api.Assertions.assertEquals(List.of(), conn.app.exceptions());
      assertTrue(conn.channel.isOpen());
      assertTrue(conn.handshake.get(WAIT_SECONDS, TimeUnit.SECONDS).cipher().wireName().startsWith(
          suite.cipher()));
    }
  }

  static List<Suite> suites() {
    return SUITES;
  }

  /** Flips bit {@code bit} of {@code frame}, counting from the most significant bit of byte 0. */
  private static byte[] flip(byte[] frame, int bit) {
    byte[] out = frame.clone();
    out[bit / 8] ^= (byte) (0x80 >>> (bit % 8));
    return out;
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
