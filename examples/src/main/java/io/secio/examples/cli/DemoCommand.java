package io.secio.examples.cli;

import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.SecioMode;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.protocol.CipherAlgorithm;
import java.io.OutputStream;
import java.io.PrintStream;
import java.security.SecureRandom;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code secio demo}: two peers in this process handshake in each mode (v0.2 with each AEAD cipher,
 * v0.1 CTR+HMAC, one bridge listener serving both versions, and the one pairing that cannot work),
 * then in tentacle's dialect (a tentacle-only node, one listener serving tentacle and libp2p dialers,
 * and a v0.1 peer reaching the tentacle-only node through a relay, as {@code secio bridge
 * --to-dialect tentacle} runs it), echo data, and print a table of what was negotiated and how fast
 * it went. Exit code 1 if any pairing that should work does not.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = {
        "Shows every mode at work, between peers in this process.",
        "Over loopback TCP, peers handshake in each mode: v0.2 with each AEAD",
        "cipher, v0.1 (AES-CTR + HMAC), and one bridge listener serving a v0.2",
        "and a v0.1 dialer on the same port. Then tentacle's dialect: a",
        "tentacle-only node, one listener for both dialects, and a v0.1 peer",
        "reaching the tentacle-only node through a bridge (secio bridge",
        "--to-dialect tentacle). Each connection echoes data.",
        "Prints what was negotiated and how fast it went."})
final class DemoCommand implements Callable<Integer> {
  private static final String ROW = "%-8s %-8s %-8s %-18s %-7s %-8s %10s %13s  %s%n";

  @ParentCommand
  private SecioCli cli;

  @Option(names = "--bytes", paramLabel = "N", defaultValue = "8M", converter = ByteCount.class,
      description = "Bytes each connection echoes (default: ${DEFAULT-VALUE}; K, M, G suffixes).")
  private long bytes;

  private final SecureRandom random = new SecureRandom();
  private IdentityKeyPair listenerKey;
  private IdentityKeyPair dialerKey;
  private int unexpectedFailures;

  @Override
  public Integer call() throws Exception {
    PrintStream out = cli.out();
    listenerKey = IdentityKeyPair.generate(KeyType.ED25519, random);
    dialerKey = IdentityKeyPair.generate(KeyType.SECP256K1, random);
    try (Network network = new Network(2)) {
      out.printf("secio demo: two peers in this process over loopback TCP (%s), %s echoed per connection%n",
          network.transport().name().toLowerCase(Locale.ROOT), size(bytes));
      out.printf("listener %s (ed25519), dialer %s (secp256k1)%n%n",
          Dialect.LIBP2P.peerId(listenerKey.publicKey()), Dialect.LIBP2P.peerId(dialerKey.publicKey()));
      warmUp(network);
      out.printf(ROW, "listener", "dialer", "exchange", "cipher", "hash", "version", "handshake",
          "echo", "backend");
      for (CipherAlgorithm cipher : SecioMode.V0_2_ONLY.ciphers()) {
        pair(network, SecioMode.V0_2_ONLY, SecioMode.V0_2_ONLY, List.of(cipher), true);
      }
      pair(network, SecioMode.V0_1_ONLY, SecioMode.V0_1_ONLY, null, true);
      HostPort bridge;
      try (LoopbackPeers peers = listener(network, SecioMode.BRIDGE, null)) {
        bridge = peers.address();
        row(peers, SecioMode.BRIDGE, SecioMode.V0_2_ONLY, null, true);
        row(peers, SecioMode.BRIDGE, SecioMode.V0_1_ONLY, null, true);
      }
      pair(network, SecioMode.V0_1_ONLY, SecioMode.V0_2_ONLY, null, false);
      out.printf("%nThe two bridge rows are one listener (%s) serving a v0.2 and a v0.1 dialer.%n", bridge);
      out.println("v0.1 only and v0.2 only share no cipher: that is what bridge mode is for.");
      out.println();
      tentacle(network);
    }
    return unexpectedFailures == 0 ? 0 : SecioCli.EXIT_FAILURE;
  }

  /**
   * Untimed connections first, one per framing, so that the first rows do not carry class loading and
   * JIT compilation.
   */
  private void warmUp(Network network) throws Exception {
    try (LoopbackPeers peers = listener(network, SecioMode.BRIDGE, null)) {
      for (SecioMode mode : List.of(SecioMode.V0_2_ONLY, SecioMode.V0_1_ONLY)) {
        peers.run(config(dialerKey, mode, null), new Transfer(bytes, Transfer.Reply.ECHO, random.nextLong()));
      }
    }
  }

  /**
   * tentacle's dialect: a tentacle-only node, a listener for any dialect, and a relay that lets a
   * libp2p v0.1 peer reach the tentacle-only node (its rows show the dialer's session).
   */
  private void tentacle(Network network) throws Exception {
    PrintStream out = cli.out();
    IdentityKeyPair nodeKey = IdentityKeyPair.generate(KeyType.SECP256K1, random);
    SecioConfig tentacleOnly = peer(nodeKey).dialect(Dialect.TENTACLE).build();
    SecioConfig tentacleDialer = peer(dialerKey).dialect(Dialect.TENTACLE).build();
    out.printf("tentacle node %s (tentacle id; libp2p id %s)%n%n",
        Dialect.TENTACLE.peerId(nodeKey.publicKey()), Dialect.LIBP2P.peerId(nodeKey.publicKey()));
    out.printf(ROW, "listener", "dialer", "exchange", "cipher", "hash", "version", "handshake",
        "echo", "backend");
    try (LoopbackPeers node = new LoopbackPeers(network, tentacleOnly, EchoHandler::new)) {
      row(node, "tentacle", "tentacle", tentacleDialer, true);
      row(node, "tentacle", "v0.1", config(dialerKey, SecioMode.V0_1_ONLY, null), false);
      SecioConfig any = peer(nodeKey).anyDialect().build();
      try (LoopbackPeers onePort = new LoopbackPeers(network, any, EchoHandler::new)) {
        row(onePort, "any", "tentacle", tentacleDialer, true);
        row(onePort, "any", "v0.1", config(dialerKey, SecioMode.V0_1_ONLY, null), true);
      }
      IdentityKeyPair relayKey = IdentityKeyPair.generate(KeyType.SECP256K1, random);
      SecioConfig upstream = peer(relayKey).dialect(Dialect.TENTACLE).build();
      PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
      try (LoopbackPeers relay = new LoopbackPeers(network, config(relayKey, SecioMode.BRIDGE, null),
          () -> new Relay(network, node.address(), upstream, Dialect.TENTACLE.peerId(nodeKey.publicKey()), quiet),
          false)) {
        row(relay, "relay", "v0.1", config(dialerKey, SecioMode.V0_1_ONLY, null), true);
      }
    }
    out.println();
    out.println("A tentacle-only node refuses libp2p's protobuf handshake. The 'any' rows are one");
    out.println("listener answering each dialer in its own dialect; the 'relay' row is a v0.1 peer");
    out.println("reaching the tentacle-only node through a bridge, as `secio bridge --to-dialect");
    out.println("tentacle` runs it.");
  }

  private void pair(Network network, SecioMode listenerMode, SecioMode dialerMode,
      List<CipherAlgorithm> ciphers, boolean shouldWork) throws Exception {
    try (LoopbackPeers peers = listener(network, listenerMode, ciphers)) {
      row(peers, listenerMode, dialerMode, ciphers, shouldWork);
    }
  }

  private LoopbackPeers listener(Network network, SecioMode mode, List<CipherAlgorithm> ciphers)
      throws InterruptedException {
    return new LoopbackPeers(network, config(listenerKey, mode, ciphers), EchoHandler::new);
  }

  private SecioConfig config(IdentityKeyPair key, SecioMode mode, List<CipherAlgorithm> ciphers) {
    SecioConfig.Builder builder = peer(key).mode(mode);
    return (ciphers == null ? builder : builder.ciphers(ciphers)).build();
  }

  /** A peer of the demo: the handshake timeout only guards against a hang, on however busy a machine. */
  private SecioConfig.Builder peer(IdentityKeyPair key) {
    return SecioConfig.builder(key).random(random).handshakeTimeout(LoopbackPeers.HANDSHAKE_TIMEOUT);
  }

  private void row(LoopbackPeers peers, SecioMode listenerMode, SecioMode dialerMode,
      List<CipherAlgorithm> ciphers, boolean shouldWork) throws Exception {
    row(peers, ProposalOptions.label(listenerMode), ProposalOptions.label(dialerMode),
        config(dialerKey, dialerMode, ciphers), shouldWork);
  }

  private void row(LoopbackPeers peers, String listener, String dialer, SecioConfig dialerConfig,
      boolean shouldWork) throws Exception {
    Transfer transfer = new Transfer(bytes, Transfer.Reply.ECHO, random.nextLong());
    try {
      LoopbackPeers.Outcome o = peers.run(dialerConfig, transfer);
      cli.out().printf(ROW, listener, dialer, o.session().exchange().wireName(),
          o.session().cipher().wireName(), o.session().hash().wireName(), o.session().version().label(),
          String.format(Locale.ROOT, "%.1f ms", o.handshakeNanos() / 1e6),
          Report.mibPerSecond(o.bytes(), o.transferNanos()), o.session().cipherBackend());
      if (!shouldWork) {
        unexpectedFailures++;
      }
    } catch (ExecutionException e) {
      cli.out().printf("%-8s %-8s failed: %s%s%n", listener, dialer, Report.reason(e.getCause()),
          shouldWork ? "" : " (as expected)");
      if (shouldWork) {
        unexpectedFailures++;
      }
    }
  }

  private static String size(long bytes) {
    return bytes % (1024 * 1024) == 0 ? bytes / (1024 * 1024) + " MiB" : bytes + " bytes";
  }
}
