package io.secio.testing;

import java.util.HexFormat;

/** Hex for tests. */
public final class Hex {
  private Hex() {}

  public static byte[] decode(String hex) {
    String h = hex.startsWith("0x") ? hex.substring(2) : hex;
    return HexFormat.of().parseHex(h);
  }

  public static String encode(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }
}
