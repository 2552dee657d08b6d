package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** What every command accepts and refuses, run in this process on captured streams. */
class SecioCliTest {
  @TempDir
  Path dir;

  /** The outcome of one command line. */
  record Run(int exitCode, String out, String err) {
    List<String> errLines() {
      return err.lines().toList();
    }
  }

  static Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = SecioCli.run(new SecioCli(
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        new ByteArrayInputStream(new byte[0])), args);
    return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @ParameterizedTest
  @ValueSource(strings = {"keygen", "id", "listen", "dial", "bench", "demo", "bridge"})
  void everyCommandHasHelp(String command) {
    Run help = run(command, "--help");
    assertEquals(0, help.exitCode(), help::toString);
    assertTrue(help.out().startsWith("Usage: secio " + command + " "), help::out);
    assertEquals("", help.err());
  }

  @Test
  void topLevelHelpListsEveryCommand() {
    Run help = run("--help");
    assertEquals(0, help.exitCode());
    for (String command : List.of("keygen", "id", "listen", "dial", "bench", "demo", "bridge")) {
      assertTrue(help.out().contains("\n  " + command + " "), command + " missing from " + help.out());
    }
  }

  static Stream<Arguments> badArguments() {
    return Stream.of(
        Arguments.of(List.of(), "secio: missing command"),
        Arguments.of(List.of("frobnicate"), "secio: Unmatched argument at index 0: 'frobnicate'"),
        Arguments.of(List.of("keygen", "--out", "k"), "secio keygen: Missing required option: '--type=TYPE'"),
        Arguments.of(List.of("keygen", "--type", "dsa", "--out", "k"), "unknown key type 'dsa'"),
        Arguments.of(List.of("id"), "secio id: Missing required parameter: 'FILE'"),
        Arguments.of(List.of("id", "/no/such/key"), "secio id: /no/such/key: no such file"),
        Arguments.of(List.of("listen"), "secio listen: Missing required option: '--port=PORT'"),
        Arguments.of(List.of("listen", "--port", "70000"), "not a port (0-65535): '70000'"),
        Arguments.of(List.of("listen", "--port", "0", "--mode", "v0.3"), "unknown mode 'v0.3'"),
        Arguments.of(List.of("listen", "--port", "0", "--key", "k", "--key-type", "rsa"),
            "mutually exclusive"),
        Arguments.of(List.of("listen", "--port", "0", "--ciphers", "AES-128,AES-128"),
            "ciphers must be non-empty and without repeats"),
        Arguments.of(List.of("dial", "localhost"), "expected HOST:PORT, got 'localhost'"),
        Arguments.of(List.of("dial", "::1:4001"), "write an IPv6 host in brackets: [::1]:PORT"),
        Arguments.of(List.of("dial", "h:1", "--expect-peer", "Qm0"), "not a peer id: 'Qm0'"),
        Arguments.of(List.of("dial", "h:1", "--send-bytes", "12X"), "not a byte count: '12X'"),
        Arguments.of(List.of("dial", "h:1", "--exchanges", "P-999"), "unknown exchange 'P-999'"),
        Arguments.of(List.of("dial", "h:1", "--ciphers", "Blowfish"), "unknown cipher 'Blowfish'"),
        Arguments.of(List.of("dial", "h:1", "--hashes", "MD5"), "unknown hash 'MD5'"),
        Arguments.of(List.of("bench", "--cipher", "NULL"), "unknown cipher 'NULL'"),
        Arguments.of(List.of("dial", "h:1", "--handshake-timeout", "0"), "not a duration: '0' (e.g. 10s, 500ms, 2m)"),
        Arguments.of(List.of("listen", "--port", "0", "--handshake-timeout", "soon"), "not a duration: 'soon'"),
        Arguments.of(List.of("bench", "--bytes", "0"), "--bytes must be at least 1"),
        Arguments.of(List.of("demo", "--bytes", "lots"), "not a byte count: 'lots'"),
        Arguments.of(List.of("bridge", "--listen", "0"), "Missing required option: '--to=HOST:PORT'"),
        Arguments.of(List.of("bridge", "--listen", "x", "--to", "h:1"), "not a port (0-65535): 'x'"),
        // Dialect errors in the options' spelling, not the enums'.
        Arguments.of(List.of("listen", "--port", "0", "--dialect", "tentacle", "--key-type", "ed25519"),
            "secio listen: --dialect tentacle needs a secp256k1 key, not ed25519 (see"),
        Arguments.of(List.of("dial", "h:1", "--dialect", "tentacle", "--mode", "v0.1"),
            "secio dial: --dialect tentacle can negotiate none of the proposed exchanges, ciphers or hashes"),
        Arguments.of(List.of("bridge", "--listen", "0", "--to", "h:1", "--to-dialect", "tentacle",
            "--key-type", "rsa"), "secio bridge: --to-dialect tentacle needs a secp256k1 key, not rsa"),
        // A libp2p connection: --muxer and what rides on it.
        Arguments.of(List.of("dial", "h:1", "--muxer", "mplex", "--ping", "1"), "secio dial: --muxer runs a "
            + "libp2p connection, which negotiates secio with multistream-select first: add --multistream"),
        Arguments.of(List.of("listen", "--port", "0", "--muxer", "mplex,yamux", "--echo"),
            "secio listen: --muxer runs a libp2p connection, which negotiates secio with multistream-select first"),
        Arguments.of(List.of("dial", "h:1", "--multistream", "--muxer", "quic", "--ping", "1"),
            "Invalid value for option '--muxer' (MUXER): unknown muxer 'quic' (one of mplex, yamux)"),
        Arguments.of(List.of("dial", "h:1", "--multistream", "--muxer", "mplex,mplex", "--ping", "1"),
            "secio dial: --muxer names a muxer twice: mplex,mplex"),
        Arguments.of(List.of("dial", "h:1", "--ping", "3"),
            "secio dial: --ping runs on a libp2p connection: add --multistream --muxer mplex|yamux"),
        Arguments.of(List.of("dial", "h:1", "--multistream", "--identify"),
            "secio dial: --identify runs on a libp2p connection: add --multistream --muxer mplex|yamux"),
        Arguments.of(List.of("dial", "h:1", "--multistream", "--muxer", "yamux"),
            "secio dial: --muxer needs something to do: --identify, --ping N or --send-bytes N"),
        Arguments.of(List.of("dial", "h:1", "--multistream", "--muxer", "yamux", "--ping", "0"),
            "secio dial: --ping must be at least 1, not 0"),
        Arguments.of(List.of("dial", "h:1", "--multistream", "--muxer", "yamux", "--ping", "1", "--streams", "2"),
            "secio dial: --streams needs --send-bytes N"),
        Arguments.of(List.of("dial", "h:1", "--multistream", "--muxer", "yamux", "--send-bytes", "1", "--streams", "0"),
            "secio dial: --streams must be 1 to 1024, not 0"),
        Arguments.of(List.of("dial", "h:1", "--multistream", "--muxer", "mplex", "--send-bytes", "1",
            "--message-size", "9M"), "secio dial: --message-size must be 1 to 8M, not 9437184"),
        Arguments.of(List.of("dial", "h:1", "--multistream", "--muxer", "mplex", "--ping", "1", "--dialect", "tentacle"),
            "secio dial: --muxer runs a libp2p connection: not with --dialect tentacle"),
        Arguments.of(List.of("listen", "--port", "0", "--multistream", "--muxer", "mplex", "--protocol", "/x:1"),
            "secio listen: --muxer (a libp2p connection) and --protocol (a tentacle session) exclude each other"));
  }

  @ParameterizedTest
  @MethodSource("badArguments")
  void badArgumentsGiveOneLineAndExitCode2(List<String> args, String expected) {
    Run bad = run(args.toArray(String[]::new));
    assertEquals(SecioCli.EXIT_USAGE, bad.exitCode(), bad::toString);
    assertEquals(1, bad.errLines().size(), bad::err);
    String line = bad.errLines().get(0);
    assertTrue(line.contains(expected), line);
    assertTrue(line.endsWith("--help')"), line);
    assertEquals("", bad.out());
  }

  @Test
  void aFileThatIsNoKeyIsABadArgument() throws Exception {
    Path notAKey = Files.write(dir.resolve("notes.txt"), "hello".getBytes(StandardCharsets.US_ASCII));
    Run bad = run("id", notAKey.toString());
    assertEquals(SecioCli.EXIT_USAGE, bad.exitCode(), bad::toString);
    assertTrue(bad.err().contains(notAKey + ": not a libp2p private key"), bad::err);
  }

  @Test
  void aDialToNothingFailsWithOneLineAndExitCode1() {
    Run refused = run("dial", "127.0.0.1:1", "--send-bytes", "1");
    assertEquals(SecioCli.EXIT_FAILURE, refused.exitCode(), refused::toString);
    assertEquals(List.of("failed 127.0.0.1:1 connection refused"), refused.errLines());
    assertEquals("", refused.out());
  }

  @Test
  void idPrintsWhatKeygenPrinted() {
    Path file = dir.resolve("node.key");
    Run keygen = run("keygen", "--type", "secp256k1", "--out", file.toString());
    assertEquals(0, keygen.exitCode(), keygen::toString);
    assertTrue(keygen.out().startsWith("16Uiu2"), keygen::out);
    assertEquals(keygen.out(), run("id", file.toString()).out());
  }

  @Test
  void aKeyFileOthersCanOpenIsRefusedUnlessAllowed() throws Exception {
    Path file = dir.resolve("open.key");
    assertEquals(0, run("keygen", "--type", "ed25519", "--out", file.toString()).exitCode());
    String id = run("id", file.toString()).out();
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    String key = file.toString();
    // listen and bridge load --key as dial does (IdentityOptions); run here, an accepted key would listen on.
    for (List<String> args : List.of(List.of("id", key), List.of("dial", "127.0.0.1:1", "--key", key))) {
      Run refused = run(args.toArray(String[]::new));
      assertEquals(SecioCli.EXIT_USAGE, refused.exitCode(), refused::toString);
      assertEquals(List.of("secio " + args.get(0) + ": " + key + " is open to others (mode 644): a private key "
          + "must be readable by its owner only; run chmod 600 " + key + ", or pass --allow-open-key-file "
          + "to use it anyway (see 'secio " + args.get(0) + " --help')"), refused.errLines());
    }
    Run allowed = run("id", "--allow-open-key-file", key);
    assertEquals(0, allowed.exitCode(), allowed::toString);
    assertEquals(id, allowed.out());
    Run dial = run("dial", "127.0.0.1:1", "--key", key, "--allow-open-key-file", "--send-bytes", "1");
    assertEquals(List.of("failed 127.0.0.1:1 connection refused"), dial.errLines(), "the key was taken");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    assertEquals(id, run("id", key).out(), "fixed as the message says");
  }

  static Stream<Arguments> failuresAtRunTime() {
    return Stream.of(
        Arguments.of(List.of("keygen", "--type", "ed25519", "--out", "/nonexistent/dir/n.key"),
            "secio keygen: cannot create /nonexistent/dir/n.key: the directory /nonexistent/dir does not exist"),
        Arguments.of(List.of("listen", "--port", "0", "--host", "256.1.1.1"),
            "secio listen: cannot listen on 256.1.1.1:0: the host does not resolve"),
        Arguments.of(List.of("bridge", "--listen", "256.1.1.1:0", "--to", "127.0.0.1:1"),
            "secio bridge: cannot listen on 256.1.1.1:0: the host does not resolve"),
        Arguments.of(List.of("dial", "256.1.1.1:4001", "--send-bytes", "1"),
            "failed 256.1.1.1:4001 the host does not resolve"));
  }

  @ParameterizedTest
  @MethodSource("failuresAtRunTime")
  void failuresAtRunTimeSayWhatIsWrongInOneLine(List<String> args, String expected) {
    Run failed = run(args.toArray(String[]::new));
    assertEquals(SecioCli.EXIT_FAILURE, failed.exitCode(), failed::toString);
    assertEquals(List.of(expected), failed.errLines());
  }

  @Test
  void keygenRefusingToOverwriteSaysSoWithTheCommandsPrefix() throws Exception {
    Path taken = Files.write(dir.resolve("taken.key"), new byte[] {1});
    Run refused = run("keygen", "--type", "ed25519", "--out", taken.toString());
    assertEquals(SecioCli.EXIT_FAILURE, refused.exitCode(), refused::toString);
    assertEquals(List.of("secio keygen: " + taken + " exists; not overwriting it"), refused.errLines());
  }

  @Test
  void idPrintsOneIdInTheDialectAsked() {
    Path file = dir.resolve("ckb.key");
    Run keygen = run("keygen", "--type", "secp256k1", "--out", file.toString());
    Run libp2p = run("id", file.toString());
    Run tentacle = run("id", "--dialect", "tentacle", file.toString());
    assertTrue(libp2p.out().matches("16Uiu2\\S+\n"), libp2p::toString);
    assertEquals(libp2p.out(), run("id", "--dialect", "libp2p", file.toString()).out());
    assertTrue(tentacle.out().matches("Qm\\S+\n"), tentacle::toString);
    assertEquals(keygen.out(), libp2p.out(), "keygen prints what id prints");

    Path ed25519 = dir.resolve("node.key");
    run("keygen", "--type", "ed25519", "--out", ed25519.toString());
    Run refused = run("id", "--dialect", "tentacle", ed25519.toString());
    assertEquals(SecioCli.EXIT_USAGE, refused.exitCode(), refused::toString);
    assertTrue(refused.err().startsWith("secio id: --dialect tentacle needs a secp256k1 key, not ed25519"),
        refused::err);
  }

  @Test
  void bridgeHelpSaysWhichDialersItAnswers() {
    String help = run("bridge", "--help").out().replaceAll("\\s+", " ");
    assertTrue(help.contains("Accepts libp2p v0.1 and v0.2 dialers and, when its key is secp256k1 "
        + "(a fresh one is) and without --multistream, tentacle dialers, all on one port."), help);
  }

  @Test
  void durationsTakeMillisecondsSecondsAndMinutes() {
    HandshakeTimeoutOption.DurationConverter duration = new HandshakeTimeoutOption.DurationConverter();
    assertEquals(Duration.ofMillis(500), duration.convert("500ms"));
    assertEquals(Duration.ofSeconds(10), duration.convert("10s"));
    assertEquals(Duration.ofSeconds(7), duration.convert("7"));
    assertEquals(Duration.ofMinutes(5), duration.convert("5M"));
  }
}
