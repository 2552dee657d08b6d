package io.secio.ckb;

import java.util.List;
import java.util.Optional;

/**
 * The protocols a CKB node registers ({@code network/src/protocols/support_protocols.rs}, v0.205.0):
 * the id a node gives it (local; never on the wire), the name and versions protocol-select carries,
 * the longest message (tentacle's length-delimited frame, a longer one is a codec error) and whether
 * the compress codec wraps its messages.
 *
 * <p>Every protocol offers {@code ["3"]}: nodes since v0.203 and the light client accept only "3",
 * and nodes v0.111 to v0.202 offer {@code ["2","3"]} (and {@code 2.1} for discovery), of which
 * tentacle's choice, the highest common version, is "3" too. This side implements identify, ping,
 * discovery, feeler, disconnect message, sync (its minimum) and time; the others are registered only
 * when {@link CkbConfig.Builder#protocol} asks, and otherwise refused as tentacle refuses a protocol it
 * does not know.
 */
public enum CkbProtocol {
  /** Ping: liveness, a nonce answered. */
  PING(0, "/ckb/ping", 1024, false),
  /** Discovery: GetNodes and Nodes. */
  DISCOVERY(1, "/ckb/discovery", 512 * 1024, false),
  /** Identify: network name, flags, client version, addresses. */
  IDENTIFY(2, "/ckb/identify", 2 * 1024, false),
  /** Feeler: no messages; its opening tells the address works. */
  FEELER(3, "/ckb/flr", 1024, false),
  /** Disconnect message: the reason, in raw UTF-8, sent before a close. */
  DISCONNECT_MESSAGE(4, "/ckb/disconnectmsg", 1024, false),
  /** Sync: headers and blocks. */
  SYNC(100, "/ckb/syn", 2 * 1024 * 1024, true),
  /** Relay (version 3 of it): compact blocks and transactions. */
  RELAY(101, "/ckb/relay3", 4 * 1024 * 1024, true),
  /** Time: a node's clock, sent once to an inbound peer. */
  TIME(102, "/ckb/tim", 1024, true),
  /** Alert: signed network alerts. */
  ALERT(110, "/ckb/alt", 128 * 1024, true),
  /** LightClient: last state and proofs for light clients. */
  LIGHT_CLIENT(120, "/ckb/lightclient", 2 * 1024 * 1024, true),
  /** Filter: block filters for light clients (v0.204+ nodes never set its snappy flag). */
  FILTER(121, "/ckb/filter", 2 * 1024 * 1024, true);

  /** The one version offered: {@code "3"}. */
  public static final String VERSION = "3";

  private final int id;
  private final String protocolName;
  private final int maxFrameLength;
  private final boolean compressCodec;

  CkbProtocol(int id, String protocolName, int maxFrameLength, boolean compressCodec) {
    this.id = id;
    this.protocolName = protocolName;
    this.maxFrameLength = maxFrameLength;
    this.compressCodec = compressCodec;
  }

  /** The id a CKB node gives it (its disconnect reasons name it: {@code ProtocolError id=100}). */
  public int id() {
    return id;
  }

  /** The name protocol-select carries, such as {@code /ckb/syn}. */
  public String protocolName() {
    return protocolName;
  }

  /** The versions offered, ascending: {@code ["3"]}. */
  public List<String> versions() {
    return List.of(VERSION);
  }

  /** The longest message, in bytes (with the compress codec, its flag byte counts). */
  public int maxFrameLength() {
    return maxFrameLength;
  }

  /** Whether the compress codec wraps its messages. */
  public boolean hasCompressCodec() {
    return compressCodec;
  }

  /** Whether this side compresses what it writes (the compress codec's protocols but Filter). */
  public boolean compressesWrites() {
    return compressCodec && this != FILTER;
  }

  /** Whether this side implements it (the others are registered only as {@link CkbConfig.Builder#protocol} asks). */
  public boolean isImplemented() {
    return switch (this) {
      case PING, DISCOVERY, IDENTIFY, FEELER, DISCONNECT_MESSAGE, SYNC, TIME -> true;
      case RELAY, ALERT, LIGHT_CLIENT, FILTER -> false;
    };
  }

  /** The protocol of that name. */
  public static Optional<CkbProtocol> ofName(String name) {
    for (CkbProtocol p : values()) {
      if (p.protocolName.equals(name)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }
}
