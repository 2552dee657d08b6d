package io.secio;

import java.util.Objects;

/**
 * Text a peer chose (a multistream-select message, the first bytes of a connection, anything it sent)
 * made fit for a log line or a terminal: every control character and other non-printable shown as an
 * escape, and the whole bounded in length. The one place that does this; every message built from a
 * peer's bytes goes through it.
 *
 * <p>Escapes: {@code \n}, {@code \r}, {@code \t}; {@code \xNN} for any other code point below U+0100
 * that is not printable (C0 controls, DEL, C1 controls, U+00A0); <code>&#92;uNNNN</code> above that (line and
 * paragraph separators such as U+2028, format characters such as U+202E, unassigned and private-use
 * code points, lone surrogates, spaces other than U+0020); {@code \U00NNNNNN} for such a code point
 * outside the BMP. Everything else, backslashes included, is kept: escaping is idempotent, so text
 * that already went through here (a library message quoted in a CLI line) comes out unchanged when
 * the second bound is large enough to hold it.
 *
 * <p>Bound: at most {@link #MAX_SHOWN_CHARS} characters of output (an escape counts as its length and
 * is never cut), then {@code …(N more chars)} or {@code …(N more bytes)} for what was left out.
 *
 * <p>Stateless and thread-safe.
 */
public final class PeerText {
  /** How much of a peer's text a message shows, in characters of the escaped form. */
  public static final int MAX_SHOWN_CHARS = 200;

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private PeerText() {}

  /** {@code text} escaped and bounded to {@link #MAX_SHOWN_CHARS}. */
  public static String escape(CharSequence text) {
    return escape(text, MAX_SHOWN_CHARS);
  }

  /**
   * {@code text} escaped, at most {@code maxShownChars} characters of it, then {@code …(N more
   * chars)} counting the characters of {@code text} left out.
   *
   * @throws IllegalArgumentException if {@code maxShownChars} is negative
   */
  public static String escape(CharSequence text, int maxShownChars) {
    Objects.requireNonNull(text, "text");
    checkBound(maxShownChars);
    StringBuilder out = new StringBuilder(Math.min(text.length(), maxShownChars) + 16);
    int i = 0;
    while (i < text.length()) {
      int codePoint = Character.codePointAt(text, i);
      int shownFrom = out.length();
      append(codePoint, out);
      if (out.length() > maxShownChars) {
        out.setLength(shownFrom);
        return out.append("\u2026(").append(text.length() - i).append(" more chars)").toString();
      }
      i += Character.charCount(codePoint);
    }
    return out.toString();
  }

  /**
   * Raw bytes (not text in any known encoding) as printable ASCII: bytes 0x20 to 0x7e as themselves,
   * {@code \n}, {@code \r}, {@code \t}, every other byte as {@code \xNN}; at most {@link
   * #MAX_SHOWN_CHARS} characters, then {@code …(N more bytes)}.
   */
  public static String escape(byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    StringBuilder out = new StringBuilder(Math.min(bytes.length, MAX_SHOWN_CHARS) + 16);
    for (int i = 0; i < bytes.length; i++) {
      int b = bytes[i] & 0xff;
      int shownFrom = out.length();
      if (b >= 0x80) {
        hex(out.append("\\x"), b, 2); // never a code point: a byte of unknown meaning
      } else {
        append(b, out);
      }
      if (out.length() > MAX_SHOWN_CHARS) {
        out.setLength(shownFrom);
        return out.append("\u2026(").append(bytes.length - i).append(" more bytes)").toString();
      }
    }
    return out.toString();
  }

  private static void append(int codePoint, StringBuilder out) {
    if (printable(codePoint)) {
      out.appendCodePoint(codePoint);
    } else if (codePoint == '\n') {
      out.append("\\n");
    } else if (codePoint == '\r') {
      out.append("\\r");
    } else if (codePoint == '\t') {
      out.append("\\t");
    } else if (codePoint < 0x100) {
      hex(out.append("\\x"), codePoint, 2);
    } else if (codePoint <= 0xffff) {
      hex(out.append("\\u"), codePoint, 4);
    } else {
      hex(out.append("\\U"), codePoint, 8);
    }
  }

  /** Whether a terminal shows {@code codePoint} as a glyph (or U+0020) and does nothing else with it. */
  private static boolean printable(int codePoint) {
    if (codePoint == ' ') {
      return true;
    }
    switch (Character.getType(codePoint)) {
      case Character.CONTROL:
      case Character.FORMAT:
      case Character.LINE_SEPARATOR:
      case Character.PARAGRAPH_SEPARATOR:
      case Character.SPACE_SEPARATOR:
      case Character.PRIVATE_USE:
      case Character.SURROGATE:
      case Character.UNASSIGNED:
        return false;
      default:
        return true;
    }
  }

  private static void hex(StringBuilder out, int value, int digits) {
    for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) {
      out.append(HEX[(value >>> shift) & 0xf]);
    }
  }

  private static void checkBound(int maxShownChars) {
    if (maxShownChars < 0) {
      throw new IllegalArgumentException("maxShownChars is negative: " + maxShownChars);
    }
  }
}
