package io.secio.websocket;

import java.time.Duration;
import java.util.Objects;

/**
 * The limits of a WebSocket connection ({@code docs/WEBSOCKET.md}): the longest frame payload read,
 * the longest HTTP request or response head of the handshake, and how long the handshake may take.
 *
 * <pre>{@code
 * WebSocketConfig config = WebSocketConfig.builder()
 *     .maxFramePayloadLength(1024 * 1024)
 *     .handshakeTimeout(Duration.ofSeconds(5))
 *     .build();
 * }</pre>
 *
 * <p>Frames written carry at most {@link #MAX_WRITE_FRAME_PAYLOAD_IN_BYTES} (or {@link
 * #maxFramePayloadLength()}, if lower) bytes each, well under any peer's limit. Immutable and
 * thread-safe.
 */
public final class WebSocketConfig {
  /**
   * The longest frame payload read by default: secio's default frame limit (8 MiB) plus its 4-byte
   * length prefix, which is what tentacle's WebSocket transport accepts in one message.
   */
  public static final int DEFAULT_MAX_FRAME_PAYLOAD_LENGTH_IN_BYTES = 8 * 1024 * 1024 + 4;
  /** The longest request or response line, and the longest header block, read by default. */
  public static final int DEFAULT_MAX_HTTP_HEADER_LENGTH_IN_BYTES = 8 * 1024;
  /** How long a handshake may take by default: secio's default handshake timeout. */
  public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);
  /** The longest payload of a frame written: a write longer than this goes out as several frames. */
  public static final int MAX_WRITE_FRAME_PAYLOAD_IN_BYTES = 64 * 1024;

  private static final WebSocketConfig DEFAULTS = builder().build();

  private final int maxFramePayloadLength;
  private final int maxHttpHeaderLength;
  private final Duration handshakeTimeout;

  private WebSocketConfig(Builder b) {
    this.maxFramePayloadLength = b.maxFramePayloadLength;
    this.maxHttpHeaderLength = b.maxHttpHeaderLength;
    this.handshakeTimeout = b.handshakeTimeout;
  }

  /** The defaults. */
  public static WebSocketConfig defaults() {
    return DEFAULTS;
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The longest frame payload read; a longer frame is {@link WebSocketException.Reason#FRAME_TOO_LONG}
   * and is never buffered whole.
   */
  public int maxFramePayloadLength() {
    return maxFramePayloadLength;
  }

  /**
   * The longest request or response line, and separately the longest header block, of the
   * handshake; longer is {@link WebSocketException.Reason#HANDSHAKE_TOO_LONG}. The handshake has no
   * body, so this bounds what it buffers.
   */
  public int maxHttpHeaderLength() {
    return maxHttpHeaderLength;
  }

  /**
   * How long the handshake may take from the connection's start (and separately, on a listener
   * serving TCP and WebSocket, how long its first bytes may take to arrive).
   */
  public Duration handshakeTimeout() {
    return handshakeTimeout;
  }

  /** The payload limit of each frame written. */
  int writeFramePayloadLength() {
    return Math.min(maxFramePayloadLength, MAX_WRITE_FRAME_PAYLOAD_IN_BYTES);
  }

  @Override
  public String toString() {
    return "WebSocketConfig{maxFramePayloadLength=" + maxFramePayloadLength + ", maxHttpHeaderLength="
        + maxHttpHeaderLength + ", handshakeTimeout=" + handshakeTimeout + "}";
  }

  /** Builds a {@link WebSocketConfig}; not thread-safe. */
  public static final class Builder {
    private int maxFramePayloadLength = DEFAULT_MAX_FRAME_PAYLOAD_LENGTH_IN_BYTES;
    private int maxHttpHeaderLength = DEFAULT_MAX_HTTP_HEADER_LENGTH_IN_BYTES;
    private Duration handshakeTimeout = DEFAULT_HANDSHAKE_TIMEOUT;

    private Builder() {}

    /**
     * The longest frame payload read.
     *
     * @param bytes at least 1; 8 MiB + 4 by default
     * @return this builder
     */
    public Builder maxFramePayloadLength(int bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("maxFramePayloadLength must be at least 1: " + bytes);
      }
      this.maxFramePayloadLength = bytes;
      return this;
    }

    /**
     * The longest request or response line, and the longest header block, of the handshake.
     *
     * @param bytes at least 256, so that a browser's request fits; 8 KiB by default
     * @return this builder
     */
    public Builder maxHttpHeaderLength(int bytes) {
      if (bytes < 256) {
        throw new IllegalArgumentException("maxHttpHeaderLength must be at least 256: " + bytes);
      }
      this.maxHttpHeaderLength = bytes;
      return this;
    }

    /**
     * How long the handshake may take.
     *
     * @param timeout positive; 10 s by default
     * @return this builder
     */
    public Builder handshakeTimeout(Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.isZero() || timeout.isNegative()) {
        throw new IllegalArgumentException("handshakeTimeout must be positive: " + timeout);
      }
      this.handshakeTimeout = timeout;
      return this;
    }

    /** The config. */
    public WebSocketConfig build() {
      return new WebSocketConfig(this);
    }
  }
}
