package io.secio.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.secio.PeerText;
import io.secio.protocol.SecioException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Tells apart the first bytes of protocols that a secio endpoint meets by mistake, which read as a
 * frame header far over the limit: text (an HTTP or SSH server, SMTP, ...), a TLS record, and
 * multistream-select's header (a libp2p node, which negotiates secio first). Only what has arrived
 * is looked at; nothing is waited for. Stateless.
 */
final class OtherProtocols {
  /** How many of the peer's first bytes a report shows. */
  static final int SHOWN_BYTES = 32;
  private static final byte[] MULTISTREAM =
      "\u0013/multistream/1.0.0\n".getBytes(StandardCharsets.US_ASCII);
  private static final int TLS_HANDSHAKE_RECORD = 0x16;
  private static final int TLS_MAJOR_VERSION = 0x03;

  private OtherProtocols() {}

  /**
   * A {@link SecioException.Reason#NOT_SECIO} for the bytes at {@code in}'s reader index, if they
   * begin as another protocol's; empty otherwise (garbage stays a message too long).
   */
  static Optional<SecioException> recognised(ByteBuf in) {
    int n = Math.min(in.readableBytes(), SHOWN_BYTES);
    byte[] first = ByteBufUtil.getBytes(in, in.readerIndex(), n);
    String what;
    if (startsLike(first, MULTISTREAM)) {
      what = "it speaks multistream-select, as a libp2p node does: negotiate /secio/1.0.0 first"
          + " (Multistream.secioInitiator or secioResponder)";
    } else if (n >= 3 && (first[0] & 0xff) == TLS_HANDSHAKE_RECORD && first[1] == TLS_MAJOR_VERSION
        && (first[2] & 0xff) <= 0x04) {
      what = "it speaks TLS";
    } else if (isText(first)) {
      what = "its first bytes are text";
    } else {
      return Optional.empty();
    }
    return Optional.of(new SecioException(SecioException.Reason.NOT_SECIO,
        what + ": \"" + PeerText.escape(first) + "\""
            + (in.readableBytes() > n ? " (" + n + " of " + in.readableBytes() + " bytes shown)" : "")));
  }

  /** Whether {@code first} is as much of {@code prefix} as has arrived, at least 4 bytes of it. */
  private static boolean startsLike(byte[] first, byte[] prefix) {
    if (first.length < 4) {
      return false;
    }
    for (int i = 0; i < Math.min(first.length, prefix.length); i++) {
      if (first[i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  /** At least 4 bytes, all printable ASCII, tab, CR or LF. */
  private static boolean isText(byte[] first) {
    if (first.length < 4) {
      return false;
    }
    for (byte b : first) {
      boolean printable = b >= 0x20 && b < 0x7f;
      if (!printable && b != '\t' && b != '\r' && b != '\n') {
        return false;
      }
    }
    return true;
  }
}
