package io.secio.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** A JVM as the child: its lines read both ways, stdin written, its exit code, and a wrong event failing. */
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
}
