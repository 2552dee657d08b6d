package io.secio.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.secio.Dialect;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.handshake.HandshakeEngine;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.netty.Transports;
import io.secio.protocol.SecioException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example programs, run in this process over loopback as their {@code main}s run them. */
class ExamplesTest {
  private static final long WAIT_SECONDS = 300;
  private static final Transports TRANSPORT = Transports.best();
  private static EventLoopGroup group;

  @TempDir
  Path dir;

  @BeforeAll
  static void startLoops() {
    group = TRANSPORT.newEventLoopGroup(2);
  }

  @AfterAll
  static void stopLoops() {
    group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
  }

  private static SecioConfig config() {
    // The handshake timeout is a hang guard too: a busy machine must not fail the test.
    return SecioConfig.builder(IdentityKeyPair.generate(KeyType.ED25519, new SecureRandom()))
        .handshakeTimeout(Duration.ofSeconds(WAIT_SECONDS)).build();
  }

  private static int port(Channel server) {
    return ((InetSocketAddress) server.localAddress()).getPort();
  }

  @Test
  void echoClientGetsItsMessageBackFromTheEchoServer() throws Exception {
    SecioConfig serverConfig = config();
    Channel server = EchoServer.start(group, TRANSPORT, serverConfig, 0);
    try {
      EchoClient.Echoed echoed = EchoClient.echo(group, TRANSPORT, "127.0.0.1", port(server),
          serverConfig.localPeerId(), "hello, secio ✓");
      assertEquals("hello, secio ✓", echoed.reply());
      assertEquals(serverConfig.localPeerId(), echoed.session().remotePeerId());
      assertTrue(echoed.session().cipher().isAead(), echoed.session()::toString);
    } finally {
      assertTrue(server.close().await(WAIT_SECONDS, TimeUnit.SECONDS));
    }
  }

  @Test
  void echoClientRefusesAServerWithAnotherKey() throws Exception {
    Channel server = EchoServer.start(group, TRANSPORT, config(), 0);
    try {
      PeerId someoneElse = config().localPeerId();
      SecioException e = assertThrows(SecioException.class,
          () -> EchoClient.echo(group, TRANSPORT, "127.0.0.1", port(server), someoneElse, "hi"));
      assertEquals(SecioException.Reason.PEER_ID_MISMATCH, e.reason());
    } finally {
      assertTrue(server.close().await(WAIT_SECONDS, TimeUnit.SECONDS));
    }
  }

  @Test
  void chatLinesReachTheOtherPeerBothWaysAndAThirdPeerIsTurnedAway() throws Exception {
    SecioConfig listenerConfig = config();
    BlockingQueue<String> listenerSaw = new LinkedBlockingQueue<>();
    BlockingQueue<String> dialerSaw = new LinkedBlockingQueue<>();
    CompletableFuture<Channel> first = new CompletableFuture<>();
    Channel server = Chat.listen(group, TRANSPORT, listenerConfig, 0, listenerSaw::add, first);
    try {
      Channel dialer = Chat.dial(group, TRANSPORT, config(), "127.0.0.1", port(server),
          listenerConfig.localPeerId(), dialerSaw::add);
      Chat.say(dialer, "hello from the dialer");
      Channel listenerSide = first.get(WAIT_SECONDS, TimeUnit.SECONDS);
      Chat.say(listenerSide, "hello back");
      assertEquals("hello from the dialer", listenerSaw.poll(WAIT_SECONDS, TimeUnit.SECONDS));
      assertEquals("hello back", dialerSaw.poll(WAIT_SECONDS, TimeUnit.SECONDS));

      Channel third = Chat.dial(group, TRANSPORT, config(), "127.0.0.1", port(server),
          listenerConfig.localPeerId(), line -> { });
      assertTrue(third.closeFuture().await(WAIT_SECONDS, TimeUnit.SECONDS), "a third peer is closed");
      assertTrue(dialer.isActive(), "the first peer stays");
      assertTrue(dialer.close().await(WAIT_SECONDS, TimeUnit.SECONDS));
    } finally {
      assertTrue(server.close().await(WAIT_SECONDS, TimeUnit.SECONDS));
    }
  }

  @Test
  void aFileArrivesIntactAndBothSidesAgreeOnItsChecksum() throws Exception {
    byte[] content = new byte[1_500_000];
    new Random(5).nextBytes(content);
    Path original = Files.write(dir.resolve("original.bin"), content);
    Path copy = dir.resolve("copy.bin");
    SecioConfig receiverConfig = config();
    CompletableFuture<byte[]> received = new CompletableFuture<>();
    Channel server = FileTransfer.receive(group, TRANSPORT, receiverConfig, 0, copy, received);
    long[] lastProgress = {0};

    byte[] sent = FileTransfer.send(group, TRANSPORT, config(), "127.0.0.1", port(server),
        receiverConfig.localPeerId(), original, progress -> lastProgress[0] = progress)
        .get(WAIT_SECONDS, TimeUnit.SECONDS);

    byte[] expected = MessageDigest.getInstance("SHA-256").digest(content);
    assertArrayEquals(expected, sent);
    assertArrayEquals(expected, received.get(WAIT_SECONDS, TimeUnit.SECONDS));
    assertArrayEquals(content, Files.readAllBytes(copy));
    assertEquals(content.length, lastProgress[0], "progress reached the whole file");
    assertTrue(server.closeFuture().await(WAIT_SECONDS, TimeUnit.SECONDS), "the receiver stops after one file");
  }

  @Test
  void theAllowListServerServesListedPeersAndRefusesOthers() throws Exception {
    IdentityKeyPair serverKey = IdentityKeyPair.generate(KeyType.ED25519, new SecureRandom());
    PeerId serverId = Dialect.LIBP2P.peerId(serverKey.publicKey());
    SecioConfig friend = config();
    SecioConfig stranger = config();
    BlockingQueue<String> log = new LinkedBlockingQueue<>();
    Channel server = AllowListServer.start(group, TRANSPORT, serverKey, 0, List.of(friend.localPeerId()), log::add);
    try {
      EchoClient.Echoed echoed = EchoClient.echo(group, TRANSPORT, friend, "127.0.0.1", port(server), serverId, "hi");
      assertEquals("hi", echoed.reply());
      assertEquals(serverId, echoed.session().remotePeerId());
      assertEquals("served " + friend.localPeerId(), log.poll(WAIT_SECONDS, TimeUnit.SECONDS));

      SecioException e = assertThrows(SecioException.class,
          () -> EchoClient.echo(group, TRANSPORT, stranger, "127.0.0.1", port(server), serverId, "hi"));
      assertEquals(SecioException.Reason.CLOSED, e.reason(), "the server hangs up on a stranger");
      String refused = log.poll(WAIT_SECONDS, TimeUnit.SECONDS);
      assertTrue(refused != null && refused.startsWith("failed ") && refused.endsWith(": PEER_REFUSED"), refused);
    } finally {
      assertTrue(server.close().await(WAIT_SECONDS, TimeUnit.SECONDS));
    }
  }

  @Test
  void secioIsAddedAfterAPlaintextNegotiationAndCarriesTheApplication() throws Exception {
    SecioAfterNegotiation.Outcome outcome =
        SecioAfterNegotiation.run(group, TRANSPORT, SecioAfterNegotiation.PROTOCOL, "after the negotiation");
    assertEquals("AFTER THE NEGOTIATION", outcome.answer());
    assertTrue(outcome.session().cipher().isAead(), outcome.session()::toString);
  }

  @Test
  void aProtocolTheListenerDoesNotSpeakIsTurnedDownBeforeSecio() {
    ExecutionException e = assertThrows(ExecutionException.class,
        () -> SecioAfterNegotiation.run(group, TRANSPORT, "/plaintext/1.0.0", "never sent"));
    assertTrue(String.valueOf(e.getCause()).contains("does not speak /plaintext/1.0.0"), String.valueOf(e.getCause()));
  }

  @Test
  void theInMemoryDemoRunsAHandshakeWithoutSockets() throws Exception {
    SecioConfig alice = config();
    SecioConfig bob = config();
    SecioSession[] sessions = InMemoryDemo.handshake(HandshakeEngine.create(alice), HandshakeEngine.create(bob));
    assertEquals(bob.localPeerId(), sessions[0].remotePeerId());
    assertEquals(alice.localPeerId(), sessions[1].remotePeerId());
    assertEquals(sessions[0].cipher(), sessions[1].cipher());
  }

  @Test
  void anExistingPipelineWorksUnchangedWithSecioInserted() throws Exception {
    ExistingPipeline.Outcome outcome = ExistingPipeline.run(group, TRANSPORT, "hello, pipeline");
    assertEquals("HELLO, PIPELINE", outcome.answer());
    // The counter before secio saw the handshake and a sealed frame, not the 16 plaintext bytes.
    assertTrue(outcome.wireBytesSent() > 16 + 200, "wire bytes sent: " + outcome.wireBytesSent());
    assertTrue(outcome.wireBytesReceived() > 16 + 200, "wire bytes received: " + outcome.wireBytesReceived());
  }

  @Test
  void theMicrometerObserverCountsHandshakesAndBytes() throws Exception {
    io.micrometer.core.instrument.simple.SimpleMeterRegistry registry =
        new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
    MicrometerObserver.run(registry, "hello, meters");
    assertEquals(2.0, registry.counter("secio.handshakes", "outcome", "success", "reason", "none").count(),
        "one handshake on each side");
    // 13 bytes sealed each way: the client's message and the server's echo.
    assertEquals(26.0, registry.find("secio.bytes").tag("direction", "sealed").counter().count());
    assertEquals(26.0, registry.find("secio.bytes").tag("direction", "opened").counter().count());
    assertEquals(2, registry.find("secio.handshake").tag("outcome", "success").timer().count());
  }

  @Test
  void theTentacleQuickStartEchoesOverTheVersionTheServerChose() throws Exception {
    String line = TentacleQuickStart.run();
    assertTrue(line.matches("hello over /test/echo version 2 from Qm\\w+"), line);
  }

  @Test
  void tentacleOverWebSocketEchoesOnBothListenersAndBothTransports() throws Exception {
    assertEquals(List.of("tcp to the one port: hello over /test/echo version 2 over TCP",
        "ws to the one port: hello over /test/echo version 2 over WebSocket",
        "ws to the ws port: hello over /test/echo version 2 over WebSocket"), TentacleOverWebSocket.run());
  }
}
