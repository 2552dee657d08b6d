package io.secio.benchmarks;

import io.netty.channel.Channel;
import io.secio.ckb.Ckb;
import io.secio.ckb.CkbProtocol;
import io.secio.ckb.CkbSession;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Heap per idle CKB session: {@code N} sessions to our own listener on loopback ({@link CkbPeers}),
 * both ends in this JVM, each identified with its protocols open (identify, ping, discovery,
 * disconnect message, sync, time) and its GetNodes answered; heap used after GC before and after,
 * divided by the {@code 2 N} session ends. The ping timers (120 s) do not fire while it measures.
 * Prints one JSON object.
 *
 * <pre>java -cp benchmarks.jar io.secio.benchmarks.IdleCkbSessions N</pre>
 */
public final class IdleCkbSessions {
  private IdleCkbSessions() {}

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    try (CkbPeers peers = new CkbPeers(n + 1)) {
      List<Channel> connections = new ArrayList<>();
      // One session first, so classes and shared structures are not counted per session.
      connections.add(open(peers));
      long before = IdleStreams.usedAfterGc();
      for (int i = 0; i < n; i++) {
        connections.add(open(peers));
      }
      long after = IdleStreams.usedAfterGc();
      double perEnd = (after - before) / (2.0 * n);
      for (Channel c : connections) {
        if (!c.isActive()) {
          throw new AssertionError("a session closed while idle");
        }
      }
      System.out.println(String.format(Locale.ROOT,
          "{\"benchmark\": \"IdleCkbSessions\", \"sessions\": %d, \"heapBefore\": %d, \"heapAfter\": %d, "
              + "\"bytesPerSessionEnd\": %.0f, \"bytesPerSessionBothEnds\": %.0f}",
          n, before, after, perEnd, 2 * perEnd));
      for (Channel c : connections) {
        c.close();
      }
    }
  }

  /** A session identified, its GetNodes answered and its six protocols open on this side. */
  private static Channel open(CkbPeers peers) throws Exception {
    Channel connection = peers.dial().sync().channel();
    CkbSession session = Ckb.sessionFuture(connection).get(Loopback.TIMEOUT_SECONDS, TimeUnit.SECONDS);
    session.nodes().get(Loopback.TIMEOUT_SECONDS, TimeUnit.SECONDS);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Loopback.TIMEOUT_SECONDS);
    while (session.tentacle().openCount() < 6 || session.stream(CkbProtocol.TIME).isEmpty()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("protocols not open: " + session.tentacle());
      }
      TimeUnit.MILLISECONDS.sleep(1);
    }
    return connection;
  }
}
