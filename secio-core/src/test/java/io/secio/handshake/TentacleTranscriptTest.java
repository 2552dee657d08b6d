package io.secio.handshake;

import static io.secio.testing.Vectors.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.crypto.CryptoBackend;
import io.secio.crypto.Primitive;
import io.secio.frame.CipherPair;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.protocol.ProtocolVersion;
import io.secio.protocol.SecioException;
import io.secio.testing.TentacleTranscripts;
import io.secio.testing.TestBackends;
import io.secio.testing.TestIdentities;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every byte of the nine transcripts recorded from tentacle-secio 0.6.1 (vectors/tentacle/), with
 * this project's engine in the tentacle dialect playing A against B's recorded bytes, and B against
 * A's, on every backend that has the transcript's algorithms. The engine gets the side's key, lists,
 * nonce and ephemeral secret (the random transcripts record theirs too), must write exactly what
 * that side wrote (Propose, Exchange, nonce echo, then "hello", 1,000 x 00 and 70,000 x 5a sealed one
 * frame each), and must accept and open everything the other side wrote.
 */
class TentacleTranscriptTest {

  static HandshakeEngine engine(JsonObject transcript, String side, CryptoBackend backend) {
    JsonObject s = transcript.getAsJsonObject(side);
    JsonObject lists = s.getAsJsonObject("propose_fields");
    SecioConfig config = SecioConfig.builder(TestIdentities.secp256k1(hex(s, "seckey")))
        .dialect(Dialect.TENTACLE)
        .exchanges(names(lists, "exchanges", n -> ExchangeAlgorithm.fromWireName(n).orElseThrow()))
        .ciphers(names(lists, "ciphers", n -> CipherAlgorithm.fromWireName(n).orElseThrow()))
        .hashes(names(lists, "hashes", n -> HashAlgorithm.fromWireName(n).orElseThrow()))
        .build();
    return HandshakeEngine.createForKnownAnswers(config, backend, hex(s, "nonce"), hex(s, "eph_secret"));
  }

  private static <E> List<E> names(JsonObject lists, String field, Function<String, E> parse) {
    return Arrays.stream(lists.get(field).getAsString().split(",")).map(parse).toList();
  }

  @TestFactory
  Stream<DynamicTest> everyByteAsEitherSideOnEveryBackend() {
    List<DynamicTest> tests = new ArrayList<>();
    for (String name : TentacleTranscripts.NAMES) {
      JsonObject t = TentacleTranscripts.load(name);
      JsonObject chosen = t.getAsJsonObject("chosen");
      ExchangeAlgorithm exchange = ExchangeAlgorithm.fromWireName(chosen.get("exchange").getAsString()).orElseThrow();
      CipherAlgorithm cipher = CipherAlgorithm.fromWireName(chosen.get("cipher").getAsString()).orElseThrow();
      HashAlgorithm hash = HashAlgorithm.fromWireName(chosen.get("hash").getAsString()).orElseThrow();
      for (CryptoBackend backend : TestBackends.all()) {
        if (!backend.offers(Primitive.of(exchange)) || !backend.offers(Primitive.of(cipher))
            || !backend.offers(Primitive.of(hash))) {
          continue;
        }
        for (String side : List.of("A", "B")) {
          tests.add(DynamicTest.dynamicTest(name + " as " + side + " on " + backend.name(),
              () -> playSide(t, side, backend, exchange, cipher, hash)));
        }
      }
    }
    // The default backend has every algorithm tentacle uses: each transcript runs at least there.
    assertTrue(tests.size() >= 2 * TentacleTranscripts.NAMES.size(), "every transcript, both sides");
    return tests.stream();
  }

  private static void playSide(JsonObject t, String side, CryptoBackend backend,
      ExchangeAlgorithm exchange, CipherAlgorithm cipher, HashAlgorithm hash) throws Exception {
    String peer = TentacleTranscripts.other(side);
    List<byte[]> wrote = TentacleTranscripts.framesSentBy(t, side);
    List<byte[]> received = TentacleTranscripts.framesSentBy(t, peer);
    assertEquals(TentacleTranscripts.FRAMES_PER_DIRECTION, wrote.size());
    HandshakeEngine engine = engine(t, side, backend);
    assertEquals(Dialect.TENTACLE, engine.dialect());

    List<byte[]> sent = new ArrayList<>(engine.start());
    sent.addAll(engine.receive(received.get(0)));
    sent.addAll(engine.receive(received.get(1)));
    assertFalse(engine.isComplete(), "complete before the peer's echo");
    engine.receive(received.get(2));
    assertTrue(engine.isComplete());
    assertEquals(3, sent.size());
    assertArrayEquals(wrote.get(0), sent.get(0), "Propose");
    assertArrayEquals(wrote.get(1), sent.get(1), "Exchange");
    assertArrayEquals(wrote.get(2), sent.get(2), "nonce echo");

    SecioSession session = engine.session();
    CipherPair ciphers = engine.split();
    assertEquals(Dialect.TENTACLE, session.dialect());
    assertEquals(exchange, session.exchange());
    assertEquals(cipher, session.cipher());
    assertEquals(hash, session.hash());
    assertEquals(ProtocolVersion.V0_2, session.version());
    assertEquals(t.getAsJsonObject(side).get("order = cmp(oh1, oh2)").getAsString().equals("Greater"),
        session.isLocalPreferred());
    assertEquals(t.getAsJsonObject(side).get("peer_id_base58").getAsString(), session.localPeerId().toBase58());
    assertEquals(t.getAsJsonObject(peer).get("peer_id_base58").getAsString(), session.remotePeerId().toBase58());

    for (int i = TentacleTranscripts.FIRST_DATA_FRAME; i < TentacleTranscripts.FRAMES_PER_DIRECTION; i++) {
      assertArrayEquals(wrote.get(i), ciphers.sealer().seal(TentacleTranscripts.plaintext(t, side, i)),
          "data frame " + i);
      assertArrayEquals(TentacleTranscripts.plaintext(t, peer, i), ciphers.opener().open(received.get(i)),
          "peer's data frame " + i);
    }
  }

  @TestFactory
  Stream<DynamicTest> aHighSSignatureIsRefused() {
    return TentacleTranscripts.NAMES.stream().flatMap(name -> Stream.of("A", "B").map(side ->
        DynamicTest.dynamicTest(name + " as " + side, () -> {
          JsonObject t = TentacleTranscripts.load(name);
          JsonObject p = t.getAsJsonObject(TentacleTranscripts.other(side));
          HandshakeEngine engine = engine(t, side, io.secio.crypto.CryptoBackends.defaultBackend());
          engine.start();
          engine.receive(hex(p, "propose"));
          byte[] highS = MoleculeMessages.encodeExchange(new Exchange(
              hex(p, "epub"), hex(p, "signature_high_s_variant_der (REJECTED by tentacle)")));
          SecioException e = assertThrows(SecioException.class, () -> engine.receive(highS));
          assertEquals(SecioException.Reason.BAD_SIGNATURE, e.reason());
          assertEquals(HandshakeEngine.State.FAILED, engine.state());
        })));
  }
}
