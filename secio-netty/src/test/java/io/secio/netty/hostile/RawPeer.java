package io.secio.netty.hostile;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;

/**
 * The wire end of a hostile peer: a plain blocking {@link Socket} with a read timeout, no secio
 * handlers. It writes whatever a test hands it (whole frames, raw bytes, one byte at a time) and reads
 * frames back. Writes that the other side has already refused (it closed or reset) are ignored, as a
 * hostile peer would; reads that find the connection gone throw.
 *
 * <p>Not thread-safe: one test thread drives it.
 */
public final class RawPeer implements AutoCloseable {
  /** How a connection ended, as seen from this side. */
  public enum Ending { EOF, RESET }

  /** How this side can go away. */
  public enum Death { FIN, RST, HALF_CLOSE }

  private static final int MAX_FRAME_READ_IN_BYTES = 16 * 1024 * 1024;

  private final Socket socket;
  private final DataInputStream in;
  private final OutputStream out;
  private boolean writeRefused;
  private boolean trickle;
  private long bytesWritten;
  private Runnable afterEachByte = () -> { };
  private long budget = Long.MAX_VALUE;
  private Death death;

  private RawPeer(Socket socket, Duration readTimeout) throws IOException {
    this.socket = socket;
    socket.setSoTimeout(Math.toIntExact(readTimeout.toMillis()));
    socket.setTcpNoDelay(true);
    this.in = new DataInputStream(socket.getInputStream());
    this.out = socket.getOutputStream();
  }

  /** Dials {@code address}; reads give up after {@code readTimeout}. */
  public static RawPeer dial(SocketAddress address, Duration readTimeout) throws IOException {
    Socket s = new Socket();
    s.connect(address, Math.toIntExact(readTimeout.toMillis()));
    return new RawPeer(s, readTimeout);
  }

  /** Dials with a small receive buffer, for a peer that wants the sender to feel it not reading. */
  public static RawPeer dialWithReceiveBuffer(SocketAddress address, Duration readTimeout, int bytes)
      throws IOException {
    Socket s = new Socket();
    s.setReceiveBufferSize(bytes); // before connect, so the TCP window is negotiated with it
    s.connect(address, Math.toIntExact(readTimeout.toMillis()));
    return new RawPeer(s, readTimeout);
  }

  /** Wraps a socket accepted by a hostile listener. */
  public static RawPeer wrap(Socket accepted, Duration readTimeout) throws IOException {
    return new RawPeer(accepted, readTimeout);
  }

  public InetSocketAddress localAddress() {
    return (InetSocketAddress) socket.getLocalSocketAddress();
  }

  /** Writes {@code payload} behind its 4-byte big-endian length, in one write. */
  public void writeFrame(byte[] payload) {
    writeRaw(frame(payload));
  }

  /** {@code u32 length || payload}. */
  public static byte[] frame(byte[] payload) {
    return ByteBuffer.allocate(4 + payload.length).putInt(payload.length).put(payload).array();
  }

  /**
   * From now on every write goes out one byte per write call (TCP_NODELAY is on, so mostly one byte
   * per segment, and the other side reads them in as many pieces).
   */
  public RawPeer trickle() {
    trickle = true;
    return this;
  }

  /**
   * As {@link #trickle()}, and runs {@code afterEachByte} after each write: a test waits there until
   * the other side has read that byte, so that it really reads the stream one byte at a time.
   */
  public RawPeer trickle(Runnable afterEachByte) {
    this.afterEachByte = afterEachByte;
    return trickle();
  }

  /** Writes bytes as they are (one by one after {@link #trickle()}). */
  public void writeRaw(byte[] bytes) {
    if (trickle) {
      for (byte b : bytes) {
        write(new byte[] {b});
        if (!writeRefused) {
          afterEachByte.run();
        }
      }
    } else {
      write(bytes);
    }
  }

  private void write(byte[] bytes) {
    if (writeRefused) {
      return;
    }
    try {
      int n = (int) Math.min(bytes.length, budget - bytesWritten);
      out.write(bytes, 0, n);
      out.flush();
      bytesWritten += n;
      if (n < bytes.length || bytesWritten == budget) {
        die(death);
        writeRefused = true;
      }
    } catch (IOException e) {
      writeRefused = true;
    }
  }

  /**
   * After {@code budget} bytes in all, the next write stops there (perhaps mid-frame) and this side
   * goes away as {@code death} says; later writes are ignored.
   */
  public RawPeer dieAfter(long budget, Death death) {
    this.budget = budget;
    this.death = death;
    return this;
  }

  /** Whether this side has died (as {@link #dieAfter} arranged) or found the connection gone. */
  public boolean cut() {
    return writeRefused;
  }

  /** Goes away now, as {@code death} says. */
  public void die(Death death) throws IOException {
    switch (death) {
      case FIN -> close();
      case RST -> reset();
      case HALF_CLOSE -> shutdownOutput();
    }
  }

  /** Bytes written so far (and accepted by the kernel). */
  public long bytesWritten() {
    return bytesWritten;
  }

  /** Whether a write failed because the other side had closed or reset the connection. */
  public boolean writeRefused() {
    return writeRefused;
  }

  /** Reads one frame's payload. @throws EOFException if the connection ends first */
  public byte[] readFrame() throws IOException {
    int length = in.readInt();
    if (length < 0 || length > MAX_FRAME_READ_IN_BYTES) {
      throw new IOException("peer declared a frame of " + Integer.toUnsignedString(length) + " bytes");
    }
    byte[] payload = new byte[length];
    in.readFully(payload);
    return payload;
  }

  /** Reads exactly {@code n} raw bytes. */
  public byte[] readRaw(int n) throws IOException {
    byte[] b = new byte[n];
    in.readFully(b);
    return b;
  }

  /**
   * Reads and discards until the other side ends the connection, and says how it ended.
   *
   * @throws SocketTimeoutException if it is still open after the read timeout
   */
  public Ending awaitEnd() throws IOException {
    byte[] sink = new byte[8192];
    try {
      InputStream raw = socket.getInputStream();
      while (raw.read(sink) >= 0) {
        // discard: only the end matters here
      }
      return Ending.EOF;
    } catch (SocketTimeoutException e) {
      throw e;
    } catch (SocketException e) {
      return Ending.RESET;
    }
  }

  /** Sends FIN but keeps reading: a half-close. */
  public void shutdownOutput() throws IOException {
    socket.shutdownOutput();
  }

  /** Drops the connection with a TCP RST instead of a FIN. */
  public void reset() throws IOException {
    socket.setSoLinger(true, 0);
    socket.close();
  }

  /** Whether this side has closed (or reset) the socket. */
  public boolean isClosed() {
    return socket.isClosed();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
