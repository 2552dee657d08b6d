package io.secio.examples.cli;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.netty.util.concurrent.Future;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.identity.IdentityKeyPair;
import io.secio.netty.Secio;
import io.secio.netty.multistream.Multistream;
import java.security.SecureRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code secio dial}: connects, prints the {@code secured} line, then either checks an echo of
 * {@code --send-bytes} random bytes or, like netcat, sends stdin to the peer and the peer's data to
 * stdout (the {@code secured} line then goes to stderr, so stdout carries the peer's bytes only).
 */
@Command(name = "dial", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Connects to a secio listener, secures the connection and moves data.",
        "Prints 'secured PEERID exchange=.. cipher=.. hash=.. version=..'.",
        "With --send-bytes, sends N random bytes, checks that the peer echoes",
        "them byte for byte and prints 'echoed N bytes in T ms (X MiB/s)'.",
        "Without it, works like netcat: stdin goes to the peer and the peer's",
        "data to stdout (the 'secured' line then goes to stderr).",
        "With --multistream, multistream-select picks /secio/1.0.0 first (libp2p).",
        "With --multistream --muxer, a libp2p connection: prints 'muxer PEERID",
        "PROTOCOL', then with --identify the node's identify record, with",
        "--ping N one 'ping I time=T ms' line per ping, and with --send-bytes",
        "the echo of K (--streams) /echo/1.0.0 streams.",
        "On failure: 'failed HOST:PORT reason' on stderr, exit code 1."})
final class DialCommand implements Callable<Integer> {
  /** An echo that makes no progress for this long has failed. */
  static final int ECHO_IDLE_TIMEOUT_SECONDS = 30;

  @ParentCommand
  private SecioCli cli;

  @Spec
  private CommandSpec spec;

  @Parameters(paramLabel = "HOST:PORT", converter = HostPort.Converter.class, description = "The listener.")
  private HostPort target;

  @Option(names = "--expect-peer", paramLabel = "ID", converter = PeerIdConverter.class,
      description = "Fail unless the listener's key has this peer id (in the dialect's form: "
          + "a tentacle id is Qm... of the compressed secp256k1 key).")
  private PeerId expectPeer;

  @Option(names = "--send-bytes", paramLabel = "N", converter = ByteCount.class,
      description = "Send N random bytes (K, M, G suffixes allowed) and check the echo.")
  private Long sendBytes;

  @Option(names = "--multistream",
      description = "Negotiate /secio/1.0.0 with multistream-select first, as libp2p nodes expect.")
  private boolean multistream;

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  private IdentityOptions identity;

  @Mixin
  private IdentityOptions.AllowOpenKeyFile openKeyFile;

  @Mixin
  private ProposalOptions proposal;

  @Mixin
  private DialectOption dialect;

  @Mixin
  private HandshakeTimeoutOption handshakeTimeout;

  @Mixin
  private TentacleOptions tentacle;

  @Mixin
  private EchoStreamOptions streams;

  @Mixin
  private Libp2pOptions libp2p;

  @Mixin
  private Libp2pDial.Options libp2pDial;

  @Override
  public Integer call() {
    SecureRandom random = new SecureRandom();
    IdentityKeyPair key = IdentityOptions.load(identity, openKeyFile, spec, random, dialect.freshKeyType());
    SecioConfig config = dialect.dialer(handshakeTimeout.apply(proposal.configure(key, spec)), key.type(), spec);
    libp2pDial.requireMuxer(spec, libp2p.active());
    if (libp2p.active()) {
      return Libp2pDial.run(cli, spec, config, expectPeer, target,
          libp2p.config(spec, multistream, tentacle, config, handshakeTimeout.timeout), libp2pDial, sendBytes, streams,
          handshakeTimeout.timeout, random);
    }
    if (tentacle.active()) {
      return TentacleDial.run(cli, spec, config, expectPeer, target, tentacle, streams, sendBytes, random.nextLong());
    }
    ChannelHandler client = expectPeer != null ? Secio.client(config, expectPeer) : Secio.client(config);
    ChannelHandler secio = multistream ? handshakeTimeout.initiator(Multistream.SECIO, client) : client;
    Transfer transfer = sendBytes == null ? null : new Transfer(sendBytes, Transfer.Reply.ECHO, random.nextLong());
    FailureRecorder failure = new FailureRecorder();
    try (Network network = new Network(1)) {
      ChannelFuture connect = network.dial(target, true, ch -> {
        ch.pipeline().addLast(secio);
        if (transfer != null) {
          ch.pipeline().addLast(new ReadTimeoutHandler(ECHO_IDLE_TIMEOUT_SECONDS), transfer);
        } else {
          ch.pipeline().addLast(new PrintHandler(cli.out()), failure);
        }
      });
      if (!connect.awaitUninterruptibly().isSuccess()) {
        return failed(connect.cause());
      }
      Channel channel = connect.channel();
      // With multistream, secio's handler exists only once /secio/1.0.0 has been agreed.
      Future<?> negotiation = multistream ? Multistream.negotiationFuture(channel).awaitUninterruptibly() : null;
      if (negotiation != null && !negotiation.isSuccess()) {
        return failed(negotiation.cause());
      }
      Future<SecioSession> handshake = Secio.handshakeFuture(channel).awaitUninterruptibly();
      if (!handshake.isSuccess()) {
        return failed(handshake.cause());
      }
      (transfer != null ? cli.out() : cli.err()).println(Report.secured(handshake.getNow()));
      return transfer != null ? echo(channel, transfer) : netcat(channel, failure);
    }
  }

  private int echo(Channel channel, Transfer transfer) {
    ProgressBar bar = cli.isTerminal() ? new ProgressBar(cli.err(), transfer.total(), transfer::received) : null;
    long nanos;
    try {
      nanos = transfer.result().get();
    } catch (ExecutionException e) {
      return failed(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return failed(e);
    } finally {
      if (bar != null) {
        bar.close();
      }
      channel.close().awaitUninterruptibly();
    }
    cli.out().println(Report.echoed(transfer.total(), nanos));
    return 0;
  }

  private int netcat(Channel channel, FailureRecorder failure) {
    StdinPump.start(cli.in(), channel);
    channel.closeFuture().awaitUninterruptibly();
    return failure.cause != null ? failed(failure.cause) : 0;
  }

  private int failed(Throwable cause) {
    cli.err().println(Report.failed(target.toAddress(), cause));
    return SecioCli.EXIT_FAILURE;
  }

  /**
   * Keeps the first failure after the handshake and closes the connection on it; last in a dial's
   * pipeline, so that no failure reaches the pipeline's tail (which would log it).
   */
  static final class FailureRecorder extends ChannelInboundHandlerAdapter {
    private volatile Throwable cause;

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable t) {
      if (cause == null) {
        cause = t;
      }
      ctx.close();
    }
  }
}
