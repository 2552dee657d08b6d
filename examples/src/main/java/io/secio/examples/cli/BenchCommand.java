package io.secio.examples.cli;

import io.secio.SecioConfig;
import io.secio.SecioMode;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.protocol.CipherAlgorithm;
import java.security.SecureRandom;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code secio bench}: one-way throughput between two peers in this process over loopback, per
 * cipher. A rough figure for a user's machine; the project's measurements are the JMH benchmarks.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = {
        "Measures throughput between two peers in this process.",
        "Over loopback TCP, the dialer sends N bytes, the listener decrypts",
        "them all and answers one byte. Each cipher (or only --cipher) gets an",
        "untimed warm-up run first."})
final class BenchCommand implements Callable<Integer> {
  private static final String ROW = "%-18s %-7s %-10s %12s %10s %13s%n";
  private static final long WARM_UP_BYTES = 8L * 1024 * 1024;

  @ParentCommand
  private SecioCli cli;

  @Spec
  private CommandSpec spec;

  @Option(names = "--cipher", paramLabel = "CIPHER", converter = ProposalOptions.CipherConverter.class,
      description = "Only this cipher (default: each of AES-128-GCM, AES-256-GCM, CHACHA20_POLY1305, "
          + "AES-256, AES-128).")
  private CipherAlgorithm cipher;

  @Option(names = "--bytes", paramLabel = "N", defaultValue = "64M", converter = ByteCount.class,
      description = "Bytes to send per cipher (default: ${DEFAULT-VALUE}; K, M, G suffixes).")
  private long bytes;

  private final SecureRandom random = new SecureRandom();

  @Override
  public Integer call() throws Exception {
    if (bytes < 1) {
      throw new ParameterException(spec.commandLine(), "--bytes must be at least 1");
    }
    IdentityKeyPair listenerKey = IdentityKeyPair.generate(KeyType.ED25519, random);
    IdentityKeyPair dialerKey = IdentityKeyPair.generate(KeyType.ED25519, random);
    List<CipherAlgorithm> ciphers = cipher != null ? List.of(cipher) : List.of(CipherAlgorithm.values());
    try (Network network = new Network(2)) {
      cli.out().printf("secio bench: %d bytes one way per cipher over loopback TCP (%s)%n", bytes,
          network.transport().name().toLowerCase(Locale.ROOT));
      cli.out().printf(ROW, "cipher", "version", "backend", "bytes", "time", "throughput");
      for (CipherAlgorithm c : ciphers) {
        SecioConfig listener = config(listenerKey, c);
        SecioConfig dialer = config(dialerKey, c);
        try {
          run(network, listener, dialer, Math.min(bytes, WARM_UP_BYTES));
          LoopbackPeers.Outcome o = run(network, listener, dialer, bytes);
          cli.out().printf(ROW, c.wireName(), o.session().version().label(), o.session().cipherBackend(),
              o.bytes(), String.format(Locale.ROOT, "%d ms", o.transferNanos() / 1_000_000),
              Report.mibPerSecond(o.bytes(), o.transferNanos()));
        } catch (ExecutionException e) {
          cli.error(spec, c.wireName() + " failed: " + Report.reason(e.getCause()));
          return SecioCli.EXIT_FAILURE;
        }
      }
    }
    return 0;
  }

  private SecioConfig config(IdentityKeyPair key, CipherAlgorithm c) {
    SecioMode mode = c.isAead() ? SecioMode.V0_2_ONLY : SecioMode.V0_1_ONLY;
    return SecioConfig.builder(key).mode(mode).ciphers(List.of(c)).random(random)
        .handshakeTimeout(LoopbackPeers.HANDSHAKE_TIMEOUT).build();
  }

  private LoopbackPeers.Outcome run(Network network, SecioConfig listener, SecioConfig dialer, long count)
      throws Exception {
    try (LoopbackPeers peers = new LoopbackPeers(network, listener, () -> new AckingSink(count))) {
      return peers.run(dialer, new Transfer(count, Transfer.Reply.ACK, random.nextLong()));
    }
  }
}
