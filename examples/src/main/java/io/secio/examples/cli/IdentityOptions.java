package io.secio.examples.cli;

import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.identity.OpenKeyFileException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine;

/**
 * Where a command's identity comes from: {@code --key FILE} or a fresh {@code --key-type} key for
 * this run (the two exclude each other; neither means a fresh key of the command's default type,
 * Ed25519 unless it says otherwise). Used as an exclusive picocli argument group, beside the {@link
 * AllowOpenKeyFile} mixin.
 */
final class IdentityOptions {
  @Option(names = "--key", paramLabel = "FILE",
      description = "Identity key file: a libp2p PrivateKey protobuf, as `secio keygen` writes it "
          + "(readable by its owner only).")
  Path keyFile;

  @Option(names = "--key-type", paramLabel = "TYPE", converter = KeyTypeConverter.class,
      description = "A fresh identity key for this run: ed25519, secp256k1, rsa or ecdsa (default: "
          + "ed25519; secp256k1 for tentacle's dialect and for bridge).")
  KeyType keyType;

  /** {@code --allow-open-key-file}: a key file may be one that others than its owner may open. A picocli mixin. */
  static final class AllowOpenKeyFile {
    @Option(names = "--allow-open-key-file",
        description = "Use the key file even if its group or others may read or write it.")
    boolean allowed;
  }

  /**
   * The identity {@code options} name ({@code null}: none given), a fresh key of {@code freshType}
   * by default.
   *
   * @throws ParameterException if the key file cannot be read, holds no valid key, or is open to
   *     others when {@code open} does not allow it
   */
  static IdentityKeyPair load(IdentityOptions options, AllowOpenKeyFile open, CommandSpec spec,
      SecureRandom random, KeyType freshType) {
    if (options != null && options.keyFile != null) {
      return read(options.keyFile, open.allowed, spec);
    }
    KeyType type = options != null && options.keyType != null ? options.keyType : freshType;
    return IdentityKeyPair.generate(type, random);
  }

  /**
   * The key in {@code file}; unless {@code allowOpen}, refused as {@code ssh} refuses a private key
   * that others may open.
   *
   * @throws ParameterException if it cannot be read, holds no valid key, or is refused
   */
  static IdentityKeyPair read(Path file, boolean allowOpen, CommandSpec spec) {
    try {
      return IdentityKeyPair.read(file, allowOpen);
    } catch (OpenKeyFileException e) {
      throw new ParameterException(spec.commandLine(),
          e.getMessage() + ", or pass --allow-open-key-file to use it anyway");
    } catch (IOException e) {
      throw new ParameterException(spec.commandLine(), file + ": " + unreadable(e));
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(),
          file + ": not a libp2p private key (" + e.getMessage() + ")");
    }
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
