package io.secio.streams.mplex;

import io.secio.streams.MemoryBudget;
import io.secio.streams.internal.NotSentLowWater;
import java.util.Optional;

/**
 * The bounds of an mplex session ({@code docs/STREAMS.md} §9.3). mplex has no flow control, so these
 * are what keep a peer from growing this side's memory: a stream may hold at most {@link
 * #maxStreamBuffer()} bytes its reader has not taken and all streams of the connection together at
 * most {@link #maxSessionBuffer()} (a message over either resets its stream: the stream goes, never
 * the node's memory), the peer may have at most {@link #maxStreams()} streams open (a NewStream over
 * that is refused with a reset), and at most {@link #maxUnreadControlFrames()} of those refusals and
 * other answers may be left unread before the session ends ({@link
 * MplexException.Reason#CONTROL_FLOOD}). The defaults are js-libp2p-mplex's (1 MiB messages, 4 MiB a
 * stream, 1,024 streams), and 64 MiB a connection, yamux's session window. A {@link #budget()}
 * bounds what all the sessions made with a config hold together.
 *
 * <pre>{@code
 * MplexConfig config = MplexConfig.builder().maxStreams(64).build();
 * }</pre>
 *
 * <p>Immutable and thread-safe; build with {@link #builder()}.
 */
public final class MplexConfig {
  /** The default stream buffer bound: js-libp2p-mplex's 4 MB. */
  public static final int DEFAULT_MAX_STREAM_BUFFER_IN_BYTES = 4 * 1024 * 1024;
  /** The default stream cap, each way: js-libp2p-mplex's 1,024. */
  public static final int DEFAULT_MAX_STREAMS = 1024;
  /** The default size of the data of one frame sent. */
  public static final int DEFAULT_MAX_SEND_MESSAGE_IN_BYTES = 64 * 1024;
  /** The default bound on refusals the peer provokes and leaves unread. */
  public static final int DEFAULT_MAX_UNREAD_REFUSALS = 1024;
  /**
   * The default bound on what all streams of a connection hold unread: sixteen streams at their bound,
   * as yamux's session window.
   */
  public static final int DEFAULT_MAX_SESSION_BUFFER_IN_BYTES = 64 * 1024 * 1024;

  private final int maxMessage;
  private final int maxSendMessage;
  private final int maxStreamBuffer;
  private final long maxSessionBuffer;
  private final int maxStreams;
  private final int maxUnreadControlFrames;
  private final int notSentLowWater;
  private final MemoryBudget budget;

  private MplexConfig(Builder b) {
    if (b.maxMessage < 1 || b.maxMessage > MplexFrames.MAX_MESSAGE_IN_BYTES) {
      throw new IllegalArgumentException("maxMessage must be in [1, 1 MiB]: " + b.maxMessage);
    }
    if (b.maxSendMessage < 1 || b.maxSendMessage > MplexFrames.MAX_MESSAGE_IN_BYTES) {
      throw new IllegalArgumentException("maxSendMessage must be in [1, 1 MiB]: " + b.maxSendMessage);
    }
    if (b.maxStreamBuffer < b.maxMessage) {
      throw new IllegalArgumentException("maxStreamBuffer must hold one message: " + b.maxStreamBuffer);
    }
    if (b.maxSessionBuffer < b.maxMessage) {
      throw new IllegalArgumentException("maxSessionBuffer must hold one message: " + b.maxSessionBuffer);
    }
    if (b.maxStreams < 1 || b.maxUnreadControlFrames < 1) {
      throw new IllegalArgumentException("maxStreams and maxUnreadControlFrames must be positive");
    }
    if (b.notSentLowWater < 0) {
      throw new IllegalArgumentException("notSentLowWater must be 0 or positive: " + b.notSentLowWater);
    }
    maxMessage = b.maxMessage;
    maxSendMessage = b.maxSendMessage;
    maxStreamBuffer = b.maxStreamBuffer;
    maxSessionBuffer = b.maxSessionBuffer;
    maxStreams = b.maxStreams;
    maxUnreadControlFrames = b.maxUnreadControlFrames;
    notSentLowWater = b.notSentLowWater;
    budget = b.budget;
  }

  /** The defaults. */
  public static MplexConfig defaults() {
    return builder().build();
  }

  /** A builder with the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder with this config's values. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.maxMessage = maxMessage;
    b.maxSendMessage = maxSendMessage;
    b.maxStreamBuffer = maxStreamBuffer;
    b.maxSessionBuffer = maxSessionBuffer;
    b.maxStreams = maxStreams;
    b.maxUnreadControlFrames = maxUnreadControlFrames;
    b.notSentLowWater = notSentLowWater;
    b.budget = budget;
    return b;
  }

  /** The longest frame data accepted (the spec's 1 MiB unless lowered); a longer one ends the session. */
  public int maxMessage() {
    return maxMessage;
  }

  /** The longest frame data sent: longer writes go out in pieces of this size. */
  public int maxSendMessage() {
    return maxSendMessage;
  }

  /** What one stream may hold unread (queued, or delivered and not yet asked past); over it, a reset. */
  public int maxStreamBuffer() {
    return maxStreamBuffer;
  }

  /**
   * What all streams of the connection together may hold unread, the bound on one connection's
   * memory of received data; a message that would pass it resets its stream. Default 64 MiB.
   */
  public long maxSessionBuffer() {
    return maxSessionBuffer;
  }

  /** Streams open at once, counted for each side separately. */
  public int maxStreams() {
    return maxStreams;
  }

  /**
   * Refusals of the peer's NewStreams it may leave unread, as the socket reports what it could not
   * send; one more ends the session ({@link MplexException.Reason#CONTROL_FLOOD}). The same bound as
   * {@code YamuxConfig#maxUnreadControlFrames()} (mplex's only such frames are refusals).
   */
  public int maxUnreadControlFrames() {
    return maxUnreadControlFrames;
  }

  /** {@link #maxUnreadControlFrames()}, by the name it had first. */
  public int maxUnreadRefusals() {
    return maxUnreadControlFrames;
  }

  /**
   * What the connection socket's {@code TCP_NOTSENT_LOWAT} is lowered to, where the transport has it
   * (Linux native epoll), so that frames wait in the session rather than in the kernel ({@code
   * docs/STREAMS.md} §3); 0 leaves the socket alone. Default 16 KiB.
   */
  public int notSentLowWater() {
    return notSentLowWater;
  }

  /**
   * The budget every session made with this config draws on for what its streams hold unread, with
   * the other connections sharing it ({@link MemoryBudget}); empty (the default) when only each
   * session's own bounds apply.
   */
  public Optional<MemoryBudget> budget() {
    return Optional.ofNullable(budget);
  }

  @Override
  public String toString() {
    return "MplexConfig(maxMessage=" + maxMessage + ", maxSendMessage=" + maxSendMessage + ", maxStreamBuffer="
        + maxStreamBuffer + ", maxSessionBuffer=" + maxSessionBuffer + ", maxStreams=" + maxStreams + ", maxUnreadControlFrames=" + maxUnreadControlFrames
        + ", notSentLowWater=" + notSentLowWater + (budget == null ? "" : ", budget=" + budget) + ")";
  }

  /** Builds an {@link MplexConfig}. Not thread-safe. */
  public static final class Builder {
    private int maxMessage = MplexFrames.MAX_MESSAGE_IN_BYTES;
    private int maxSendMessage = DEFAULT_MAX_SEND_MESSAGE_IN_BYTES;
    private int maxStreamBuffer = DEFAULT_MAX_STREAM_BUFFER_IN_BYTES;
    private long maxSessionBuffer = DEFAULT_MAX_SESSION_BUFFER_IN_BYTES;
    private int maxStreams = DEFAULT_MAX_STREAMS;
    private int maxUnreadControlFrames = DEFAULT_MAX_UNREAD_REFUSALS;
    private int notSentLowWater = NotSentLowWater.DEFAULT_IN_BYTES;
    private MemoryBudget budget;

    private Builder() {}

    /** See {@link MplexConfig#maxMessage()}; at most 1 MiB. @return this */
    public Builder maxMessage(int bytes) {
      maxMessage = bytes;
      return this;
    }

    /** See {@link MplexConfig#maxSendMessage()}; at most 1 MiB. @return this */
    public Builder maxSendMessage(int bytes) {
      maxSendMessage = bytes;
      return this;
    }

    /** See {@link MplexConfig#maxStreamBuffer()}; at least {@code maxMessage}. @return this */
    public Builder maxStreamBuffer(int bytes) {
      maxStreamBuffer = bytes;
      return this;
    }

    /** See {@link MplexConfig#maxSessionBuffer()}; at least {@code maxMessage}. @return this */
    public Builder maxSessionBuffer(long bytes) {
      maxSessionBuffer = bytes;
      return this;
    }

    /** See {@link MplexConfig#maxStreams()}. @return this */
    public Builder maxStreams(int streams) {
      maxStreams = streams;
      return this;
    }

    /** See {@link MplexConfig#maxUnreadControlFrames()}. @return this */
    public Builder maxUnreadControlFrames(int frames) {
      maxUnreadControlFrames = frames;
      return this;
    }

    /** {@link #maxUnreadControlFrames(int)}, by the name it had first. @return this */
    public Builder maxUnreadRefusals(int refusals) {
      return maxUnreadControlFrames(refusals);
    }

    /** See {@link MplexConfig#notSentLowWater()}; 0 leaves the socket alone. @return this */
    public Builder notSentLowWater(int bytes) {
      notSentLowWater = bytes;
      return this;
    }

    /**
     * Sets the budget the sessions draw on: the same budget in the configs of a node's listeners
     * bounds them all together.
     *
     * @param budget a budget, or {@code null} for none
     * @return this builder
     */
    public Builder budget(MemoryBudget budget) {
      this.budget = budget;
      return this;
    }

    /** The config. @throws IllegalArgumentException for a value out of its range */
    public MplexConfig build() {
      return new MplexConfig(this);
    }
  }
}
