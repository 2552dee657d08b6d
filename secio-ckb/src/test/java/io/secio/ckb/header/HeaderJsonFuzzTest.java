package io.secio.ckb.header;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The RPC JSON reader on any text: only {@link MalformedHeaderException} escapes, and the headers it
 * reads are written back and read again to the same headers.
 */
class HeaderJsonFuzzTest {

  @FuzzTest
  void anyText(String text) {
    if (text == null) {
      return;
    }
    List<Header> headers;
    try {
      headers = HeaderJson.parseAll(text);
    } catch (MalformedHeaderException e) {
      return;
    }
    String written = headers.stream().map(HeaderJson::write).collect(Collectors.joining(",", "[", "]"));
    try {
      assertEquals(headers, HeaderJson.parseAll(written));
    } catch (MalformedHeaderException e) {
      throw new AssertionError("its own output does not read back", e);
    }
  }
}
