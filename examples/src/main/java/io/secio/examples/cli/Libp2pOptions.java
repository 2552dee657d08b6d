package io.secio.examples.cli;

import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.libp2p.Libp2pConfig;
import io.secio.libp2p.Muxer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine;

/**
 * {@code --muxer mplex,yamux}: run a libp2p connection after multistream-select and secio, as
 * libp2p nodes do ({@code docs/STREAMS.md} §10): the muxer agreed by multistream-select from these,
 * most preferred first (a dialer proposes them in that order, a listener accepts any of them), a
 * protocol negotiated on every stream, identify and ping answered. A picocli mixin of {@code listen}
 * and {@code dial}; {@code dial}'s own options are in {@link Libp2pDial}.
 */
final class Libp2pOptions {
  /** The echo protocol {@code listen --muxer .. --echo} serves and {@code dial --send-bytes} opens. */
  static final String ECHO = "/echo/1.0.0";

  @Option(names = "--muxer", paramLabel = "MUXER", split = ",", converter = MuxerConverter.class,
      description = "Run a libp2p connection (needs --multistream): the muxer mplex or yamux agreed "
          + "by multistream-select inside secio, then identify and ping on its streams. A list "
          + "(mplex,yamux) is in order of preference; a listener accepts any muxer of it.")
  List<Muxer> muxers = new ArrayList<>();

  boolean active() {
    return !muxers.isEmpty();
  }

  /**
   * The connection's config, to which a command adds its protocols and addresses: these muxers, and
   * each negotiation (the muxer's, every stream's) bounded by {@code timeout}, the handshake's.
   *
   * @throws ParameterException without {@code --multistream}, with a tentacle session or dialect, or
   *     a muxer named twice
   */
  Libp2pConfig.Builder config(CommandSpec spec, boolean multistream, TentacleOptions tentacle,
      SecioConfig secio, Duration timeout) {
    if (!multistream) {
      throw new ParameterException(spec.commandLine(), "--muxer runs a libp2p connection, which "
          + "negotiates secio with multistream-select first: add --multistream");
    }
    if (tentacle.active()) {
      throw new ParameterException(spec.commandLine(), "--muxer (a libp2p connection) and --protocol "
          + "(a tentacle session) exclude each other");
    }
    if (secio.dialect().equals(Optional.of(Dialect.TENTACLE))) {
      throw new ParameterException(spec.commandLine(), "--muxer runs a libp2p connection: not with --dialect tentacle");
    }
    try {
      return Libp2pConfig.builder().muxers(muxers).negotiationTimeout(timeout);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--muxer names a muxer twice: " + labels(muxers));
    }
  }

  /** How the user names a muxer. */
  static String label(Muxer muxer) {
    return muxer.name().toLowerCase(Locale.ROOT);
  }

  private static String labels(List<Muxer> muxers) {
    return String.join(",", muxers.stream().map(Libp2pOptions::label).toList());
  }

  static final class MuxerConverter implements CommandLine.ITypeConverter<Muxer> {
    @Override
    public Muxer convert(String value) {
      for (Muxer m : Muxer.values()) {
        if (label(m).equals(value.toLowerCase(Locale.ROOT))) {
          return m;
        }
      }
      throw new TypeConversionException("unknown muxer '" + value + "' (one of mplex, yamux)");
    }
  }
}
