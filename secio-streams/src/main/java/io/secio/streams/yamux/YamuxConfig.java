package io.secio.streams.yamux;

import io.secio.streams.MemoryBudget;
import io.secio.streams.internal.NotSentLowWater;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything a yamux session may be tuned by ({@code docs/STREAMS.md} §4.2), with two profiles:
 * {@link #tentacle()}, what a Nervos CKB node runs, and {@link #libp2p()}, {@code /yamux/1.0.0} as
 * go-libp2p configures it. Start from one and change what you need:
 *
 * <pre>{@code
 * YamuxConfig config = YamuxConfig.tentacle().toBuilder().maxStreams(16).build();
 * }</pre>
 *
 * <p>Memory per session is bounded by {@link #sessionWindow()}: every open stream holds a 256 KiB
 * share of it (the window yamux grants each stream unasked), a stream opens only while shares are
 * left, and a stream's window grows towards {@link #maxStreamWindow()} only out of what is free; all
 * the streams of a session hold at most twice the session window. A {@link #budget()} bounds what
 * all the sessions made with a config hold together.
 *
 * <p>Immutable and thread-safe; build with {@link #builder()}.
 */
public final class YamuxConfig {
  private final int maxStreamWindow;
  private final int windowUpdateThreshold;
  private final long sessionWindow;
  private final int maxStreams;
  private final int ackBacklog;
  private final int maxUnreadControlFrames;
  private final long maxFrameLength;
  private final int maxSendFrame;
  private final Duration keepaliveInterval;
  private final Duration pingTimeout;
  private final Duration writeTimeout;
  private final boolean windowInSyn;
  private final int notSentLowWater;
  private final MemoryBudget budget;

  private YamuxConfig(Builder b) {
    maxStreamWindow = b.maxStreamWindow;
    windowUpdateThreshold = b.windowUpdateThreshold > 0 ? b.windowUpdateThreshold : b.maxStreamWindow / 2;
    sessionWindow = b.sessionWindow;
    maxStreams = b.maxStreams;
    ackBacklog = b.ackBacklog;
    maxUnreadControlFrames = b.maxUnreadControlFrames;
    maxFrameLength = b.maxFrameLength > 0 ? b.maxFrameLength : b.maxStreamWindow;
    maxSendFrame = b.maxSendFrame > 0 ? b.maxSendFrame : b.maxStreamWindow;
    keepaliveInterval = b.keepaliveInterval;
    pingTimeout = b.pingTimeout;
    writeTimeout = b.writeTimeout;
    windowInSyn = b.windowInSyn;
    notSentLowWater = b.notSentLowWater;
    budget = b.budget;
    if (notSentLowWater < 0) {
      throw new IllegalArgumentException("notSentLowWater must be 0 or positive: " + notSentLowWater);
    }
    if (maxStreamWindow < YamuxFrames.INITIAL_WINDOW_IN_BYTES) {
      throw new IllegalArgumentException("maxStreamWindow must be at least 256 KiB: " + maxStreamWindow);
    }
    if (windowUpdateThreshold > maxStreamWindow) {
      throw new IllegalArgumentException("windowUpdateThreshold over maxStreamWindow: " + windowUpdateThreshold);
    }
    if (sessionWindow < YamuxFrames.INITIAL_WINDOW_IN_BYTES) {
      throw new IllegalArgumentException("sessionWindow must hold one stream's 256 KiB: " + sessionWindow);
    }
    if (maxStreams < 1 || ackBacklog < 1 || maxUnreadControlFrames < 1) {
      throw new IllegalArgumentException("maxStreams, ackBacklog and maxUnreadControlFrames must be positive");
    }
    if (maxFrameLength < maxStreamWindow || maxFrameLength > YamuxFrames.MAX_U32) {
      throw new IllegalArgumentException("maxFrameLength must be in [maxStreamWindow, 2^32-1]: " + maxFrameLength);
    }
    if (keepaliveInterval != null && (keepaliveInterval.isNegative() || keepaliveInterval.isZero())) {
      throw new IllegalArgumentException("keepaliveInterval must be positive (or null: no keepalive)");
    }
    Objects.requireNonNull(pingTimeout, "pingTimeout");
    Objects.requireNonNull(writeTimeout, "writeTimeout");
  }

  /**
   * What a CKB node runs (tentacle 0.7.7's tokio-yamux, configured by CKB's {@code network.rs}): 1 MiB
   * max stream window, window updates once half of it is free, Data frames up to 1 MiB accepted and
   * sent, keepalive pings every 30 s with the session dropped at a tick that finds a ping unanswered
   * for over 30 s, a 10 s write timeout, 256 streams of ours awaiting ACK, and the whole window granted
   * in the SYN and the ACK. CKB caps streams at its number of protocols; the default here is 64, with
   * a 64 MiB session window, and 1,024 pongs and refusals the peer may leave unread.
   */
  public static YamuxConfig tentacle() {
    return builder().build();
  }

  /**
   * {@code /yamux/1.0.0} as go-libp2p configures go-yamux: 16 MiB max stream window, ACK backlog 256,
   * keepalive every 30 s with a 10 s answer timeout (its connection write timeout), Data frames of at
   * most 64 KiB sent (its max message size), 256 streams and a 64 MiB session window (go-libp2p
   * leaves both to its resource manager); SYN and ACK carry no extra window, as go-yamux's, and the
   * window grows with the first read.
   */
  public static YamuxConfig libp2p() {
    return builder()
        .maxStreamWindow(16 * 1024 * 1024)
        .maxSendFrame(64 * 1024)
        .maxStreams(256)
        .pingTimeout(Duration.ofSeconds(10))
        .windowInSyn(false)
        .build();
  }

  /** A builder holding the {@link #tentacle()} values. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this config's values. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.maxStreamWindow = maxStreamWindow;
    // Values that follow the window by default stay "default" (0), so a new window moves them too.
    b.windowUpdateThreshold = windowUpdateThreshold == maxStreamWindow / 2 ? 0 : windowUpdateThreshold;
    b.sessionWindow = sessionWindow;
    b.maxStreams = maxStreams;
    b.ackBacklog = ackBacklog;
    b.maxUnreadControlFrames = maxUnreadControlFrames;
    b.maxFrameLength = maxFrameLength == maxStreamWindow ? 0 : maxFrameLength;
    b.maxSendFrame = maxSendFrame == maxStreamWindow ? 0 : maxSendFrame;
    b.keepaliveInterval = keepaliveInterval;
    b.pingTimeout = pingTimeout;
    b.writeTimeout = writeTimeout;
    b.windowInSyn = windowInSyn;
    b.notSentLowWater = notSentLowWater;
    b.budget = budget;
    return b;
  }

  /** The most credit a stream is granted: its receive window, in bytes. */
  public int maxStreamWindow() {
    return maxStreamWindow;
  }

  /** A window update goes out once it would add at least this many bytes (tentacle: half the window). */
  public int windowUpdateThreshold() {
    return windowUpdateThreshold;
  }

  /** The most credit all of a session's streams together may hold, in bytes. */
  public long sessionWindow() {
    return sessionWindow;
  }

  /** The most streams open at once, opened by either side; a SYN beyond it is refused with RST. */
  public int maxStreams() {
    return maxStreams;
  }

  /** The most streams this side opened that the peer has not ACKed yet; later opens wait. */
  public int ackBacklog() {
    return ackBacklog;
  }

  /**
   * Pongs and refusals (the answers a peer provokes) it may leave unread, as the socket reports what
   * it could not send; one more ends the session with {@link YamuxException.Reason#CONTROL_FLOOD}
   * and GoAway 2. The same bound as {@code MplexConfig#maxUnreadControlFrames()}; default 1,024.
   */
  public int maxUnreadControlFrames() {
    return maxUnreadControlFrames;
  }

  /** The longest Data frame accepted, in bytes; a longer header ends the session. */
  public long maxFrameLength() {
    return maxFrameLength;
  }

  /** The longest Data frame body sent, in bytes; a longer write goes as several frames. */
  public int maxSendFrame() {
    return maxSendFrame;
  }

  /** How often a keepalive ping goes out, or {@code null} for none. */
  public Duration keepaliveInterval() {
    return keepaliveInterval;
  }

  /** A keepalive tick that finds a ping unanswered for longer than this drops the session. */
  public Duration pingTimeout() {
    return pingTimeout;
  }

  /** How long a GoAway may take to be written before the connection is closed anyway. */
  public Duration writeTimeout() {
    return writeTimeout;
  }

  /**
   * Whether a stream's SYN and ACK already grant the window above 256 KiB (tentacle), or carry 0 and
   * the window grows with the stream's first read (go-yamux; and yamux-js ignores a SYN's window).
   */
  public boolean windowInSyn() {
    return windowInSyn;
  }

  /**
   * What the connection socket's {@code TCP_NOTSENT_LOWAT} is lowered to, where the transport has it
   * (Linux native epoll), so that frames wait in the session, under its flow control, rather than in
   * the kernel ({@code docs/STREAMS.md} §3); 0 leaves the socket alone. Default 16 KiB in both
   * profiles.
   */
  public int notSentLowWater() {
    return notSentLowWater;
  }

  /**
   * The budget every session made with this config draws its credit from, with the other
   * connections sharing it ({@link MemoryBudget}); empty (the default) when only each session's own
   * bounds apply.
   */
  public Optional<MemoryBudget> budget() {
    return Optional.ofNullable(budget);
  }

  @Override
  public String toString() {
    return "YamuxConfig{maxStreamWindow=" + maxStreamWindow + ", windowUpdateThreshold=" + windowUpdateThreshold
        + ", sessionWindow=" + sessionWindow + ", maxStreams=" + maxStreams + ", ackBacklog=" + ackBacklog
        + ", maxUnreadControlFrames=" + maxUnreadControlFrames
        + ", maxFrameLength=" + maxFrameLength + ", maxSendFrame=" + maxSendFrame
        + ", keepaliveInterval=" + keepaliveInterval + ", pingTimeout=" + pingTimeout
        + ", writeTimeout=" + writeTimeout + ", windowInSyn=" + windowInSyn
        + ", notSentLowWater=" + notSentLowWater + (budget == null ? "" : ", budget=" + budget) + '}';
  }

  /** Builds a {@link YamuxConfig}; starts with the {@link #tentacle()} values. Not thread-safe. */
  public static final class Builder {
    private int maxStreamWindow = 1024 * 1024;
    private int windowUpdateThreshold;
    private long sessionWindow = 64L * 1024 * 1024;
    private int maxStreams = 64;
    private int ackBacklog = 256;
    private int maxUnreadControlFrames = 1024;
    private long maxFrameLength;
    private int maxSendFrame;
    private Duration keepaliveInterval = Duration.ofSeconds(30);
    private Duration pingTimeout = Duration.ofSeconds(30);
    private Duration writeTimeout = Duration.ofSeconds(10);
    private boolean windowInSyn = true;
    private int notSentLowWater = NotSentLowWater.DEFAULT_IN_BYTES;
    private MemoryBudget budget;

    private Builder() {}

    /**
     * Sets the max stream window; also the default frame limits and update threshold.
     *
     * @param bytes at least 256 KiB
     * @return this builder
     */
    public Builder maxStreamWindow(int bytes) {
      maxStreamWindow = bytes;
      return this;
    }

    /**
     * Sets the window update threshold; 0 means half the max stream window.
     *
     * @param bytes at most the max stream window
     * @return this builder
     */
    public Builder windowUpdateThreshold(int bytes) {
      windowUpdateThreshold = bytes;
      return this;
    }

    /**
     * Sets the session window.
     *
     * @param bytes at least 256 KiB; each open stream takes 256 KiB of it
     * @return this builder
     */
    public Builder sessionWindow(long bytes) {
      sessionWindow = bytes;
      return this;
    }

    /**
     * Sets the stream limit.
     *
     * @param streams at least 1
     * @return this builder
     */
    public Builder maxStreams(int streams) {
      maxStreams = streams;
      return this;
    }

    /**
     * Sets the ACK backlog.
     *
     * @param streams at least 1
     * @return this builder
     */
    public Builder ackBacklog(int streams) {
      ackBacklog = streams;
      return this;
    }

    /**
     * Sets how many pongs and refusals the peer may leave unread.
     *
     * @param frames at least 1
     * @return this builder
     */
    public Builder maxUnreadControlFrames(int frames) {
      maxUnreadControlFrames = frames;
      return this;
    }

    /**
     * Sets the longest Data frame accepted; 0 means the max stream window.
     *
     * @param bytes from the max stream window to 2^32 - 1
     * @return this builder
     */
    public Builder maxFrameLength(long bytes) {
      maxFrameLength = bytes;
      return this;
    }

    /**
     * Sets the longest Data frame body sent; 0 means the max stream window.
     *
     * @param bytes at least 1, or 0 for the max stream window
     * @return this builder
     */
    public Builder maxSendFrame(int bytes) {
      maxSendFrame = bytes;
      return this;
    }

    /**
     * Sets the keepalive interval.
     *
     * @param interval positive, or {@code null} to send no keepalive pings
     * @return this builder
     */
    public Builder keepaliveInterval(Duration interval) {
      keepaliveInterval = interval;
      return this;
    }

    /**
     * Sets the ping timeout.
     *
     * @param timeout how old an unanswered ping may be at a keepalive tick
     * @return this builder
     */
    public Builder pingTimeout(Duration timeout) {
      pingTimeout = timeout;
      return this;
    }

    /**
     * Sets the write timeout.
     *
     * @param timeout how long a GoAway may take to be written
     * @return this builder
     */
    public Builder writeTimeout(Duration timeout) {
      writeTimeout = timeout;
      return this;
    }

    /**
     * Sets whether SYN and ACK grant the window above 256 KiB at once.
     *
     * @param inSyn {@code true} as tentacle, {@code false} as go-yamux
     * @return this builder
     */
    public Builder windowInSyn(boolean inSyn) {
      windowInSyn = inSyn;
      return this;
    }

    /**
     * Sets what the connection socket's {@code TCP_NOTSENT_LOWAT} is lowered to.
     *
     * @param bytes positive, or 0 to leave the socket alone
     * @return this builder
     */
    public Builder notSentLowWater(int bytes) {
      notSentLowWater = bytes;
      return this;
    }

    /**
     * Sets the budget the sessions draw their credit from: the same budget in the configs of a
     * node's listeners bounds them all together.
     *
     * @param budget a budget, or {@code null} for none
     * @return this builder
     */
    public Builder budget(MemoryBudget budget) {
      this.budget = budget;
      return this;
    }

    /** The config; throws {@link IllegalArgumentException} for values out of range. */
    public YamuxConfig build() {
      return new YamuxConfig(this);
    }
  }
}
