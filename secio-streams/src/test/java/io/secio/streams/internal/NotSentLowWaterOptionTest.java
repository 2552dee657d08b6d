package io.secio.streams.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.Channel;
import io.netty.channel.ChannelConfig;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipelineException;
import io.netty.channel.DefaultChannelConfig;
import io.netty.channel.embedded.EmbeddedChannel;
import io.secio.streams.yamux.YamuxConfig;
import io.secio.streams.yamux.YamuxHandler;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How a muxer lowers its socket's {@code TCP_NOTSENT_LOWAT} ({@link NotSentLowWater}), in memory: the
 * option is found by its name, bare or as a transport's own ({@code Class#NAME}); a socket without a
 * value of its own or with a higher one is lowered, a lower one is kept, and 0 leaves it alone. The
 * socket test ({@code NotSentLowWaterTest}) checks the same on native epoll; this one runs anywhere.
 */
class NotSentLowWaterOptionTest {

  /** A transport's config with a {@code TCP_NOTSENT_LOWAT} option of type long, as native epoll's. */
  private static final class LowWaterConfig extends DefaultChannelConfig {
    final ChannelOption<Long> option;
    Long value;

    LowWaterConfig(Channel channel, ChannelOption<Long> option, Long value) {
      super(channel);
      this.option = option;
      this.value = value;
    }

    @Override
    public Map<ChannelOption<?>, Object> getOptions() {
      return getOptions(super.getOptions(), option);
    }

    @SuppressWarnings("unchecked")
    @Override
    public <T> T getOption(ChannelOption<T> o) {
      return o == option ? (T) value : super.getOption(o);
    }

    @Override
    public <T> boolean setOption(ChannelOption<T> o, T v) {
      if (o != option) {
        return super.setOption(o, v);
      }
      value = (Long) v;
      return true;
    }
  }

  /** A connection in memory whose config is a {@link LowWaterConfig} once one is given. */
  private static final class LowWaterChannel extends EmbeddedChannel {
    private LowWaterConfig lowWater;

    LowWaterChannel with(ChannelOption<Long> option, Long value) {
      lowWater = new LowWaterConfig(this, option, value);
      return this;
    }

    @Override
    public ChannelConfig config() {
      return lowWater != null ? lowWater : super.config();
    }
  }

  /** Stands for a transport class such as {@code EpollChannelOption}, which names its options after itself. */
  private static final class TransportOption {}

  private static final ChannelOption<Long> BARE = ChannelOption.valueOf("TCP_NOTSENT_LOWAT");
  private static final ChannelOption<Long> OWN = ChannelOption.valueOf(TransportOption.class, "TCP_NOTSENT_LOWAT");

  /** The socket's value after lowering it to {@code bytes} from {@code before}, with {@code option}. */
  private static Long lowered(ChannelOption<Long> option, Long before, int bytes) {
    LowWaterChannel ch = new LowWaterChannel().with(option, before);
    try {
      NotSentLowWater.lower(ch, bytes);
      return ch.lowWater.value;
    } finally {
      ch.finishAndReleaseAll();
    }
  }

  @Test
  void aSocketWithoutItsOwnValueOrWithAHigherOneIsLoweredAndALowerOneKept() {
    for (ChannelOption<Long> option : new ChannelOption[] {BARE, OWN}) {
      assertEquals(16384L, lowered(option, 0L, 16384), option.name());
      assertEquals(16384L, lowered(option, null, 16384), option.name());
      assertEquals(16384L, lowered(option, 16385L, 16384), option.name());
      assertEquals(16384L, lowered(option, 16384L, 16384), option.name());
      assertEquals(8192L, lowered(option, 8192L, 16384), "a lower value of its own stays");
      assertEquals(1L, lowered(option, 32768L, 1));
      assertEquals(32768L, lowered(option, 32768L, 0), "0 leaves the socket alone");
      assertEquals(0L, lowered(option, 0L, 0));
    }
  }

  @Test
  void anOptionOfAnotherNameIsNotTouchedAndATransportWithoutOneIsLeftAlone() {
    ChannelOption<Long> other = ChannelOption.valueOf(TransportOption.class, "TCP_NOTSENT_LOWAT_NOT");
    assertEquals(32768L, lowered(other, 32768L, 16384));
    EmbeddedChannel plain = new EmbeddedChannel();
    NotSentLowWater.lower(plain, 16384);
    assertFalse(plain.config().getOptions().keySet().stream().anyMatch(o -> o.name().contains("NOTSENT")));
    plain.finishAndReleaseAll();
  }

  @Test
  void aMuxerAddedToAConnectionLowersItsSocketToItsConfiguredValue() {
    LowWaterChannel ch = new LowWaterChannel().with(OWN, 0L);
    ch.pipeline().addLast(YamuxHandler.client(YamuxConfig.tentacle(), null));
    assertEquals((long) NotSentLowWater.DEFAULT_IN_BYTES, ch.lowWater.value);
    ch.finishAndReleaseAll();
    LowWaterChannel untouched = new LowWaterChannel().with(OWN, 0L);
    untouched.pipeline().addLast(YamuxHandler.client(YamuxConfig.tentacle().toBuilder().notSentLowWater(0).build(), null));
    assertEquals(0L, untouched.lowWater.value);
    untouched.finishAndReleaseAll();
  }

  @Test
  void aMuxerOnAnotherExecutorThanItsConnectionsEventLoopIsRefused() {
    EmbeddedChannel other = new EmbeddedChannel();
    EmbeddedChannel ch = new EmbeddedChannel();
    ch.pipeline().addLast(other.eventLoop(), YamuxHandler.client(YamuxConfig.tentacle(), null));
    ChannelPipelineException e = assertThrows(ChannelPipelineException.class, ch::checkException);
    assertInstanceOf(IllegalStateException.class, e.getCause());
    assertTrue(e.getMessage().endsWith("removed."), "removed cleanly, no second failure: " + e.getMessage());
    assertNull(ch.pipeline().get(YamuxHandler.class), "removed again");
    ch.finishAndReleaseAll();
    other.finishAndReleaseAll();
  }
}
