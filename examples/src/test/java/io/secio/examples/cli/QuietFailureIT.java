package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.identity.KeyType;
import io.secio.testsupport.ChildProcess;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A failure is one {@code failed} line, not a Netty warning with a stack trace: secio fires a failed
 * handshake through {@code exceptionCaught} too, also for a connection that never became active, and
 * every pipeline of the CLI must take it.
 */
class QuietFailureIT {
  @RegisterExtension
  final Processes processes = new Processes();

  @TempDir
  Path keys;

  /** A port nothing listens on: one just bound and let go. */
  private static int closedPort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  @Test
  void aDialToAClosedPortPrintsOneFailureLine() throws Exception {
    String address = "127.0.0.1:" + closedPort();
    ChildProcess echo = processes.secio("dial", address, "--send-bytes", "1");
    ChildProcess netcat = processes.secio("dial", address);
    netcat.stdin().close();
    ChildProcess multistream = processes.secio("dial", address, "--multistream", "--send-bytes", "1");
    for (ChildProcess dial : List.of(echo, netcat, multistream)) {
      assertEquals(SecioCli.EXIT_FAILURE, dial.awaitExit(), dial::toString);
      assertEquals(List.of("failed " + address + " connection refused"), dial.errLines(), dial::toString);
    }
  }

  @Test
  void aFailedHandshakePrintsNoStackTraceOnEitherSide() throws Exception {
    Keys.Key listenKey = Keys.write(keys, KeyType.ED25519);
    ChildProcess listen = processes.secio("listen", "--port", "0", "--echo", "--key", listenKey.path());
    String address = listen.awaitOut("listening (127\\.0\\.0\\.1:\\d+) \\S+").group(1);
    String someoneElse = Keys.write(keys, KeyType.ED25519).peerId();
    ChildProcess echo = processes.secio("dial", address, "--expect-peer", someoneElse, "--send-bytes", "10");
    assertEquals(SecioCli.EXIT_FAILURE, echo.awaitExit(), echo::toString);
    ChildProcess netcat = processes.secio("dial", address, "--expect-peer", someoneElse);
    assertEquals(SecioCli.EXIT_FAILURE, netcat.awaitExit(), netcat::toString);
    for (ChildProcess dial : List.of(echo, netcat)) {
      assertEquals(List.of("failed " + address + " remote peer id does not match the expected one: expected "
          + someoneElse + ", got " + listenKey.peerId()), dial.errLines(), dial::toString);
    }
    listen.awaitOut("failed 127\\.0\\.0\\.1:\\d+ .+");
    listen.awaitOut("failed 127\\.0\\.0\\.1:\\d+ .+");
    // A listener's session after the two failed ones: anything the failures logged came before it.
    ChildProcess good = processes.secio("dial", address, "--expect-peer", listenKey.peerId(), "--send-bytes", "10");
    assertEquals(0, good.awaitExit(), good::toString);
    listen.awaitOut("secured .*");
    assertTrue(listen.errLines().isEmpty(), listen::toString);
  }

  @Test
  void aSilentListenerFailsTheHandshakeAfterTheTimeoutAsked() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 4, InetAddress.getLoopbackAddress())) {
      String address = "127.0.0.1:" + silent.getLocalPort();
      ChildProcess secio = processes.secio("dial", address, "--handshake-timeout", "1s", "--send-bytes", "1");
      ChildProcess multistream = processes.secio("dial", address, "--multistream", "--handshake-timeout", "1s",
          "--send-bytes", "1");
      assertEquals(SecioCli.EXIT_FAILURE, secio.awaitExit(), secio::toString);
      assertEquals(List.of("failed " + address + " handshake timed out"), secio.errLines());
      assertEquals(SecioCli.EXIT_FAILURE, multistream.awaitExit(), multistream::toString);
      assertEquals(List.of("failed " + address + " multistream-select timed out: after PT1S"),
          multistream.errLines());
    }
  }
}
