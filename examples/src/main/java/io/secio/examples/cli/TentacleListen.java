package io.secio.examples.cli;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import io.secio.tentacle.Tentacle;
import io.secio.tentacle.TentacleConfig;
import io.secio.tentacle.TentacleProtocol;
import io.secio.tentacle.TentacleSession;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code secio listen --dialect tentacle --protocol NAME:VERSIONS [--echo]}: accepts tentacle
 * sessions until stopped. Prints {@code listening HOST:PORT PEERID} (the tentacle id) once bound;
 * per session {@code session PEERID} or {@code failed ADDRESS reason}, and for a session that fails
 * later {@code error PEERID reason} on stderr; per stream {@code opened
 * NAME version V} and, when it closes, {@code closed NAME after N messages, B bytes}. With {@code
 * --echo} every message is echoed on its stream; without, messages are counted only.
 */
final class TentacleListen {
  private TentacleListen() {}

  static int run(SecioCli cli, picocli.CommandLine.Model.CommandSpec spec, SecioConfig secio,
      IdentityKeyPair key, HostPort address, List<TentacleOptions.Protocol> protocols, boolean echo)
      throws InterruptedException {
    TentacleOptions.requireTentacle(secio, spec);
    TentacleConfig.Builder builder = TentacleConfig.builder();
    for (TentacleOptions.Protocol p : protocols) {
      builder.protocol(TentacleProtocol.of(p.name(), p.versions(), new Messages(cli.out(), echo)));
    }
    TentacleConfig config = builder.build();
    try (Network network = new Network(0)) {
      Channel listener;
      try {
        listener = network.listen(address, true, ch -> {
          ch.pipeline().addLast(Tentacle.server(secio, config), new SessionErrors(cli.err()));
          Tentacle.sessionFuture(ch).addListener(f -> cli.out().println(f.isSuccess()
              ? "session " + Tentacle.sessionFuture(ch).getNow().remotePeer().orElseThrow()
              : Report.failed(ch.remoteAddress(), f.cause())));
        });
      } catch (Exception e) {
        cli.error(spec, "cannot listen on " + address + ": " + Report.reason(e));
        return SecioCli.EXIT_FAILURE;
      }
      cli.out().println(Report.listening(listener.localAddress(), Dialect.TENTACLE.peerId(key.publicKey())));
      listener.closeFuture().sync();
      return 0;
    }
  }

  /** Each stream of a protocol: echoes (or only counts) its messages, and reports its end. */
  @ChannelHandler.Sharable
  private static final class Messages extends PacedEcho {
    private final PrintStream out;
    private final boolean echo;

    Messages(PrintStream out, boolean echo) {
      this.out = out;
      this.echo = echo;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      Tentacle.protocol(ctx.channel()).ifPresent(p -> {
        out.println("opened " + p.name() + " version " + p.version().orElseThrow());
        long[] counts = new long[2];
        ctx.channel().attr(Counts.KEY).set(counts);
        ctx.channel().closeFuture().addListener(f -> out.println("closed " + p.name() + " after "
            + counts[0] + " messages, " + counts[1] + " bytes"));
      });
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      long[] counts = ctx.channel().attr(Counts.KEY).get();
      counts[0]++;
      counts[1] += ((ByteBuf) msg).readableBytes();
      if (echo) {
        ctx.write(msg);
      } else {
        ReferenceCountUtil.release(msg);
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      out.println("error " + Report.reason(cause));
      ctx.close();
    }
  }

  /**
   * Behind the session: a failure of a started session (the muxer's, secio's frames) is one line on
   * stderr, {@code error PEERID reason}; one before it is the session's {@code failed} line. The
   * stack closes the connection itself, after the muxer's GoAway. One per connection.
   */
  private static final class SessionErrors extends ChannelInboundHandlerAdapter {
    private final PrintStream err;

    SessionErrors(PrintStream err) {
      this.err = err;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      TentacleSession session = Tentacle.sessionFuture(ctx.channel()).getNow();
      if (session != null) {
        err.println("error " + session.remotePeer().orElseThrow() + " " + Report.reason(cause));
      }
    }
  }

  /** A stream's message and byte counts. */
  private static final class Counts {
    static final io.netty.util.AttributeKey<long[]> KEY = io.netty.util.AttributeKey.valueOf(Counts.class, "counts");
  }
}
