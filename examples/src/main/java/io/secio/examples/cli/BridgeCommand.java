package io.secio.examples.cli;

import io.netty.channel.Channel;
import io.secio.Dialect;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.SecioMode;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
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

/**
 * {@code secio bridge}: accepts libp2p v0.1 and v0.2 dialers, and tentacle dialers when its key is
 * secp256k1 (a fresh one is), on one port, as {@code listen} without {@code --dialect} does; forwards
 * each decrypted stream to an upstream that speaks only v0.2, under the bridge's own session. This is
 * how a network moves to v0.2 without cutting off its v0.1 peers: the upstream drops v0.1, the bridge
 * keeps serving it. With {@code --to-dialect tentacle} the upstream is a tentacle node (Nervos CKB),
 * which speaks only tentacle's molecule handshake: libp2p peers reach it through the bridge.
 */
@Command(name = "bridge", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Lets v0.1 peers reach a node that speaks only v0.2 (or only tentacle's",
        "dialect). Accepts libp2p v0.1 and v0.2 dialers and, when its key is",
        "secp256k1 (a fresh one is) and without --multistream, tentacle",
        "dialers, all on one port. Forwards each decrypted stream to the",
        "upstream over a session of the bridge's own (v0.2); closes both sides",
        "when either closes. Prints 'listening', then per peer 'secured ...'",
        "(its session), 'upstream PEERID ... for CLIENT' (the upstream session)",
        "or 'failed ADDRESS reason', and 'closed CLIENT'.",
        "With --to-dialect tentacle the upstream is a tentacle node (the bridge's",
        "key must then be secp256k1). The 'listening' line ends in 'tentacle=ID',",
        "the bridge's id as tentacle peers see it, when it speaks tentacle's",
        "dialect on either side."})
final class BridgeCommand implements Callable<Integer> {
  @ParentCommand
  private SecioCli cli;

  @Spec
  private CommandSpec spec;

  @Option(names = "--listen", required = true, paramLabel = "[HOST:]PORT",
      converter = HostPort.ListenConverter.class,
      description = "Where to accept peers; a bare port is on 127.0.0.1, 0 picks a free one.")
  private HostPort listen;

  @Option(names = "--to", required = true, paramLabel = "HOST:PORT", converter = HostPort.Converter.class,
      description = "The upstream: a secio v0.2 listener (a tentacle one with --to-dialect tentacle).")
  private HostPort upstream;

  @Option(names = "--expect-peer", paramLabel = "ID", converter = PeerIdConverter.class,
      description = "Fail upstream connections unless the upstream's key has this peer id "
          + "(in the upstream dialect's form).")
  private PeerId upstreamPeer;

  @Option(names = "--to-dialect", paramLabel = "DIALECT", defaultValue = "libp2p",
      converter = DialectOption.Converter.class,
      description = "The upstream's handshake: libp2p (default) or tentacle.")
  private Dialect upstreamDialect;

  @Option(names = "--multistream",
      description = "Peers negotiate /secio/1.0.0 with multistream-select first (libp2p nodes).")
  private boolean multistream;

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  private IdentityOptions identity;

  @Mixin
  private IdentityOptions.AllowOpenKeyFile openKeyFile;

  @Mixin
  private HandshakeTimeoutOption handshakeTimeout;

  @Override
  public Integer call() throws InterruptedException {
    // A fresh key is secp256k1: the one type that lets the bridge answer every kind of dialer.
    IdentityKeyPair key = IdentityOptions.load(identity, openKeyFile, spec, new SecureRandom(), KeyType.SECP256K1);
    SecioConfig inbound = DialectOption.answeringEach(
        handshakeTimeout.apply(SecioConfig.builder(key).mode(SecioMode.BRIDGE)), key.type(), spec);
    SecioConfig outbound = DialectOption.build(handshakeTimeout.apply(SecioConfig.builder(key)).mode(SecioMode.V0_2_ONLY)
        .dialect(upstreamDialect), "--to-dialect", upstreamDialect, key.type(), spec);
    try (Network network = new Network(0)) {
      Channel listener;
      try {
        // Without auto-read: nothing is read from a peer until its upstream session is ready.
        listener = network.listen(listen, false, ch -> ch.pipeline().addLast(
            multistream ? handshakeTimeout.responder(Multistream.SECIO, Secio.server(inbound)) : Secio.server(inbound),
            new Relay(network, upstream, outbound, upstreamPeer, cli.out())));
      } catch (Exception e) {
        cli.error(spec, "cannot listen on " + listen + ": " + Report.reason(e));
        return SecioCli.EXIT_FAILURE;
      }
      // Tentacle peers know the bridge by its tentacle id: a tentacle upstream, and tentacle dialers,
      // which start secio at once (behind multistream-select they are never answered).
      boolean tentacleSeen = upstreamDialect == Dialect.TENTACLE || inbound.speaks(Dialect.TENTACLE) && !multistream;
      cli.out().println(Report.listening(listener.localAddress(), Dialect.LIBP2P.peerId(key.publicKey()))
          + (tentacleSeen ? " tentacle=" + Dialect.TENTACLE.peerId(key.publicKey()) : ""));
      listener.closeFuture().sync();
      return 0;
    }
  }
}
