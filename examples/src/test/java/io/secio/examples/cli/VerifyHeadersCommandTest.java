package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Real testnet headers 1 and 2 (CKB's RPC form, as ckb's rich-indexer test data has them). */
class VerifyHeadersCommandTest {
  private static final String BLOCK_1 = "{\"version\":\"0x0\",\"compact_target\":\"0x1e015555\","
      + "\"timestamp\":\"0x1723b97ebe0\",\"number\":\"0x1\",\"epoch\":\"0x3e80001000000\","
      + "\"parent_hash\":\"0x10639e0895502b5688a6be8cf69460d76541bfa4821629d86d62ba0aae3f9606\","
      + "\"transactions_root\":\"0x8521525b77a3a0a1ce91dc3d2b6a3fd0aa83f56d3823fdf44dfe769221b0df4d\","
      + "\"proposals_hash\":\"0x0000000000000000000000000000000000000000000000000000000000000000\","
      + "\"extra_hash\":\"0x0000000000000000000000000000000000000000000000000000000000000000\","
      + "\"dao\":\"0x0850ad1da71ea12e44fea37af286230005bf0a6f1a00000000b2b49f02fbfe06\","
      + "\"nonce\":\"0x40a79c2b920952bef0e40d436fe8eed6\"}";
  private static final String BLOCK_2 = "{\"version\":\"0x0\",\"compact_target\":\"0x1e015555\","
      + "\"timestamp\":\"0x1723b9816e2\",\"number\":\"0x2\",\"epoch\":\"0x3e80002000000\","
      + "\"parent_hash\":\"0xd5ac7cf8c34a975bf258a34f1c2507638487ab71aa4d10a9ec73704aa3abf9cd\","
      + "\"transactions_root\":\"0x3af9d029db435059e21d56b9b5ea53845ec1c22116228da2945c9cc45c586226\","
      + "\"proposals_hash\":\"0x0000000000000000000000000000000000000000000000000000000000000000\","
      + "\"extra_hash\":\"0x0000000000000000000000000000000000000000000000000000000000000000\","
      + "\"dao\":\"0x0c37a20ee21ea12e7dfc8685f28623005ab527942600000000b2b49f02fbfe06\","
      + "\"nonce\":\"0xed9d619119bb353f49dd68d65748250b\"}";

  @TempDir
  Path dir;

  private static int run(StringWriter out, String... args) {
    CommandLine command = new CommandLine(new VerifyHeadersCommand());
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(out, true));
    return command.execute(args);
  }

  @Test
  void realHeadersAreOk() throws Exception {
    Path file = Files.writeString(dir.resolve("h.json"), "[" + BLOCK_1 + ",\n" + BLOCK_2 + "]");
    StringWriter out = new StringWriter();
    assertEquals(0, run(out, file.toString(), "--network", "testnet"));
    assertEquals(List.of("ok 2"), out.toString().lines().toList());
  }

  @Test
  void aTamperedNonceIsNamedWithItsRule() throws Exception {
    Path file = Files.writeString(dir.resolve("h.jsonl"), BLOCK_1 + "\n" + BLOCK_2.replace("0xed9d", "0xed9e") + "\n");
    StringWriter out = new StringWriter();
    assertEquals(1, run(out, file.toString(), "--network", "testnet"));
    assertTrue(out.toString().startsWith("header #2 0x"), out.toString());
    assertTrue(out.toString().contains(": POW: "), out.toString());
    StringWriter mainnet = new StringWriter();
    assertEquals(1, run(mainnet, file.toString(), "--network", "mainnet"));
    assertTrue(mainnet.toString().startsWith("header #1 "), mainnet.toString());
  }
}
