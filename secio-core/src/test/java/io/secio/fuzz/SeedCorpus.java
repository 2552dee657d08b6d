package io.secio.fuzz;

import com.google.gson.JsonObject;
import io.secio.Dialect;
import io.secio.crypto.CryptoBackends;
import io.secio.frame.Frames;
import io.secio.frame.cipher.DirectionKeys;
import io.secio.handshake.ScriptedPeer;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.testing.TentacleTranscripts;
import io.secio.testing.TestIdentities;
import io.secio.testing.Vectors;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;

/**
 * Writes the seed inputs of every {@code @FuzzTest} into {@code src/test/resources}. Run by hand
 * when a target's input layout changes (see docs/FUZZING.md); the files are committed and replayed
 * by {@code mvn test}. Seeds of the handshake targets are named {@code seed-STATE.*} for the state
 * they reach; {@code HandshakeEngineFuzzTest} checks that the saved inputs reach every state.
 */
public final class SeedCorpus {
  private static final JsonObject T = Vectors.transcript();

  private SeedCorpus() {}

  public static void main(String[] args) throws Exception {
    Path resources = Paths.get(args.length > 0 ? args[0] : "src/test/resources");
    handshakeAnyPeerMessages(resources.resolve("io/secio/handshake/HandshakeEngineFuzzTestInputs/anyPeerMessages"));
    handshakeAfterAValidPropose(resources.resolve("io/secio/handshake/HandshakeEngineFuzzTestInputs/afterAValidPropose"));
    Path fuzz = resources.resolve("io/secio/fuzz");
    frameOpener(fuzz.resolve("FrameOpenerFuzzTestInputs"));
    frameReader(fuzz.resolve("FrameReaderFuzzTestInputs/cutsAnyStreamIntoTheModelsFrames"));
    identity(fuzz.resolve("IdentityFuzzTestInputs"));
    molecule(resources.resolve("io/secio/handshake/MoleculeMessagesFuzzTestInputs"));
  }

  /** Every Propose, Exchange and PublicKey union that tentacle wrote in the transcripts. */
  private static void molecule(Path dir) throws IOException {
    for (String name : TentacleTranscripts.NAMES) {
      for (String side : List.of("A", "B")) {
        JsonObject s = TentacleTranscripts.load(name).getAsJsonObject(side);
        String seed = "seed-" + name + "-" + side;
        write(dir.resolve("anyPropose"), seed, Vectors.hex(s, "propose"));
        write(dir.resolve("anyExchange"), seed, Vectors.hex(s, "exchange"));
        write(dir.resolve("anyPublicKeyUnion"), seed, Vectors.hex(
            s.getAsJsonObject("propose_fields"), "pubkey (molecule PublicKey union bytes)"));
      }
    }
  }

  /** Side B's messages of the transcript, 1 to 4 of them, and other valid Proposes. */
  private static void handshakeAnyPeerMessages(Path dir) throws Exception {
    JsonObject b = T.getAsJsonObject("B");
    List<byte[]> messages = List.of(
        Vectors.hex(b, "propose"),
        Vectors.hex(b, "exchange"),
        Vectors.hex(T.getAsJsonArray("frames_sent_by_B").get(0)),
        Vectors.hex(T.getAsJsonArray("frames_sent_by_B").get(1)));
    String[] reached = {"AWAITING_EXCHANGE", "AWAITING_NONCE_ECHO", "COMPLETE", "COMPLETE"};
    for (int count = 1; count <= messages.size(); count++) {
      write(dir, "seed-" + reached[count - 1] + ".transcript-" + count, peerMessages(messages.subList(0, count)));
    }
    // Proposes with the other identity key types, which engine A accepts.
    for (KeyType type : List.of(KeyType.RSA, KeyType.SECP256K1, KeyType.ECDSA)) {
      byte[] propose = new ScriptedPeer(TestIdentities.of(type)).proposing("P-256", "AES-128", "SHA256").propose();
      write(dir, "seed-AWAITING_EXCHANGE.propose-" + type, peerMessages(List.of(propose)));
    }
    write(dir, "seed-FAILED.garbage", peerMessages(List.of(new byte[] {0x0a, 0x10})));
  }

  private static byte[] peerMessages(List<byte[]> messages) {
    FuzzedDataWriter w = new FuzzedDataWriter().integer(messages.size(), 1, 6);
    for (int i = 0; i < messages.size() - 1; i++) {
      w.sized(messages.get(i), 2048);
    }
    return w.bytes(messages.get(messages.size() - 1)).toByteArray();
  }

  // The modes of HandshakeEngineFuzzTest.afterAValidPropose.
  private static final int EXCHANGE_RAW = 0;
  private static final int EXCHANGE_SIGNED_EPUB = 1;
  private static final int EXCHANGE_FUZZED_SIGNATURE = 2;
  private static final int EXCHANGE_HONEST = 3;
  private static final int ECHO_SEALED = 1;
  private static final int ECHO_HONEST = 2;
  private static final int SCENARIOS = 5;

  private static void handshakeAfterAValidPropose(Path dir) throws Exception {
    byte[] hello = "hello".getBytes(StandardCharsets.US_ASCII);
    for (int s = 0; s < SCENARIOS; s++) {
      write(dir, "seed-COMPLETE.scenario-" + s, new FuzzedDataWriter()
          .integer(s, 0, SCENARIOS - 1).integer(EXCHANGE_HONEST, 0, 3).integer(ECHO_HONEST, 0, 2)
          .sized(hello, 64).sized(new byte[0], 64).toByteArray());
    }
    write(dir, "seed-FAILED.nonce-mismatch", new FuzzedDataWriter()
        .integer(0, 0, SCENARIOS - 1).integer(EXCHANGE_HONEST, 0, 3).integer(ECHO_SEALED, 0, 2)
        .sized(new byte[16], 64).toByteArray());
    write(dir, "seed-FAILED.fuzzed-signature", new FuzzedDataWriter()
        .integer(1, 0, SCENARIOS - 1).integer(EXCHANGE_FUZZED_SIGNATURE, 0, 3)
        .sized(new byte[64], 600).toByteArray());
    byte[] point = CryptoBackends.defaultBackend()
        .generateEphemeral(ExchangeAlgorithm.P_256, new SecureRandom()).publicKey();
    byte[] offCurve = point.clone();
    offCurve[offCurve.length - 1] ^= 1;
    write(dir, "seed-FAILED.signed-point-off-curve", new FuzzedDataWriter()
        .integer(0, 0, SCENARIOS - 1).integer(EXCHANGE_SIGNED_EPUB, 0, 3)
        .sized(offCurve, 600).toByteArray());
    // Another valid point, correctly signed: accepted, but the echo then comes under other keys.
    write(dir, "seed-FAILED.signed-other-point", new FuzzedDataWriter()
        .integer(0, 0, SCENARIOS - 1).integer(EXCHANGE_SIGNED_EPUB, 0, 3)
        .sized(point, 600).integer(0, 0, 2).sized(new byte[32], 2048).toByteArray());
    write(dir, "seed-FAILED.raw-exchange", new FuzzedDataWriter()
        .integer(2, 0, SCENARIOS - 1).integer(EXCHANGE_RAW, 0, 3)
        .sized(new byte[] {0x0a, 0x20}, 2048).toByteArray());
  }

  // The frame kinds of FrameOpenerFuzzTest.
  private static final int HONEST = 0;
  private static final int RAW = 1;
  private static final int TAMPERED = 2;
  private static final int REPLAY = 3;

  private static void frameOpener(Path dir) throws Exception {
    byte[] hello = "hello".getBytes(StandardCharsets.US_ASCII);
    byte[] block = new byte[40];
    Arrays.fill(block, (byte) 0x61);
    for (CipherAlgorithm cipher : CipherAlgorithm.values()) {
      Path d = dir.resolve(method(cipher));
      for (int backend = 0; backend < 3; backend++) {
        for (boolean nearWrap : new boolean[] {false, true}) {
          // Honest frames through both interfaces, then a replay and a tampered frame.
          FuzzedDataWriter w = opener(backend, true, !nearWrap);
          w.integer(HONEST, 0, 3).bool(false).bool(false).sized(hello, 300);
          w.integer(HONEST, 0, 3).bool(true).bool(backend == 1).sized(block, 300);
          w.integer(HONEST, 0, 3).bool(true).bool(false).sized(new byte[0], 300);
          w.integer(REPLAY, 0, 3).bool(false).bool(false);
          w.integer(TAMPERED, 0, 3).bool(false).bool(false).sized(hello, 300).integer(0, 0, 4 + overhead(cipher))
              .integer(1, 1, 255);
          write(d, "seed-honest-replay-tampered.backend-" + backend + (nearWrap ? ".near-wrap" : ""),
              w.toByteArray());
        }
      }
      // The first frame as raw bytes: authentic, so it opens.
      FrameOpenerFuzzTest.Reference reference = new FrameOpenerFuzzTest.Reference(cipher, HashAlgorithm.SHA256,
          new DirectionKeys(Arrays.copyOf(FrameOpenerFuzzTest.IV, cipher.ivSizeInBytes()),
              Arrays.copyOf(FrameOpenerFuzzTest.CIPHER_KEY, cipher.keySizeInBytes()),
              FrameOpenerFuzzTest.MAC_KEY));
      byte[] first = reference.sealNext(hello);
      write(d, "seed-raw-authentic", opener(0, true, true)
          .integer(RAW, 0, 3).bool(false).bool(false).sized(first, 300)
          .integer(RAW, 0, 3).bool(false).bool(false).sized(new byte[3], 300).toByteArray());
    }
  }

  private static FuzzedDataWriter opener(int backend, boolean sha256, boolean plainIv) {
    return new FuzzedDataWriter().integer(backend, 0, 2).bool(sha256).bool(plainIv);
  }

  private static int overhead(CipherAlgorithm cipher) {
    return cipher.isAead() ? CipherAlgorithm.TAG_SIZE_IN_BYTES : HashAlgorithm.SHA256.macSizeInBytes();
  }

  private static String method(CipherAlgorithm cipher) {
    switch (cipher) {
      case AES_128_GCM:
        return "aes128Gcm";
      case AES_256_GCM:
        return "aes256Gcm";
      case CHACHA20_POLY1305:
        return "chacha20Poly1305";
      case AES_128_CTR:
        return "aes128Ctr";
      default:
        return "aes256Ctr";
    }
  }

  /** The transcript's handshake stream, cut at several places, and a header over the limit. */
  private static void frameReader(Path dir) throws IOException {
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    JsonObject b = T.getAsJsonObject("B");
    stream.writeBytes(Frames.withHeader(Vectors.hex(b, "propose")));
    stream.writeBytes(Frames.withHeader(Vectors.hex(b, "exchange")));
    stream.writeBytes(Frames.withHeader(new byte[0]));
    stream.writeBytes(Frames.withHeader(new byte[600]));
    stream.writeBytes(Frames.withHeader(Vectors.hex(T.getAsJsonArray("frames_sent_by_B").get(0))));
    byte[] all = stream.toByteArray();
    for (int chunk : new int[] {1, 3, 4, 7, 300}) {
      FuzzedDataWriter w = new FuzzedDataWriter().integer(1024, 0, 1100);
      for (int offset = 0; offset < all.length; offset += chunk) {
        w.bool(chunk == 7).sized(Arrays.copyOfRange(all, offset, Math.min(all.length, offset + chunk)), 300);
      }
      write(dir, "seed-transcript-stream.chunks-of-" + chunk, w.toByteArray());
    }
    byte[] tooLong = {0x00, 0x00, 0x04, 0x01, 0x00};
    write(dir, "seed-too-long", new FuzzedDataWriter().integer(1024, 0, 1100).bool(false)
        .sized(tooLong, 300).toByteArray());
  }

  /** A real key of each type with a real signature, and each key's peer id. */
  private static void identity(Path dir) throws IOException {
    byte[] message = "secio fuzz seed".getBytes(StandardCharsets.US_ASCII);
    for (KeyType type : KeyType.values()) {
      IdentityKeyPair key = TestIdentities.of(type);
      write(dir.resolve("publicKeyFromProtobuf"), "seed-" + type, new FuzzedDataWriter()
          .sized(message, 64).sized(key.sign(message), 600).bytes(key.publicKey().toProtobuf())
          .toByteArray());
      write(dir.resolve("peerIdParse"), "seed-" + type,
          Dialect.LIBP2P.peerId(key.publicKey()).toBase58().getBytes(StandardCharsets.US_ASCII));
    }
  }

  private static void write(Path dir, String name, byte[] bytes) throws IOException {
    Files.createDirectories(dir);
    Files.write(dir.resolve(name), bytes);
  }
}
