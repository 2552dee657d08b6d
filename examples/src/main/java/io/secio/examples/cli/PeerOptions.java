package io.secio.examples.cli;

import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.ckb.CkbNetwork;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;

/**
 * What every {@code secio ckb} command takes: the network and this side's key (a fresh secp256k1
 * key, as CKB nodes use, unless {@code --key} names a file {@code secio keygen} wrote). A picocli
 * mixin.
 */
final class PeerOptions {
  @Option(names = "--network", required = true, paramLabel = "NETWORK", converter = NetworkConverter.class,
      description = "mainnet, testnet or dev:NAME:GENESIS_HASH (a dev spec's name and genesis hash).")
  CkbNetwork network;

  @Option(names = "--key", paramLabel = "FILE",
      description = "Identity key file (a secp256k1 key, as `secio keygen --type secp256k1` writes it); "
          + "default: a fresh key for this run.")
  Path keyFile;

  /** The identity: the key file's, or a fresh secp256k1 key. */
  IdentityKeyPair identity(CommandSpec spec) {
    if (keyFile == null) {
      return IdentityKeyPair.generate(KeyType.SECP256K1, new SecureRandom());
    }
    try {
      return IdentityKeyPair.read(keyFile);
    } catch (IOException | RuntimeException e) {
      throw new ParameterException(spec.commandLine(), "--key " + keyFile + ": " + e.getMessage());
    }
  }

  /** Secio in tentacle's dialect with {@code identity}. */
  static SecioConfig secio(IdentityKeyPair identity) {
    return SecioConfig.builder(identity).dialect(Dialect.TENTACLE).build();
  }

  /** {@code mainnet}, {@code testnet}, {@code dev:NAME:GENESIS}. */
  static final class NetworkConverter implements ITypeConverter<CkbNetwork> {
    @Override
    public CkbNetwork convert(String value) {
      try {
        return CkbNetwork.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
