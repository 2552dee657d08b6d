package io.secio.ckb.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.ckb.Ckb;
import io.secio.ckb.CkbConfig;
import io.secio.ckb.CkbEvent;
import io.secio.ckb.CkbSession;
import io.secio.ckb.lightclient.LightClientCodec;
import io.secio.ckb.lightclient.LightClientMessage;
import io.secio.ckb.protocol.CkbException;
import io.secio.ckb.protocol.CkbNetwork;
import io.secio.ckb.protocol.IdentifyFlags;
import io.secio.ckb.protocol.IdentifyRecord;
import io.secio.ckb.protocol.Node;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.multiaddr.Multiaddr;
import io.secio.netty.Transports;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.websocket.WebSocket;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real CKB light client (npm {@code @nervosnetwork/ckb-light-client-js} 0.5.4 in headless
 * Chromium) keeps a session with each of our listeners until its own 60 s {@code GetLastState}
 * deadline. One client dials two listeners at once, both over WebSocket: a WebSocket-only one
 * ({@code WebSocket.server}) and the one-port listener ({@code WebSocket.serverOrTcp}), which a Java
 * dialer also reaches over TCP meanwhile. One browser for both keeps the suite's time down: the
 * client's start takes 10 to 40 s on two cores, and each session a minute.
 *
 * <p>Proven per listener, from both sides: WebSocket, secio (X25519, ChaCha20-Poly1305), yamux,
 * protocol-select; Identify accepted both ways (our record of the client; the client opening its
 * protocols, which it does only for a peer whose flags it requires, and its {@code getPeers()} naming
 * us with them; its log has no ban, no flag refusal, no codec error); pings answered both ways (it
 * pings again only once its last Ping was answered with its nonce); the client's GetNodes answered
 * (it adds the node we named); its sync, light client and filter protocols open and still open when
 * it leaves; its GetLastState kept unanswered (this listener holds no chain) until the client ends
 * the session with "reach timeout": the client closed it, not us. The client's log and ours go to
 * {@code target/light-client/} for the record.
 */
class LightClientSessionTest {
  private static final Duration GUARD = Duration.ofMinutes(4);
  private static final String TESTNET_NAME = "/ckb_testnet/10639e08";
  /** Our Pings the client answers before we look at its peers: past its own 30 s ping timeout. */
  private static final long PINGS = 7;
  /** What the client's log must never say of our listeners. */
  private static final List<String> REFUSALS = List.of("Ban ", "banned", "not meeting the requirements",
      "not on the same network", "Codec error", "codec error", "snappy decompress error", "open protocols error",
      "Ping timeout", "ping timeout", "ping failed", "abnormal behavior");
  private static final Pattern PING_ROUND = Pattern.compile("start ping peers: \\{([^}]*)\\}");
  private static EventLoopGroup group;

  @BeforeAll
  static void start() {
    LightClientBrowser.requireInstalled();
    group = Transports.best().newEventLoopGroup(2);
  }

  @AfterAll
  static void stop() {
    group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
  }

  @Test
  void theLightClientKeepsTheWebSocketAndTheOnePortListenerUntilItsOwnDeadline() throws Exception {
    StringBuilder report = new StringBuilder();
    List<ProcessHandle> spawned = List.of();
    try (ListeningPeer webSocket = new ListeningPeer("WebSocket", group, () -> WebSocket.server("/"));
        ListeningPeer onePort = new ListeningPeer("TCP-or-WebSocket", group, () -> WebSocket.serverOrTcp("/"))) {
      List<ListeningPeer> listeners = List.of(webSocket, onePort);
      LightClientBrowser lc = LightClientBrowser.start(LightClientBrowser.Options
          .testnet(webSocket.webSocketAddress(), onePort.webSocketAddress()).withLogLevel("trace"));
      Map<ListeningPeer, String> sessions = new LinkedHashMap<>();
      try (lc) {
        report.append("LightClient.start(): ").append(lc.awaitStarted().toMillis()).append(" ms\n");
        spawned = lc.processes();
        for (ListeningPeer listener : listeners) {
          sessions.put(listener, identifiedBothWays(lc, listener, report));
        }
        report.append(dialOverTcp(onePort));
        for (ListeningPeer listener : listeners) {
          keptPastPings(lc, listener, sessions.get(listener), report);
        }
        for (ListeningPeer listener : listeners) {
          closedByTheClientAtItsDeadline(lc, listener, sessions.get(listener), report);
        }
        for (LightClientBrowser.LogLine line : lc.log()) {
          for (String refusal : REFUSALS) {
            assertFalse(line.text().contains(refusal), () -> "the client's log: " + line);
          }
        }
        assertEquals(List.of(), lc.errors());
      } finally {
        for (ListeningPeer listener : listeners) {
          report.append("\nthe ").append(listener.kind).append(" listener's first session's events:\n");
          for (ListeningPeer.Heard h : listener.heard()) {
            report.append(String.format("%7.1f s  %s%n", lc.secondsOf(h.nanos()), h.event()));
          }
        }
        report.append("\nthe light client's log (database lines left out):\n");
        for (LightClientBrowser.LogLine line : lc.log()) {
          if (!line.text().contains("storage/db") && !line.text().contains("db-worker")) {
            report.append(String.format("%7.1f s  %s%n", lc.secondsOf(line), line));
          }
        }
        write("session.log", report.toString());
      }
    }
    for (ProcessHandle process : spawned) {
      process.onExit().get(GUARD.toMinutes(), TimeUnit.MINUTES);
    }
    assertTrue(spawned.size() > 2, "the driver and Chromium's processes: " + spawned.size());
  }

  /**
   * The client's session with {@code listener} came over WebSocket, and each side took the other's
   * Identify: ours, since the client opened the protocols it opens only for a peer with its flags.
   *
   * @return the client's name of the session, such as {@code SessionId(1)}
   */
  private static String identifiedBothWays(LightClientBrowser lc, ListeningPeer listener, StringBuilder report)
      throws Exception {
    report.append("listener: ").append(listener.kind).append(' ').append(listener.webSocketAddress()).append('\n');
    CkbSession session = listener.identified.get(GUARD.toMinutes(), TimeUnit.MINUTES);
    assertTrue(WebSocket.isWebSocket(session.connection()), "the light client came over WebSocket");
    SecioSession secio = session.tentacle().secioSession().orElseThrow();
    report.append("  secio: ").append(secio).append('\n');
    assertEquals(ExchangeAlgorithm.X25519, secio.exchange());
    assertEquals(CipherAlgorithm.CHACHA20_POLY1305, secio.cipher());

    // Its Identify, as our side accepted it; what it observed of us is the address it dialed.
    IdentifyRecord record = session.identify();
    report.append("  its Identify: ").append(record).append('\n');
    assertEquals(TESTNET_NAME, record.name());
    assertEquals(IdentifyFlags.DISCOVERY, record.flags());
    String observed = record.observedAddr().toString();
    // tentacle's peer store form (a trailing /ws) when the client dialed it from there rather than as a bootnode
    assertTrue(observed.equals(listener.webSocketAddress()) || observed.equals(listener.webSocketAddress() + "/ws"),
        observed);

    // Ours, as it accepted it: the session its log opens with our address, and its protocols on it.
    String id = sessionId(lc, listener);
    report.append("  its session: ").append(id).append('\n');
    for (String opened : List.of("SyncProtocol(3).connected peer=", "LightClient(3).connected peer=",
        "FilterProtocol(3).connected peer=", "DisconnectMessageProtocol connected, peer=")) {
      lc.awaitLog(line -> line.contains(opened + id));
    }
    // Its GetLastState reached our silent light-client protocol, and stays unanswered.
    byte[] getLastState = listener.lightClientMessages.poll(GUARD.toMinutes(), TimeUnit.MINUTES);
    assertNotNull(getLastState, "the client asked for our last state");
    assertEquals(new LightClientMessage.GetLastState(true), LightClientCodec.decode(getLastState));
    return id;
  }

  /** A Java dialer over TCP to the one-port listener, while the light client's WebSocket session runs. */
  private static String dialOverTcp(ListeningPeer listener) throws Exception {
    SecioConfig secio = SecioConfig.builder(IdentityKeyPair.generate(KeyType.SECP256K1, new SecureRandom()))
        .dialect(Dialect.TENTACLE).build();
    CkbConfig config = CkbConfig.builder(CkbNetwork.TESTNET).build();
    Multiaddr address = Multiaddr.parse("/ip4/127.0.0.1/tcp/" + listener.port() + "/p2p/" + listener.peerId());
    Channel ch = new Bootstrap().group(group).channel(Transports.best().channelClass())
        .handler(Ckb.client(secio, config, address))
        .connect("127.0.0.1", listener.port()).sync().channel();
    CkbSession overTcp = Ckb.sessionFuture(ch).get(GUARD.toMinutes(), TimeUnit.MINUTES);
    assertFalse(WebSocket.isWebSocket(overTcp.connection()), "TCP on the one port");
    assertEquals(IdentifyFlags.LIGHT_CLIENT_REQUIRED, overTcp.identify().flags());
    List<Node> nodes = overTcp.nodes().get(GUARD.toMinutes(), TimeUnit.MINUTES);
    assertEquals(List.of(new Node(List.of(listener.knownNode), IdentifyFlags.LIGHT_CLIENT_REQUIRED)), nodes);
    overTcp.disconnect("done").await(GUARD.toMinutes(), TimeUnit.MINUTES);
    return "a Java dialer over TCP to the one-port listener meanwhile: " + overTcp.identify()
        + ", its GetNodes answered: " + nodes + "\n";
  }

  /** Past the client's ping timeout (30 s; it pings every 5 s): it still lists us, with its protocols open. */
  private static void keptPastPings(LightClientBrowser lc, ListeningPeer listener, String id, StringBuilder report)
      throws Exception {
    listener.awaitEvents(CkbEvent.PingAnswered.class, PINGS, GUARD);
    assertFalse(listener.closed.isDone(), () -> listener.kind + " closed early: " + listener.heard());
    JsonObject peer = peer(lc, listener.peerId());
    report.append(listener.kind).append(": its getPeers() entry for us after ").append(PINGS)
        .append(" of our pings: ").append(peer).append('\n');
    List<Integer> protocols = new ArrayList<>();
    peer.getAsJsonArray("protocols")
        .forEach(p -> protocols.add(Integer.decode(p.getAsJsonObject().get("id").getAsString())));
    assertTrue(protocols.containsAll(List.of(0, 1, 2, 4, 100, 120, 121)), protocols::toString);
    assertTrue(peer.get("version").getAsString().startsWith("secio-java"), peer::toString);
  }

  /**
   * The session lasts until the client's own deadline for its GetLastState, the client is the one
   * that closes it, nothing of it closed before, and everything on it was answered.
   */
  private static void closedByTheClientAtItsDeadline(LightClientBrowser lc, ListeningPeer listener, String id,
      StringBuilder report) throws Exception {
    CkbEvent.Closed closed = listener.closed.get(GUARD.toMinutes(), TimeUnit.MINUTES);
    report.append(listener.kind).append(": the session closed: ").append(closed.cause()).append('\n');
    assertEquals(CkbException.Reason.CLOSED, closed.cause().reason(), "not closed by us: " + closed.cause());
    assertFalse(closed.cause().isBan());
    LightClientBrowser.LogLine reach = lc.awaitLog(line -> line.contains("peer " + id + ": reach timeout"));
    report.append("  why: ").append(reach).append('\n');
    lc.awaitLog(line -> line.contains("Disconnect peer: " + id + ", message: reach timeout"));
    lc.awaitLog(line -> line.contains("Session(" + id + ") finished, LocalClose"));
    // Until then nothing of it closed: no protocol of the session ended before the client's reason.
    List<LightClientBrowser.LogLine> log = lc.log();
    List<LightClientBrowser.LogLine> before = log.subList(0, log.indexOf(reach));
    for (String ended : List.of("SyncProtocol.disconnected peer=" + id, "LightClient.disconnected peer=" + id,
        "FilterProtocol.disconnected peer=" + id, "DisconnectMessageProtocol disconnected, peer=" + id,
        "closed on session [" + id + "]", "DiscoveryProtocol disconnected, session SessionContext { id: " + id,
        "IdentifyProtocol disconnected, session: SessionContext { id: " + id)) {
      assertTrue(before.stream().noneMatch(line -> line.text().contains(ended)), ended);
      lc.awaitLog(line -> line.contains(ended));
    }

    // Ours answered: its GetNodes (it added the node we named) and its pings; and it answered ours.
    LightClientBrowser.LogLine added = lc.awaitLog(line -> line.contains("Add discovered address:\""
        + listener.knownNode + "\""));
    report.append("  our Nodes, as it took them: ").append(added).append('\n');
    long itsPings = before.stream().filter(line -> pingRoundIncludes(line.text(), id)).count();
    long oursReceived = before.stream().filter(line -> line.text().endsWith("received ping from: " + id)).count();
    long ourPingsAnswered = listener.count(CkbEvent.PingAnswered.class);
    report.append("  its pings: ").append(itsPings).append(", ours it received: ").append(oursReceived)
        .append(", ours answered: ").append(ourPingsAnswered).append('\n');
    assertTrue(itsPings >= PINGS, () -> "the client pinged again and again: " + itsPings);
    assertTrue(oursReceived >= PINGS && ourPingsAnswered >= PINGS, report::toString);
  }

  /** Whether {@code text} is a ping round of the client that pings session {@code id}. */
  private static boolean pingRoundIncludes(String text, String id) {
    Matcher m = PING_ROUND.matcher(text);
    return m.find() && Arrays.asList(m.group(1).split(", ")).contains(id);
  }

  /** The client's name of its session with {@code listener}, such as {@code SessionId(1)}, from its log. */
  private static String sessionId(LightClientBrowser lc, ListeningPeer listener) {
    String opened = lc.awaitLog(line -> line.contains("SessionOpen(SessionId(")
        && line.contains("/tcp/" + listener.port() + "/")).text();
    Matcher m = Pattern.compile("SessionOpen\\((SessionId\\(\\d+\\))").matcher(opened);
    assertTrue(m.find(), opened);
    return m.group(1);
  }

  /** The client's getPeers() entry for {@code id}. */
  private static JsonObject peer(LightClientBrowser lc, String id) throws IOException {
    JsonArray peers = lc.getPeers();
    for (JsonElement p : peers) {
      if (id.equals(p.getAsJsonObject().get("nodeId").getAsString())) {
        return p.getAsJsonObject();
      }
    }
    throw new AssertionError("getPeers() does not list " + id + ": " + peers);
  }

  private static void write(String name, String text) throws IOException {
    Path dir = Paths.get(System.getProperty("basedir", ""), "target", "light-client");
    Files.createDirectories(dir);
    Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
  }
}
