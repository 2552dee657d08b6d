package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine.TypeConversionException;

class ByteCountTest {
  @Test
  void suffixesAreBinaryMultiples() {
    assertEquals(0, ByteCount.parse("0"));
    assertEquals(1000, ByteCount.parse("1000"));
    assertEquals(3 * 1024, ByteCount.parse("3K"));
    assertEquals(8 * 1024 * 1024, ByteCount.parse("8m"));
    assertEquals(2L << 30, ByteCount.parse("2G"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "K", "-1", "1.5M", "1T", "9223372036854775807K"})
  void refusesWhatIsNotACount(String text) {
    assertThrows(TypeConversionException.class, () -> ByteCount.parse(text));
  }
}
