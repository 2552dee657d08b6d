package io.secio.streams.yamux;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The tentacle recordings here are the shared vectors unmodified: {@code SHA256SUMS} lists each
 * original's SHA-256 (copied from {@code vectors/tentacle-yamux/}), checked after decompression.
 */
class RecordingFilesTest {

  @TestFactory
  Stream<DynamicTest> everyRecordingIsTheOriginal() {
    String sums = new String(Recordings.bytes("SHA256SUMS"), StandardCharsets.US_ASCII);
    List<String[]> entries = sums.lines().filter(l -> !l.isBlank()).map(l -> l.split("\\s+", 2)).toList();
    assertEquals(4, entries.size(), "README.md and the three recordings");
    return entries.stream().map(e -> DynamicTest.dynamicTest(e[1], () -> assertEquals(e[0],
        HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Recordings.bytes(e[1]))))));
  }
}
