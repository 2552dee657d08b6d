package io.secio.netty.multistream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.Future;
import io.secio.netty.NegotiatedProtocol;
import io.secio.netty.multistream.MultistreamHandlerTest.Sink;
import java.util.Arrays;
import java.util.Random;

/**
 * Either role of the negotiating handler fed any peer bytes, cut into any chunks: the outcome (what it
 * sent, the protocol or the failure reason, the bytes handed on) does not depend on the cut; a failure
 * is a {@link MultistreamException} and a closed channel with nothing handed on; an agreement hands on
 * exactly the bytes after the agreeing message; no buffer leaks.
 *
 * <p>Input layout: the peer's bytes, then a 4-byte chunking seed and a role byte at the end (where
 * {@link FuzzedDataProvider} takes integers from).
 */
class MultistreamFuzzTest {
  private static final int MAX_CHUNK = 40;

  /** What one run produced. */
  private record Outcome(String sent, String protocol, MultistreamException.Reason reason, String handedOn) {}

  @FuzzTest
  void anyPeerBytesInAnyChunks(FuzzedDataProvider data) {
    boolean initiator = data.consumeBoolean();
    long chunkSeed = data.consumeInt();
    byte[] peer = data.consumeRemainingAsBytes();
    Outcome whole = run(initiator, peer, new int[] {peer.length});
    Outcome chunked = run(initiator, peer, cuts(peer.length, new Random(chunkSeed)));
    assertEquals(whole, chunked, "the outcome depends on how the bytes were cut");
    assertTrue(ByteBufUtil.hexDump(peer).endsWith(whole.handedOn()), "handed on bytes that are not the input's tail");
  }

  private static int[] cuts(int length, Random random) {
    int[] cuts = new int[length + 1];
    int n = 0;
    for (int left = length; left > 0; ) {
      int chunk = Math.min(left, 1 + random.nextInt(MAX_CHUNK));
      cuts[n++] = chunk;
      left -= chunk;
    }
    return Arrays.copyOf(cuts, n);
  }

  private static Outcome run(boolean initiator, byte[] peer, int[] chunks) {
    ChannelHandler handler = initiator
        ? Multistream.initiator().protocol("/a", () -> null).protocol(Multistream.SECIO, () -> null).build()
        : Multistream.responder().protocol(Multistream.SECIO, () -> null).protocol("/b", () -> null).maxProposals(4).build();
    Sink sink = new Sink();
    EmbeddedChannel ch = new EmbeddedChannel(handler, sink);
    try {
      int offset = 0;
      for (int chunk : chunks) {
        if (!ch.isOpen()) {
          break;
        }
        ch.writeInbound(Unpooled.wrappedBuffer(peer, offset, chunk));
        offset += chunk;
      }
      StringBuilder sent = new StringBuilder();
      for (ByteBuf buf; (buf = ch.readOutbound()) != null; ) {
        sent.append(ByteBufUtil.hexDump(buf));
        buf.release();
      }
      Future<NegotiatedProtocol> negotiation = Multistream.negotiationFuture(ch);
      if (!negotiation.isDone()) {
        assertTrue(ch.isOpen());
        assertEquals("", sink.hex(), "bytes handed on before an agreement");
        return new Outcome(sent.toString(), null, null, "");
      }
      if (!negotiation.isSuccess()) {
        MultistreamException e = assertInstanceOf(MultistreamException.class, negotiation.cause());
        assertFalse(ch.isOpen(), "failed but open");
        assertEquals("", sink.hex(), "bytes handed on after a failure");
        return new Outcome(sent.toString(), null, e.reason(), "");
      }
      return new Outcome(sent.toString(), negotiation.getNow().name(), null, sink.hex());
    } finally {
      ch.finishAndReleaseAll();
    }
  }
}
