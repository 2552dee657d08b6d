package io.secio.streams.internal;

import io.netty.channel.ChannelId;

/** A stream's {@link ChannelId}: its connection's id and its stream id. Immutable. */
final class StreamChannelId implements ChannelId {
  private static final long serialVersionUID = 1L;

  private final ChannelId parent;
  private final long streamId;

  StreamChannelId(ChannelId parent, long streamId) {
    this.parent = parent;
    this.streamId = streamId;
  }

  @Override
  public String asShortText() {
    return parent.asShortText() + '/' + streamId;
  }

  @Override
  public String asLongText() {
    return parent.asLongText() + '/' + streamId;
  }

  @Override
  public int compareTo(ChannelId o) {
    if (o instanceof StreamChannelId) {
      StreamChannelId other = (StreamChannelId) o;
      int byParent = parent.compareTo(other.parent);
      return byParent != 0 ? byParent : Long.compare(streamId, other.streamId);
    }
    return parent.compareTo(o);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StreamChannelId
        && ((StreamChannelId) o).streamId == streamId
        && ((StreamChannelId) o).parent.equals(parent);
  }

  @Override
  public int hashCode() {
    return parent.hashCode() * 31 + Long.hashCode(streamId);
  }

  @Override
  public String toString() {
    return asShortText();
  }
}
