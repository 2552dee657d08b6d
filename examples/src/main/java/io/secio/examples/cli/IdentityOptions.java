package io.secio.examples.cli;

import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;

/**
 * Where a command's identity comes from: {@code --key FILE} or a fresh {@code --key-type} key for
 * this run (the two exclude each other; neither means a fresh key of the command's default type,
 * Ed25519 unless it says otherwise). Used as an exclusive
 * picocli argument group.
 */
final class IdentityOptions {
  @Option(names = "--key", paramLabel = "FILE",
      description = "Identity key file: a libp2p PrivateKey protobuf, as `secio keygen` writes it.")
  Path keyFile;

  @Option(names = "--key-type", paramLabel = "TYPE", converter = KeyTypeConverter.class,
      description = "A fresh identity key for this run: ed25519, secp256k1, rsa or ecdsa (default: "
          + "ed25519; secp256k1 for tentacle's dialect and for bridge).")
  KeyType keyType;

  /**
   * The identity {@code options} name ({@code null}: none given).
   *
   * @throws ParameterException if the key file cannot be read or holds no valid key
   */
  static IdentityKeyPair load(IdentityOptions options, CommandSpec spec, SecureRandom random) {
    return load(options, spec, random, KeyType.ED25519);
  }

  /** As {@link #load(IdentityOptions, CommandSpec, SecureRandom)}, a fresh key of {@code freshType} by default. */
  static IdentityKeyPair load(
      IdentityOptions options, CommandSpec spec, SecureRandom random, KeyType freshType) {
    if (options != null && options.keyFile != null) {
      try {
        return KeyFiles.read(options.keyFile);
      } catch (IOException e) {
        throw new ParameterException(spec.commandLine(),
            options.keyFile + ": " + unreadable(e));
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(),
            options.keyFile + ": not a libp2p private key (" + e.getMessage() + ")");
      }
    }
    KeyType type = options != null && options.keyType != null ? options.keyType : freshType;
    return IdentityKeyPair.generate(type, random);
  }

  private static String unreadable(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    return "cannot read it (" + Report.reason(e) + ")";
  }

  /** {@code ed25519}, {@code secp256k1}, {@code rsa} or {@code ecdsa}, in any case. */
  static final class KeyTypeConverter implements CommandLine.ITypeConverter<KeyType> {
    @Override
    public KeyType convert(String value) {
      try {
        return KeyType.valueOf(value.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(
            "unknown key type '" + value + "' (one of ed25519, secp256k1, rsa, ecdsa)");
      }
    }
  }
}
