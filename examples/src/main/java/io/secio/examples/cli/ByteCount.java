package io.secio.examples.cli;

import java.util.Locale;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine;

/**
 * picocli converter for a byte count: digits, optionally followed by {@code K}, {@code M} or {@code
 * G} for KiB, MiB or GiB ({@code 8M} is 8388608).
 */
final class ByteCount implements CommandLine.ITypeConverter<Long> {
  @Override
  public Long convert(String value) {
    return parse(value);
  }

  static long parse(String value) {
    String text = value.strip().toUpperCase(Locale.ROOT);
    int shift = 0;
    if (text.endsWith("K") || text.endsWith("M") || text.endsWith("G")) {
      shift = 10 * ("KMG".indexOf(text.charAt(text.length() - 1)) + 1);
      text = text.substring(0, text.length() - 1);
    }
    long count;
    try {
      count = Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new TypeConversionException("not a byte count: '" + value + "' (digits, then K, M or G)");
    }
    if (count < 0 || count > Long.MAX_VALUE >> shift) {
      throw new TypeConversionException("byte count out of range: '" + value + "'");
    }
    return count << shift;
  }
}
