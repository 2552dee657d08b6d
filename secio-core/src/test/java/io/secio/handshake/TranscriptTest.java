package io.secio.handshake;

import static io.secio.testing.Vectors.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.crypto.CryptoBackend;
import io.secio.crypto.EphemeralKeyPair;
import io.secio.crypto.Primitive;
import io.secio.frame.FrameReader;
import io.secio.frame.Frames;
import io.secio.frame.cipher.KeyStretcher;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.protocol.ProtocolVersion;
import io.secio.testing.TestBackends;
import io.secio.testing.TestIdentities;
import io.secio.testing.Vectors;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every byte of the libp2p v0.1 transcript (shared/vectors/libp2p-secio-transcript.json), reproduced
 * by two engines fed the transcript's fixed nonces and ephemeral scalars, on every backend.
 */
class TranscriptTest {
  private static final JsonObject T = Vectors.transcript();
  private static final byte[] HELLO = "hello".getBytes(StandardCharsets.US_ASCII);

  static HandshakeEngine engine(String side, CryptoBackend backend) {
    JsonObject s = T.getAsJsonObject(side);
    SecioConfig config = SecioConfig.builder(TestIdentities.ed25519FromSeed(hex(s, "seed"), hex(s, "pub")))
        .exchanges(names(s.get("ex").getAsString(), n -> ExchangeAlgorithm.fromWireName(n).orElseThrow()))
        .ciphers(names(s.get("ci").getAsString(), n -> CipherAlgorithm.fromWireName(n).orElseThrow()))
        .hashes(names(s.get("ha").getAsString(), n -> HashAlgorithm.fromWireName(n).orElseThrow()))
        .build();
    return HandshakeEngine.createForKnownAnswers(
        config, backend, hex(s, "nonce"), Vectors.hex(T.get(side + "_ephemeral_scalar")));
  }

  private static <E> List<E> names(String list, java.util.function.Function<String, E> parse) {
    return Arrays.stream(list.split(",")).map(parse).toList();
  }

  @TestFactory
  Stream<DynamicTest> everyByteOnEveryBackend() {
    List<DynamicTest> tests = new ArrayList<>();
    for (CryptoBackend backend : TestBackends.all()) {
      if (!backend.offers(Primitive.ECDH_P384) || !backend.offers(Primitive.AES_CTR)
          || !backend.offers(Primitive.HMAC_SHA512)) {
        continue;
      }
      tests.add(DynamicTest.dynamicTest(backend.name(), () -> checkEveryByte(backend)));
    }
    assertFalse(tests.isEmpty(), "no backend can run the transcript");
    return tests.stream();
  }

  private static void checkEveryByte(CryptoBackend backend) throws Exception {
    InMemoryHandshake h = new InMemoryHandshake(engine("A", backend), engine("B", backend)).run();
    JsonObject a = T.getAsJsonObject("A");
    JsonObject b = T.getAsJsonObject("B");
    assertArrayEquals(hex(a, "propose"), h.sentByA.get(0), "A propose");
    assertArrayEquals(hex(b, "propose"), h.sentByB.get(0), "B propose");
    assertArrayEquals(hex(a, "exchange"), h.sentByA.get(1), "A exchange");
    assertArrayEquals(hex(b, "exchange"), h.sentByB.get(1), "B exchange");
    assertArrayEquals(Vectors.hex(T.getAsJsonArray("frames_sent_by_A").get(0)), h.sentByA.get(2), "A echo");
    assertArrayEquals(Vectors.hex(T.getAsJsonArray("frames_sent_by_B").get(0)), h.sentByB.get(2), "B echo");
    assertEquals(3, h.sentByA.size());
    assertTrue(h.a.isComplete() && h.b.isComplete());

    SecioSession sa = h.sessionA();
    SecioSession sb = h.sessionB();
    for (SecioSession s : List.of(sa, sb)) {
      assertEquals(ExchangeAlgorithm.P_384, s.exchange());
      assertEquals(CipherAlgorithm.AES_128_CTR, s.cipher());
      assertEquals(HashAlgorithm.SHA512, s.hash());
      assertEquals(ProtocolVersion.V0_1, s.version());
    }
    assertFalse(sa.isLocalPreferred());
    assertTrue(sb.isLocalPreferred());
    assertEquals(sb.localPeerId(), sa.remotePeerId());

    byte[] helloA = h.ciphersA().sealer().seal(HELLO);
    byte[] helloB = h.ciphersB().sealer().seal(HELLO);
    assertArrayEquals(Vectors.hex(T.getAsJsonArray("frames_sent_by_A").get(1)), helloA, "A hello");
    assertArrayEquals(Vectors.hex(T.getAsJsonArray("frames_sent_by_B").get(1)), helloB, "B hello");
    assertArrayEquals(HELLO, h.ciphersB().opener().open(helloA));
    assertArrayEquals(HELLO, h.ciphersA().opener().open(helloB));
  }

  @TestFactory
  Stream<DynamicTest> sharedSecretAndKeys() {
    List<DynamicTest> tests = new ArrayList<>();
    for (CryptoBackend backend : TestBackends.offering(Primitive.ECDH_P384)) {
      tests.add(DynamicTest.dynamicTest(backend.name(), () -> {
        EphemeralKeyPair ea = backend.ephemeralFromPrivate(
            ExchangeAlgorithm.P_384, Vectors.hex(T.get("A_ephemeral_scalar")));
        assertArrayEquals(hex(T.getAsJsonObject("A"), "epub"), ea.publicKey());
        byte[] secret = ea.agree(hex(T.getAsJsonObject("B"), "epub"));
        assertArrayEquals(hex(T, "shared_secret"), secret);
        KeyStretcher.StretchedKeys keys =
            KeyStretcher.stretch(CipherAlgorithm.AES_128_CTR, HashAlgorithm.SHA512, secret);
        Vectors.assertKeys(T.getAsJsonObject("k1"), keys.k1());
        Vectors.assertKeys(T.getAsJsonObject("k2"), keys.k2());
      }));
    }
    return tests.stream();
  }

  static Stream<Long> seeds() {
    return IntStream.range(0, 50).mapToObj(i -> 7_000L + i);
  }

  /** Any split of each side's byte stream into reads gives the same bytes and the same outcome. */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void anySplitOfTheStreamGivesTheSameResult(long seed) throws Exception {
    Random random = new Random(seed);
    CryptoBackend backend = io.secio.crypto.CryptoBackends.defaultBackend();
    HandshakeEngine a = engine("A", backend);
    HandshakeEngine b = engine("B", backend);
    FrameReader readerA = new FrameReader(SecioConfig.DEFAULT_MAX_FRAME_LENGTH_IN_BYTES);
    FrameReader readerB = new FrameReader(SecioConfig.DEFAULT_MAX_FRAME_LENGTH_IN_BYTES);
    List<byte[]> sentByA = new ArrayList<>(a.start());
    List<byte[]> sentByB = new ArrayList<>(b.start());
    int deliveredToA = 0;
    int deliveredToB = 0;
    while (deliveredToA < sentByB.size() || deliveredToB < sentByA.size()) {
      byte[] streamToB = stream(sentByA.subList(deliveredToB, sentByA.size()));
      deliveredToB = sentByA.size();
      for (byte[] frame : readInRandomChunks(readerB, streamToB, random)) {
        if (!b.isComplete()) {
          sentByB.addAll(b.receive(frame));
        }
      }
      byte[] streamToA = stream(sentByB.subList(deliveredToA, sentByB.size()));
      deliveredToA = sentByB.size();
      for (byte[] frame : readInRandomChunks(readerA, streamToA, random)) {
        if (!a.isComplete()) {
          sentByA.addAll(a.receive(frame));
        }
      }
    }
    assertTrue(a.isComplete() && b.isComplete(), "seed " + seed);
    assertArrayEquals(hex(T.getAsJsonObject("A"), "exchange"), sentByA.get(1), "seed " + seed);
    assertArrayEquals(Vectors.hex(T.getAsJsonArray("frames_sent_by_B").get(0)), sentByB.get(2), "seed " + seed);
  }

  private static byte[] stream(List<byte[]> payloads) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : payloads) {
      out.writeBytes(Frames.withHeader(p));
    }
    return out.toByteArray();
  }

  private static List<byte[]> readInRandomChunks(FrameReader reader, byte[] stream, Random random)
      throws Exception {
    List<byte[]> frames = new ArrayList<>();
    int offset = 0;
    while (offset < stream.length) {
      int n = 1 + random.nextInt(Math.min(stream.length - offset, 1 + random.nextInt(200)));
      frames.addAll(reader.read(ByteBuffer.wrap(stream, offset, n)));
      offset += n;
    }
    return frames;
  }
}
