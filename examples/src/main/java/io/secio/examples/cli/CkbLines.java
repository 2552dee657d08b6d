package io.secio.examples.cli;

import io.secio.PeerText;
import io.secio.ckb.CkbSession;
import io.secio.ckb.IdentifyFlags;
import io.secio.ckb.IdentifyRecord;
import io.secio.ckb.Node;
import java.util.stream.Collectors;

/**
 * The lines {@code secio ckb} prints, in one place so that scripts can parse them: {@code identified
 * PEERID name=.. flags=.. version=".." observed=..}, {@code listen ADDRESS}, {@code node FLAGS
 * ADDRESSES}, {@code goodbye PEERID "text"}, {@code closed PEERID reason}, {@code failed ADDRESS
 * reason}.
 */
final class CkbLines {
  private CkbLines() {}

  static String peer(CkbSession session) {
    return session.remotePeer().map(Object::toString).orElse(String.valueOf(session.connection().remoteAddress()));
  }

  static String identified(CkbSession session) {
    IdentifyRecord r = session.identify();
    return "identified " + peer(session) + " name=" + r.name() + " flags=" + IdentifyFlags.describe(r.flags())
        + " version=\"" + printable(r.clientVersion()) + "\" observed=" + r.observedAddr();
  }

  static String node(Node n) {
    return "node " + IdentifyFlags.describe(n.flags()) + " "
        + n.addresses().stream().map(Object::toString).collect(Collectors.joining(" "));
  }

  static String goodbye(CkbSession session, String text) {
    return "goodbye " + peer(session) + " \"" + printable(text) + "\"";
  }

  static String closed(CkbSession session, Throwable cause) {
    return "closed " + peer(session) + " " + Report.reason(cause);
  }

  static String failed(Object address, Throwable cause) {
    return "failed " + address + " " + Report.reason(cause);
  }

  /** A peer's text, escaped and bounded as every peer text this tool prints. */
  static String printable(String text) {
    return PeerText.escape(text);
  }
}
