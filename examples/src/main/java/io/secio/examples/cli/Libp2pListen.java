package io.secio.examples.cli;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.concurrent.Future;
import io.secio.Dialect;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import io.secio.libp2p.Libp2p;
import io.secio.libp2p.Libp2pConfig;
import io.secio.libp2p.Libp2pSession;
import io.secio.multiaddr.Multiaddr;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code secio listen --multistream --muxer MUXERS [--echo]}: accepts libp2p connections until
 * stopped, with any of the muxers (the dialer picks), answering identify and ping, and with {@code
 * --echo} serving {@value Libp2pOptions#ECHO}. Prints {@code listening HOST:PORT PEERID} once bound;
 * per connection {@code secured ...} or {@code failed ADDRESS reason}, then {@code muxer PEERID
 * PROTOCOL}; per echo stream {@code opened /echo/1.0.0 from PEERID} and, when it closes, {@code
 * closed /echo/1.0.0 from PEERID after B bytes}. Identify and ping streams are served without a line.
 */
final class Libp2pListen {
  private Libp2pListen() {}

  static int run(SecioCli cli, CommandSpec spec, SecioConfig secio, IdentityKeyPair key, HostPort address,
      Libp2pConfig.Builder libp2p, boolean echo) throws InterruptedException {
    if (echo) {
      libp2p.protocol(Libp2pOptions.ECHO, new ChannelInitializer<Channel>() {
        @Override
        protected void initChannel(Channel stream) {
          stream.pipeline().addLast(new StreamEcho(cli.out()));
        }
      });
    }
    try (Network network = new Network(0)) {
      Channel listener;
      try {
        listener = network.listen(address, true, ch -> {
          // identify tells the dialer where it reached us: this connection's own address. The
          // accepting event loops share the builder, which is not thread-safe.
          Libp2pConfig config;
          synchronized (libp2p) {
            config = libp2p.listenAddrs(List.of(Multiaddr.of((InetSocketAddress) ch.localAddress()))).build();
          }
          ch.pipeline().addLast(Libp2p.server(secio, config), new SessionReporter(cli.out(), cli.err()));
          Libp2p.sessionFuture(ch).addListener((Future<Libp2pSession> f) -> {
            if (f.isSuccess()) {
              cli.out().println(Report.muxer(f.getNow()));
            }
          });
        });
      } catch (Exception e) {
        cli.error(spec, "cannot listen on " + address + ": " + Report.reason(e));
        return SecioCli.EXIT_FAILURE;
      }
      cli.out().println(Report.listening(listener.localAddress(), Dialect.LIBP2P.peerId(key.publicKey())));
      listener.closeFuture().sync();
      return 0;
    }
  }

  /**
   * One {@value Libp2pOptions#ECHO} stream: every byte back until the peer's half-close, then this
   * side's, paced ({@link PacedEcho}). One per stream.
   */
  private static final class StreamEcho extends PacedEcho {
    private final PrintStream out;
    private long bytes;

    StreamEcho(PrintStream out) {
      this.out = out;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      ctx.channel().config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
      String from = Libp2pOptions.ECHO + " from " + peer(ctx.channel());
      out.println("opened " + from);
      ctx.channel().closeFuture().addListener(f -> out.println("closed " + from + " after " + bytes + " bytes"));
    }

    private static String peer(Channel stream) {
      // A stream exists once its session does.
      return Libp2p.sessionFuture(stream.parent()).getNow().remotePeer().map(PeerId::toString).orElse("?");
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      bytes += ((ByteBuf) msg).readableBytes();
      ctx.write(msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof ChannelInputShutdownEvent) {
        // The end-of-stream goes out after every echo written before it.
        ctx.flush();
        ((DuplexChannel) ctx.channel()).shutdownOutput();
      }
      ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      out.println("error " + Libp2pOptions.ECHO + " from " + peer(ctx.channel()) + " " + Report.reason(cause));
      ctx.close();
    }
  }
}
