package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.handler.codec.DecoderException;
import io.secio.protocol.SecioException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class ReportTest {
  @Test
  void aSecioFailureIsItsReasonWhereverItIsWrapped() {
    SecioException tooLong = new SecioException(SecioException.Reason.FRAME_TOO_LONG, "declared 9999999 bytes");
    assertEquals("frame too long", Report.reason(new DecoderException(tooLong)));
    assertEquals("failed 127.0.0.1:4001 frame too long",
        Report.failed(new InetSocketAddress("127.0.0.1", 4001), tooLong));
  }

  @Test
  void socketFailuresInAUsersWords() {
    assertEquals("connection refused", Report.reason(new ConnectException("Connection refused: /127.0.0.1:1")));
    assertEquals("connection reset by peer",
        Report.reason(new IOException("recvAddress(..) failed with error(-104): Connection reset by peer")));
    assertEquals("IllegalStateException", Report.reason(new IllegalStateException()));
    assertEquals("two lines", Report.reason(new IllegalStateException("two\n lines")));
  }

  @Test
  void addressesAndThroughput() {
    assertEquals("[0:0:0:0:0:0:0:1]:80", Report.address(new InetSocketAddress("::1", 80)));
    assertEquals("example.org:1", Report.address(InetSocketAddress.createUnresolved("example.org", 1)));
    assertEquals("echoed 1048576 bytes in 500 ms (2.0 MiB/s)", Report.echoed(1 << 20, 500_000_000L));
  }

  @Test
  void progressBarShowsTheShareDone() {
    assertEquals("[" + "=".repeat(15) + ">" + " ".repeat(14) + "]  50%  1.0 MiB/s",
        ProgressBar.line(1 << 20, 2 << 20, 1_000_000_000L));
    assertEquals("[" + "=".repeat(30) + "] 100%  2.0 MiB/s",
        ProgressBar.line(2 << 20, 2 << 20, 1_000_000_000L));
  }
}
