package io.secio.netty.multistream;

import io.netty.buffer.ByteBuf;
import io.secio.PeerText;
import io.secio.netty.multistream.MultistreamException.Reason;
import java.util.List;

/**
 * One side of a multistream-select 1.0.0 dialogue without I/O: it is fed the peer's messages, writes
 * its answers into the buffer it is given, and says which protocol was agreed. Not thread-safe.
 */
abstract class Negotiation {
  private boolean headerReceived;
  private String agreed;

  /** The initiator: proposes {@code protocols} in order, each after the previous one was refused. */
  static Negotiation initiator(List<String> protocols) {
    return new Initiator(protocols);
  }

  /** The responder: accepts the first proposal in {@code protocols}, answers at most {@code maxProposals}. */
  static Negotiation responder(List<String> protocols, int maxProposals) {
    return new Responder(protocols, maxProposals);
  }

  /** Writes what this side sends before it has heard anything. */
  abstract void start(ByteBuf out);

  /** Takes the peer's next message and writes the answer, if any. */
  final void receive(String message, ByteBuf out) throws MultistreamException {
    if (agreed != null) {
      throw new IllegalStateException("already agreed on " + agreed);
    }
    if (!headerReceived) {
      if (!message.equals(MultistreamMessage.HEADER)) {
        throw new MultistreamException(Reason.WRONG_HEADER, quoted(message));
      }
      headerReceived = true;
      return;
    }
    afterHeader(message, out);
  }

  abstract void afterHeader(String message, ByteBuf out) throws MultistreamException;

  /** The agreed protocol, or {@code null} while the negotiation goes on. */
  final String agreed() {
    return agreed;
  }

  final void agree(String protocol) {
    agreed = protocol;
  }

  /** A peer's message for an error text: escaped and bounded (docs/PROTOCOL.md section 12), shown as data. */
  static String quoted(String message) {
    return '"' + PeerText.escape(message) + '"';
  }

  private static final class Initiator extends Negotiation {
    private final List<String> protocols;
    private int proposed;

    Initiator(List<String> protocols) {
      this.protocols = protocols;
    }

    @Override
    void start(ByteBuf out) {
      // Header and first choice together, as go and js send them: one round trip when accepted.
      MultistreamMessage.encode(MultistreamMessage.HEADER, out);
      MultistreamMessage.encode(protocols.get(0), out);
    }

    @Override
    void afterHeader(String message, ByteBuf out) throws MultistreamException {
      String proposal = protocols.get(proposed);
      if (message.equals(proposal)) {
        agree(proposal);
      } else if (message.equals(MultistreamMessage.NA)) {
        if (++proposed == protocols.size()) {
          throw new MultistreamException(Reason.NO_COMMON_PROTOCOL, "refused " + protocols);
        }
        MultistreamMessage.encode(protocols.get(proposed), out);
      } else {
        throw new MultistreamException(Reason.UNEXPECTED_MESSAGE,
            quoted(message) + " in answer to " + quoted(proposal));
      }
    }
  }

  private static final class Responder extends Negotiation {
    private final List<String> protocols;
    private final int maxProposals;
    private int proposals;

    Responder(List<String> protocols, int maxProposals) {
      this.protocols = protocols;
      this.maxProposals = maxProposals;
    }

    @Override
    void start(ByteBuf out) {
      MultistreamMessage.encode(MultistreamMessage.HEADER, out);
    }

    @Override
    void afterHeader(String message, ByteBuf out) throws MultistreamException {
      if (++proposals > maxProposals) {
        throw new MultistreamException(Reason.TOO_MANY_PROPOSALS, "more than " + maxProposals);
      }
      if (message.equals(MultistreamMessage.LS)) {
        MultistreamMessage.encodeList(protocols, out);
      } else if (protocols.contains(message)) {
        MultistreamMessage.encode(message, out);
        agree(message);
      } else {
        MultistreamMessage.encode(MultistreamMessage.NA, out);
      }
    }
  }
}
