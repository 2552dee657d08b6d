package io.secio.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;

/**
 * The nine transcripts recorded from the real tentacle-secio 0.6.1 ({@code vectors/tentacle/}, see
 * its README): names, sides and the plaintext of each data frame.
 */
public final class TentacleTranscripts {
  /** Every transcript, by file name without {@code .json}. */
  public static final List<String> NAMES = List.of(
      "p256_aes128gcm_sha256_fixed",
      "p256_aes128gcm_sha256_random",
      "p384_aes256gcm_sha512_fixed",
      "p384_aes256gcm_sha512_random",
      "x25519_chacha20poly1305_sha256_fixed",
      "x25519_chacha20poly1305_sha256_random",
      "defaults_fixed",
      "preference_mixed_fixed",
      "preference_mixed_swapped_nonces_fixed");

  /** Frames per direction: Propose, Exchange, nonce echo, then three data frames. */
  public static final int FRAMES_PER_DIRECTION = 6;
  public static final int FIRST_DATA_FRAME = 3;

  private TentacleTranscripts() {}

  public static JsonObject load(String name) {
    return Vectors.load("tentacle/" + name + ".json");
  }

  /** The side {@code "A"} or {@code "B"}. */
  public static JsonObject side(JsonObject transcript, String side) {
    return transcript.getAsJsonObject(side);
  }

  public static String other(String side) {
    return side.equals("A") ? "B" : "A";
  }

  /** The frame payloads {@code side} wrote, without their length prefixes. */
  public static List<byte[]> framesSentBy(JsonObject transcript, String side) {
    JsonArray frames = transcript.getAsJsonArray("frames_" + side + "_to_" + other(side));
    return frames.asList().stream()
        .map(f -> Hex.decode(f.getAsJsonObject().get("frame_hex").getAsString()))
        .toList();
  }

  /**
   * The plaintext of data frame {@code index} (3 to 5) that {@code side} sent, rebuilt from its
   * description ("hello", 1,000 x 00, 70,000 x 5a) and checked against the recorded SHA-256.
   */
  public static byte[] plaintext(JsonObject transcript, String side, int index) {
    JsonObject frame = transcript.getAsJsonArray("frames_" + side + "_to_" + other(side))
        .get(index).getAsJsonObject();
    byte[] plain = switch (index) {
      case 3 -> "hello".getBytes(StandardCharsets.US_ASCII);
      case 4 -> new byte[1000];
      case 5 -> filled(70_000, (byte) 0x5a);
      default -> throw new IllegalArgumentException("not a data frame: " + index);
    };
    assertArrayEquals(Vectors.hex(frame, "plaintext_sha256"), sha256(plain),
        "plaintext of " + side + " frame " + index);
    return plain;
  }

  private static byte[] filled(int length, byte value) {
    byte[] b = new byte[length];
    Arrays.fill(b, value);
    return b;
  }

  private static byte[] sha256(byte[] data) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(data);
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }
}
