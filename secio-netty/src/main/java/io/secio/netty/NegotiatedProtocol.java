package io.secio.netty;

import java.util.Objects;
import java.util.Optional;

/**
 * What a protocol negotiation agreed on a channel: multistream-select's protocol id (which carries
 * its version, {@code /yamux/1.0.0}), or tentacle's protocol-select's name and the version it chose.
 * A stream's is readable from the stream ({@code Tentacle.protocol(stream)}, {@code
 * Libp2p.protocol(stream)}) from the moment its handler is added, and every negotiation's {@link
 * NegotiationCompletionEvent} carries it.
 *
 * <p>Immutable and thread-safe.
 */
public final class NegotiatedProtocol {
  private final String name;
  private final String version;

  private NegotiatedProtocol(String name, String version) {
    this.name = Objects.requireNonNull(name, "name");
    this.version = version;
  }

  /**
   * A protocol without a separate version: multistream-select's id.
   *
   * @param name the protocol id
   * @return the protocol
   */
  public static NegotiatedProtocol of(String name) {
    return new NegotiatedProtocol(name, null);
  }

  /**
   * A protocol and the version chosen for it: tentacle's protocol-select.
   *
   * @param name the protocol's name
   * @param version the version chosen
   * @return the protocol
   */
  public static NegotiatedProtocol of(String name, String version) {
    return new NegotiatedProtocol(name, Objects.requireNonNull(version, "version"));
  }

  /** The protocol's name: multistream-select's id, tentacle's protocol name. */
  public String name() {
    return name;
  }

  /** The version chosen: tentacle's; empty for multistream-select, whose ids carry their version. */
  public Optional<String> version() {
    return Optional.ofNullable(version);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof NegotiatedProtocol other && name.equals(other.name) && Objects.equals(version, other.version);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, version);
  }

  @Override
  public String toString() {
    return version == null ? name : name + " version " + version;
  }
}
