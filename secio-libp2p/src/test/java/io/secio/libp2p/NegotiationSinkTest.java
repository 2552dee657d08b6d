package io.secio.libp2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.secio.netty.multistream.Multistream;
import io.secio.netty.multistream.MultistreamException;
import io.secio.netty.negotiation.NegotiatedStreams;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A stream's multistream-select that fails ends at {@link NegotiatedStreams#SINK} (a {@code StageSink}), with the stream closed,
 * and nothing reaches Netty's tail (an {@link EmbeddedChannel} rethrows what does); once the protocol
 * is agreed, the sink passes exceptions on.
 */
class NegotiationSinkTest {
  private static EmbeddedChannel responderStream() {
    return new EmbeddedChannel(Multistream.responder().protocol("/echo/1.0.0", () -> null).build(),
        NegotiatedStreams.SINK);
  }

  /** A multistream-select message: uvarint length, then the line. */
  private static ByteBuf message(String line) {
    byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
    return Unpooled.buffer().writeByte(bytes.length).writeBytes(bytes);
  }

  @Test
  void aMessageThatBreaksTheNegotiationClosesTheStreamAndStopsAtTheSink() {
    EmbeddedChannel stream = responderStream();
    stream.writeInbound(Unpooled.wrappedBuffer(new byte[] {5, 'h', 'e', 'l', 'l', 'o'}));
    stream.checkException();
    assertFalse(stream.isActive());
    assertFalse(Multistream.negotiationFuture(stream).isSuccess());
    stream.finishAndReleaseAll();
  }

  @Test
  void aStreamClosedDuringTheNegotiationStopsAtTheSink() {
    EmbeddedChannel stream = responderStream();
    stream.writeInbound(message("/multistream/1.0.0"));
    stream.close();
    stream.checkException();
    assertTrue(Multistream.negotiationFuture(stream).isDone());
    assertFalse(Multistream.negotiationFuture(stream).isSuccess());
    stream.finishAndReleaseAll();
  }

  @Test
  void afterTheAgreementExceptionsPassOn() {
    EmbeddedChannel stream = responderStream();
    stream.writeInbound(message("/multistream/1.0.0"), message("/echo/1.0.0"));
    assertEquals("/echo/1.0.0", Multistream.negotiationFuture(stream).getNow().name());
    stream.pipeline().fireExceptionCaught(new IllegalStateException("the protocol's own"));
    assertThrows(IllegalStateException.class, stream::checkException);
    assertTrue(stream.isActive());
    stream.finishAndReleaseAll();
  }
}
