package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.testsupport.ChildProcess;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A peer's text never reaches a terminal raw: multistream-select messages that carry terminal escape
 * sequences, sent by a hostile dialer to {@code listen --multistream} and by a fake responder to
 * {@code dial --multistream}, are printed with their control characters escaped.
 */
class PeerTextIT {
  private static final String EVIL_HEADER = "\u001b[31mEVIL\u001b[0m\u0007";
  private static final String FAKE_SECURED = "\u001b[2K\u001b[1Asecured 12D3KooWfake";

  @RegisterExtension
  final Processes processes = new Processes();

  @Test
  void aDialersHeaderReachesListenEscaped() throws Exception {
    ChildProcess listen = processes.secio("listen", "--port", "0", "--multistream", "--echo");
    String port = listen.awaitOut("listening 127\\.0\\.0\\.1:(\\d+) \\S+").group(1);
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), Integer.parseInt(port))) {
      socket.getOutputStream().write(message(EVIL_HEADER));
      socket.getOutputStream().flush();
      listen.awaitOut("failed 127\\.0\\.0\\.1:\\d+ multistream-select wrong header: "
          + Pattern.quote("\"\\x1b[31mEVIL\\x1b[0m\\x07\""));
    }
    assertPrintable(listen);
  }

  @Test
  void aFakeRespondersAnswerReachesDialEscaped() throws Exception {
    try (ServerSocket responder = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      CompletableFuture<Void> answered = CompletableFuture.runAsync(() -> answer(responder));
      ChildProcess dial = processes.secio("dial", "127.0.0.1:" + responder.getLocalPort(), "--multistream",
          "--send-bytes", "10");
      assertEquals(SecioCli.EXIT_FAILURE, dial.awaitExit(), dial::toString);
      answered.get(ChildProcess.WAIT.toSeconds(), TimeUnit.SECONDS);
      dial.awaitErr("failed 127\\.0\\.0\\.1:\\d+ multistream-select unexpected answer: "
          + Pattern.quote("\"\\x1b[2K\\x1b[1Asecured 12D3KooWfake\" in answer to \"/secio/1.0.0\""));
      assertPrintable(dial);
      assertTrue(dial.errLines().stream().noneMatch(l -> l.startsWith("secured")), dial::toString);
    }
  }

  /** Answers one dialer as a multistream-select responder would, with a hostile answer. */
  private static void answer(ServerSocket responder) {
    try (Socket socket = responder.accept()) {
      OutputStream out = socket.getOutputStream();
      out.write(message("/multistream/1.0.0"));
      out.write(message(FAKE_SECURED));
      out.flush();
      InputStream in = socket.getInputStream();
      in.transferTo(OutputStream.nullOutputStream()); // until the dialer hangs up
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code text} as one multistream-select message: a varint length, the text, a newline. */
  static byte[] message(String text) {
    byte[] body = (text + "\n").getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int length = body.length;
    while ((length & ~0x7f) != 0) {
      out.write((length & 0x7f) | 0x80);
      length >>>= 7;
    }
    out.write(length);
    out.writeBytes(body);
    return out.toByteArray();
  }

  /** No line the process printed holds a control character (its line ends aside). */
  static void assertPrintable(ChildProcess process) {
    for (String line : concat(process.outLines(), process.errLines())) {
      assertTrue(line.chars().noneMatch(c -> Character.isISOControl(c)), () -> "raw control character in "
          + line.replace("\u001b", "<ESC>").replace("\u0007", "<BEL>") + "\n" + process);
    }
  }

  private static List<String> concat(List<String> a, List<String> b) {
    return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
  }
}
