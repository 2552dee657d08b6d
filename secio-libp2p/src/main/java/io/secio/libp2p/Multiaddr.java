package io.secio.libp2p;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A multiaddr in its binary form, as identify carries it ({@code docs/STREAMS.md} §10): what this
 * side builds ({@code /ip4} or {@code /ip6}, then {@code /tcp}) and what it prints of a peer's ({@code
 * ip4}, {@code ip6}, {@code tcp}, {@code udp}, {@code dns4}, {@code dns6}, {@code dnsaddr}, {@code p2p}
 * and the codes without a value such as {@code ws}); the bytes of a peer's are kept as they came,
 * and a form this class cannot read prints as hex.
 *
 * <p>Immutable and thread-safe.
 */
public final class Multiaddr {
  private static final int IP4 = 4;
  private static final int TCP = 6;
  private static final int UDP = 273;
  private static final int IP6 = 41;
  private static final int DNS4 = 54;
  private static final int DNS6 = 55;
  private static final int DNSADDR = 56;
  private static final int P2P = 421;
  private static final int WS = 477;
  private static final int QUIC = 460;

  private final byte[] bytes;

  private Multiaddr(byte[] bytes) {
    this.bytes = bytes;
  }

  /** A multiaddr from its binary form (kept as given; printed as hex when unreadable). */
  public static Multiaddr fromBytes(byte[] bytes) {
    return new Multiaddr(bytes.clone());
  }

  /** {@code /ip4/A.B.C.D/tcp/PORT} or {@code /ip6/.../tcp/PORT} of a resolved socket address. */
  public static Multiaddr of(InetSocketAddress address) {
    InetAddress ip = address.getAddress();
    if (ip == null) {
      throw new IllegalArgumentException("not resolved: " + address);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] raw = ip.getAddress();
    varint(out, raw.length == 4 ? IP4 : IP6);
    out.writeBytes(raw);
    varint(out, TCP);
    out.write(address.getPort() >>> 8);
    out.write(address.getPort() & 0xFF);
    return new Multiaddr(out.toByteArray());
  }

  /**
   * Parses {@code /ip4/A.B.C.D/tcp/PORT} or {@code /ip6/ADDR/tcp/PORT}, the forms this side listens
   * on.
   *
   * @throws IllegalArgumentException for any other form
   */
  public static Multiaddr parse(String text) {
    String[] parts = text.split("/", -1);
    if (parts.length != 5 || !parts[0].isEmpty() || !(parts[1].equals("ip4") || parts[1].equals("ip6"))
        || !parts[3].equals("tcp")) {
      throw new IllegalArgumentException("not /ip4/../tcp/.. or /ip6/../tcp/..: " + text);
    }
    try {
      InetAddress ip = InetAddress.getByName(parts[2]);
      if ((ip.getAddress().length == 4) != parts[1].equals("ip4") || !isLiteral(parts[2])) {
        throw new IllegalArgumentException("not an " + parts[1] + " address: " + parts[2]);
      }
      int port = Integer.parseInt(parts[4]);
      if (port < 0 || port > 0xFFFF) {
        throw new IllegalArgumentException("not a port: " + parts[4]);
      }
      return of(new InetSocketAddress(ip, port));
    } catch (UnknownHostException | NumberFormatException e) {
      throw new IllegalArgumentException("not a multiaddr: " + text, e);
    }
  }

  private static boolean isLiteral(String host) {
    return host.indexOf(':') >= 0 || host.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9'));
  }

  /** The binary form (a copy). */
  public byte[] toBytes() {
    return bytes.clone();
  }

  byte[] bytes() {
    return bytes;
  }

  private static void varint(ByteArrayOutputStream out, long v) {
    while (v >= 0x80) {
      out.write((int) (v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out.write((int) v);
  }

  /** The text form, e.g. {@code /ip4/127.0.0.1/tcp/4001}; {@code 0x...} for bytes it cannot read. */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    int[] at = {0};
    try {
      while (at[0] < bytes.length) {
        int code = (int) readVarint(at);
        switch (code) {
          case IP4 -> text.append("/ip4/").append(InetAddress.getByAddress(take(at, 4)).getHostAddress());
          case IP6 -> text.append("/ip6/").append(InetAddress.getByAddress(take(at, 16)).getHostAddress());
          case TCP, UDP -> {
            byte[] port = take(at, 2);
            text.append(code == TCP ? "/tcp/" : "/udp/").append((port[0] & 0xFF) << 8 | port[1] & 0xFF);
          }
          case DNS4, DNS6, DNSADDR -> text.append(code == DNS4 ? "/dns4/" : code == DNS6 ? "/dns6/" : "/dnsaddr/")
              .append(new String(take(at, (int) readVarint(at)), StandardCharsets.UTF_8));
          case P2P -> text.append("/p2p/").append(io.secio.PeerId.fromBytes(take(at, (int) readVarint(at))).toBase58());
          case WS -> text.append("/ws");
          case QUIC -> text.append("/quic");
          default -> throw new IllegalArgumentException("code " + code);
        }
      }
      return text.toString();
    } catch (RuntimeException | UnknownHostException e) {
      return "0x" + HexFormat.of().formatHex(bytes);
    }
  }

  private long readVarint(int[] at) {
    long v = 0;
    for (int shift = 0; shift < 63; shift += 7) {
      int b = bytes[at[0]++] & 0xFF;
      v |= (long) (b & 0x7F) << shift;
      if (b < 0x80) {
        return v;
      }
    }
    throw new IllegalArgumentException("varint too long");
  }

  private byte[] take(int[] at, int n) {
    if (n < 0 || at[0] + n > bytes.length) {
      throw new IllegalArgumentException("truncated");
    }
    byte[] out = Arrays.copyOfRange(bytes, at[0], at[0] + n);
    at[0] += n;
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Multiaddr && Arrays.equals(bytes, ((Multiaddr) o).bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  static Multiaddr orNull(byte[] bytes) {
    return bytes == null || bytes.length == 0 ? null : new Multiaddr(Objects.requireNonNull(bytes).clone());
  }
}
