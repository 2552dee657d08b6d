package io.secio.streams.yamux;

import io.netty.buffer.ByteBuf;
import io.secio.streams.internal.FrameReader;
import io.secio.streams.yamux.YamuxException.Reason;
import java.io.IOException;

/**
 * Reads yamux frames from the connection's bytes ({@code docs/STREAMS.md} §4; the format is in
 * {@link YamuxFrames}) and hands each to its {@link Listener} callback. Everything a header alone
 * can tell is checked before anything of the frame is held or handed on: the version, the type, a
 * Data length against the limit (and a Data+SYN's against the initial window), Ping and GoAway on
 * stream 0 only, stream frames never on stream 0. A Data body is handed on as it arrives, in slices
 * of the connection's buffers ({@link FrameReader}), so no frame is ever gathered whole: a 16 MiB
 * frame costs no 16 MiB buffer. After a failure it reads nothing more.
 *
 * <p>Not thread-safe: the connection's event loop.
 */
final class YamuxFrameReader extends FrameReader {
  /** Where the frames go, one callback per kind. */
  interface Listener {
    /**
     * A Data frame's header: returns whether its body is wanted (else it is skipped). The body
     * follows in {@link #onDataBody} slices and ends with {@link #onDataEnd}, also when empty or
     * skipped.
     */
    boolean onData(long streamId, int flags, long length) throws YamuxException;

    /** A slice of the current Data frame's body; the callee owns it. */
    void onDataBody(ByteBuf slice);

    /** The current Data frame ended. */
    void onDataEnd() throws YamuxException;

    /** A WindowUpdate: {@code delta} more credit for the stream. */
    void onWindowUpdate(long streamId, int flags, long delta) throws YamuxException;

    /** A Ping: a request to echo {@code opaque} ({@code ack} false), or the answer to ours. */
    void onPing(boolean ack, long opaque) throws YamuxException;

    /** A GoAway with its code. */
    void onGoAway(long code) throws YamuxException;
  }

  private final long maxDataLength;
  private final Listener listener;
  private final byte[] header = new byte[YamuxFrames.HEADER_SIZE_IN_BYTES];
  private int headerBytes;

  /**
   * A reader of frames for {@code listener}.
   *
   * @param maxDataLength the longest Data frame accepted; a longer header ends the session
   * @param listener where the frames go
   */
  YamuxFrameReader(long maxDataLength, Listener listener) {
    this.maxDataLength = maxDataLength;
    this.listener = listener;
  }

  @Override
  protected void header(ByteBuf in) throws IOException {
    int n = Math.min(YamuxFrames.HEADER_SIZE_IN_BYTES - headerBytes, in.readableBytes());
    in.readBytes(header, headerBytes, n);
    headerBytes += n;
    if (headerBytes == YamuxFrames.HEADER_SIZE_IN_BYTES) {
      headerBytes = 0;
      frame();
    }
  }

  @Override
  protected void bodySlice(ByteBuf slice) {
    listener.onDataBody(slice);
  }

  @Override
  protected void bodyEnd() throws YamuxException {
    listener.onDataEnd();
  }

  private void frame() throws IOException {
    int version = header[0] & 0xFF;
    int type = header[1] & 0xFF;
    int flags = (header[2] & 0xFF) << 8 | header[3] & 0xFF;
    long streamId = u32(4);
    long length = u32(8);
    if (version != YamuxFrames.VERSION) {
      throw new YamuxException(Reason.BAD_VERSION, "version " + version);
    }
    if (type > YamuxFrames.TYPE_GO_AWAY) {
      throw new YamuxException(Reason.BAD_TYPE, "type " + type);
    }
    if (type == YamuxFrames.TYPE_DATA && length > maxDataLength) {
      throw new YamuxException(Reason.FRAME_TOO_LONG,
          "Data frame of " + length + " bytes, over the limit of " + maxDataLength);
    }
    boolean sessionFrame = type == YamuxFrames.TYPE_PING || type == YamuxFrames.TYPE_GO_AWAY;
    if (sessionFrame && streamId != 0) {
      throw new YamuxException(Reason.BAD_SESSION_FRAME, YamuxFrames.typeName(type) + " on stream " + streamId);
    }
    if (!sessionFrame && streamId == 0) {
      throw new YamuxException(Reason.BAD_STREAM_ID, YamuxFrames.typeName(type) + " on stream 0");
    }
    switch (type) {
      case YamuxFrames.TYPE_DATA:
        data(flags, streamId, length);
        break;
      case YamuxFrames.TYPE_WINDOW_UPDATE:
        listener.onWindowUpdate(streamId, flags, length);
        break;
      case YamuxFrames.TYPE_PING:
        if (YamuxFrames.syn(flags) || YamuxFrames.ack(flags)) {
          listener.onPing(!YamuxFrames.syn(flags), length);
        }
        break;
      default:
        listener.onGoAway(length);
    }
  }

  private void data(int flags, long streamId, long length) throws IOException {
    if (YamuxFrames.syn(flags) && length > YamuxFrames.INITIAL_WINDOW_IN_BYTES) {
      // Sent before the peer saw any grant of ours: 256 KiB is all it may send (CVE-2026-32314).
      throw new YamuxException(Reason.WINDOW_EXCEEDED, "Data+SYN of " + length + " bytes on stream " + streamId
          + ", over the initial window");
    }
    expectBody(length, listener.onData(streamId, flags, length));
  }

  private long u32(int offset) {
    return (header[offset] & 0xFFL) << 24 | (header[offset + 1] & 0xFFL) << 16
        | (header[offset + 2] & 0xFFL) << 8 | header[offset + 3] & 0xFFL;
  }
}
