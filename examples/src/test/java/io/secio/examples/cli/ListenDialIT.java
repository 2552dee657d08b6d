package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.identity.KeyType;
import io.secio.testsupport.ChildProcess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code secio listen} and {@code secio dial} as a user runs them: the jar started as processes, the
 * {@code listening} line parsed, dialled by other processes, the {@code secured} lines of both sides
 * and the echo checked, for every listener mode against every dialler mode.
 */
class ListenDialIT {
  private static final String ECHO_BYTES = "300000";

  @RegisterExtension
  final Processes processes = new Processes();

  @TempDir
  Path keys;

  /** What a listener printed in its {@code listening} line. */
  record Listening(ChildProcess process, String address, String peerId) {}

  /** A dial that should secure a session with this cipher and version, then echo. */
  record Expect(List<String> dialArgs, String cipher, String version) {}

  private Listening listen(Keys.Key key, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("listen", "--port", "0", "--key", key.path()));
    command.addAll(List.of(args));
    ChildProcess process = processes.secio(command.toArray(String[]::new));
    Matcher m = process.awaitOut("listening (127\\.0\\.0\\.1:\\d+) (\\S+)");
    assertEquals(key.peerId(), m.group(2), "the listener's peer id is its key file's");
    return new Listening(process, m.group(1), m.group(2));
  }

  /** Starts every dial at once, then checks each: both sides secured alike, and the echo. */
  private void dialAll(Listening listener, List<Expect> expectations) throws Exception {
    List<ChildProcess> dials = new ArrayList<>();
    List<Keys.Key> dialerKeys = new ArrayList<>();
    KeyType[] types = {KeyType.ECDSA, KeyType.ED25519, KeyType.SECP256K1};
    for (int i = 0; i < expectations.size(); i++) {
      Keys.Key key = Keys.write(keys, types[i % types.length]);
      List<String> command = new ArrayList<>(List.of("dial", listener.address(),
          "--expect-peer", listener.peerId(), "--key", key.path(), "--send-bytes", ECHO_BYTES));
      command.addAll(expectations.get(i).dialArgs());
      dialerKeys.add(key);
      dials.add(processes.secio(command.toArray(String[]::new)));
    }
    for (int i = 0; i < expectations.size(); i++) {
      Expect expect = expectations.get(i);
      ChildProcess dial = dials.get(i);
      String negotiated = " exchange=P-256 cipher=" + Pattern.quote(expect.cipher())
          + " hash=SHA256 version=" + Pattern.quote(expect.version());
      dial.awaitOut("secured " + listener.peerId() + negotiated);
      dial.awaitOut("echoed " + ECHO_BYTES + " bytes in \\d+ ms \\(\\d+\\.\\d MiB/s\\)");
      assertEquals(0, dial.awaitExit(), dial::toString);
      listener.process().awaitOut("secured " + dialerKeys.get(i).peerId() + negotiated);
    }
  }

  @Test
  void bridgeListenerSecuresEveryDialerModeAndEchoes() throws Exception {
    Listening listener = listen(Keys.write(keys, KeyType.ED25519), "--echo");
    dialAll(listener, List.of(
        new Expect(List.of(), "AES-128-GCM", "v0.2"),
        new Expect(List.of("--mode", "v0.2", "--ciphers", "CHACHA20_POLY1305"), "CHACHA20_POLY1305", "v0.2"),
        new Expect(List.of("--mode", "v0.1"), "AES-256", "v0.1")));
  }

  @Test
  void v02ListenerSecuresAeadAndRefusesV01() throws Exception {
    Listening listener = listen(Keys.write(keys, KeyType.RSA), "--mode", "v0.2", "--echo");
    ChildProcess v01 = processes.secio("dial", listener.address(), "--mode", "v0.1", "--send-bytes", "1");
    dialAll(listener, List.of(
        new Expect(List.of("--mode", "bridge"), "AES-128-GCM", "v0.2"),
        new Expect(List.of("--mode", "v0.2", "--ciphers", "AES-256-GCM"), "AES-256-GCM", "v0.2")));

    assertEquals(SecioCli.EXIT_FAILURE, v01.awaitExit(), v01::toString);
    assertEquals(List.of("failed " + listener.address() + " no common algorithms"), v01.errLines());
    assertTrue(v01.outLines().isEmpty(), v01::toString);
    listener.process().awaitOut("failed 127\\.0\\.0\\.1:\\d+ no common algorithms");
  }

  @Test
  void v01ListenerSecuresCtrAndRefusesAnotherPeer() throws Exception {
    Listening listener = listen(Keys.write(keys, KeyType.SECP256K1), "--mode", "v0.1", "--echo");
    String someoneElse = Keys.write(keys, KeyType.ED25519).peerId();
    ChildProcess wrongPeer = processes.secio("dial", listener.address(), "--expect-peer", someoneElse);
    dialAll(listener, List.of(
        new Expect(List.of(), "AES-256", "v0.1"),
        new Expect(List.of("--mode", "v0.1", "--ciphers", "AES-128"), "AES-128", "v0.1")));

    assertEquals(SecioCli.EXIT_FAILURE, wrongPeer.awaitExit(), wrongPeer::toString);
    assertEquals(List.of("failed " + listener.address() + " remote peer id does not match the expected one: "
        + "expected " + someoneElse + ", got " + listener.peerId()), wrongPeer.errLines());
    listener.process().awaitOut("failed 127\\.0\\.0\\.1:\\d+ .+");
  }

  @Test
  void listenPrintsWhatANetcatStyleDialSendsFromStdin() throws Exception {
    Listening listener = listen(Keys.write(keys, KeyType.ED25519));
    ChildProcess dial = processes.secio("dial", listener.address(), "--expect-peer", listener.peerId());
    dial.send("hello from stdin\nsecond line\n");
    // The listener closes when the dialler's input ends, and the dialler exits with it.
    assertEquals(0, dial.awaitExit(), dial::toString);
    dial.awaitErr("secured " + listener.peerId() + " exchange=P-256 cipher=AES-128-GCM hash=SHA256 version=v0.2");
    assertTrue(dial.outLines().isEmpty(), "stdout carries the peer's data only: " + dial);
    listener.process().awaitOut("second line");
    List<String> lines = listener.process().outLines();
    assertEquals(List.of("hello from stdin", "second line"), lines.subList(lines.size() - 2, lines.size()));
    assertTrue(lines.get(lines.size() - 3).startsWith("secured "), listener.process()::toString);
  }

  @Test
  void netcatStyleDialWritesTheEchoToStdout() throws Exception {
    Listening listener = listen(Keys.write(keys, KeyType.ECDSA), "--echo");
    ChildProcess dial = processes.secio("dial", listener.address(), "--mode", "v0.1");
    dial.send("ping\n");
    assertEquals(0, dial.awaitExit(), dial::toString);
    assertEquals(List.of("ping"), dial.outLines());
    dial.awaitErr("secured " + listener.peerId() + " .* version=v0\\.1");
  }
}
