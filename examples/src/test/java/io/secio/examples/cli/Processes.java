package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.fail;

import io.secio.testsupport.ChildProcess;
import io.secio.testsupport.NodeJs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Starts the child processes of the CLI's tests ({@code java -jar secio.jar ...}, the node.js peers of
 * secio-netty's interop tests, any command) as {@link ChildProcess}es, and stops every one of them,
 * passed or failed: after each test when registered as {@code @RegisterExtension final Processes
 * processes = new Processes();}, after the last test of the class with {@code @RegisterExtension
 * static final Processes shared = Processes.perClass();}.
 */
final class Processes implements AfterEachCallback, AfterAllCallback {
  /**
   * The handshake timeout of every {@code secio} the tests start, also inside a shell command (through
   * the environment variable that sets the default of {@code --handshake-timeout}): a fresh JVM's
   * first handshake also self-tests the crypto backends, and on a busy machine that outlasts the
   * default 10 s.
   */
  static final String HANDSHAKE_TIMEOUT = "5m";
  private static final Map<String, String> ENVIRONMENT = Map.of("SECIO_HANDSHAKE_TIMEOUT", HANDSHAKE_TIMEOUT);
  /** secio-netty's js folder: js-libp2p-secio's peer ({@code secio-peer.js}) and a js-libp2p node. */
  static final Path JS_PEERS = NodeJs.jsFolder("secio-netty");

  /**
   * JVM flags for the {@code secio} processes: the tests move little data, so a JVM that starts fast
   * (no C2 compiler, one GC thread) beats one that runs fast. The jar's behaviour does not depend on them.
   */
  private static final List<String> JVM_FLAGS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

  private final boolean perClass;
  private final List<ChildProcess> started = new ArrayList<>();

  Processes() {
    this(false);
  }

  private Processes(boolean perClass) {
    this.perClass = perClass;
  }

  /** Processes shared by the tests of a class. */
  static Processes perClass() {
    return new Processes(true);
  }

  /** The jar under test: the {@code secio.jar} system property, or the module's target directory. */
  static Path jar() {
    Path jar = Path.of(System.getProperty("secio.jar", "target/secio.jar"));
    if (!Files.isRegularFile(jar)) {
      fail("no " + jar.toAbsolutePath() + ": build it with `mvn package` first");
    }
    return jar;
  }

  /**
   * Aborts the calling test without node or the js peers' npm packages ({@code npm ci --prefix
   * secio-netty/src/test/js}), and fails it instead under {@code CI=true}.
   */
  static void requireJsPeers() {
    NodeJs.requireInstalled(JS_PEERS, "libp2p-secio", "libp2p");
  }

  /** Starts {@code java -jar secio.jar args...}. */
  synchronized ChildProcess secio(String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(JVM_FLAGS);
    command.add("-jar");
    command.add(jar().toString());
    command.addAll(List.of(args));
    return track(ChildProcess.start("secio " + String.join(" ", args), command, null, ENVIRONMENT));
  }

  /** Starts {@code node script args...} of {@link #JS_PEERS} (after {@link #requireJsPeers}). */
  synchronized ChildProcess node(String script, String... args) throws IOException {
    return track(NodeJs.start(JS_PEERS, script, List.of(args)));
  }

  /** Starts any command (a shell's {@code secio} gets {@link #HANDSHAKE_TIMEOUT} too). */
  synchronized ChildProcess start(List<String> command) throws IOException {
    return track(ChildProcess.start(String.join(" ", command), command, null, ENVIRONMENT));
  }

  private ChildProcess track(ChildProcess process) {
    started.add(process);
    return process;
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (!perClass) {
      stopAll();
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    stopAll();
  }

  private synchronized void stopAll() {
    for (ChildProcess process : started) {
      process.close();
    }
    started.clear();
  }
}
