package io.secio.examples.cli;

import io.secio.ckb.IdentifyFlags;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Identify flags: names joined by {@code |} (as {@link IdentifyFlags#describe} prints them) or a number ({@code 0x3e}). */
final class FlagsConverter implements ITypeConverter<Long> {
  @Override
  public Long convert(String value) {
    try {
      if (Character.isDigit(value.charAt(0))) {
        return Long.decode(value);
      }
      long flags = 0;
      for (String name : value.split("\\|")) {
        flags |= switch (name.strip().toUpperCase(Locale.ROOT)) {
          case "COMPATIBILITY" -> IdentifyFlags.COMPATIBILITY;
          case "DISCOVERY" -> IdentifyFlags.DISCOVERY;
          case "SYNC" -> IdentifyFlags.SYNC;
          case "RELAY" -> IdentifyFlags.RELAY;
          case "LIGHT_CLIENT" -> IdentifyFlags.LIGHT_CLIENT;
          case "BLOCK_FILTER" -> IdentifyFlags.BLOCK_FILTER;
          default -> throw new IllegalArgumentException(name);
        };
      }
      return flags;
    } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
      throw new TypeConversionException("not flags (names joined by '|', or a number such as 0x3e): '" + value + "'");
    }
  }
}
