package io.secio.streams.mplex.fuzz;

import io.secio.streams.mplex.MplexWire;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Writes {@link MplexSessionFuzzTest}'s seeds, each a peer's dialogue of {@link MplexWire} frames
 * named for what it does: {@code java ... MplexSeeds [src/test/resources]} from secio-streams.
 */
public final class MplexSeeds {
  private static final int MIB = 1024 * 1024;
  private static final int NEW_STREAM = 0;
  private static final int MESSAGE_RECEIVER = 1;
  private static final int MESSAGE_INITIATOR = 2;
  private static final int CLOSE_INITIATOR = 4;
  private static final int RESET_INITIATOR = 6;

  private MplexSeeds() {}

  public static void main(String[] args) throws IOException {
    Path dir = Paths.get(args.length > 0 ? args[0] : "src/test/resources")
        .resolve("io/secio/streams/mplex/fuzz/MplexSessionFuzzTestInputs/anyPeerBytes");
    Files.createDirectories(dir);
    seed(dir, "open_feed_close", open(0), msg(0, "hello"), frame(0, CLOSE_INITIATOR, ""));
    seed(dir, "two_streams_reset", open(0), open(1), msg(0, "a"), msg(1, "bb"), frame(1, RESET_INITIATOR, ""),
        msg(0, "ccc"), frame(0, CLOSE_INITIATOR, ""));
    seed(dir, "over_the_cap", open(0), open(1), open(2), open(3), open(4), open(5), msg(5, "refused"));
    seed(dir, "data_after_close", open(0), frame(0, CLOSE_INITIATOR, ""), msg(0, "late"));
    seed(dir, "message_over_1mib", open(0), header(0, MESSAGE_INITIATOR, MIB + 1));
    seed(dir, "length_varint_4_bytes", open(0), new byte[] {0x0a, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x01});
    seed(dir, "header_varint_not_minimal", open(0), new byte[] {(byte) 0x8a, 0x00, 0x00});
    seed(dir, "flag_7", open(0), frame(0, 7, ""));
    seed(dir, "id_reused", open(0), msg(0, "x"), open(0));
    seed(dir, "id_below_last", open(3), open(1));
    seed(dir, "message_never_opened", msg(9, "x"));
    seed(dir, "message_on_ours_never_opened", frame(0, MESSAGE_RECEIVER, "x"));
    seed(dir, "close_with_data", open(0), frame(0, CLOSE_INITIATOR, "x"));
    seed(dir, "reset_with_data", open(0), frame(0, RESET_INITIATOR, "x"));
  }

  private static byte[] frame(long id, int flag, String data) {
    return MplexWire.bytes(id, flag, data.getBytes(StandardCharsets.US_ASCII));
  }

  private static byte[] open(long id) {
    return frame(id, NEW_STREAM, Long.toString(id));
  }

  private static byte[] msg(long id, String data) {
    return frame(id, MESSAGE_INITIATOR, data);
  }

  /** A header and a length with no data behind it. */
  private static byte[] header(long id, int flag, int length) {
    byte[] withNone = MplexWire.bytes(id, flag, new byte[0]);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(withNone, 0, withNone.length - 1); // all but the zero length
    MplexWire.varint(out, length);
    return out.toByteArray();
  }

  private static void seed(Path dir, String name, byte[]... frames) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] f : frames) {
      out.writeBytes(f);
    }
    Files.write(dir.resolve("seed-" + name), out.toByteArray());
  }
}
