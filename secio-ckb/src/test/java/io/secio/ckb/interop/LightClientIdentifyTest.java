package io.secio.ckb.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.util.ReferenceCountUtil;
import io.secio.protocol.CipherAlgorithm;
import io.secio.Dialect;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.molecule.Molecule;
import io.secio.molecule.MoleculeException;
import io.secio.netty.NegotiatedProtocol;
import io.secio.netty.Secio;
import io.secio.netty.Transports;
import io.secio.tentacle.Tentacle;
import io.secio.tentacle.TentacleConfig;
import io.secio.tentacle.TentacleProtocol;
import io.secio.tentacle.TentacleSession;
import io.secio.websocket.WebSocket;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real CKB light client (npm {@code @nervosnetwork/ckb-light-client-js} 0.5.4 in headless
 * Chromium) dials our listener over WebSocket: a WebSocket-only listener, and the one-port listener
 * serving TCP and WebSocket. Proven against it: the WebSocket upgrade, secio in the tentacle dialect
 * (secp256k1 identity; X25519, ChaCha20-Poly1305, SHA256 only, as the client offers), yamux, and the
 * client opening {@code /ckb/identify} and sending a well-formed IdentifyMessage naming the testnet.
 * The listener answers nothing, so the client drops it for identify's timeout (its log says so, and
 * its {@code getPeers()} is empty after); its log from the dial on is written to {@code
 * target/light-client/} for the record. The Chromium and driver processes are gone afterwards.
 */
class LightClientIdentifyTest {
  private static final Duration STARTUP = Duration.ofMinutes(5);
  private static final Duration GUARD = Duration.ofMinutes(3);
  private static final String TESTNET_NAME = "/ckb_testnet/10639e08";
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

  /** Keeps the identify streams' opens and messages. */
  @ChannelHandler.Sharable
  static final class IdentifyRecorder extends ChannelInboundHandlerAdapter {
    final CompletableFuture<NegotiatedProtocol> opened = new CompletableFuture<>();
    final BlockingQueue<byte[]> messages = new LinkedBlockingQueue<>();

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      Tentacle.protocol(ctx.channel()).ifPresent(opened::complete);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      messages.add(ByteBufUtil.getBytes((ByteBuf) msg));
      ReferenceCountUtil.release(msg);
    }
  }

  /** The identify record of an IdentifyMessage, after checking its structure as CKB reads it. */
  record Identify(long flag, String name, String clientVersion, int listenAddresses, byte[] observed) {}

  static Identify parse(byte[] message) throws MoleculeException {
    // IdentifyMessage (compatible: extra fields allowed) { listen_addrs: AddressVec, observed_addr: Address, identify: Bytes }
    byte[][] outer = Molecule.tableFields(message, 3, "IdentifyMessage");
    byte[][] addresses = Molecule.dynvecItems(outer[0], "listen_addrs");
    for (byte[] address : addresses) {
      Molecule.fixvecBody(Molecule.tableFields(address, 1, "Address")[0], "Address.bytes");
    }
    byte[] observed = Molecule.fixvecBody(Molecule.tableFields(outer[1], 1, "Address")[0], "Address.bytes");
    byte[] identify = Molecule.fixvecBody(outer[2], "identify");
    // Identify (strict: exactly three fields) { flag: Uint64, name: Bytes, client_version: Bytes }
    byte[][] inner = Molecule.tableFields(identify, 3, "Identify");
    if (Molecule.u32(identify, 4) != 4 * 4) {
      throw new MoleculeException("Identify has more than three fields");
    }
    if (inner[0].length != 8) {
      throw new MoleculeException("Identify.flag is not a Uint64");
    }
    long flag = ByteBuffer.wrap(inner[0]).order(ByteOrder.LITTLE_ENDIAN).getLong();
    return new Identify(flag, Molecule.utf8(Molecule.fixvecBody(inner[1], "name"), "name"),
        Molecule.utf8(Molecule.fixvecBody(inner[2], "client_version"), "client_version"), addresses.length, observed);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"WebSocket", "TCP or WebSocket"})
  void theLightClientDialsOverWebSocketAndOpensIdentify(String listenerKind) throws Exception {
    IdentityKeyPair identity = IdentityKeyPair.generate(KeyType.SECP256K1, new SecureRandom());
    SecioConfig secio = SecioConfig.builder(identity).dialect(Dialect.TENTACLE)
        .exchanges(List.of(ExchangeAlgorithm.X25519))
        .ciphers(List.of(CipherAlgorithm.CHACHA20_POLY1305))
        .hashes(List.of(HashAlgorithm.SHA256))
        .build();
    IdentifyRecorder identify = new IdentifyRecorder();
    TentacleConfig tentacle = TentacleConfig.builder()
        .protocol(TentacleProtocol.of("/ckb/identify", List.of("3"), identify))
        .sessionTimeout(Duration.ofMinutes(1))
        .build();
    Supplier<ChannelHandler> transport = listenerKind.equals("WebSocket")
        ? () -> WebSocket.server("/") : () -> WebSocket.serverOrTcp("/");
    BlockingQueue<Channel> accepted = new LinkedBlockingQueue<>();
    Channel listener = new ServerBootstrap().group(group).channel(Transports.best().serverChannelClass())
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(transport.get(), Tentacle.server(secio, tentacle));
            accepted.add(ch);
          }
        })
        .bind("127.0.0.1", 0).syncUninterruptibly().channel();
    String bootnode = "/ip4/127.0.0.1/tcp/" + ((InetSocketAddress) listener.localAddress()).getPort() + "/ws/p2p/"
        + Dialect.TENTACLE.peerId(identity.publicKey()).toBase58();
    StringBuilder report = new StringBuilder("listener: " + listenerKind + ", bootnode " + bootnode + "\n");
    List<ProcessHandle> spawned;
    try (LightClientBrowser lc = LightClientBrowser.start(LightClientBrowser.Options.testnet(bootnode))) {
      Duration startup = lc.awaitStarted(STARTUP);
      spawned = lc.processes();
      report.append("LightClient.start(): ").append(startup.toMillis()).append(" ms\n");

      Channel connection = accepted.poll(GUARD.toMinutes(), TimeUnit.MINUTES);
      assertTrue(connection != null, "the light client dialed");
      SecioSession secioSession = Secio.handshakeFuture(connection).get(GUARD.toMinutes(), TimeUnit.MINUTES);
      assertTrue(WebSocket.isWebSocket(connection) && WebSocket.handshakeFuture(connection).isSuccess(),
          "secio ran over WebSocket");
      report.append("secio: ").append(secioSession).append('\n');
      assertEquals(ExchangeAlgorithm.X25519, secioSession.exchange());
      assertEquals(CipherAlgorithm.CHACHA20_POLY1305, secioSession.cipher());
      TentacleSession session = Tentacle.sessionFuture(connection).get(GUARD.toMinutes(), TimeUnit.MINUTES);

      NegotiatedProtocol opened = identify.opened.get(GUARD.toMinutes(), TimeUnit.MINUTES);
      int fromIdentify = lc.logSize();
      long identifyNanos = System.nanoTime();
      report.append("the client opened ").append(opened.name()).append(" version ").append(opened.version().orElse("none"))
          .append('\n');
      assertEquals(Optional.of("3"), opened.version());
      byte[] message = identify.messages.poll(GUARD.toMinutes(), TimeUnit.MINUTES);
      assertTrue(message != null, "the client sent its IdentifyMessage");
      Identify record = parse(message);
      report.append("its IdentifyMessage (").append(message.length).append(" bytes): ").append(record)
          .append(", observed ").append(HexFormat.of().formatHex(record.observed())).append('\n')
          .append("  hex ").append(HexFormat.of().formatHex(message)).append('\n');
      assertEquals(TESTNET_NAME, record.name());
      assertTrue(record.flag() != 0, "a non-zero flag");

      String ourId = Dialect.TENTACLE.peerId(identity.publicKey()).toBase58();
      lc.awaitLog(line -> line.contains("SessionOpen(") && line.contains(ourId), GUARD);
      // Asked while identify's 8 s run: on a slow machine the answer may come after them, so it is
      // checked for who it names, not for being there.
      JsonArray peers = lc.getPeers(GUARD);
      report.append("getPeers() with identify open: ").append(peers).append('\n');
      assertTrue(peers.size() <= 1, peers::toString);
      peers.forEach(p -> assertEquals(ourId, p.getAsJsonObject().get("nodeId").getAsString()));
      assertTrue(session.hasProtocol("/ckb/identify"));

      // We never answer: the client's identify deadline (8 s) ends the session from its side.
      assertTrue(connection.closeFuture().await(GUARD.toMinutes(), TimeUnit.MINUTES),
          "the client drops a peer that sends no IdentifyMessage");
      double closedAfter = (System.nanoTime() - identifyNanos) / 1e9;
      report.append(String.format("the connection closed %.1f s after identify opened%n", closedAfter));
      LightClientBrowser.LogLine why = lc.awaitLog(fromIdentify,
          line -> line.contains("IdentifyProtocol detects abnormal behavior") && line.contains("reason: Timeout"), GUARD);
      report.append("why it closed: ").append(why).append('\n');
      lc.awaitLog(fromIdentify, line -> line.contains("SessionClose(") && line.contains(ourId), GUARD);
      JsonArray after = lc.getPeers(GUARD);
      report.append("getPeers() after: ").append(after).append('\n');
      assertEquals(0, after.size(), after::toString);
      report.append("\nthe client's log from its dial on (database lines left out):\n");
      int fromDial = lc.log().indexOf(lc.awaitLog(line -> line.contains("Dialing /ip4/127.0.0.1"), GUARD));
      for (LightClientBrowser.LogLine line : lc.log().subList(fromDial, lc.logSize())) {
        if (!line.text().contains("storage/db") && !line.text().contains("db-worker")) {
          report.append(String.format("%7.1f s  %s%n", lc.secondsOf(line), line));
        }
      }
      assertEquals(List.of(), lc.errors());
    } finally {
      listener.close().syncUninterruptibly();
      write(listenerKind, report.toString());
    }
    for (ProcessHandle process : spawned) {
      process.onExit().get(GUARD.toMinutes(), TimeUnit.MINUTES);
    }
    assertTrue(spawned.size() > 2, "the driver and Chromium's processes: " + spawned.size());
  }

  private static void write(String kind, String report) throws IOException {
    Path dir = Paths.get(System.getProperty("basedir", ""), "target", "light-client");
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("identify-" + kind.replace(' ', '-') + ".log"), report, StandardCharsets.UTF_8);
  }
}
