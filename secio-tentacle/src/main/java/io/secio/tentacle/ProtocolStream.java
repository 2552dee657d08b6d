package io.secio.tentacle;

import io.secio.streams.StreamChannel;

/**
 * A protocol open on its stream: what {@link TentacleSession#open} gives, what {@link
 * Tentacle#protocol} tells a stream's handler, and the user event a stream's pipeline sees once
 * protocol-select has chosen {@link #version()}. Immutable.
 */
public final class ProtocolStream {
  private final StreamChannel channel;
  private final String protocol;
  private final String version;

  ProtocolStream(StreamChannel channel, String protocol, String version) {
    this.channel = channel;
    this.protocol = protocol;
    this.version = version;
  }

  /** The stream: write a {@code ByteBuf} per message; each read is one message. */
  public StreamChannel channel() {
    return channel;
  }

  /** The protocol's name. */
  public String protocol() {
    return protocol;
  }

  /** The version protocol-select chose. */
  public String version() {
    return version;
  }

  @Override
  public String toString() {
    return protocol + " version " + version + " on stream " + channel.streamId();
  }
}
