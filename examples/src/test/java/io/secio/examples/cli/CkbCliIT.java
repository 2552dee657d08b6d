package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.testsupport.ChildProcess;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code secio ckb}, every process the jar as a user starts it: a listener on testnet that a crawler
 * dials, identifies with, asks for its nodes and leaves with a goodbye (exit 0); a crawler on another
 * network banned by the listener and failing (exit 1), its IP then refused; a {@code --ws} listener
 * that crawlers reach over TCP and over WebSocket on its one port, while a listener without it
 * refuses a WebSocket crawl; bad arguments (exit 2).
 */
class CkbCliIT {
  @RegisterExtension
  final Processes processes = new Processes();

  private static final String TESTNET = "/ckb_testnet/10639e08";

  @Test
  void aCrawlerIdentifiesAsksAndSaysGoodbye() throws Exception {
    ChildProcess listen = processes.secio("ckb", "listen", "--port", "0", "--network", "testnet", "--local-addresses",
        "--announce", "/ip4/127.0.0.1/tcp/8115");
    Matcher listening = listen.awaitOut("listening 127\\.0\\.0\\.1:(\\d+) (Qm\\w+)");
    String port = listening.group(1);
    String peer = listening.group(2);

    ChildProcess crawl = processes.secio("ckb", "crawl", "/ip4/127.0.0.1/tcp/" + port + "/p2p/" + peer,
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
    ChildProcess listen = processes.secio("ckb", "listen", "--port", "0", "--network", "testnet");
    String port = listen.awaitOut("listening 127\\.0\\.0\\.1:(\\d+) Qm\\w+").group(1);
    ChildProcess crawl = processes.secio("ckb", "crawl", "127.0.0.1:" + port, "--network", "mainnet");
    assertEquals(SecioCli.EXIT_FAILURE, crawl.awaitExit(), crawl::toString);
    crawl.awaitErr("failed /ip4/127\\.0\\.0\\.1/tcp/" + port + " WRONG_NETWORK: .*not on the same network");
    listen.awaitOut("closed Qm\\w+ WRONG_NETWORK: Ban for 300 seconds, reason: The nodes are not on the same network");

    ChildProcess again = processes.secio("ckb", "crawl", "127.0.0.1:" + port, "--network", "testnet");
    assertEquals(SecioCli.EXIT_FAILURE, again.awaitExit(), again::toString);
    listen.awaitOut("closed .* BANNED: 127\\.0\\.0\\.1 is banned.*");
  }

  @Test
  void theWsListenerTakesTcpAndWebSocketOnOnePort() throws Exception {
    ChildProcess listen = processes.secio("ckb", "listen", "--port", "0", "--network", "testnet", "--ws");
    Matcher listening = listen.awaitOut("listening 127\\.0\\.0\\.1:(\\d+) (Qm\\w+)");
    String at = "/ip4/127.0.0.1/tcp/" + listening.group(1);
    String peer = listening.group(2);
    listen.awaitOut(Pattern.quote("address " + at + "/p2p/" + peer));
    listen.awaitOut(Pattern.quote("address " + at + "/ws/p2p/" + peer));

    for (String address : List.of(at + "/p2p/" + peer, at + "/ws/p2p/" + peer)) {
      ChildProcess crawl = processes.secio("ckb", "crawl", address, "--network", "testnet");
      crawl.awaitOut("identified " + peer + " name=" + TESTNET + " flags=DISCOVERY .*");
      assertEquals(0, crawl.awaitExit(), crawl::toString);
      // What the crawler says it dialed, as the listener heard it.
      listen.awaitOut("identified Qm\\w+ name=" + TESTNET + " .* observed=" + Pattern.quote(address));
    }
    assertTrue(listen.errLines().isEmpty(), listen::toString);
  }

  @Test
  void aWebSocketCrawlIsNotTcp() throws Exception {
    ChildProcess listen = processes.secio("ckb", "listen", "--port", "0", "--network", "testnet");
    Matcher listening = listen.awaitOut("listening 127\\.0\\.0\\.1:(\\d+) (Qm\\w+)");
    String ws = "/ip4/127.0.0.1/tcp/" + listening.group(1) + "/ws/p2p/" + listening.group(2);
    ChildProcess crawl = processes.secio("ckb", "crawl", ws, "--network", "testnet");
    assertEquals(SecioCli.EXIT_FAILURE, crawl.awaitExit(), crawl::toString);
    crawl.awaitErr(Pattern.quote("failed " + ws + " ") + ".*");
    crawl.awaitOut("summary sessions=0 failed=1 nodes=0");
  }

  @Test
  void badArgumentsExit2() throws Exception {
    ChildProcess noNetwork = processes.secio("ckb", "crawl", "127.0.0.1:1");
    ChildProcess badNetwork = processes.secio("ckb", "crawl", "127.0.0.1:1", "--network", "devnet");
    ChildProcess badAddr = processes.secio("ckb", "crawl", "/ip4/1.2.3.4", "--network", "testnet");
    ChildProcess wss = processes.secio("ckb", "crawl", "/ip4/1.2.3.4/tcp/443/wss", "--network", "testnet");
    for (ChildProcess p : new ChildProcess[] {noNetwork, badNetwork, badAddr, wss}) {
      assertEquals(SecioCli.EXIT_USAGE, p.awaitExit(), p::toString);
      assertEquals(1, p.errLines().size(), p::toString);
    }
    wss.awaitErr(".*TLS \\(/wss\\).*");
  }
}
