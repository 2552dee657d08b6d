package io.secio.streams.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelConfig;
import io.netty.channel.ChannelException;
import io.netty.channel.ChannelOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Linux's {@code TCP_NOTSENT_LOWAT} on a muxer's connection ({@code docs/STREAMS.md} §3): the most
 * bytes the kernel holds that it has not sent yet. Without it the kernel takes what its send buffer
 * holds (MiBs), so the streams' frames queue where the muxer can no longer choose between them, and
 * once many streams' windows together exceed the socket's buffers the kernel spends a fifth more CPU
 * per byte on loopback. With it, the connection turns unwritable sooner and the frames wait in the
 * muxer, under its flow control. Only transports that have the option (Netty's native epoll) are
 * touched, and only to lower it: a lower value the socket already has (the user's) stays. A socket
 * with no value of its own (the system's {@code net.ipv4.tcp_notsent_lowat} applies, by default no
 * limit) gets this one.
 */
public final class NotSentLowWater {
  /** The muxers' default: 16 KiB, the best of the values measured (benchmarks/README.md). */
  public static final int DEFAULT_IN_BYTES = 16 * 1024;

  private static final Logger LOG = LoggerFactory.getLogger(NotSentLowWater.class);
  private static final String NAME = "TCP_NOTSENT_LOWAT";

  private NotSentLowWater() {}

  /**
   * Lowers {@code channel}'s {@code TCP_NOTSENT_LOWAT} to {@code bytes}, if its transport has the option
   * and the socket has no value of its own or a higher one; 0 leaves the socket alone.
   */
  static void lower(Channel channel, int bytes) {
    if (bytes <= 0) {
      return;
    }
    ChannelConfig config = channel.config();
    try {
      ChannelOption<Long> option = find(config);
      if (option == null) {
        return;
      }
      Long current = config.getOption(option); // 0: none of its own, the system's applies
      if (current == null || current == 0 || current > bytes) {
        config.setOption(option, (long) bytes);
      }
    } catch (ChannelException | ClassCastException e) {
      // A socket already closed (the session will see that itself), or a transport whose option
      // takes another type than native epoll's long.
      LOG.debug("{} left as it is on {}", NAME, channel, e);
    }
  }

  /**
   * The transport's option by name, so the muxer needs no compile-time tie to native epoll. A
   * transport's own options are named after their class: {@code
   * io.netty.channel.epoll.EpollChannelOption#TCP_NOTSENT_LOWAT}.
   */
  @SuppressWarnings("unchecked")
  private static ChannelOption<Long> find(ChannelConfig config) {
    for (ChannelOption<?> option : config.getOptions().keySet()) {
      String name = option.name();
      if (name.equals(NAME) || name.endsWith("#" + NAME)) {
        return (ChannelOption<Long>) option;
      }
    }
    return null;
  }
}
