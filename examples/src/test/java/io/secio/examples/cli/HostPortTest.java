package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HostPortTest {
  @Test
  void parsesHostsPortsAndBracketedIpv6() {
    assertEquals(new HostPort("example.org", 4001), HostPort.parse("example.org:4001", null));
    assertEquals(new HostPort("::1", 0), HostPort.parse("[::1]:0", null));
    assertEquals(new HostPort("127.0.0.1", 65535), HostPort.parse("65535", "127.0.0.1"));
    assertEquals("[::1]:4001", new HostPort("::1", 4001).toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", ":1", "host", "host:", "host:-1", "host:65536", "host:x", "::1:80", "[]:1"})
  void refusesWhatIsNotHostColonPort(String text) {
    assertThrows(IllegalArgumentException.class, () -> HostPort.parse(text, null));
  }
}
