package io.secio.multiaddr;

import java.util.Optional;

/**
 * The protocols of a multiaddr that tentacle (and so CKB) knows, with their multicodec code, text
 * name and the size of their value in the binary form: fixed, none, or a varint length then that
 * many bytes ({@link #LENGTH_PREFIXED}). tentacle's {@code tls} carries a server name (a
 * length-prefixed string), unlike libp2p's, which has no value; {@link #QUIC} and {@link #DNSADDR}
 * are libp2p's, printed but refused by {@link Multiaddr#read}.
 */
public enum MultiaddrProtocol {
  /** An IPv4 address, 4 bytes. */
  IP4(4, "ip4", 4, true),
  /** A TCP port, 2 bytes big-endian. */
  TCP(6, "tcp", 2, true),
  /** A UDP port, 2 bytes big-endian. */
  UDP(273, "udp", 2, true),
  /** An IPv6 address, 16 bytes. */
  IP6(41, "ip6", 16, true),
  /** A DNS name resolved to IPv4 (UTF-8). */
  DNS4(54, "dns4", MultiaddrProtocol.LENGTH_PREFIXED, true),
  /** A DNS name resolved to IPv6 (UTF-8). */
  DNS6(55, "dns6", MultiaddrProtocol.LENGTH_PREFIXED, true),
  /** libp2p's DNS name of TXT records; not tentacle's. */
  DNSADDR(56, "dnsaddr", MultiaddrProtocol.LENGTH_PREFIXED, false),
  /** A peer id: a multihash (tentacle: sha2-256 of 32 bytes only). */
  P2P(421, "p2p", MultiaddrProtocol.LENGTH_PREFIXED, true),
  /** A Tor v3 onion service: 35 bytes of address, 2 of port. */
  ONION3(445, "onion3", 37, true),
  /** tentacle's TLS with a server name (UTF-8). */
  TLS(448, "tls", MultiaddrProtocol.LENGTH_PREFIXED, true),
  /** libp2p's draft QUIC; not tentacle's. */
  QUIC(460, "quic", 0, false),
  /** QUIC version 1. */
  QUIC_V1(461, "quic-v1", 0, true),
  /** WebSocket. */
  WS(477, "ws", 0, true),
  /** WebSocket over TLS. */
  WSS(478, "wss", 0, true),
  /** tentacle's in-process transport: a u64 "port", 8 bytes big-endian. */
  MEMORY(777, "memory", 8, true);

  /** {@link #valueSize()} of a protocol whose value is a varint length and that many bytes. */
  public static final int LENGTH_PREFIXED = -1;

  private final int code;
  private final String text;
  private final int valueSize;
  private final boolean tentacle;

  MultiaddrProtocol(int code, String text, int valueSize, boolean tentacle) {
    this.code = code;
    this.text = text;
    this.valueSize = valueSize;
    this.tentacle = tentacle;
  }

  /** The multicodec code, written as an unsigned varint. */
  public int code() {
    return code;
  }

  /** The name in the text form, such as {@code ip4} or {@code quic-v1}. */
  public String text() {
    return text;
  }

  /** The value's size in bytes: fixed, 0 for none, or {@link #LENGTH_PREFIXED}. */
  public int valueSize() {
    return valueSize;
  }

  /** Whether tentacle reads it (what {@link Multiaddr#read} and {@link Multiaddr#parse} accept). */
  public boolean isTentacle() {
    return tentacle;
  }

  /** The protocol with this code. */
  public static Optional<MultiaddrProtocol> ofCode(long code) {
    for (MultiaddrProtocol p : values()) {
      if (p.code == code) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  /** The protocol with this text name. */
  public static Optional<MultiaddrProtocol> ofText(String text) {
    for (MultiaddrProtocol p : values()) {
      if (p.text.equals(text)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }
}
