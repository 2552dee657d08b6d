package io.secio.ckb.header;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON that CKB's RPC headers need, read strictly: an object whose values are all
 * strings, or an array of such objects. No escapes (no header field has one), no numbers, no
 * duplicate keys, nothing after the value but white space. Anything else is refused with the offset.
 *
 * <p>One instance reads one text; not thread-safe.
 */
final class RpcJson {
  /** Bounds the input: about 80,000 headers of about 800 characters (one per line has no bound). */
  static final int MAX_LENGTH = 64 * 1024 * 1024;

  private final String text;
  private int at;

  private RpcJson(String text) throws MalformedHeaderException {
    if (text.length() > MAX_LENGTH) {
      throw new MalformedHeaderException("JSON longer than " + MAX_LENGTH + " characters");
    }
    this.text = text;
  }

  /** The objects of {@code text}: the array's items, or the one object it is. */
  static List<Map<String, String>> objects(String text) throws MalformedHeaderException {
    RpcJson json = new RpcJson(text);
    json.skipSpace();
    List<Map<String, String>> out = new ArrayList<>();
    if (json.peek() == '[') {
      json.at++;
      json.skipSpace();
      if (json.peek() == ']') {
        json.at++;
      } else {
        while (true) {
          out.add(json.object());
          json.skipSpace();
          if (json.peek() == ']') {
            json.at++;
            break;
          }
          json.expect(',');
        }
      }
    } else {
      out.add(json.object());
    }
    json.skipSpace();
    if (json.at != text.length()) {
      throw json.error("text after the JSON value");
    }
    return out;
  }

  private Map<String, String> object() throws MalformedHeaderException {
    skipSpace();
    expect('{');
    Map<String, String> fields = new LinkedHashMap<>();
    skipSpace();
    if (peek() == '}') {
      at++;
      return fields;
    }
    while (true) {
      skipSpace();
      int keyAt = at;
      String key = string();
      skipSpace();
      expect(':');
      skipSpace();
      if (fields.put(key, string()) != null) {
        at = keyAt;
        throw error("field \"" + key + "\" twice");
      }
      skipSpace();
      if (peek() == '}') {
        at++;
        return fields;
      }
      expect(',');
    }
  }

  private String string() throws MalformedHeaderException {
    expect('"');
    int start = at;
    while (at < text.length()) {
      char c = text.charAt(at);
      if (c == '"') {
        return text.substring(start, at++);
      }
      if (c == '\\' || c < 0x20) {
        throw error("an escape or control character in a string");
      }
      at++;
    }
    throw error("an unterminated string");
  }

  private void expect(char c) throws MalformedHeaderException {
    if (peek() != c) {
      throw error("expected '" + c + "'");
    }
    at++;
  }

  private char peek() {
    return at < text.length() ? text.charAt(at) : '\0';
  }

  private void skipSpace() {
    while (at < text.length()) {
      char c = text.charAt(at);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      at++;
    }
  }

  private MalformedHeaderException error(String what) {
    return new MalformedHeaderException(what + " at offset " + at);
  }
}
