package io.secio.examples.cli;

import io.secio.ckb.header.Consensus;
import io.secio.ckb.header.Pow;
import io.secio.ckb.protocol.CkbNetwork;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code --pow}: the PoW rule of a dev network's spec ({@code [pow] func}), for the commands that
 * check headers. Mainnet and testnet have their own rules; a dev network checks with Dummy unless
 * told otherwise. A picocli mixin.
 */
final class PowOption {
  @Option(names = "--pow", paramLabel = "RULE", converter = PowConverter.class,
      description = "A dev network's PoW rule: Eaglesong, EaglesongBlake2b or Dummy (default: Dummy; mainnet "
          + "and testnet have their own).")
  Pow pow;

  /** The rules of {@code network}, with {@code --pow} if it is a dev network. */
  Consensus consensus(CkbNetwork network, CommandSpec spec) {
    if (pow == null) {
      return Consensus.of(network);
    }
    if (network.isPublic()) {
      throw new ParameterException(spec.commandLine(), "--pow is for dev networks; " + network.identifyName()
          + " has its own rule");
    }
    return Consensus.dev(network, pow);
  }

  /** A spec's name for the rule ({@code EaglesongBlake2b}) or the enum's ({@code EAGLESONG_BLAKE2B}), any case. */
  static final class PowConverter implements ITypeConverter<Pow> {
    @Override
    public Pow convert(String value) {
      String wanted = value.replace("_", "").replace("-", "");
      for (Pow p : Pow.values()) {
        if (p.specName().equalsIgnoreCase(wanted)) {
          return p;
        }
      }
      throw new TypeConversionException("not a PoW rule (Eaglesong, EaglesongBlake2b, Dummy): '" + value + "'");
    }
  }
}
