package io.secio.multiaddr;

import io.secio.PeerId;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A multiaddr, kept in its binary form: what identify and CKB's discovery carry, with its text form
 * for people ({@code /ip4/18.217.146.65/tcp/8111/p2p/QmT6…}). Protocols and codes: {@link
 * MultiaddrProtocol}; the bytes: {@code docs/CKB.md}, "Multiaddr".
 *
 * <ul>
 *   <li>{@link #read} takes a peer's bytes as tentacle does and refuses what tentacle refuses, so an
 *       address accepted here is one a CKB node accepts (a {@code p2p} value other than sha2-256 of 32
 *       bytes makes the whole address invalid there);
 *   <li>{@link #parse} reads the text form with the same rules;
 *   <li>{@link #fromBytes} keeps any bytes as they came (a libp2p peer's), and {@link #toString()}
 *       prints {@code 0x} and hex for bytes it cannot read.
 * </ul>
 *
 * <p>Immutable and thread-safe; equal when the bytes are equal.
 */
public final class Multiaddr {
  private final byte[] bytes;

  private Multiaddr(byte[] bytes) {
    this.bytes = bytes;
  }

  /**
   * A peer's binary multiaddr, checked as tentacle checks it.
   *
   * @param bytes the binary form; not kept
   * @return the address
   * @throws MultiaddrException if tentacle would refuse it
   */
  public static Multiaddr read(byte[] bytes) throws MultiaddrException {
    byte[] copy = bytes.clone();
    MultiaddrBinary.read(copy, true);
    return new Multiaddr(copy);
  }

  /**
   * Any bytes as a multiaddr, unchecked (a libp2p peer's may hold protocols tentacle does not know).
   *
   * @param bytes the binary form; not kept
   * @return the address, printed as hex if unreadable
   */
  public static Multiaddr fromBytes(byte[] bytes) {
    return new Multiaddr(bytes.clone());
  }

  /**
   * {@code /ip4/A.B.C.D/tcp/PORT} or {@code /ip6/…/tcp/PORT} of a resolved socket address.
   *
   * @param address a resolved address
   * @return the address
   */
  public static Multiaddr of(InetSocketAddress address) {
    InetAddress ip = address.getAddress();
    if (ip == null) {
      throw new IllegalArgumentException("not resolved: " + address);
    }
    byte[] raw = ip.getAddress();
    return of(List.of(
        new Component(raw.length == 4 ? MultiaddrProtocol.IP4 : MultiaddrProtocol.IP6, raw),
        new Component(MultiaddrProtocol.TCP, port(address.getPort()))));
  }

  /**
   * Parses the text form as tentacle does: {@code /} then {@code protocol/value} pairs ({@code ws},
   * {@code wss} and {@code quic-v1} have no value), such as {@code /ip4/127.0.0.1/tcp/8115/ws} or
   * {@code /dns4/example.org/tcp/443/wss/p2p/Qm…}.
   *
   * @param text the text form
   * @return the address
   * @throws IllegalArgumentException if it is not a multiaddr tentacle reads
   */
  public static Multiaddr parse(String text) {
    Objects.requireNonNull(text, "text");
    String[] parts = text.split("/", -1);
    if (parts.length < 2 || !parts[0].isEmpty()) {
      throw new IllegalArgumentException("a multiaddr starts with '/': " + text);
    }
    List<Component> components = new ArrayList<>();
    for (int i = 1; i < parts.length; ) {
      String name = parts[i++];
      MultiaddrProtocol protocol = MultiaddrProtocol.ofText(name)
          .filter(MultiaddrProtocol::isTentacle)
          .orElseThrow(() -> new IllegalArgumentException("unknown protocol '" + name + "' in " + text));
      String value = "";
      if (protocol.valueSize() != 0) {
        if (i == parts.length) {
          throw new IllegalArgumentException(name + " needs a value in " + text);
        }
        value = parts[i++];
      }
      byte[] raw = MultiaddrText.parseValue(protocol, value);
      if (protocol == MultiaddrProtocol.P2P && !MultiaddrBinary.isSha256Multihash(raw)) {
        throw new IllegalArgumentException("a p2p id is a sha2-256 multihash (Qm…) in " + text);
      }
      components.add(new Component(protocol, raw));
    }
    if (components.isEmpty()) {
      throw new IllegalArgumentException("an empty multiaddr: " + text);
    }
    return of(components);
  }

  private static Multiaddr of(List<Component> components) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Component c : components) {
      MultiaddrBinary.write(out, c);
    }
    return new Multiaddr(out.toByteArray());
  }

  private static byte[] port(int port) {
    if (port < 0 || port > 0xFFFF) {
      throw new IllegalArgumentException("not a port: " + port);
    }
    return new byte[] {(byte) (port >>> 8), (byte) port};
  }

  /** The binary form (a copy). */
  public byte[] toBytes() {
    return bytes.clone();
  }

  /**
   * The components, read leniently (libp2p's {@code quic}, {@code dnsaddr} and any peer-id multihash
   * included).
   *
   * @return the components in order
   * @throws IllegalStateException if the bytes (from {@link #fromBytes}) are not readable
   */
  public List<Component> components() {
    try {
      return List.copyOf(MultiaddrBinary.read(bytes, false));
    } catch (MultiaddrException e) {
      throw new IllegalStateException("not a readable multiaddr: " + e.getMessage(), e);
    }
  }

  /**
   * Where to connect: the first IP (or DNS name, unresolved) and the TCP port after it.
   *
   * @return the socket address, or empty if the address names no host and TCP port
   */
  public Optional<InetSocketAddress> socketAddress() {
    Component host = null;
    for (Component c : readable()) {
      switch (c.protocol()) {
        case IP4, IP6, DNS4, DNS6 -> host = host == null ? c : host;
        case TCP -> {
          if (host != null) {
            return Optional.of(socketAddress(host, Short.toUnsignedInt(ByteBuffer.wrap(c.rawValue()).getShort())));
          }
        }
        default -> {
          // transports and peer ids say nothing of the socket
        }
      }
    }
    return Optional.empty();
  }

  private static InetSocketAddress socketAddress(Component host, int port) {
    if (host.protocol() == MultiaddrProtocol.DNS4 || host.protocol() == MultiaddrProtocol.DNS6) {
      return InetSocketAddress.createUnresolved(host.valueText(), port);
    }
    try {
      return new InetSocketAddress(InetAddress.getByAddress(host.rawValue()), port);
    } catch (UnknownHostException e) {
      throw new IllegalStateException("an IP of " + host.rawValue().length + " bytes", e);
    }
  }

  /** The peer id of its {@code p2p} component, if it has one. */
  public Optional<PeerId> peerId() {
    for (Component c : readable()) {
      if (c.protocol() == MultiaddrProtocol.P2P) {
        return Optional.of(PeerId.fromBytes(c.rawValue()));
      }
    }
    return Optional.empty();
  }

  /**
   * This address with {@code /p2p/ID} at its end, unless it has a peer id already.
   *
   * @param peer a tentacle peer id (sha2-256)
   * @return the address
   */
  public Multiaddr withPeerId(PeerId peer) {
    if (peerId().isPresent()) {
      return this;
    }
    byte[] id = peer.toBytes();
    if (!MultiaddrBinary.isSha256Multihash(id)) {
      throw new IllegalArgumentException("tentacle's peer ids are sha2-256 multihashes: " + peer);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(bytes);
    MultiaddrBinary.write(out, new Component(MultiaddrProtocol.P2P, id));
    return new Multiaddr(out.toByteArray());
  }

  /** Whether its components include {@code protocol}. */
  public boolean has(MultiaddrProtocol protocol) {
    return readable().stream().anyMatch(c -> c.protocol() == protocol);
  }

  private List<Component> readable() {
    try {
      return MultiaddrBinary.read(bytes, false);
    } catch (MultiaddrException e) {
      return List.of();
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Multiaddr other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  /** The text form, such as {@code /ip4/127.0.0.1/tcp/8114}; {@code 0x…} for bytes it cannot read. */
  @Override
  public String toString() {
    try {
      StringBuilder text = new StringBuilder();
      for (Component c : MultiaddrBinary.read(bytes, false)) {
        text.append(c);
      }
      return text.toString();
    } catch (MultiaddrException e) {
      return "0x" + HexFormat.of().formatHex(bytes);
    }
  }
}
