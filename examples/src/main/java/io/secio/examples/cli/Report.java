package io.secio.examples.cli;

import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.timeout.ReadTimeoutException;
import io.secio.Dialect;
import io.secio.PeerId;
import io.secio.PeerText;
import io.secio.SecioSession;
import io.secio.libp2p.IdentifyRecord;
import io.secio.libp2p.Libp2pSession;
import io.secio.multiaddr.Multiaddr;
import io.secio.netty.NegotiationCompletionEvent;
import io.secio.protocol.SecioException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lines the commands print, in one place so that every command words them alike and scripts can
 * parse them: {@code listening HOST:PORT PEERID}, {@code secured PEERID exchange=.. cipher=.. hash=..
 * version=..} (and {@code dialect=tentacle} for a tentacle session), {@code failed ADDRESS reason},
 * {@code echoed N bytes in T ms (X MiB/s)}; for a libp2p connection {@code muxer PEERID PROTOCOL}, {@code ping I time=T ms} and the {@code
 * identify} lines.
 */
public final class Report {
  /** Room for a reason that quotes a peer twice, each quote bounded by {@link PeerText}. */
  private static final int MAX_REASON_CHARS = 4 * PeerText.MAX_SHOWN_CHARS;
  private static final Pattern NATIVE_ERROR = Pattern.compile(".*\\) failed with error\\(-?\\d+\\): (.+)");

  private Report() {}

  static String listening(SocketAddress address, PeerId peer) {
    return "listening " + address(address) + " " + peer;
  }

  /** {@code secured} and the session. */
  static String secured(SecioSession session) {
    return "secured " + session(session);
  }

  /** The remote peer and what was negotiated, named as on the wire. */
  static String session(SecioSession session) {
    return session.remotePeerId()
        + " exchange=" + session.exchange().wireName()
        + " cipher=" + session.cipher().wireName()
        + " hash=" + session.hash().wireName()
        + " version=" + session.version().label()
        + (session.dialect() == Dialect.LIBP2P ? "" : " dialect=" + DialectOption.label(session.dialect()));
  }

  /** {@code muxer PEERID PROTOCOL}: a libp2p connection agreed on its muxer. */
  static String muxer(Libp2pSession session) {
    return "muxer " + session.remotePeer().orElseThrow() + " " + session.muxer().protocolId();
  }

  /** {@code ping I time=T ms}: the {@code i}th ping's round trip, in milliseconds with three decimals. */
  static String ping(int i, Duration roundTrip) {
    return String.format(Locale.ROOT, "ping %d time=%.3f ms", i, roundTrip.toNanos() / 1e6);
  }

  /**
   * A peer's identify record, one line per field ({@code identify peer ID}, {@code identify agent
   * ..}, {@code identify protocol-version ..}, {@code identify protocols ..}, {@code identify
   * listen-addrs ..}, {@code identify observed-addr ..}); lists are space-separated, {@code -} when
   * empty or absent. Everything the peer chose is escaped, each item bounded.
   */
  static List<String> identify(IdentifyRecord record) {
    return List.of(
        "identify peer " + record.peerId(),
        "identify agent " + peerText(record.agentVersion()),
        "identify protocol-version " + peerText(record.protocolVersion()),
        "identify protocols " + peerList(record.protocols()),
        "identify listen-addrs " + peerList(record.listenAddrs().stream().map(Multiaddr::toString).toList()),
        "identify observed-addr " + (record.observedAddr() == null ? "-" : peerText(record.observedAddr().toString())));
  }

  private static String peerText(String text) {
    return text.isEmpty() ? "-" : PeerText.escape(text);
  }

  private static String peerList(List<String> items) {
    // A space inside an item is escaped too, so the list splits back into its items.
    return items.isEmpty() ? "-"
        : String.join(" ", items.stream().map(i -> PeerText.escape(i).replace(" ", "\\x20")).toList());
  }

  /** Whether {@code evt} ends a multistream-select negotiation that failed. */
  static boolean failedNegotiation(Object evt) {
    return evt instanceof NegotiationCompletionEvent negotiation && !negotiation.isSuccess();
  }

  static String failed(SocketAddress address, Throwable cause) {
    return failed(address, reason(cause));
  }

  static String failed(SocketAddress address, String reason) {
    return "failed " + address(address) + " " + reason;
  }

  static String echoed(long bytes, long nanos) {
    return String.format(Locale.ROOT, "echoed %d bytes in %d ms (%s)",
        bytes, nanos / 1_000_000, mibPerSecond(bytes, nanos));
  }

  /** Throughput with one decimal, in MiB/s. */
  static String mibPerSecond(long bytes, long nanos) {
    double seconds = Math.max(nanos, 1) / 1e9;
    return String.format(Locale.ROOT, "%.1f MiB/s", bytes / (1024.0 * 1024.0) / seconds);
  }

  /** {@code host:port}, with brackets around an IPv6 host. */
  static String address(SocketAddress address) {
    if (address instanceof InetSocketAddress) {
      InetSocketAddress inet = (InetSocketAddress) address;
      String host = inet.getAddress() != null ? inet.getAddress().getHostAddress() : inet.getHostString();
      return HostPort.format(host, inet.getPort());
    }
    return String.valueOf(address);
  }

  /**
   * Why something failed, in a few words: a secio failure by its reason's description, a socket
   * failure by what the user would call it, anything else by its message.
   */
  public static String reason(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof SecioException) {
        SecioException.Reason reason = ((SecioException) c).reason();
        if (reason == SecioException.Reason.CONNECTION_FAILED && c.getCause() != null) {
          // The transport's own words say what happened: "connection reset by peer".
          return reason(c.getCause());
        }
        // For a wrong peer the id it presented is what the user needs: "expected A, got B"; for a
        // peer that speaks something else, its first bytes (escaped by the library already).
        return reason == SecioException.Reason.PEER_ID_MISMATCH || reason == SecioException.Reason.NOT_SECIO
            ? PeerText.escape(c.getMessage(), MAX_REASON_CHARS) : reason.description();
      }
    }
    if (t instanceof UnresolvedAddressException || t instanceof UnknownHostException) {
      return "the host does not resolve";
    }
    if (t instanceof ConnectTimeoutException) {
      return "connect timed out";
    }
    if (t instanceof ConnectException) {
      return "connection refused";
    }
    if (t instanceof ClosedChannelException) {
      return "connection closed";
    }
    if (t instanceof ReadTimeoutException) {
      return "no data from the peer for too long";
    }
    String message = t.getMessage();
    if (message == null || message.isBlank()) {
      return t.getClass().getSimpleName();
    }
    // Native transports prefix the system's words with the call: "recvAddress(..) failed with
    // error(-104): Connection reset by peer". The user needs the words.
    Matcher nativeError = NATIVE_ERROR.matcher(message);
    if (nativeError.matches()) {
      message = nativeError.group(1);
    }
    message = message.strip().replaceAll("\\s*\\R\\s*", " ");
    // "Connection reset" reads as a reason; "STREAM_BUFFER_EXCEEDED: .." keeps its name.
    if (t instanceof IOException && message.length() > 1 && Character.isLowerCase(message.charAt(1))) {
      message = Character.toLowerCase(message.charAt(0)) + message.substring(1);
    }
    // A message may quote a peer (escaped by the library already; escaping again changes nothing).
    return PeerText.escape(message, MAX_REASON_CHARS);
  }
}
