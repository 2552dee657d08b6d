package io.secio.examples.cli;

import io.netty.channel.EventLoopGroup;
import io.secio.SecioConfig;
import io.secio.ckb.CkbConfig;
import io.secio.ckb.CkbSession;
import io.secio.ckb.protocol.Node;
import io.secio.multiaddr.Multiaddr;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One node of a crawl: connect (over WebSocket when the address has {@code /ws}), identify, one
 * GetNodes, print, goodbye. Not thread-safe; one visit at a time.
 */
final class Crawl {
  static final String GOODBYE = "crawl done";

  private final EventLoopGroup group;
  private final SecioConfig secio;
  private final CkbConfig config;
  private final Duration timeout;
  private final PrintWriter out;
  private final PrintWriter err;

  Crawl(EventLoopGroup group, SecioConfig secio, CkbConfig config, Duration timeout, PrintWriter out, PrintWriter err) {
    this.group = group;
    this.secio = secio;
    this.config = config;
    this.timeout = timeout;
    this.out = out;
    this.err = err;
  }

  /** The node's nodes, printed with its record; null (and a {@code failed} line) if it failed. */
  List<Node> visit(Multiaddr address) throws InterruptedException {
    CkbDial dial = CkbDial.start(group, secio, config, address, timeout);
    try {
      CkbSession session = dial.session();
      out.println(CkbLines.identified(session));
      session.identify().listenAddrs().forEach(a -> out.println("listen " + a));
      List<Node> nodes = session.nodes().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      nodes.forEach(n -> out.println(CkbLines.node(n)));
      session.disconnect(GOODBYE).await(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return nodes;
    } catch (ExecutionException e) {
      err.println(CkbLines.failed(address, e.getCause()));
      return null;
    } catch (TimeoutException e) {
      err.println(CkbLines.failed(address, e.getMessage() != null ? e
          : new TimeoutException("no answer within " + timeout.toSeconds() + " s")));
      return null;
    } finally {
      dial.close();
    }
  }
}
