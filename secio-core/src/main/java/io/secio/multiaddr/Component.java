package io.secio.multiaddr;

import java.util.Arrays;
import java.util.Objects;

/**
 * One protocol of a multiaddr and its value as the binary form carries it (without the varint
 * length of a length-prefixed value): {@code ip4} with 4 bytes, {@code tcp} with a port, {@code ws}
 * with none. Immutable.
 */
public final class Component {
  private final MultiaddrProtocol protocol;
  private final byte[] value;

  Component(MultiaddrProtocol protocol, byte[] value) {
    this.protocol = protocol;
    this.value = value;
  }

  /** The protocol. */
  public MultiaddrProtocol protocol() {
    return protocol;
  }

  /** The value's bytes (a copy); empty for a protocol without one. */
  public byte[] value() {
    return value.clone();
  }

  byte[] rawValue() {
    return value;
  }

  /** The value in the text form ({@code 127.0.0.1}, {@code 8114}, a base58 peer id); empty if none. */
  public String valueText() {
    return MultiaddrText.valueText(protocol, value);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Component other && protocol == other.protocol && Arrays.equals(value, other.value);
  }

  @Override
  public int hashCode() {
    return Objects.hash(protocol, Arrays.hashCode(value));
  }

  /** The text form: {@code /ip4/127.0.0.1}, {@code /ws}; an empty name stays a value: {@code /dns4/}. */
  @Override
  public String toString() {
    return "/" + protocol.text() + (protocol.valueSize() == 0 ? "" : "/" + valueText());
  }
}
