package io.secio.examples.cli;

import io.secio.SecioConfig;
import io.secio.SecioMode;
import io.secio.identity.IdentityKeyPair;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine;

/**
 * What a node proposes: a mode, and optionally its own exchange, cipher and hash lists, which replace
 * the mode's list of that kind. Names are the wire names, comma-separated, in preference order. A
 * picocli mixin.
 */
final class ProposalOptions {
  @Option(names = "--mode", paramLabel = "MODE", defaultValue = "bridge", converter = ModeConverter.class,
      description = "bridge (default: AEAD with v0.2 peers, AES-CTR+HMAC with v0.1 peers), "
          + "v0.2 (AEAD only) or v0.1 (AES-CTR+HMAC only, as go and js libp2p).")
  SecioMode mode;

  @Option(names = "--exchanges", paramLabel = "NAME", split = ",", converter = ExchangeConverter.class,
      description = "Key exchanges to offer, e.g. P-256,X25519 (known: P-256, P-384, P-521, X25519).")
  List<ExchangeAlgorithm> exchanges;

  @Option(names = "--ciphers", paramLabel = "NAME", split = ",", converter = CipherConverter.class,
      description = "Ciphers to offer, e.g. AES-128-GCM (known: AES-128-GCM, AES-256-GCM, "
          + "CHACHA20_POLY1305, AES-256, AES-128).")
  List<CipherAlgorithm> ciphers;

  @Option(names = "--hashes", paramLabel = "NAME", split = ",", converter = HashConverter.class,
      description = "Hashes to offer (known: SHA256, SHA512).")
  List<HashAlgorithm> hashes;

  /**
   * A config builder for {@code identity} with these proposals.
   *
   * @throws ParameterException if a list repeats a name
   */
  SecioConfig.Builder configure(IdentityKeyPair identity, CommandSpec spec) {
    SecioConfig.Builder builder = SecioConfig.builder(identity).mode(mode);
    if (exchanges != null) {
      builder.exchanges(exchanges);
    }
    if (ciphers != null) {
      builder.ciphers(ciphers);
    }
    if (hashes != null) {
      builder.hashes(hashes);
    }
    try {
      builder.build();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    return builder;
  }

  /** How the user names a mode on the command line. */
  static String label(SecioMode mode) {
    switch (mode) {
      case V0_2_ONLY:
        return "v0.2";
      case V0_1_ONLY:
        return "v0.1";
      default:
        return "bridge";
    }
  }

  static final class ModeConverter implements CommandLine.ITypeConverter<SecioMode> {
    @Override
    public SecioMode convert(String value) {
      for (SecioMode mode : SecioMode.values()) {
        if (label(mode).equals(value)) {
          return mode;
        }
      }
      throw new TypeConversionException("unknown mode '" + value + "' (one of bridge, v0.2, v0.1)");
    }
  }

  static final class ExchangeConverter implements CommandLine.ITypeConverter<ExchangeAlgorithm> {
    @Override
    public ExchangeAlgorithm convert(String value) {
      return known("exchange", value, ExchangeAlgorithm.fromWireName(value),
          ExchangeAlgorithm.values(), ExchangeAlgorithm::wireName);
    }
  }

  static final class CipherConverter implements CommandLine.ITypeConverter<CipherAlgorithm> {
    @Override
    public CipherAlgorithm convert(String value) {
      return known("cipher", value, CipherAlgorithm.fromWireName(value),
          CipherAlgorithm.values(), CipherAlgorithm::wireName);
    }
  }

  static final class HashConverter implements CommandLine.ITypeConverter<HashAlgorithm> {
    @Override
    public HashAlgorithm convert(String value) {
      return known("hash", value, HashAlgorithm.fromWireName(value),
          HashAlgorithm.values(), HashAlgorithm::wireName);
    }
  }

  private static <T> T known(
      String kind, String value, Optional<T> parsed, T[] all, Function<T, String> wireName) {
    return parsed.orElseThrow(() -> new TypeConversionException("unknown " + kind + " '" + value
        + "' (known: " + Arrays.stream(all).map(wireName).collect(Collectors.joining(", ")) + ")"));
  }
}
