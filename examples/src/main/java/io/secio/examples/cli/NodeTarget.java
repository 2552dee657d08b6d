package io.secio.examples.cli;

import io.netty.channel.EventLoopGroup;
import io.secio.ckb.CkbConfig;
import io.secio.ckb.CkbSession;
import io.secio.ckb.header.Consensus;
import io.secio.ckb.protocol.CkbNetwork;
import io.secio.multiaddr.Multiaddr;
import io.secio.netty.Transports;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * The one node a header command ({@code follow}, {@code tip}) dials: its address, the network and
 * this side's key, the network's PoW rule and the timeout; and the session with it, closed when the
 * command is done, a failure reported as {@code failed ADDRESS reason} on stderr. A picocli mixin.
 */
final class NodeTarget {
  @Parameters(index = "0", paramLabel = "ADDR", converter = CrawlCommand.TargetConverter.class,
      description = "The node: a multiaddr such as /ip4/1.2.3.4/tcp/8114/p2p/Qm.. (its peer id is then "
          + "checked), or HOST:PORT.")
  Multiaddr address;

  @Mixin
  PeerOptions peer;

  @Mixin
  PowOption pow;

  @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "60",
      description = "How long the node may take to identify, and to answer each question (default: "
          + "${DEFAULT-VALUE}).")
  long timeoutSeconds;

  /** What a command does with the session. */
  @FunctionalInterface
  interface WithSession {
    /** Returns the exit code. */
    int run(CkbSession session) throws InterruptedException, TimeoutException;
  }

  CkbNetwork network() {
    return peer.network;
  }

  /** The network's rules, with {@code --pow} on a dev network. */
  Consensus consensus(CommandSpec spec) {
    return pow.consensus(peer.network, spec);
  }

  /** {@code --timeout}, checked. */
  Duration timeout(CommandSpec spec) {
    if (timeoutSeconds <= 0) {
      throw new ParameterException(spec.commandLine(), "--timeout is more than 0");
    }
    return Duration.ofSeconds(timeoutSeconds);
  }

  /** Dials the node with {@code config}, runs {@code body} once it is identified, and closes the connection. */
  int dial(CommandSpec spec, CkbConfig config, WithSession body) throws InterruptedException {
    Duration timeout = timeout(spec);
    EventLoopGroup group = Transports.best().newEventLoopGroup(1);
    CkbDial dial = CkbDial.start(group, PeerOptions.secio(peer.identity(spec)), config, address, timeout);
    try {
      return body.run(dial.session());
    } catch (ExecutionException e) {
      return failed(spec, e.getCause());
    } catch (TimeoutException e) {
      return failed(spec, e);
    } finally {
      dial.close();
      group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  /** Reports {@code cause} as {@code failed ADDRESS reason}; the exit code of a failure. */
  int failed(CommandSpec spec, Throwable cause) {
    spec.commandLine().getErr().println(CkbLines.failed(address, cause));
    return SecioCli.EXIT_FAILURE;
  }
}
