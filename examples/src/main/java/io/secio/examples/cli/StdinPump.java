package io.secio.examples.cli;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.socket.DuplexChannel;
import java.io.IOException;
import java.io.InputStream;

/**
 * Copies an input stream to a secured channel, like netcat: each read becomes one write, the next
 * read waits until that write is done (so a slow peer slows the reader instead of filling memory),
 * and at the end of the input the channel's output is shut down while its input stays open for the
 * peer's answer. Runs on its own thread, because reading stdin blocks.
 */
final class StdinPump implements Runnable {
  private static final int BUFFER_SIZE_IN_BYTES = 64 * 1024;

  private final InputStream in;
  private final Channel channel;

  StdinPump(InputStream in, Channel channel) {
    this.in = in;
    this.channel = channel;
  }

  /** Starts a daemon thread: one blocked on a terminal must not keep the process alive. */
  static void start(InputStream in, Channel channel) {
    Thread thread = new Thread(new StdinPump(in, channel), "stdin");
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public void run() {
    byte[] buffer = new byte[BUFFER_SIZE_IN_BYTES];
    try {
      int n;
      while ((n = in.read(buffer)) >= 0) {
        if (n == 0) {
          continue;
        }
        ChannelFuture written = channel.writeAndFlush(Unpooled.copiedBuffer(buffer, 0, n));
        if (!written.awaitUninterruptibly().isSuccess()) {
          return; // the channel failed; whoever waits on it reports why
        }
      }
      if (channel instanceof DuplexChannel && channel.isActive()) {
        ((DuplexChannel) channel).shutdownOutput();
      }
    } catch (IOException e) {
      channel.close();
    }
  }
}
