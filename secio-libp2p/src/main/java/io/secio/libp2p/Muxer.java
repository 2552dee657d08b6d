package io.secio.libp2p;

/**
 * The stream muxers a libp2p connection may run, by their multistream-select protocol ids
 * ({@code docs/STREAMS.md} §10).
 *
 * <p>Immutable and thread-safe.
 */
public enum Muxer {
  /** {@code /yamux/1.0.0}, with {@code YamuxConfig.libp2p()} unless configured otherwise. */
  YAMUX("/yamux/1.0.0"),
  /** {@code /mplex/6.7.0}, with {@code MplexConfig.defaults()} unless configured otherwise. */
  MPLEX("/mplex/6.7.0");

  private final String protocolId;

  Muxer(String protocolId) {
    this.protocolId = protocolId;
  }

  /** The id multistream-select agrees on. */
  public String protocolId() {
    return protocolId;
  }

  /** The muxer of {@code protocolId}. @throws IllegalArgumentException for another id */
  public static Muxer of(String protocolId) {
    for (Muxer m : values()) {
      if (m.protocolId.equals(protocolId)) {
        return m;
      }
    }
    throw new IllegalArgumentException("not a muxer: " + protocolId);
  }
}
