package io.secio.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/**
 * A JVM as the child: its lines read both ways, stdin written, its exit code, and a wrong event failing;
 * a shell for what a process started and for a long output.
 */
class ChildProcessTest {
  private static ChildProcess speaker() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return ChildProcess.start(List.of(java, "-cp", System.getProperty("java.class.path"), Speaker.class.getName()));
  }

  @Test
  void readsLinesAsEventsInOrderAndByPatternFromTheStart() throws Exception {
    try (ChildProcess speaker = speaker()) {
      assertEquals(4001, speaker.next("listening", "closed").get("port").getAsInt());
      assertEquals("not json", speaker.next("unparsed").get("line").getAsString());
      assertEquals("4001", speaker.awaitOut(".*\"port\":(\\d+).*").group(1), "a search starts at the first line");
      speaker.awaitErr("a line on stderr");
      speaker.writeLine("one");
      speaker.writeLine("two");
      assertEquals("one", speaker.next("heard").get("line").getAsString());
      speaker.awaitOut(".*heard.*", 2);
      assertEquals(3, speaker.exit());
      assertEquals(1, speaker.eventsLeft().size());
      assertEquals("two", speaker.eventsLeft().get(0).get("line").getAsString());
    }
  }

  @Test
  void anEventOfAnotherKindFailsTheTest() throws Exception {
    try (ChildProcess speaker = speaker()) {
      AssertionFailedError e = assertThrows(AssertionFailedError.class, () -> speaker.next("listening"));
      assertEquals(true, e.getMessage().contains("expected a 'listening' event, got {\"event\":\"closed\"}"),
          e.getMessage());
    }
  }

  @Test
  void theEndOfOutputFailsAWaitAtOnce() throws Exception {
    try (ChildProcess speaker = speaker()) {
      speaker.send("");
      assertEquals(3, speaker.awaitExit());
      AssertionFailedError e = assertThrows(AssertionFailedError.class, () -> speaker.awaitOut("never"));
      assertEquals(true, e.getMessage().startsWith("stdout ended without a line matching /never/"), e.getMessage());
    }
  }

  @Test
  void awaitEventSearchesFromTheStartAndKeepsWhenEachLineCame() throws Exception {
    long before = System.nanoTime();
    try (ChildProcess speaker = speaker()) {
      speaker.awaitOut(".*not json.*");
      ChildProcess.Line listening = speaker.awaitEvent("a listening event",
          e -> e.get("event").getAsString().equals("listening"));
      assertEquals(4001, listening.event().get("port").getAsInt());
      List<ChildProcess.Line> lines = speaker.timedOutLines();
      assertEquals(listening, lines.get(1));
      assertTrue(before <= lines.get(0).nanos() && lines.get(0).nanos() <= lines.get(1).nanos(), lines::toString);
      speaker.writeLine("once");
      assertEquals("once", speaker.awaitEvent("a heard event", e -> e.get("event").getAsString().equals("heard")).event().get("line").getAsString());
      assertEquals(3, speaker.exit());
      AssertionFailedError e = assertThrows(AssertionFailedError.class,
          () -> speaker.awaitEvent("a port 0", event -> event.has("port") && event.get("port").getAsInt() == 0));
      assertTrue(e.getMessage().startsWith("stdout ended without a port 0"), e.getMessage());
    }
  }

  @Test
  void killEndsTheProcessWithoutItsOwnEnding() throws Exception {
    try (ChildProcess speaker = speaker()) {
      speaker.awaitOut(".*listening.*");
      assertEquals(128 + 9, speaker.kill(), "SIGKILL, not the exit code 3 it ends with by itself");
    }
  }

  @Test
  void closeKillsWhatTheProcessStartedThatOutlivesIt() throws Exception {
    List<ProcessHandle> started;
    try (ChildProcess shell = ChildProcess.start(List.of("sh", "-c", "sleep 600 & echo started; wait"))) {
      shell.awaitOut("started");
      started = shell.toHandle().descendants().toList();
      assertEquals(1, started.size(), started::toString);
    }
    for (ProcessHandle orphan : started) {
      orphan.onExit().get(ChildProcess.WAIT.toMinutes(), TimeUnit.MINUTES);
      assertFalse(orphan.isAlive());
    }
  }

  @Test
  void aFailureShowsTheLastLinesOfALongOutput() throws Exception {
    try (ChildProcess counter = ChildProcess.start(List.of("seq", "1", "600"))) {
      assertEquals(0, counter.awaitExit());
      String shown = counter.toString();
      assertTrue(shown.contains("--- stdout\n(100 earlier lines left out)\n101\n102\n"), shown);
      assertTrue(shown.endsWith("\n600\n--- stderr"), shown);
      assertEquals(600, counter.outLines().size());
    }
  }
}
