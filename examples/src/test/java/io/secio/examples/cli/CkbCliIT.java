package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code secio ckb}, every process the jar as a user starts it: a listener on testnet that a crawler
 * dials, identifies with, asks for its nodes and leaves with a goodbye (exit 0); a crawler on another
 * network banned by the listener and failing (exit 1), its IP then refused; bad arguments (exit 2).
 */
class CkbCliIT {
  @RegisterExtension
  final Processes processes = new Processes();

  private static final String TESTNET = "/ckb_testnet/10639e08";

  @Test
  void aCrawlerIdentifiesAsksAndSaysGoodbye() throws Exception {
    CliProcess listen = processes.secio("ckb", "listen", "--port", "0", "--network", "testnet", "--local-addresses",
        "--announce", "/ip4/127.0.0.1/tcp/8115");
    Matcher listening = listen.awaitOut("listening 127\\.0\\.0\\.1:(\\d+) (Qm\\w+)");
    String port = listening.group(1);
    String peer = listening.group(2);

    CliProcess crawl = processes.secio("ckb", "crawl", "/ip4/127.0.0.1/tcp/" + port + "/p2p/" + peer,
        "--network", "testnet");
    crawl.awaitOut("identified " + peer + " name=" + TESTNET + " flags=DISCOVERY version=\"secio-java [^\"]*\" "
        + "observed=/ip4/127\\.0\\.0\\.1/tcp/\\d+");
    crawl.awaitOut("summary sessions=1 failed=0 nodes=0");
    assertEquals(0, crawl.awaitExit(), crawl::toString);

    listen.awaitOut("identified Qm\\w+ name=" + TESTNET + " flags=DISCOVERY .* observed=/ip4/127\\.0\\.0\\.1/tcp/"
        + port + "/p2p/" + peer);
    listen.awaitOut("goodbye Qm\\w+ \"crawl done\"");
    assertTrue(listen.errLines().isEmpty(), listen::toString);
  }

  @Test
  void anotherNetworkIsBannedAndTheCrawlFails() throws Exception {
    CliProcess listen = processes.secio("ckb", "listen", "--port", "0", "--network", "testnet");
    String port = listen.awaitOut("listening 127\\.0\\.0\\.1:(\\d+) Qm\\w+").group(1);
    CliProcess crawl = processes.secio("ckb", "crawl", "127.0.0.1:" + port, "--network", "mainnet");
    assertEquals(SecioCli.EXIT_FAILURE, crawl.awaitExit(), crawl::toString);
    crawl.awaitErr("failed /ip4/127\\.0\\.0\\.1/tcp/" + port + " WRONG_NETWORK: .*not on the same network");
    listen.awaitOut("closed Qm\\w+ WRONG_NETWORK: Ban for 300 seconds, reason: The nodes are not on the same network");

    CliProcess again = processes.secio("ckb", "crawl", "127.0.0.1:" + port, "--network", "testnet");
    assertEquals(SecioCli.EXIT_FAILURE, again.awaitExit(), again::toString);
    listen.awaitOut("closed .* BANNED: 127\\.0\\.0\\.1 is banned.*");
  }

  @Test
  void badArgumentsExit2() throws Exception {
    CliProcess noNetwork = processes.secio("ckb", "crawl", "127.0.0.1:1");
    CliProcess badNetwork = processes.secio("ckb", "crawl", "127.0.0.1:1", "--network", "devnet");
    CliProcess badAddr = processes.secio("ckb", "crawl", "/ip4/1.2.3.4", "--network", "testnet");
    CliProcess ws = processes.secio("ckb", "listen", "--port", "0", "--network", "testnet", "--ws");
    for (CliProcess p : new CliProcess[] {noNetwork, badNetwork, badAddr, ws}) {
      assertEquals(SecioCli.EXIT_USAGE, p.awaitExit(), p::toString);
      assertEquals(1, p.errLines().size(), p::toString);
    }
    ws.awaitErr("secio ckb listen: --ws needs the WebSocket transport .*");
  }
}
