package io.secio.examples.cli;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.util.concurrent.Future;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.netty.NegotiatedProtocol;
import io.secio.netty.Secio;
import io.secio.streams.StreamChannel;
import io.secio.tentacle.Tentacle;
import io.secio.tentacle.TentacleConfig;
import io.secio.tentacle.TentacleProtocol;
import io.secio.tentacle.TentacleSession;
import java.util.concurrent.ExecutionException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * {@code secio dial HOST:PORT --dialect tentacle --protocol NAME:VERSIONS --send-bytes N
 * [--message-size M] [--streams K]}: opens the protocol on a tentacle session, sends N seeded bytes
 * as messages of at most M bytes, checks every echoed byte, and prints {@code secured ...}, {@code
 * protocol NAME version V}, {@code echoed N bytes in T ms (X MiB/s)} and a {@code summary} line.
 */
final class TentacleDial {
  private TentacleDial() {}

  static int run(SecioCli cli, CommandSpec spec, SecioConfig secio, PeerId expectPeer, HostPort target,
      TentacleOptions tentacle, EchoStreamOptions options, Long sendBytes, long seed) {
    TentacleOptions.requireTentacle(secio, spec);
    if (tentacle.protocols.size() != 1) {
      throw new ParameterException(spec.commandLine(), "dial opens one --protocol, not " + tentacle.protocols.size());
    }
    if (options.streams != 1) {
      throw new ParameterException(spec.commandLine(), "--streams " + options.streams + ": tentacle opens one "
          + "stream per protocol per session (its dialer opens each protocol once, and its listener drops a "
          + "second stream of an open protocol), so a session carries 1; dial again for another stream");
    }
    if (sendBytes == null) {
      throw new ParameterException(spec.commandLine(), "--protocol needs --send-bytes N");
    }
    int size = options.messageSize(spec);
    TentacleOptions.Protocol protocol = tentacle.protocols.get(0);
    EchoCheck check = new EchoCheck(sendBytes, size, seed, false, Long.MAX_VALUE);
    TentacleConfig config = TentacleConfig.builder()
        .protocol(TentacleProtocol.of(protocol.name(), protocol.versions(), check))
        .build();
    try (Network network = new Network(1)) {
      ChannelFuture connect = network.dial(target, true, ch -> ch.pipeline().addLast(expectPeer != null
          ? Tentacle.client(secio, config, expectPeer) : Tentacle.client(secio, config),
          new DialCommand.FailureRecorder()));
      if (!connect.awaitUninterruptibly().isSuccess()) {
        return failed(cli, target, connect.cause());
      }
      Channel channel = connect.channel();
      Future<TentacleSession> started = Tentacle.sessionFuture(channel).awaitUninterruptibly();
      if (!started.isSuccess()) {
        return failed(cli, target, started.cause());
      }
      cli.out().println(Report.secured(Secio.session(channel).orElseThrow()));
      TentacleSession session = started.getNow();
      Future<StreamChannel> open = session.openStream(protocol.name(), check).awaitUninterruptibly();
      if (!open.isSuccess()) {
        return failed(cli, target, open.cause());
      }
      StreamChannel stream = open.getNow();
      NegotiatedProtocol chosen = Tentacle.protocol(stream).orElseThrow();
      String version = chosen.version().orElseThrow();
      cli.out().println("protocol " + chosen.name() + " version " + version);
      long nanos;
      try {
        nanos = check.start(stream).get();
      } catch (ExecutionException e) {
        return failed(cli, target, e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return failed(cli, target, e);
      } finally {
        session.close().awaitUninterruptibly();
      }
      cli.out().println(Report.echoed(sendBytes, nanos));
      cli.out().println("summary protocol=" + chosen.name() + " version=" + version
          + " streams=1 messages=" + check.messages + " max-message=" + size + " bytes=" + sendBytes);
      return 0;
    }
  }

  private static int failed(SecioCli cli, HostPort target, Throwable cause) {
    cli.err().println(Report.failed(target.toAddress(), cause));
    return SecioCli.EXIT_FAILURE;
  }
}
