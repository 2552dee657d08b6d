package io.secio.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Secio#client}/{@link Secio#server} put the decoder and handshake handler in their place. */
class SecioInstallerTest {

  @Test
  void installsInItsPlaceEvenUnderTheNameSecio() {
    for (String name : new String[] {"secio", "secio-decoder", "mine", null}) {
      EmbeddedChannel channel = new EmbeddedChannel();
      channel.pipeline().addLast("before", new ChannelInboundHandlerAdapter());
      channel.pipeline().addLast(name, Secio.client(TestConfigs.client().build()));
      // Takes the CLOSED failure that closing mid-handshake fires through exceptionCaught.
      channel.pipeline().addLast("after", new Recorder());
      channel.runPendingTasks();
      List<String> names = channel.pipeline().names();
      assertEquals(List.of("before", Secio.DECODER_NAME, Secio.HANDLER_NAME, "after"),
          names.subList(0, 4), "installer named " + name);
      assertInstanceOf(SecioHandshakeHandler.class, channel.pipeline().get(Secio.HANDLER_NAME));
      ByteBuf propose = channel.readOutbound();
      assertNotNull(propose, "the Propose goes out at once");
      propose.release();
      assertNotNull(Secio.handshakeFuture(channel));
      channel.close();
      assertFalse(channel.finishAndReleaseAll());
    }
  }
}
