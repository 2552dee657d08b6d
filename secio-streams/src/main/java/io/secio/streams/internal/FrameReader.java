package io.secio.streams.internal;

import io.netty.buffer.ByteBuf;
import java.io.IOException;

/**
 * What every muxer's frame reader shares ({@code docs/STREAMS.md} §3): the loop over the
 * connection's bytes, a frame's body handed on in slices of the connection's buffers as it arrives
 * (never gathered whole), and the stop after a violation or the session's end. A muxer's reader
 * parses its headers ({@link #header}), checks them, and calls its listener once per frame.
 *
 * <p>Not thread-safe: the connection's event loop.
 */
public abstract class FrameReader {
  /** Body bytes of the current frame still to come, or -1 between frames. */
  private long bodyLeft = -1;
  private boolean wantBody;
  private boolean stopped;
  private Runnable afterEach = () -> {};

  /** Runs {@code task} after each header, and each piece of a body, is handed on. */
  final void afterEach(Runnable task) {
    afterEach = task;
  }

  /** Reads every frame {@code in} holds (all of it is read); the caller still owns {@code in}. */
  public final void read(ByteBuf in) throws IOException {
    try {
      while (!stopped && in.isReadable()) {
        if (bodyLeft >= 0) {
          body(in);
        } else {
          header(in);
        }
        afterEach.run();
      }
    } catch (IOException | RuntimeException e) {
      stopped = true;
      throw e;
    }
    if (stopped) {
      in.skipBytes(in.readableBytes());
    }
  }

  /** Reads nothing more: the session ended. */
  public final void stop() {
    stopped = true;
  }

  /** Reads at least one byte of a frame's header from {@code in}; a whole header is checked and handed on. */
  protected abstract void header(ByteBuf in) throws IOException;

  /** A slice of the current frame's body, wanted; the callee owns it. */
  protected abstract void bodySlice(ByteBuf slice);

  /** The current frame's body ended (wanted or not, empty or not). */
  protected abstract void bodyEnd() throws IOException;

  /** The header just read is followed by {@code length} bytes of body, handed on if {@code wanted}. */
  protected final void expectBody(long length, boolean wanted) throws IOException {
    wantBody = wanted;
    bodyLeft = length;
    if (length == 0) {
      bodyLeft = -1;
      bodyEnd();
    }
  }

  private void body(ByteBuf in) throws IOException {
    int n = (int) Math.min(bodyLeft, in.readableBytes());
    if (wantBody && n > 0) {
      bodySlice(in.readRetainedSlice(n));
    } else {
      in.skipBytes(n);
    }
    bodyLeft -= n;
    if (bodyLeft == 0) {
      bodyLeft = -1;
      bodyEnd();
    }
  }
}
