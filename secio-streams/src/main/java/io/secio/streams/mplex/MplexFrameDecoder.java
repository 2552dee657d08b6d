package io.secio.streams.mplex;

import io.netty.buffer.ByteBuf;
import io.secio.streams.mplex.MplexException.Reason;

/**
 * Cuts the connection's bytes into mplex frames ({@link MplexFrames}, {@code docs/STREAMS.md} §9.1).
 * Both varints are checked byte by byte as they arrive (length in bytes, minimal form) and the length
 * against the limit before any byte of the data is held; the data is handed on in slices of the
 * connection's buffers as it arrives, so no frame is gathered here. After a failure it decodes nothing
 * more.
 *
 * <p>Not thread-safe: the connection's event loop.
 */
final class MplexFrameDecoder {
  /** Where the frames go. */
  interface Frames {
    /**
     * A checked header: returns whether the data is wanted (else it is skipped). The data follows in
     * {@link #data} chunks and ends with {@link #dataEnd}, also when empty.
     */
    boolean header(long streamId, int flag, int length) throws MplexException;

    /** A chunk of the current frame's data; the callee owns it. */
    void data(ByteBuf chunk);

    /** The current frame's data is complete. */
    void dataEnd() throws MplexException;
  }

  private final int maxMessage;
  private long varint;
  private int varintBytes;
  private boolean inLength;
  private long header;
  /** Data bytes of the current frame still to come, or -1 while reading varints. */
  private int dataLeft = -1;
  private boolean wantData;
  private boolean failed;

  MplexFrameDecoder(int maxMessage) {
    this.maxMessage = maxMessage;
  }

  /** Decodes what {@code in} holds (all of it is read); the caller still owns {@code in}. */
  void decode(ByteBuf in, Frames frames) throws MplexException {
    try {
      while (!failed && in.isReadable()) {
        if (dataLeft >= 0) {
          int n = Math.min(dataLeft, in.readableBytes());
          if (wantData) {
            frames.data(in.readRetainedSlice(n));
          } else {
            in.skipBytes(n);
          }
          dataLeft -= n;
          if (dataLeft == 0) {
            dataLeft = -1;
            frames.dataEnd();
          }
        } else if (varintByte(in.readByte())) {
          if (!inLength) {
            header = varint;
            inLength = true;
            resetVarint();
          } else {
            long length = varint;
            inLength = false;
            resetVarint();
            onHeader(length, frames);
          }
        }
      }
    } catch (MplexException | RuntimeException e) {
      failed = true;
      throw e;
    }
    if (failed) {
      in.skipBytes(in.readableBytes());
    }
  }

  /** Adds one byte to the varint being read; true when it ended. */
  private boolean varintByte(byte b) throws MplexException {
    int max = inLength ? MplexFrames.MAX_LENGTH_VARINT_BYTES : MplexFrames.MAX_HEADER_VARINT_BYTES;
    if (varintBytes == max) {
      throw inLength
          ? new MplexException(Reason.FRAME_TOO_LONG, "a length varint over " + max + " bytes")
          : new MplexException(Reason.BAD_VARINT, "a header varint over " + max + " bytes");
    }
    varint |= (long) (b & 0x7F) << (7 * varintBytes);
    varintBytes++;
    if ((b & 0x80) != 0) {
      return false;
    }
    if (b == 0 && varintBytes > 1) {
      throw new MplexException(Reason.BAD_VARINT, "a " + (inLength ? "length" : "header")
          + " varint not in its shortest form");
    }
    return true;
  }

  private void resetVarint() {
    varint = 0;
    varintBytes = 0;
  }

  private void onHeader(long length, Frames frames) throws MplexException {
    int flag = (int) (header & 7);
    long streamId = header >>> 3;
    if (flag == 7) {
      throw new MplexException(Reason.BAD_FLAG, "flag 7 on stream " + streamId);
    }
    if (length > maxMessage) {
      throw new MplexException(Reason.FRAME_TOO_LONG, MplexFrames.flagName(flag) + " of " + length
          + " bytes on stream " + streamId + ", over " + maxMessage);
    }
    int n = (int) length;
    wantData = frames.header(streamId, flag, n);
    if (n == 0) {
      frames.dataEnd();
    } else {
      dataLeft = n;
    }
  }

  /** Decodes nothing more: the session ended. */
  void stop() {
    failed = true;
  }
}
