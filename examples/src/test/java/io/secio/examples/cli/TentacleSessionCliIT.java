package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.secio.testsupport.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code listen}/{@code dial --dialect tentacle --protocol}: a tentacle session (secio, yamux,
 * protocol-select) between two processes on real sockets; the echo checked by the dialer, the
 * version chosen as tentacle chooses it, and {@code --streams} above 1 refused with tentacle's reason.
 */
class TentacleSessionCliIT {
  @RegisterExtension
  final Processes processes = new Processes();

  @Test
  void aDialerOpensTheEchoProtocolAndChecksEveryByte() throws Exception {
    ChildProcess listen = processes.secio("listen", "--port", "0", "--dialect", "tentacle", "--key-type", "secp256k1",
        "--protocol", "/test/echo:1,2", "--echo");
    String address = listen.awaitOut("listening (127\\.0\\.0\\.1:\\d+) .*").group(1);
    ChildProcess dial = processes.secio("dial", address, "--dialect", "tentacle", "--key-type", "secp256k1",
        "--protocol", "/test/echo:2,1", "--send-bytes", "3M", "--message-size", "1M");
    dial.awaitOut("protocol /test/echo version 1");
    dial.awaitOut("echoed 3145728 bytes .*");
    dial.awaitOut("summary protocol=/test/echo version=1 streams=1 messages=3 max-message=1048576 bytes=3145728");
    assertEquals(0, dial.awaitExit(), dial::toString);
    listen.awaitOut("opened /test/echo version 1");
    listen.awaitOut("closed /test/echo after 3 messages, 3145728 bytes");

    ChildProcess ascending = processes.secio("dial", address, "--dialect", "tentacle", "--key-type", "secp256k1",
        "--protocol", "/test/echo:1,2", "--send-bytes", "1000");
    ascending.awaitOut("protocol /test/echo version 2");
    assertEquals(0, ascending.awaitExit(), ascending::toString);

    ChildProcess streams = processes.secio("dial", address, "--dialect", "tentacle", "--key-type", "secp256k1",
        "--protocol", "/test/echo:2,1", "--send-bytes", "1000", "--streams", "2");
    assertEquals(SecioCli.EXIT_USAGE, streams.awaitExit(), streams::toString);
    streams.awaitErr(".*tentacle opens one stream per protocol per session.*");
  }
}
