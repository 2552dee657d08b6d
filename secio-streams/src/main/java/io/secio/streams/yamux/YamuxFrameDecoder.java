package io.secio.streams.yamux;

import io.netty.buffer.ByteBuf;

/**
 * Cuts the connection's bytes into yamux frames ({@code docs/STREAMS.md} §4), checking each header
 * ({@link YamuxFrames}) before anything of its body is held. A Data body is handed on as it arrives,
 * in slices of the connection's buffers, so no frame is ever gathered whole: a 16 MiB frame costs no
 * 16 MiB buffer. After a failure it decodes nothing more.
 *
 * <p>Not thread-safe: the connection's event loop.
 */
final class YamuxFrameDecoder {
  /** Where the frames go. */
  interface Frames {
    /**
     * A checked header. For a Data frame, returns whether its body is wanted (else it is skipped);
     * the body follows in {@link #data} chunks and ends with {@link #dataEnd}, even when empty.
     */
    boolean header(int type, int flags, long streamId, long length) throws YamuxException;

    /** A chunk of the current Data body; the callee owns it. */
    void data(ByteBuf chunk);

    /** The current Data frame's body is complete. */
    void dataEnd() throws YamuxException;
  }

  private final long maxDataLength;
  private final byte[] header = new byte[YamuxFrames.HEADER_SIZE_IN_BYTES];
  private int headerBytes;
  /** Body bytes of the current Data frame still to come, or -1 between frames. */
  private long bodyLeft = -1;
  private boolean wantBody;
  private boolean failed;

  YamuxFrameDecoder(long maxDataLength) {
    this.maxDataLength = maxDataLength;
  }

  /** Decodes what {@code in} holds (all of it is read); the caller still owns {@code in}. */
  void decode(ByteBuf in, Frames frames) throws YamuxException {
    try {
      while (!failed && in.isReadable()) {
        if (bodyLeft >= 0) {
          int n = (int) Math.min(bodyLeft, in.readableBytes());
          if (wantBody && n > 0) {
            frames.data(in.readRetainedSlice(n));
          } else {
            in.skipBytes(n);
          }
          bodyLeft -= n;
          if (bodyLeft == 0) {
            bodyLeft = -1;
            frames.dataEnd();
          }
          continue;
        }
        int n = Math.min(YamuxFrames.HEADER_SIZE_IN_BYTES - headerBytes, in.readableBytes());
        in.readBytes(header, headerBytes, n);
        headerBytes += n;
        if (headerBytes == YamuxFrames.HEADER_SIZE_IN_BYTES) {
          headerBytes = 0;
          onHeader(frames);
        }
      }
    } catch (YamuxException | RuntimeException e) {
      failed = true;
      throw e;
    }
    if (failed) {
      in.skipBytes(in.readableBytes());
    }
  }

  private void onHeader(Frames frames) throws YamuxException {
    int version = header[0] & 0xFF;
    int type = header[1] & 0xFF;
    int flags = (header[2] & 0xFF) << 8 | header[3] & 0xFF;
    long streamId = u32(4);
    long length = u32(8);
    if (version != YamuxFrames.VERSION) {
      throw new YamuxException(YamuxException.Reason.BAD_VERSION, "version " + version);
    }
    if (type > YamuxFrames.TYPE_GO_AWAY) {
      throw new YamuxException(YamuxException.Reason.BAD_TYPE, "type " + type);
    }
    if (type == YamuxFrames.TYPE_DATA) {
      YamuxFrames.checkDataLength(length, maxDataLength);
      wantBody = frames.header(type, flags, streamId, length);
      bodyLeft = length;
      if (length == 0) {
        bodyLeft = -1;
        frames.dataEnd();
      }
    } else {
      frames.header(type, flags, streamId, length);
    }
  }

  private long u32(int offset) {
    return (header[offset] & 0xFFL) << 24 | (header[offset + 1] & 0xFFL) << 16
        | (header[offset + 2] & 0xFFL) << 8 | header[offset + 3] & 0xFFL;
  }

  /** Decodes nothing more: the session ended. */
  void stop() {
    failed = true;
  }
}
