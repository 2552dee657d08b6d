package io.secio.multiaddr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;

/**
 * The multiaddr readers on any input: only their own failure escapes ({@link MultiaddrException}
 * from the bytes, {@link IllegalArgumentException} from the text), and what is read prints to a text
 * that reads back to the same bytes (names holding '/' and onion3 port 0 have no text form, in
 * tentacle too).
 */
class MultiaddrFuzzTest {

  @FuzzTest
  void anyBytes(byte[] bytes) {
    Multiaddr a;
    try {
      a = Multiaddr.read(bytes);
    } catch (MultiaddrException e) {
      return;
    }
    assertArrayEquals(bytes, a.toBytes());
    if (bytes.length == 0 || !hasTextForm(a)) {
      return;
    }
    assertArrayEquals(bytes, Multiaddr.parse(a.toString()).toBytes(), a.toString());
  }

  @FuzzTest
  void anyText(byte[] utf8) {
    String text = new String(utf8, StandardCharsets.UTF_8);
    Multiaddr a;
    try {
      a = Multiaddr.parse(text);
    } catch (IllegalArgumentException e) {
      return;
    }
    try {
      assertEquals(a, Multiaddr.read(a.toBytes()), "what parses is what tentacle reads");
    } catch (MultiaddrException e) {
      throw new AssertionError("parsed " + text + " but cannot read its bytes", e);
    }
    if (hasTextForm(a)) {
      assertEquals(a, Multiaddr.parse(a.toString()), "its text reads back");
    }
  }

  private static boolean hasTextForm(Multiaddr a) {
    for (Component c : a.components()) {
      String v = c.valueText();
      if (v.indexOf('/') >= 0 || (c.protocol() == MultiaddrProtocol.ONION3 && v.endsWith(":0"))) {
        return false;
      }
    }
    return true;
  }
}
