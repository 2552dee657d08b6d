package io.secio.examples.cli;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.handler.timeout.ReadTimeoutException;
import io.netty.util.concurrent.Future;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.libp2p.IdentifyRecord;
import io.secio.libp2p.Libp2p;
import io.secio.libp2p.Libp2pConfig;
import io.secio.libp2p.Libp2pSession;
import io.secio.streams.StreamChannel;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code secio dial HOST:PORT --multistream --muxer MUXER [--identify] [--ping N] [--send-bytes N
 * [--streams K] [--message-size M]]}: a libp2p connection to a node. Prints {@code secured ...} and
 * {@code muxer PEERID PROTOCOL}, then, in this order, the node's identify record ({@code identify
 * ...} lines), one {@code ping I time=T ms} line per ping, and for {@code --send-bytes} the {@code
 * echoed} line of K {@value Libp2pOptions#ECHO} streams of N seeded bytes each, every echoed byte
 * checked (at most {@link #ECHO_WINDOW_IN_BYTES} of a stream ahead of its echo), and a {@code summary}
 * line.
 */
final class Libp2pDial {
  /** More would be refused by mplex (1,024 streams each way). */
  static final int MAX_STREAMS = 1024;
  /**
   * The most bytes of a stream sent ahead of their echo: mplex has no flow control, and a node resets
   * a stream that holds more than its buffer unread (4 MiB in js-libp2p-mplex and here).
   */
  static final long ECHO_WINDOW_IN_BYTES = 1024 * 1024;

  private Libp2pDial() {}

  /** {@code dial}'s own libp2p options. A picocli mixin. */
  static final class Options {
    @Option(names = "--ping", paramLabel = "N",
        description = "With --muxer: ping the node N times over /ipfs/ping/1.0.0, printing each round trip.")
    Integer ping;

    @Option(names = "--identify",
        description = "With --muxer: ask for the node's identify record (/ipfs/id/1.0.0) and print it.")
    boolean identify;

    /** A bad argument when one of these is given without {@code --muxer}. */
    void requireMuxer(CommandSpec spec, boolean muxer) {
      if (!muxer && (ping != null || identify)) {
        throw new ParameterException(spec.commandLine(), (ping != null ? "--ping" : "--identify")
            + " runs on a libp2p connection: add --multistream --muxer mplex|yamux");
      }
    }
  }

  static int run(SecioCli cli, CommandSpec spec, SecioConfig secio, PeerId expectPeer, HostPort target,
      Libp2pConfig.Builder libp2p, Options options, Long sendBytes, EchoStreamOptions echo, Duration timeout,
      SecureRandom random) {
    if (options.ping == null && !options.identify && sendBytes == null) {
      throw new ParameterException(spec.commandLine(), "--muxer needs something to do: --identify, --ping N "
          + "or --send-bytes N");
    }
    if (options.ping != null && options.ping < 1) {
      throw new ParameterException(spec.commandLine(), "--ping must be at least 1, not " + options.ping);
    }
    if (echo.streams < 1 || echo.streams > MAX_STREAMS) {
      throw new ParameterException(spec.commandLine(),
          "--streams must be 1 to " + MAX_STREAMS + ", not " + echo.streams);
    }
    if (echo.streams != 1 && sendBytes == null) {
      throw new ParameterException(spec.commandLine(), "--streams needs --send-bytes N");
    }
    int messageSize = echo.messageSize(spec);
    Libp2pConfig config = libp2p.build();
    try (Network network = new Network(1)) {
      ChannelFuture connect = network.dial(target, true,
          ch -> ch.pipeline().addLast(expectPeer != null ? Libp2p.client(secio, config, expectPeer)
              : Libp2p.client(secio, config), new DialCommand.FailureRecorder()));
      if (!connect.awaitUninterruptibly().isSuccess()) {
        return failed(cli, target, connect.cause());
      }
      Channel channel = connect.channel();
      // The handshake and every negotiation have their own timeouts; a reply gets at least as long.
      Replies replies = new Replies(Math.max(timeout.toSeconds(), DialCommand.ECHO_IDLE_TIMEOUT_SECONDS));
      try {
        Future<Libp2pSession> ready = Libp2p.sessionFuture(channel).awaitUninterruptibly();
        if (!ready.isSuccess()) {
          return failed(cli, target, ready.cause());
        }
        Libp2pSession session = ready.getNow();
        cli.out().println(Report.secured(session.secioSession().orElseThrow()));
        cli.out().println(Report.muxer(session));
        if (options.identify) {
          IdentifyRecord record = replies.await(session.identify());
          Report.identify(record).forEach(cli.out()::println);
        }
        for (int i = 1; options.ping != null && i <= options.ping; i++) {
          cli.out().println(Report.ping(i, replies.await(session.ping())));
        }
        if (sendBytes != null) {
          echo(cli, session, replies, sendBytes, echo.streams, messageSize, random);
        }
        return 0;
      } catch (ExecutionException e) {
        return failed(cli, target, e.getCause());
      } finally {
        channel.close().awaitUninterruptibly();
      }
    }
  }

  /** {@code streams} echo streams at once, opened first, then timed from the first byte to the last echo. */
  private static void echo(SecioCli cli, Libp2pSession session, Replies replies, long bytes, int streams,
      int messageSize, SecureRandom random) throws ExecutionException {
    List<EchoCheck> checks = new ArrayList<>();
    List<StreamChannel> opened = new ArrayList<>();
    for (int i = 0; i < streams; i++) {
      long window = Math.max(ECHO_WINDOW_IN_BYTES, messageSize);
      EchoCheck check = new EchoCheck(bytes, messageSize, random.nextLong(), true, window);
      checks.add(check);
      opened.add(replies.await(session.openStream(Libp2pOptions.ECHO, check)));
    }
    long start = System.nanoTime();
    List<Future<Long>> echoed = new ArrayList<>();
    for (int i = 0; i < streams; i++) {
      echoed.add(checks.get(i).start(opened.get(i)));
    }
    long messages = 0;
    for (int i = 0; i < streams; i++) {
      // No timeout here: each check fails a stream that stops echoing.
      Future<Long> done = echoed.get(i).awaitUninterruptibly();
      if (!done.isSuccess()) {
        throw new ExecutionException(done.cause());
      }
      messages += checks.get(i).messages;
    }
    long nanos = System.nanoTime() - start;
    cli.out().println(Report.echoed(bytes * streams, nanos));
    cli.out().println("summary muxer=" + session.muxer().protocolId() + " protocol=" + Libp2pOptions.ECHO
        + " streams=" + streams + " messages=" + messages + " max-message=" + messageSize + " bytes=" + bytes);
  }

  /** Waits for the node's replies, each for at most as long. */
  private record Replies(long seconds) {
    /** The reply, or why there is none (a peer silent for too long: a {@link ReadTimeoutException}). */
    <T> T await(Future<T> future) throws ExecutionException {
      if (!future.awaitUninterruptibly(seconds, TimeUnit.SECONDS)) {
        throw new ExecutionException(ReadTimeoutException.INSTANCE);
      }
      if (!future.isSuccess()) {
        throw new ExecutionException(future.cause());
      }
      return future.getNow();
    }
  }

  private static int failed(SecioCli cli, HostPort target, Throwable cause) {
    cli.err().println(Report.failed(target.toAddress(), cause));
    return SecioCli.EXIT_FAILURE;
  }
}
