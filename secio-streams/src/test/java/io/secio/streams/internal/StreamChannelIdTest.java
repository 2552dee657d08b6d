package io.secio.streams.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.ChannelId;
import io.netty.channel.DefaultChannelId;
import org.junit.jupiter.api.Test;

/**
 * A stream's id orders by its connection's id first and its stream id second, and against a
 * connection's id as its own connection's id does (the in-memory tests' connections all share
 * {@code EmbeddedChannel}'s one id, so they cannot tell these apart).
 */
class StreamChannelIdTest {

  @Test
  void aStreamIdOrdersByItsConnectionFirstThenByItsStream() {
    ChannelId one = DefaultChannelId.newInstance();
    ChannelId two = DefaultChannelId.newInstance();
    ChannelId first = one.compareTo(two) < 0 ? one : two;
    ChannelId second = first == one ? two : one;
    StreamChannelId late = new StreamChannelId(first, 9);
    StreamChannelId early = new StreamChannelId(second, 1);
    assertTrue(late.compareTo(early) < 0 && early.compareTo(late) > 0, "the connection decides before the stream");
    assertTrue(late.compareTo(new StreamChannelId(first, 10)) < 0);
    assertEquals(0, late.compareTo(new StreamChannelId(first, 9)));
    assertEquals(new StreamChannelId(first, 9), late);
    assertNotEquals(new StreamChannelId(second, 9), late);
    assertTrue(late.compareTo(second) < 0 && early.compareTo(first) > 0, "against a connection's id, its own decides");
    assertEquals(0, late.compareTo(first));
  }
}
