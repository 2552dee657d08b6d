package io.secio.streams.mplex;

import io.netty.buffer.ByteBuf;
import io.secio.streams.internal.FrameReader;
import io.secio.streams.mplex.MplexException.Reason;
import java.io.IOException;

/**
 * Reads mplex frames from the connection's bytes ({@code docs/STREAMS.md} §9.1; the format is in
 * {@link MplexFrames}) and hands each to its {@link Listener} callback. Both varints are checked
 * byte by byte as they arrive (length in bytes, minimal form), the flag and the length against the
 * limit before any byte of the data is held, and a Close or Reset must carry no data. A Message's
 * data is handed on in slices of the connection's buffers as it arrives ({@link FrameReader}), so no
 * frame is gathered here; a NewStream's name is read past. After a failure it reads nothing more.
 *
 * <p>Not thread-safe: the connection's event loop.
 */
final class MplexFrameReader extends FrameReader {
  /** Where the frames go, one callback per kind; {@code initiator}: sent by the stream's opener. */
  interface Listener {
    /** A NewStream: the peer opens its stream {@code streamId} (its name is not kept). */
    void onNewStream(long streamId) throws MplexException;

    /**
     * A Message's header: returns whether its data is wanted (else it is skipped). The data follows
     * in {@link #onMessageBody} slices and ends with {@link #onMessageEnd}, also when empty.
     */
    boolean onMessage(long streamId, boolean initiator, int length) throws MplexException;

    /** A slice of the current Message's data; the callee owns it. */
    void onMessageBody(ByteBuf slice);

    /** The current Message's data is complete. */
    void onMessageEnd();

    /** A Close: the sender half-closes the stream. */
    void onClose(long streamId, boolean initiator) throws MplexException;

    /** A Reset: the sender resets the stream. */
    void onReset(long streamId, boolean initiator) throws MplexException;
  }

  private final int maxMessage;
  private final Listener listener;
  private long varint;
  private int varintBytes;
  private boolean inLength;
  private long header;
  /** Whether the current frame is a Message (its data goes on), not a NewStream (its name does not). */
  private boolean message;

  /**
   * A reader of frames for {@code listener}.
   *
   * @param maxMessage the longest frame data accepted; a longer length ends the session
   * @param listener where the frames go
   */
  MplexFrameReader(int maxMessage, Listener listener) {
    this.maxMessage = maxMessage;
    this.listener = listener;
  }

  @Override
  protected void header(ByteBuf in) throws IOException {
    if (!varintByte(in.readByte())) {
      return;
    }
    if (!inLength) {
      header = varint;
      inLength = true;
      resetVarint();
    } else {
      long length = varint;
      inLength = false;
      resetVarint();
      frame(length);
    }
  }

  @Override
  protected void bodySlice(ByteBuf slice) {
    listener.onMessageBody(slice);
  }

  @Override
  protected void bodyEnd() {
    if (message) {
      listener.onMessageEnd();
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

  private void frame(long length) throws IOException {
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
    boolean initiator = MplexFrames.fromInitiator(flag);
    message = flag == MplexFrames.MESSAGE_INITIATOR || flag == MplexFrames.MESSAGE_RECEIVER;
    if (message) {
      expectBody(n, listener.onMessage(streamId, initiator, n));
    } else if (flag == MplexFrames.NEW_STREAM) {
      listener.onNewStream(streamId);
      expectBody(n, false);
    } else if (n != 0) {
      throw new MplexException(Reason.BAD_CONTROL_FRAME, MplexFrames.flagName(flag) + " with " + n
          + " bytes on stream " + streamId);
    } else if (flag == MplexFrames.CLOSE_INITIATOR || flag == MplexFrames.CLOSE_RECEIVER) {
      listener.onClose(streamId, initiator);
    } else {
      listener.onReset(streamId, initiator);
    }
  }
}
