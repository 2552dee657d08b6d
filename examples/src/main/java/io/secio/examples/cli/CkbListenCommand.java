package io.secio.examples.cli;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.secio.Dialect;
import io.secio.ckb.Ckb;
import io.secio.ckb.CkbConfig;
import io.secio.ckb.CkbEvent;
import io.secio.ckb.CkbProtocol;
import io.secio.ckb.IdentifyFlags;
import io.secio.identity.IdentityKeyPair;
import io.secio.multiaddr.Multiaddr;
import io.secio.netty.Transports;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code secio ckb listen --port P --network NETWORK}: a CKB peer that others dial and keep, until
 * stopped. Prints {@code listening HOST:PORT PEERID} (the tentacle id) once bound, then per session
 * {@code identified}, {@code goodbye} and {@code closed} lines ({@link CkbLines}). {@code --ws} needs
 * the WebSocket transport, which this build does not carry: it is refused as a bad argument.
 */
@Command(name = "listen", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Accepts CKB peers until stopped: identify, ping, discovery, sync (InIBD), disconnect message.",
        "Prints 'listening HOST:PORT PEERID' once ready, then per session 'identified PEERID ..',",
        "'goodbye PEERID \"..\"' and 'closed PEERID reason'."})
final class CkbListenCommand implements Callable<Integer> {
  @Spec
  private CommandSpec spec;

  @Option(names = "--host", paramLabel = "HOST", defaultValue = "127.0.0.1",
      description = "Address to listen on (default: ${DEFAULT-VALUE}; 0.0.0.0 for every interface).")
  private String host;

  @Option(names = "--port", required = true, paramLabel = "PORT", description = "Port to listen on; 0 picks a free one.")
  private int port;

  @Mixin
  private PeerOptions peer;

  @Option(names = "--flags", paramLabel = "FLAGS", converter = FlagsConverter.class, defaultValue = "DISCOVERY",
      description = "Flags to announce: names joined by '|' or a number such as 0x3e (default: ${DEFAULT-VALUE}, "
          + "what this peer serves). A full node opens its protocols only for SYNC|DISCOVERY|RELAY; CKB's light "
          + "client wants 0x3e.")
  private long flags;

  @Option(names = "--silent", paramLabel = "PROTOCOL", split = ",",
      description = "Protocols to keep open without speaking them, for peers that require them: relay, alert, "
          + "lightclient, filter (the light client requires lightclient and filter).")
  private List<String> silent = List.of();

  @Option(names = "--announce", paramLabel = "MULTIADDR", description = "An address to announce in Identify "
      + "(repeatable, at most 10); by default none.")
  private List<String> announce = List.of();

  @Option(names = "--local-addresses", description = "Announce and accept loopback and private addresses.")
  private boolean localAddresses;

  @Option(names = "--ws", description = "Also accept WebSocket on the port: needs the secio-websocket module, "
      + "not in this build.")
  private boolean ws;

  @Override
  public Integer call() throws InterruptedException {
    if (ws) {
      throw new ParameterException(spec.commandLine(), "--ws needs the WebSocket transport (secio-websocket), "
          + "which this build does not have");
    }
    if (port < 0 || port > 0xFFFF || flags == 0) {
      throw new ParameterException(spec.commandLine(), "--port is 0-65535 and --flags is not 0");
    }
    CkbConfig config = config();
    IdentityKeyPair key = peer.identity(spec);
    PrintWriter out = spec.commandLine().getOut();
    EventLoopGroup group = Transports.best().newEventLoopGroup(0);
    try {
      Channel listener;
      try {
        listener = new ServerBootstrap().group(group).channel(Transports.best().serverChannelClass())
            .childHandler(new ChannelInitializer<Channel>() {
              @Override
              protected void initChannel(Channel ch) {
                ch.pipeline().addLast(Ckb.server(PeerOptions.secio(key), config));
              }
            })
            .bind(host, port).sync().channel();
      } catch (Exception e) {
        spec.commandLine().getErr().println(spec.qualifiedName() + ": cannot listen on " + host + ":" + port + ": "
            + Report.reason(e));
        return SecioCli.EXIT_FAILURE;
      }
      InetSocketAddress bound = (InetSocketAddress) listener.localAddress();
      out.println("listening " + bound.getAddress().getHostAddress() + ":" + bound.getPort() + " "
          + Dialect.TENTACLE.peerId(key.publicKey()));
      listener.closeFuture().sync();
      return 0;
    } finally {
      group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  /** {@code relay}, {@code alert}, {@code lightclient} or {@code filter}. */
  private static CkbProtocol silentProtocol(String name) {
    String wanted = name.strip().replace("_", "").replace("-", "").toLowerCase(java.util.Locale.ROOT);
    for (CkbProtocol p : CkbProtocol.values()) {
      if (!p.isImplemented() && p.name().replace("_", "").toLowerCase(java.util.Locale.ROOT).equals(wanted)) {
        return p;
      }
    }
    throw new IllegalArgumentException("--silent takes relay, alert, lightclient or filter, not '" + name + "'");
  }

  private CkbConfig config() {
    PrintWriter out = spec.commandLine().getOut();
    CkbConfig.Builder b = CkbConfig.builder(peer.network).flags(flags).localAddresses(localAddresses)
        .listener((session, event) -> {
          if (event instanceof CkbEvent.Identified) {
            out.println(CkbLines.identified(session));
          } else if (event instanceof CkbEvent.PeerSaidGoodbye g) {
            out.println(CkbLines.goodbye(session, g.message()));
          } else if (event instanceof CkbEvent.Closed c) {
            out.println(CkbLines.closed(session, c.cause()));
          }
        });
    try {
      b.listenAddrs(announce.stream().map(Multiaddr::parse).toList());
      for (String name : silent) {
        b.protocol(silentProtocol(name), null);
      }
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    if ((flags & IdentifyFlags.LIGHT_CLIENT) != 0 && silent.isEmpty()) {
      spec.commandLine().getErr().println(spec.qualifiedName() + ": note: LIGHT_CLIENT announced but no --silent "
          + "lightclient,filter: a light client will disconnect");
    }
    return b.build();
  }
}
