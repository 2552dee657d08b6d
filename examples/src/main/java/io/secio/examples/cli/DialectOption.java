package io.secio.examples.cli;

import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.identity.KeyType;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine;

/**
 * {@code --dialect libp2p|tentacle}: which handshake a command speaks. A dialer speaks the one given
 * (libp2p by default); a listener without it answers each dialer in the dialer's own when its key
 * is secp256k1, and speaks libp2p's otherwise. A fresh key for a tentacle run is secp256k1. A picocli mixin.
 */
final class DialectOption {
  @Option(names = "--dialect", paramLabel = "DIALECT", converter = Converter.class,
      description = "libp2p (protobuf handshake) or tentacle (molecule handshake, secp256k1 keys, "
          + "as Nervos CKB nodes speak it). A dialer defaults to libp2p; a listener without it "
          + "answers each dialer in its own (with a secp256k1 key; libp2p otherwise).")
  Dialect dialect;

  /** The type of a fresh identity for this run when none is named: tentacle needs secp256k1. */
  KeyType freshKeyType() {
    return dialect == Dialect.TENTACLE ? KeyType.SECP256K1 : KeyType.ED25519;
  }

  /** A dialer's config, for an identity of type {@code key}: the dialect given, libp2p by default. */
  SecioConfig dialer(SecioConfig.Builder builder, KeyType key, CommandSpec spec) {
    Dialect spoken = dialect != null ? dialect : Dialect.LIBP2P;
    return build(builder.dialect(spoken), "--dialect", spoken, key, spec);
  }

  /**
   * A listener's config, for an identity of type {@code key}: the dialect given; without one, as
   * {@link #answeringEach}.
   */
  SecioConfig listener(SecioConfig.Builder builder, KeyType key, CommandSpec spec) {
    return dialect != null
        ? build(builder.dialect(dialect), "--dialect", dialect, key, spec)
        : answeringEach(builder, key, spec);
  }

  /**
   * A listener's config that answers each dialer in the dialer's own dialect if the identity (of type
   * {@code key}) can speak tentacle's, else libp2p's only (a listener for any dialect sends its
   * Propose only after the dialer's: no use unless a tentacle dialer can be answered).
   */
  static SecioConfig answeringEach(SecioConfig.Builder builder, KeyType key, CommandSpec spec) {
    SecioConfig any = build(builder.anyDialect(), "--dialect", null, key, spec);
    return any.speaks(Dialect.TENTACLE) ? any : build(builder.dialect(Dialect.LIBP2P), "--dialect", null, key, spec);
  }

  /**
   * {@code builder}'s config, which {@code option} forces to {@code forced} (or not, if null) with an
   * identity of type {@code key}; a config the options cannot make is a bad argument, told in the
   * options' own spelling ({@code --dialect tentacle}, {@code ed25519}) rather than the enums'.
   */
  static SecioConfig build(SecioConfig.Builder builder, String option, Dialect forced, KeyType key, CommandSpec spec) {
    if (forced != null) {
      requireKeyFor(option, forced, key, spec);
    }
    try {
      return builder.build();
    } catch (IllegalArgumentException e) {
      String message = forced == null ? e.getMessage()
          : e.getMessage().replace("the " + forced.name() + " dialect", option + " " + label(forced));
      throw new ParameterException(spec.commandLine(), message);
    }
  }

  /** A bad argument unless {@code dialect}, which {@code option} asks for, can carry a {@code key} identity. */
  static void requireKeyFor(String option, Dialect dialect, KeyType key, CommandSpec spec) {
    if (!dialect.supports(key)) {
      throw new ParameterException(spec.commandLine(), option + " " + label(dialect)
          + " needs a secp256k1 key, not " + key.name().toLowerCase(Locale.ROOT));
    }
  }

  /** How the user names a dialect. */
  static String label(Dialect dialect) {
    return dialect.name().toLowerCase(Locale.ROOT);
  }

  static final class Converter implements CommandLine.ITypeConverter<Dialect> {
    @Override
    public Dialect convert(String value) {
      for (Dialect d : Dialect.values()) {
        if (label(d).equals(value.toLowerCase(Locale.ROOT))) {
          return d;
        }
      }
      throw new TypeConversionException("unknown dialect '" + value + "' (one of libp2p, tentacle)");
    }
  }
}
