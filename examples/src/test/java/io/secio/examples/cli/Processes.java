package io.secio.examples.cli;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Starts processes and destroys every one of them, passed or failed: after each test when registered
 * as {@code @RegisterExtension final Processes processes = new Processes();}, after the last test
 * of the class with {@code @RegisterExtension static final Processes shared = Processes.perClass();}.
 */
final class Processes implements AfterEachCallback, AfterAllCallback {
  private final boolean perClass;
  private final List<CliProcess> started = new ArrayList<>();

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

  /** Starts {@code java -jar secio.jar args...}. */
  synchronized CliProcess secio(String... args) throws IOException {
    CliProcess process = CliProcess.secio(args);
    started.add(process);
    return process;
  }

  /** Starts any command. */
  synchronized CliProcess start(List<String> command) throws IOException {
    CliProcess process = CliProcess.start(command);
    started.add(process);
    return process;
  }

  @Override
  public void afterEach(ExtensionContext context) throws InterruptedException {
    if (!perClass) {
      destroyAll();
    }
  }

  @Override
  public void afterAll(ExtensionContext context) throws InterruptedException {
    destroyAll();
  }

  private synchronized void destroyAll() throws InterruptedException {
    for (CliProcess process : started) {
      process.close();
    }
    started.clear();
  }
}
