package io.secio.examples.cli;

import io.secio.Dialect;
import io.secio.SecioConfig;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine;

/**
 * {@code --protocol NAME:V1,V2,...}: run a tentacle session (yamux and tentacle's protocol-select
 * after secio's tentacle dialect) with that protocol and those versions, as a CKB node does. A
 * picocli mixin of {@code listen} and {@code dial}; {@code dial}'s own options are in {@link
 * TentacleDial}.
 */
final class TentacleOptions {
  @Option(names = "--protocol", paramLabel = "NAME:VERSIONS", converter = ProtocolConverter.class,
      description = "Run a tentacle session (needs --dialect tentacle): yamux, then tentacle's "
          + "protocol-select for this protocol and its versions, ascending (e.g. /test/echo:1,2). "
          + "A listener may name several.")
  List<Protocol> protocols = new ArrayList<>();

  /** A protocol's name and the versions given for it. */
  record Protocol(String name, List<String> versions) {
    @Override
    public String toString() {
      return name + ":" + String.join(",", versions);
    }
  }

  boolean active() {
    return !protocols.isEmpty();
  }

  /** A bad argument unless {@code config} speaks tentacle's dialect only. */
  static void requireTentacle(SecioConfig config, CommandSpec spec) {
    if (!config.dialect().equals(java.util.Optional.of(Dialect.TENTACLE))) {
      throw new ParameterException(spec.commandLine(), "--protocol runs a tentacle session: add --dialect tentacle");
    }
  }

  /** {@code NAME:V1,V2}: a name and at least one version. */
  static final class ProtocolConverter implements CommandLine.ITypeConverter<Protocol> {
    @Override
    public Protocol convert(String value) {
      int colon = value.lastIndexOf(':');
      if (colon <= 0 || colon == value.length() - 1) {
        throw new TypeConversionException("'" + value + "' is not NAME:VERSIONS (e.g. /test/echo:1,2)");
      }
      List<String> versions = new ArrayList<>();
      for (String v : value.substring(colon + 1).split(",", -1)) {
        if (v.isEmpty()) {
          throw new TypeConversionException("an empty version in '" + value + "'");
        }
        versions.add(v);
      }
      return new Protocol(value.substring(0, colon), versions);
    }
  }
}
