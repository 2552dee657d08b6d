package io.secio.examples.cli;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.secio.netty.NegotiationCompletionEvent;
import io.secio.netty.SecioHandshakeCompletionEvent;
import java.io.PrintStream;

/**
 * Prints one line per connection when its handshake ends: {@code secured PEERID exchange=.. cipher=..
 * hash=.. version=..} or {@code failed ADDRESS reason} (also when a multistream-select negotiation in
 * front of secio, or of a libp2p muxer after it, fails). A failure after the handshake (a frame that
 * does not authenticate, a reset) goes to the error stream as {@code error PEERID reason} and closes
 * the connection; a failed handshake or negotiation, which also fires {@code exceptionCaught}, is
 * reported once, as {@code failed}. Sits last in the pipeline, after the application handler, so that it sees every
 * failure; handshake events reach it before any data reaches the application. Not sharable.
 */
final class SessionReporter extends ChannelInboundHandlerAdapter {
  private final PrintStream out;
  private final PrintStream err;
  private String peer;
  private boolean failureReported;

  SessionReporter(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof SecioHandshakeCompletionEvent) {
      SecioHandshakeCompletionEvent event = (SecioHandshakeCompletionEvent) evt;
      if (event.isSuccess()) {
        peer = event.session().remotePeerId().toBase58();
        out.println(Report.secured(event.session()));
      } else {
        failureReported = true;
        out.println(Report.failed(ctx.channel().remoteAddress(), event.cause()));
      }
    }
    if (Report.failedNegotiation(evt) && !failureReported) {
      // Before secio, a negotiation that failed never reaches it; after it (a libp2p muxer's), the
      // connection ends there too, and a failed handshake fails the muxer's too. Either way the
      // connection gets one failure line.
      failureReported = true;
      out.println(Report.failed(ctx.channel().remoteAddress(), ((NegotiationCompletionEvent) evt).cause()));
    }
    ctx.fireUserEventTriggered(evt);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (failureReported) {
      ctx.close(); // already reported as the handshake's or the negotiation's failure
      return;
    }
    String who = peer != null ? peer : Report.address(ctx.channel().remoteAddress());
    err.println("error " + who + " " + Report.reason(cause));
    ctx.close();
  }
}
