package io.secio.ckb.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The CKB vectors here are the shared vectors unmodified: {@code SHA256SUMS} lists each original's
 * SHA-256, as {@code sha256sum} printed it in the shared {@code vectors/ckb/} folder.
 */
class CkbVectorFilesTest {

  @TestFactory
  Stream<DynamicTest> everyVectorIsTheOriginal() {
    String sums = new String(CkbVectors.bytes("SHA256SUMS"), StandardCharsets.US_ASCII);
    List<String[]> entries = sums.lines().filter(l -> !l.isBlank()).map(l -> l.split("\\s+", 2)).toList();
    assertEquals(List.of("README.md", "ckbhash.json", "eaglesong.json", "molecule-examples.json",
        "testnet-headers.json"), entries.stream().map(e -> e[1]).toList());
    return entries.stream().map(e -> DynamicTest.dynamicTest(e[1], () -> assertEquals(e[0],
        HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(CkbVectors.bytes(e[1]))))));
  }
}
