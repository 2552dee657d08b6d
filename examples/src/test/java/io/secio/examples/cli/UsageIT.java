package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.testsupport.ChildProcess;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The jar's exit codes as a shell sees them; what each command accepts is tested in process, in
 * {@code SecioCliTest}.
 */
class UsageIT {
  @RegisterExtension
  final Processes processes = new Processes();

  @Test
  void badArgumentsExitWithCode2AndOneLine() throws Exception {
    ChildProcess dial = processes.secio("dial", "--mode", "v0.3", "127.0.0.1:4001");
    assertEquals(SecioCli.EXIT_USAGE, dial.awaitExit(), dial::toString);
    assertEquals(List.of("secio dial: Invalid value for option '--mode': unknown mode 'v0.3' "
        + "(one of bridge, v0.2, v0.1) (see 'secio dial --help')"), dial.errLines());
    assertTrue(dial.outLines().isEmpty(), dial::toString);
  }

  @Test
  void helpExitsWithCode0() throws Exception {
    ChildProcess help = processes.secio("bridge", "--help");
    assertEquals(0, help.awaitExit(), help::toString);
    assertTrue(help.outLines().get(0).startsWith("Usage: secio bridge"), help::toString);
  }
}
