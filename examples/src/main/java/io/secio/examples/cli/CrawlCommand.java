package io.secio.examples.cli;

import io.netty.channel.EventLoopGroup;
import io.secio.SecioConfig;
import io.secio.ckb.CkbConfig;
import io.secio.ckb.IdentifyFlags;
import io.secio.ckb.Node;
import io.secio.multiaddr.Multiaddr;
import io.secio.netty.Transports;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code secio ckb crawl ADDR --network NETWORK}: dials a node, identifies, asks once for its nodes,
 * prints its record ({@code identified}, {@code listen}) and its nodes ({@code node}), says goodbye,
 * and exits 0; 1 if the node could not be reached, identified or asked. With {@code --follow N} it
 * goes on to up to N of the addresses it learned (those with a TCP port), at most {@code --rate} new
 * sessions a second; a node that fails then is reported and skipped.
 */
@Command(name = "crawl", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Dials a CKB node, identifies, sends one GetNodes, prints what it learned, says goodbye.",
        "Prints 'identified PEERID name=.. flags=.. version=\"..\" observed=..', 'listen ADDRESS' per",
        "address the node listens on, 'node FLAGS ADDRESSES' per node it knows, then",
        "'summary sessions=S failed=F nodes=N'; 'failed ADDRESS reason' for a node that failed."})
final class CrawlCommand implements Callable<Integer> {
  @Spec
  private CommandSpec spec;

  @Parameters(index = "0", paramLabel = "ADDR", converter = TargetConverter.class,
      description = "The node: a multiaddr such as /ip4/1.2.3.4/tcp/8111/p2p/Qm.. (its peer id is then "
          + "checked), or HOST:PORT.")
  private Multiaddr target;

  @Mixin
  private PeerOptions peer;

  @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "30",
      description = "How long one node may take to identify and answer (default: ${DEFAULT-VALUE}).")
  private long timeoutSeconds;

  @Option(names = "--follow", paramLabel = "N", defaultValue = "0",
      description = "Crawl up to N more nodes from the addresses learned (default: ${DEFAULT-VALUE}: off).")
  private int follow;

  @Option(names = "--rate", paramLabel = "PER_SECOND", defaultValue = "2",
      description = "With --follow, at most this many new sessions a second (default: ${DEFAULT-VALUE}).")
  private double rate;

  @Option(names = "--required-flags", paramLabel = "FLAGS", converter = FlagsConverter.class, defaultValue = "DISCOVERY",
      description = "Flags a node must announce, asked of its nodes too: names joined by '|' or a number "
          + "(default: ${DEFAULT-VALUE}).")
  private long requiredFlags;

  @Override
  public Integer call() throws InterruptedException {
    if (follow < 0 || rate <= 0 || timeoutSeconds <= 0) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(),
          "--follow is 0 or more, --rate and --timeout more than 0");
    }
    PrintWriter out = spec.commandLine().getOut();
    SecioConfig secio = PeerOptions.secio(peer.identity(spec));
    CkbConfig config = CkbConfig.builder(peer.network).requiredFlags(requiredFlags).build();
    EventLoopGroup group = Transports.best().newEventLoopGroup(1);
    try {
      Crawl crawl = new Crawl(group, secio, config, Duration.ofSeconds(timeoutSeconds), out, spec.commandLine().getErr());
      Deque<Multiaddr> queue = new ArrayDeque<>();
      Set<Multiaddr> seen = new HashSet<>();
      queue.add(target);
      seen.add(target);
      int sessions = 0;
      int failed = 0;
      boolean firstAnswered = false;
      int nodes = 0;
      long gapNanos = (long) (TimeUnit.SECONDS.toNanos(1) / rate);
      long next = System.nanoTime();
      while (!queue.isEmpty() && sessions + failed <= follow) {
        Multiaddr address = queue.poll();
        if (sessions + failed > 0) {
          long wait = next - System.nanoTime();
          if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
          }
        }
        next = System.nanoTime() + gapNanos;
        List<Node> learned = crawl.visit(address);
        if (learned == null) {
          failed++;
          continue;
        }
        firstAnswered |= sessions + failed == 0;
        sessions++;
        nodes += learned.size();
        for (Node n : learned) {
          for (Multiaddr a : n.addresses()) {
            if (a.socketAddress().isPresent() && IdentifyFlags.meets(n.flags(), requiredFlags) && seen.add(a)) {
              queue.add(a);
            }
          }
        }
      }
      out.println("summary sessions=" + sessions + " failed=" + failed + " nodes=" + nodes);
      // The node asked for decides; those it led to are reported but do not fail the crawl.
      return firstAnswered ? 0 : SecioCli.EXIT_FAILURE;
    } finally {
      group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  /** A multiaddr, or {@code HOST:PORT}. */
  static final class TargetConverter implements picocli.CommandLine.ITypeConverter<Multiaddr> {
    @Override
    public Multiaddr convert(String value) {
      try {
        if (value.startsWith("/")) {
          Multiaddr m = Multiaddr.parse(value);
          if (m.socketAddress().isEmpty()) {
            throw new IllegalArgumentException("no host and TCP port in " + value);
          }
          return m;
        }
        int colon = value.lastIndexOf(':');
        String host = colon < 0 ? "" : value.substring(0, colon).replaceAll("^\\[|]$", "");
        int port = Integer.parseInt(value.substring(colon + 1));
        String proto = host.contains(":") ? "ip6" : host.chars().allMatch(c -> c == '.' || Character.isDigit(c)) ? "ip4" : "dns4";
        return Multiaddr.parse("/" + proto + "/" + host + "/tcp/" + port);
      } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
        throw new picocli.CommandLine.TypeConversionException("not a multiaddr or HOST:PORT: '" + value + "' ("
            + e.getMessage() + ")");
      }
    }
  }
}
