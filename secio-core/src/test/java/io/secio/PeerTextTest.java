package io.secio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PeerTextTest {

  static Stream<Arguments> texts() {
    return Stream.of(
        Arguments.of("terminal escapes", "\u001b[31mEVIL\u001b[0m\u0007", "\\x1b[31mEVIL\\x1b[0m\\x07"),
        Arguments.of("a faked status line", "\u001b[2K\u001b[1Asecured 12D3KooW", "\\x1b[2K\\x1b[1Asecured 12D3KooW"),
        Arguments.of("line ends and tabs", "a\r\nb\tc", "a\\r\\nb\\tc"),
        Arguments.of("NUL and DEL", "\u0000x\u007f", "\\x00x\\x7f"),
        Arguments.of("a C1 CSI", "\u009b2J", "\\x9b2J"),
        Arguments.of("no-break space", "a\u00a0b", "a\\xa0b"),
        Arguments.of("line and paragraph separators", "a\u2028b\u2029c", "a\\u2028b\\u2029c"),
        Arguments.of("right-to-left override", "abc\u202edef", "abc\\u202edef"),
        Arguments.of("ideographic space", "a\u3000b", "a\\u3000b"),
        Arguments.of("zero-width space", "a\u200bb", "a\\u200bb"),
        Arguments.of("a lone surrogate", "a\ud800b", "a\\ud800b"),
        Arguments.of("astral private use", "a\udb80\udc00b", "a\\U000f0000b"),
        Arguments.of("printable text stays", "/secio/1.0.0 h\u00e9llo \u4e2d\u6587 \ud83d\ude00",
            "/secio/1.0.0 h\u00e9llo \u4e2d\u6587 \ud83d\ude00"),
        Arguments.of("backslashes stay", "C:\\path\\x1b", "C:\\path\\x1b"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("texts")
  void escapesWhatATerminalWouldActOn(String what, String text, String shown) {
    assertEquals(shown, PeerText.escape(text), what);
  }

  @Test
  void longTextIsCutAtTheBoundAndSaysHowMuchIsLeft() {
    assertEquals("a".repeat(200) + "…(100 more chars)", PeerText.escape("a".repeat(300)));
    assertEquals("a".repeat(200), PeerText.escape("a".repeat(200)), "exactly the bound: nothing cut");
    // An escape is never cut in half: \x1b would end at character 203.
    assertEquals("a".repeat(199) + "…(2 more chars)", PeerText.escape("a".repeat(199) + "\u001bz"));
    assertEquals("ab…(1 more chars)", PeerText.escape("abc", 2));
    assertEquals("…(3 more chars)", PeerText.escape("abc", 0));
    assertThrows(IllegalArgumentException.class, () -> PeerText.escape("abc", -1));
  }

  @Test
  void rawBytesAreShownAsAscii() {
    assertEquals("HTTP/1.1 400 Bad Request\\r\\n",
        PeerText.escape("HTTP/1.1 400 Bad Request\r\n".getBytes(StandardCharsets.US_ASCII)));
    assertEquals("\\x00\\x1b\\x7f\\x80\\xc3\\xa9\\xff", PeerText.escape(new byte[] {
        0, 0x1b, 0x7f, (byte) 0x80, (byte) 0xc3, (byte) 0xa9, (byte) 0xff}));
    byte[] many = new byte[1000];
    assertEquals("\\x00".repeat(50) + "…(950 more bytes)", PeerText.escape(many));
  }

  static LongStream seeds() {
    return new Random().longs(20);
  }

  /** Any text: the output holds nothing non-printable, stays bounded, and escaping it again changes nothing. */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void anyTextComesOutPrintableBoundedAndStable(long seed) {
    Random random = new Random(seed);
    StringBuilder text = new StringBuilder();
    int length = random.nextInt(400);
    for (int i = 0; i < length; i++) {
      // Mostly the troublesome ranges: C0, C1, BMP specials, surrogates and astral planes.
      int range = random.nextInt(4);
      int c = range == 0 ? random.nextInt(0x100) : range == 1 ? 0x2000 + random.nextInt(0x100)
          : range == 2 ? 0xd700 + random.nextInt(0x900) : random.nextInt(0x110000);
      text.appendCodePoint(c >= 0xd800 && c <= 0xdfff && range != 2 ? 'x' : c);
    }
    String shown = PeerText.escape(text);
    String message = "seed " + seed;
    shown.codePoints().forEach(c -> assertTrue(c == ' ' || !Character.isISOControl(c)
        && Character.getType(c) != Character.FORMAT && Character.getType(c) != Character.LINE_SEPARATOR
        && Character.getType(c) != Character.PARAGRAPH_SEPARATOR
        && Character.getType(c) != Character.SPACE_SEPARATOR
        && Character.getType(c) != Character.SURROGATE
        && Character.getType(c) != Character.UNASSIGNED, () -> message + ": U+" + Integer.toHexString(c)));
    String withoutSuffix = shown.replaceFirst("…\\(\\d+ more chars\\)$", "");
    assertTrue(withoutSuffix.length() <= PeerText.MAX_SHOWN_CHARS, message);
    assertEquals(shown, PeerText.escape(shown, Integer.MAX_VALUE), message + ": escaping twice");
  }
}
