package io.secio.multiaddr;

import io.secio.PeerId;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A component's value between the binary and the text form, as tentacle's multiaddr prints and
 * parses it: IPv4 as four decimal octets without leading zeros, IPv6 in RFC 5952's shortest form
 * ({@code ::ffff:a.b.c.d} for a mapped IPv4), ports and {@code memory} in decimal, names as UTF-8,
 * {@code p2p} in base58, {@code onion3} as lower-case base32 then {@code :port}. Stateless.
 */
final class MultiaddrText {
  private static final String BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  private static final int ONION3_HASH_SIZE_IN_BYTES = 35;
  private static final int ONION3_TEXT_LENGTH = 56;

  private MultiaddrText() {}

  /** The text of a value that {@link MultiaddrBinary} read (so its size fits its protocol). */
  static String valueText(MultiaddrProtocol protocol, byte[] value) {
    ByteBuffer v = ByteBuffer.wrap(value);
    return switch (protocol) {
      case IP4 -> ip4(value);
      case IP6 -> ip6(value);
      case TCP, UDP -> Integer.toString(Short.toUnsignedInt(v.getShort()));
      case MEMORY -> Long.toUnsignedString(v.getLong());
      case DNS4, DNS6, DNSADDR, TLS -> new String(value, StandardCharsets.UTF_8);
      case P2P -> PeerId.fromBytes(value).toBase58();
      case ONION3 -> base32(value, ONION3_HASH_SIZE_IN_BYTES).toLowerCase(Locale.ROOT) + ":"
          + Short.toUnsignedInt(v.getShort(ONION3_HASH_SIZE_IN_BYTES));
      case WS, WSS, QUIC, QUIC_V1 -> "";
    };
  }

  /**
   * The binary value of {@code text} for {@code protocol}, as tentacle's {@code from_str} reads it.
   *
   * @throws IllegalArgumentException if the text is not such a value
   */
  static byte[] parseValue(MultiaddrProtocol protocol, String text) {
    return switch (protocol) {
      case IP4 -> parseIp4(text);
      case IP6 -> parseIp6(text);
      case TCP, UDP -> ByteBuffer.allocate(2).putShort((short) parseUnsigned(text, 0xFFFF)).array();
      case MEMORY -> ByteBuffer.allocate(8).putLong(parseU64(text)).array();
      case DNS4, DNS6, DNSADDR, TLS -> text.getBytes(StandardCharsets.UTF_8);
      case P2P -> PeerId.parse(text).toBytes();
      case ONION3 -> parseOnion3(text);
      case WS, WSS, QUIC, QUIC_V1 -> new byte[0];
    };
  }

  private static String ip4(byte[] a) {
    return (a[0] & 0xFF) + "." + (a[1] & 0xFF) + "." + (a[2] & 0xFF) + "." + (a[3] & 0xFF);
  }

  private static String ip6(byte[] a) {
    int[] segments = new int[8];
    for (int i = 0; i < 8; i++) {
      segments[i] = (a[2 * i] & 0xFF) << 8 | a[2 * i + 1] & 0xFF;
    }
    boolean mapped = segments[5] == 0xFFFF;
    for (int i = 0; i < 5; i++) {
      mapped &= segments[i] == 0;
    }
    if (mapped) {
      return "::ffff:" + ip4(new byte[] {a[12], a[13], a[14], a[15]});
    }
    // RFC 5952: the longest run of two or more zero segments (the first of equals) becomes "::".
    int bestStart = -1;
    int bestLength = 1;
    for (int i = 0; i < 8; ) {
      int j = i;
      while (j < 8 && segments[j] == 0) {
        j++;
      }
      if (j - i > bestLength) {
        bestStart = i;
        bestLength = j - i;
      }
      i = j == i ? i + 1 : j;
    }
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 8; i++) {
      if (i == bestStart) {
        text.append("::");
        i += bestLength - 1;
        continue;
      }
      if (text.length() > 0 && text.charAt(text.length() - 1) != ':') {
        text.append(':');
      }
      text.append(Integer.toHexString(segments[i]));
    }
    return text.toString();
  }

  private static byte[] parseIp4(String text) {
    String[] octets = text.split("\\.", -1);
    if (octets.length != 4) {
      throw new IllegalArgumentException("not an IPv4 address: " + text);
    }
    byte[] out = new byte[4];
    for (int i = 0; i < 4; i++) {
      String o = octets[i];
      if (o.length() > 3 || (o.length() > 1 && o.charAt(0) == '0')) {
        throw new IllegalArgumentException("not an IPv4 address: " + text);
      }
      out[i] = (byte) parseUnsigned(o, 255);
    }
    return out;
  }

  private static byte[] parseIp6(String text) {
    // A literal with ':' is never looked up; a zone or brackets are not an Ipv6Addr.
    if (text.indexOf(':') < 0 || text.indexOf('%') >= 0 || text.indexOf('[') >= 0) {
      throw new IllegalArgumentException("not an IPv6 address: " + text);
    }
    try {
      InetAddress ip = InetAddress.getByName(text);
      if (ip instanceof Inet4Address) {
        // The JDK turns ::ffff:a.b.c.d into an IPv4 address; keep the 16 bytes written.
        byte[] out = new byte[16];
        out[10] = (byte) 0xFF;
        out[11] = (byte) 0xFF;
        System.arraycopy(ip.getAddress(), 0, out, 12, 4);
        return out;
      }
      return ip.getAddress();
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("not an IPv6 address: " + text, e);
    }
  }

  private static int parseUnsigned(String text, int max) {
    if (text.isEmpty() || text.length() > 5 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new IllegalArgumentException("not a number up to " + max + ": " + text);
    }
    int v = Integer.parseInt(text);
    if (v > max) {
      throw new IllegalArgumentException("not a number up to " + max + ": " + text);
    }
    return v;
  }

  private static long parseU64(String text) {
    if (text.isEmpty() || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new IllegalArgumentException("not a u64: " + text);
    }
    try {
      return Long.parseUnsignedLong(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a u64: " + text, e);
    }
  }

  private static byte[] parseOnion3(String text) {
    String[] parts = text.split(":", -1);
    if (parts.length != 2 || parts[0].length() != ONION3_TEXT_LENGTH) {
      throw new IllegalArgumentException("not ADDRESS:PORT of an onion3 service: " + text);
    }
    int port = parseUnsigned(parts[1], 0xFFFF);
    if (port == 0) {
      throw new IllegalArgumentException("an onion3 port is not 0");
    }
    byte[] hash = fromBase32(parts[0].toUpperCase(Locale.ROOT));
    return ByteBuffer.allocate(ONION3_HASH_SIZE_IN_BYTES + 2).put(hash).putShort((short) port).array();
  }

  /** RFC 4648 base32 of {@code length} bytes whose bit count is a multiple of 5 (no padding). */
  private static String base32(byte[] bytes, int length) {
    StringBuilder out = new StringBuilder();
    int buffer = 0;
    int bits = 0;
    for (int i = 0; i < length; i++) {
      buffer = buffer << 8 | bytes[i] & 0xFF;
      bits += 8;
      while (bits >= 5) {
        out.append(BASE32.charAt(buffer >>> (bits - 5) & 31));
        bits -= 5;
      }
    }
    return out.toString();
  }

  private static byte[] fromBase32(String text) {
    byte[] out = new byte[text.length() * 5 / 8];
    int buffer = 0;
    int bits = 0;
    int at = 0;
    for (int i = 0; i < text.length(); i++) {
      int v = BASE32.indexOf(text.charAt(i));
      if (v < 0) {
        throw new IllegalArgumentException("not base32: " + text);
      }
      buffer = buffer << 5 | v;
      bits += 5;
      if (bits >= 8) {
        out[at++] = (byte) (buffer >>> (bits - 8));
        bits -= 8;
      }
    }
    return out;
  }
}
