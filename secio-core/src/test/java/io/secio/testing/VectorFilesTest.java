package io.secio.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every vector file the tests rely on is present and unmodified: {@code vectors.sha256} lists each
 * file with the SHA-256 it had when copied from the project's shared vectors. A missing or edited
 * file fails here, whichever test reads it.
 */
class VectorFilesTest {

  private static List<String[]> manifest() throws IOException {
    try (InputStream in = VectorFilesTest.class.getResourceAsStream("/vectors.sha256")) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return text.lines().filter(l -> !l.isBlank()).map(l -> l.split("\\s+", 2)).toList();
    }
  }

  @Test
  void manifestNamesEveryKindOfVector() throws IOException {
    List<String> names = manifest().stream().map(e -> e[1]).toList();
    for (String required : List.of("secio-kats.json", "libp2p-secio-transcript.json",
        "wycheproof/LICENSE", "tentacle/README.md")) {
      assertTrue(names.contains(required), required + " is not in the manifest");
    }
  }

  @TestFactory
  Stream<DynamicTest> everyVectorFileIsPresentAndUnmodified() throws IOException {
    return manifest().stream().map(entry -> DynamicTest.dynamicTest(entry[1], () ->
        assertEquals(entry[0], sha256(Vectors.bytes(entry[1])), entry[1] + " differs from its copy")));
  }

  private static String sha256(byte[] data) throws NoSuchAlgorithmException {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
  }
}
