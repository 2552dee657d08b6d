package io.secio.netty.multistream;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.secio.netty.NegotiatedProtocol;
import io.secio.netty.NegotiationCompletionEvent;
import io.secio.netty.multistream.MultistreamException.Reason;
import io.secio.netty.negotiation.NegotiationStage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Runs one multistream-select 1.0.0 negotiation on a channel (built by {@link Multistream}); the
 * start, timeout, queued writes, swap and failure path are the {@link NegotiationStage}'s.
 *
 * <p>When the channel is active it sends its opening (initiator: header and first proposal; responder:
 * header) and then answers the peer's messages through a {@link Negotiation}. On agreement the
 * protocol's handler (if any) takes its place, the application's queued writes go through it, the
 * future completes, a {@link NegotiationCompletionEvent} is fired, and the bytes read past the
 * negotiation reach that handler (the peer's secio Propose often comes in the same read as the
 * protocol's echo). A failure is a {@link MultistreamException} (malformed input, refusal, timeout,
 * close), by the stage's one path: the future, the event, {@code exceptionCaught}, the close.
 *
 * <p>Not sharable; all methods run on the channel's event loop.
 */
final class MultistreamHandler extends NegotiationStage {
  private final Negotiation negotiation;
  private final Map<String, Supplier<? extends ChannelHandler>> handlers;
  private final Duration timeout;
  private ByteBuf cumulation;

  MultistreamHandler(Negotiation negotiation, Map<String, Supplier<? extends ChannelHandler>> handlers,
      Duration timeout) {
    super(timeout);
    this.negotiation = negotiation;
    this.handlers = handlers;
    this.timeout = timeout;
  }

  @Override
  protected void onStart() {
    ByteBuf opening = context().alloc().buffer();
    negotiation.start(opening);
    send(opening);
  }

  @Override
  protected void onRead(ByteBuf msg) throws MultistreamException {
    cumulation = cumulation == null
        ? msg
        : ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(context().alloc(), cumulation, msg);
    while (!isDone()) {
      String message = MultistreamMessage.decode(cumulation);
      if (message == null) {
        return;
      }
      answer(message);
    }
  }

  private void answer(String message) throws MultistreamException {
    ByteBuf out = context().alloc().buffer();
    try {
      negotiation.receive(message, out);
    } catch (MultistreamException | RuntimeException e) {
      out.release();
      throw e;
    }
    send(out);
    String protocol = negotiation.agreed();
    if (protocol != null) {
      Supplier<? extends ChannelHandler> next = handlers.get(protocol);
      ChannelHandler handler = next == null ? null : next.get();
      ByteBuf rest = cumulation;
      cumulation = null;
      List<ByteBuf> readPast = List.of();
      if (rest.isReadable()) {
        readPast = List.of(rest);
      } else {
        rest.release();
      }
      agree(NegotiatedProtocol.of(protocol), handler, readPast);
    }
  }

  @Override
  protected void releaseOnFailure(Throwable cause) {
    if (cumulation != null) {
      cumulation.release();
      cumulation = null;
    }
  }

  @Override
  protected Throwable timeoutFailure() {
    return new MultistreamException(Reason.TIMEOUT, "after " + timeout);
  }

  @Override
  protected Throwable closedFailure(String why, Throwable cause) {
    return new MultistreamException(Reason.CLOSED, why, cause);
  }
}
