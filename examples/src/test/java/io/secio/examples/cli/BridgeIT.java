package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.secio.SecioConfig;
import io.secio.SecioMode;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.netty.Secio;
import io.secio.testsupport.ChildProcess;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code secio bridge} between v0.1-only and v0.2 diallers and an upstream that speaks only v0.2:
 * every process is the jar, started as a user would ({@code BridgeDialectsIT} adds tentacle dialers
 * and a tentacle upstream). One upstream and bridge serve the tests that
 * leave them running; the others start their own.
 */
class BridgeIT {
  @RegisterExtension
  static final Processes SHARED = Processes.perClass();

  @RegisterExtension
  final Processes processes = new Processes();

  private static Path keys;
  private static Keys.Key upstreamKey;
  private static Keys.Key bridgeKey;
  private static ChildProcess upstream;
  private static ChildProcess bridge;
  private static String bridgeAddress;

  /** An upstream listener that speaks only v0.2, and a bridge in front of it. */
  record Pair(ChildProcess upstream, ChildProcess bridge, String bridgeAddress) {}

  @BeforeAll
  static void startUpstreamAndBridge() throws Exception {
    keys = Files.createTempDirectory("secio-bridge-it");
    upstreamKey = Keys.write(keys, KeyType.ED25519);
    bridgeKey = Keys.write(keys, KeyType.SECP256K1);
    Pair pair = startPair(SHARED);
    upstream = pair.upstream();
    bridge = pair.bridge();
    bridgeAddress = pair.bridgeAddress();
  }

  private static Pair startPair(Processes processes) throws Exception {
    ChildProcess upstream = processes.secio(
        "listen", "--port", "0", "--mode", "v0.2", "--echo", "--key", upstreamKey.path());
    String upstreamAddress = upstream.awaitOut("listening (\\S+) " + upstreamKey.peerId()).group(1);
    ChildProcess bridge = processes.secio("bridge", "--listen", "0", "--to", upstreamAddress,
        "--expect-peer", upstreamKey.peerId(), "--key", bridgeKey.path());
    // The bridge's secp256k1 key also answers tentacle dialers, who know it by its tentacle id.
    String address = bridge.awaitOut("listening (127\\.0\\.0\\.1:\\d+) " + bridgeKey.peerId() + " tentacle=Qm\\S+")
        .group(1);
    return new Pair(upstream, bridge, address);
  }

  @AfterAll
  static void deleteKeys() throws Exception {
    for (Path file : Files.list(keys).toList()) {
      Files.delete(file);
    }
    Files.delete(keys);
  }

  @Test
  void v01DiallerReachesTheV02UpstreamThroughTheBridge() throws Exception {
    Keys.Key client = Keys.write(keys, KeyType.ED25519);
    ChildProcess dial = processes.secio("dial", bridgeAddress, "--mode", "v0.1", "--key", client.path(),
        "--expect-peer", bridgeKey.peerId(), "--send-bytes", "1000000");

    dial.awaitOut("secured " + bridgeKey.peerId() + " exchange=P-256 cipher=AES-256 hash=SHA256 version=v0\\.1");
    dial.awaitOut("echoed 1000000 bytes in \\d+ ms .*");
    assertEquals(0, dial.awaitExit(), dial::toString);
    bridge.awaitOut("secured " + client.peerId() + " .* cipher=AES-256 .* version=v0\\.1");
    bridge.awaitOut("upstream " + upstreamKey.peerId() + " .* cipher=AES-128-GCM .* version=v0\\.2 for "
        + client.peerId());
    // The upstream sees the bridge, under the bridge's own v0.2 session, never the v0.1 client.
    upstream.awaitOut("secured " + bridgeKey.peerId() + " .* version=v0\\.2");
    assertTrue(upstream.outLines().stream().noneMatch(l -> l.contains(client.peerId())), upstream::toString);
    bridge.awaitOut("closed " + client.peerId());
  }

  @Test
  void v02DiallerIsBridgedToo() throws Exception {
    ChildProcess dial = processes.secio("dial", bridgeAddress, "--mode", "v0.2", "--send-bytes", "100000");
    dial.awaitOut("secured " + bridgeKey.peerId() + " .* version=v0\\.2");
    assertEquals(0, dial.awaitExit(), dial::toString);
    dial.awaitOut("echoed 100000 bytes .*");
  }

  @Test
  void clientClosingClosesTheUpstreamSide() throws Exception {
    ChildProcess dial = processes.secio("dial", bridgeAddress, "--mode", "v0.1");
    dial.awaitErr("secured " + bridgeKey.peerId() + " .*");
    String clientId = bridge.awaitOut("upstream \\S+ .* for (\\S+)").group(1);
    dial.close();
    // Printed once both the client's connection and its upstream connection are closed.
    bridge.awaitOut("closed " + clientId);
  }

  @Test
  void upstreamClosingClosesTheClientSide() throws Exception {
    Pair own = startPair(processes);
    ChildProcess dial = processes.secio("dial", own.bridgeAddress(), "--mode", "v0.1");
    dial.awaitErr("secured " + bridgeKey.peerId() + " .*");
    String clientId = own.bridge().awaitOut("upstream \\S+ .* for (\\S+)").group(1);

    own.upstream().close(); // the upstream goes away while the client is idle
    assertEquals(0, dial.awaitExit(), "the client was disconnected: " + dial);
    own.bridge().awaitOut("closed " + clientId);
  }

  @Test
  void unreachableUpstreamFailsTheClientConnection() throws Exception {
    ChildProcess lonely = processes.secio("bridge", "--listen", "127.0.0.1:0", "--to", "127.0.0.1:1");
    String address = lonely.awaitOut("listening (\\S+) \\S+ tentacle=\\S+").group(1);
    ChildProcess dial = processes.secio("dial", address, "--mode", "v0.1", "--send-bytes", "10");
    assertEquals(SecioCli.EXIT_FAILURE, dial.awaitExit(), dial::toString);
    // Closed by the bridge before the echo: a reset if the bridge had not read the 10 bytes yet.
    dial.awaitErr("failed " + address + " (connection closed after 0 of 10 echoed bytes|connection reset by peer)");
    lonely.awaitOut("failed 127\\.0\\.0\\.1:1 connection refused");
    // A second client, whose line comes after the first connection's teardown: which printed nothing more.
    ChildProcess again = processes.secio("dial", address, "--mode", "v0.1", "--send-bytes", "10");
    assertEquals(SecioCli.EXIT_FAILURE, again.awaitExit(), again::toString);
    lonely.awaitOut("failed 127\\.0\\.0\\.1:1 connection refused");
    assertEquals(List.of(), lonely.errLines(), lonely::toString);
  }

  @Test
  void aClientThatLeavesDuringTheUpstreamHandshakeIsNamedAsTheOneThatLeft() throws Exception {
    try (SilentUpstream silent = new SilentUpstream()) {
      ChildProcess lonely = processes.secio("bridge", "--listen", "0", "--to", silent.address());
      String address = lonely.awaitOut("listening (\\S+) \\S+ tentacle=\\S+").group(1);
      EventLoopGroup group = new NioEventLoopGroup(1);
      try {
        Channel client = securedClient(group, address);
        silent.accepted(); // the bridge's upstream handshake has begun, and waits
        // The client goes with a reset, as one does that closes with the bridge's bytes unread.
        client.config().setOption(ChannelOption.SO_LINGER, 0);
        int clientPort = ((InetSocketAddress) client.localAddress()).getPort();
        client.close().sync();
        lonely.awaitOut("failed 127\\.0\\.0\\.1:" + clientPort + " the client left during the upstream handshake");
      } finally {
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
      }
      assertTrue(lonely.outLines().stream().noneMatch(l -> l.startsWith("failed " + silent.address())),
          lonely::toString);

      // The other way round: the upstream hangs up during its handshake, and is named.
      ChildProcess dial = processes.secio("dial", address, "--mode", "v0.1");
      dial.awaitErr("secured .*");
      silent.accepted().close();
      lonely.awaitOut("failed " + Pattern.quote(silent.address()) + " connection closed during handshake");
      assertEquals(0, dial.awaitExit(), "the client was disconnected: " + dial);
    }
  }

  /** A v0.1 client's channel to {@code address}, its handshake done. */
  private static Channel securedClient(EventLoopGroup group, String address) throws Exception {
    SecioConfig config = SecioConfig.builder(IdentityKeyPair.generate(KeyType.ED25519, new SecureRandom()))
        .mode(SecioMode.V0_1_ONLY).handshakeTimeout(ChildProcess.WAIT).build();
    HostPort target = HostPort.parse(address, null);
    Channel channel = new Bootstrap().group(group).channel(NioSocketChannel.class)
        .handler(Secio.client(config))
        .connect(target.host(), target.port()).sync().channel();
    Secio.handshakeFuture(channel).get(ChildProcess.WAIT.toSeconds(), TimeUnit.SECONDS);
    return channel;
  }

  /** A TCP listener that accepts and never says a word: an upstream whose handshake never ends. */
  private static final class SilentUpstream implements AutoCloseable {
    private final ServerSocket server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
    private final List<Socket> accepted = new ArrayList<>();

    SilentUpstream() throws IOException {
      server.setSoTimeout((int) ChildProcess.WAIT.toMillis());
    }

    String address() {
      return "127.0.0.1:" + server.getLocalPort();
    }

    /** The next connection the bridge made. */
    Socket accepted() throws IOException {
      Socket socket = server.accept();
      accepted.add(socket);
      return socket;
    }

    @Override
    public void close() throws IOException {
      for (Socket socket : accepted) {
        socket.close();
      }
      server.close();
    }
  }
}
