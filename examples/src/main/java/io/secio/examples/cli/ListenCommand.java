package io.secio.examples.cli;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.IdentityPublicKey;
import io.secio.netty.Secio;
import io.secio.netty.multistream.Multistream;
import java.security.SecureRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine;

/**
 * {@code secio listen}: accepts secio connections until the process is stopped, printing a {@code
 * listening} line once bound and a {@code secured} or {@code failed} line per connection; echoes or
 * prints what peers send.
 */
@Command(name = "listen", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Accepts secio connections until stopped.",
        "Prints 'listening HOST:PORT PEERID' once ready, then per connection",
        "'secured PEERID exchange=.. cipher=.. hash=.. version=v0.1|v0.2'",
        "or 'failed ADDRESS reason'. With --echo, echoes every byte back;",
        "otherwise prints what peers send to stdout.",
        "Without --dialect and --multistream it answers libp2p and (with a",
        "secp256k1 key) tentacle dialers on the same port, and prints",
        "'tentacle PEERID' after 'listening'.",
        "With --multistream --muxer, a libp2p connection: after 'secured',",
        "'muxer PEERID PROTOCOL'; identify and ping are answered, and with",
        "--echo /echo/1.0.0 streams echoed ('opened'/'closed' lines)."})
final class ListenCommand implements Callable<Integer> {
  @ParentCommand
  private SecioCli cli;

  @Spec
  private CommandSpec spec;

  @Option(names = "--host", paramLabel = "HOST", defaultValue = "127.0.0.1",
      description = "Address to listen on (default: ${DEFAULT-VALUE}; 0.0.0.0 for every interface).")
  private String host;

  @Option(names = "--port", required = true, paramLabel = "PORT", converter = PortConverter.class,
      description = "Port to listen on; 0 picks a free one.")
  private int port;

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

  @Option(names = "--echo", description = "Echo every byte back instead of printing it.")
  private boolean echo;

  @Option(names = "--multistream",
      description = "Answer multistream-select first and accept /secio/1.0.0, as libp2p nodes dial.")
  private boolean multistream;

  @Mixin
  private TentacleOptions tentacle;

  @Mixin
  private Libp2pOptions libp2p;

  @Override
  public Integer call() throws InterruptedException {
    IdentityKeyPair key = IdentityOptions.load(identity, openKeyFile, spec, new SecureRandom(), dialect.freshKeyType());
    SecioConfig config = dialect.listener(handshakeTimeout.apply(proposal.configure(key, spec)), key.type(), spec);
    HostPort address = new HostPort(host, port);
    if (libp2p.active()) {
      return Libp2pListen.run(cli, spec, config, key, address,
          libp2p.config(spec, multistream, tentacle, config, handshakeTimeout.timeout), echo);
    }
    if (tentacle.active()) {
      return TentacleListen.run(cli, spec, config, key, address, tentacle.protocols, echo);
    }
    try (Network network = new Network(0)) {
      Channel listener;
      try {
        listener = network.listen(address, true, ch -> ch.pipeline().addLast(
            multistream ? handshakeTimeout.responder(Multistream.SECIO, Secio.server(config)) : Secio.server(config),
            application(), new SessionReporter(cli.out(), cli.err())));
      } catch (Exception e) {
        cli.error(spec, "cannot listen on " + address + ": " + Report.reason(e));
        return SecioCli.EXIT_FAILURE;
      }
      Dialect forced = config.dialect().orElse(null);
      IdentityPublicKey publicKey = key.publicKey();
      cli.out().println(Report.listening(listener.localAddress(),
          forced != null ? forced.peerId(publicKey) : Dialect.LIBP2P.peerId(publicKey)));
      // A tentacle dialer starts secio at once; behind multistream-select it is never answered.
      if (forced == null && config.speaks(Dialect.TENTACLE) && !multistream) {
        cli.out().println("tentacle " + Dialect.TENTACLE.peerId(publicKey));
      }
      listener.closeFuture().sync();
      return 0;
    }
  }

  private ChannelHandler application() {
    return echo ? new EchoHandler() : new PrintHandler(cli.out());
  }

  /** 0 to 65535. */
  static final class PortConverter implements CommandLine.ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      try {
        return HostPort.port(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
