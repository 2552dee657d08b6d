package io.secio.netty.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.Future;
import io.secio.Dialect;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.identity.KeyType;
import io.secio.netty.interop.JavaNode.Accepted;
import io.secio.netty.interop.JavaNode.Client;
import io.secio.netty.interop.JavaNode.EchoServer;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.protocol.ProtocolVersion;
import io.secio.protocol.SecioException;
import io.secio.testing.TestIdentities;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A Java node against the real js-libp2p-secio 0.13.1 peer ({@link JsPeer}) over loopback TCP, with
 * each side dialling the other: every pair of identity types, every v0.1 algorithm forced on both
 * sides with either side preferred, a bridge-mode listener serving js and Java on one port, echoes
 * from 1 byte to 8 MiB, and the expected-peer check on both sides.
 */
class JsInteropTest {
  private static final List<KeyType> KEY_TYPES = List.of(KeyType.ED25519, KeyType.SECP256K1, KeyType.RSA);
  private static final int[] SIZES = {1, 1000, 64 * 1024, 1024 * 1024 + 3, 8 * 1024 * 1024};
  /** Handshakes per direction per forced algorithm: both sides are preferred unless 2^-31 bad luck. */
  private static final int ROUNDS = 16;
  // The Java lists that are not forced run opposite to js's defaults (P-256,P-384,P-521 / AES-256,
  // AES-128 / SHA256,SHA512), so the outcome shows whose proposal was preferred.
  private static final List<ExchangeAlgorithm> JAVA_EXCHANGES = List.of(ExchangeAlgorithm.P_384, ExchangeAlgorithm.P_256);
  private static final List<CipherAlgorithm> JAVA_CIPHERS = List.of(CipherAlgorithm.AES_128_CTR, CipherAlgorithm.AES_256_CTR);
  private static final List<HashAlgorithm> JAVA_HASHES = List.of(HashAlgorithm.SHA512, HashAlgorithm.SHA256);

  private static EventLoopGroup group;
  private static long startNanos;
  private static int startCount;

  @BeforeAll
  static void startJavaSide() {
    group = JavaNode.TRANSPORT.newEventLoopGroup(2);
    startNanos = System.nanoTime();
    startCount = Handshakes.count();
  }

  @BeforeEach
  void requireJsPeer() {
    JsPeer.requireInstalled();
  }

  @AfterAll
  static void stopJavaSide() {
    if (group != null) {
      group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
      System.out.printf("JsInteropTest: %d handshakes with js-libp2p-secio in %.1f s; js secrets with a leading zero byte"
          + " (this JVM so far): %s%n",
          Handshakes.count() - startCount, (System.nanoTime() - startNanos) / 1e9, Handshakes.secretSummary());
    }
  }

  private static String js(KeyType type) {
    return type.name().toLowerCase(Locale.ROOT);
  }

  private static SecioConfig.Builder java(KeyType type) {
    return SecioConfig.builder(TestIdentities.of(type));
  }

  private static byte[] random(int size) {
    byte[] data = new byte[size];
    new Random(size).nextBytes(data);
    return data;
  }

  /** Closes every resource, even when one fails to close. */
  private static void closeAll(List<? extends AutoCloseable> resources) throws Exception {
    Exception first = null;
    for (AutoCloseable r : resources) {
      try {
        r.close();
      } catch (Exception e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  @Test
  void javaDialsJsForEveryPairOfIdentityTypes() throws Exception {
    List<JsPeer> listeners = new ArrayList<>();
    try {
      for (KeyType jsType : KEY_TYPES) {
        listeners.add(JsPeer.listen(js(jsType)));
      }
      for (JsPeer listener : listeners) {
        for (KeyType javaType : KEY_TYPES) {
          try (Client client = new Client(group, java(javaType).build(), PeerId.parse(listener.peerId()), listener.port())) {
            SecioSession session = client.session();
            Handshakes.check(session, listener.next("secured"));
            client.echo(random(1000));
          }
        }
      }
    } finally {
      closeAll(listeners);
    }
  }

  @Test
  void jsDialsJavaForEveryPairOfIdentityTypes() throws Exception {
    List<EchoServer> servers = new ArrayList<>();
    List<JsPeer> dialers = new ArrayList<>();
    try {
      for (KeyType javaType : KEY_TYPES) {
        EchoServer server = new EchoServer(group, java(javaType).build());
        servers.add(server);
        for (KeyType jsType : KEY_TYPES) { // all nine dial at once
          dialers.add(JsPeer.dial(server.port(), js(jsType), "--send-bytes", "1000",
              "--expect-peer", Dialect.LIBP2P.peerId(TestIdentities.of(javaType).publicKey()).toBase58()));
        }
      }
      Map<String, SecioSession> javaSessions = new HashMap<>();
      for (EchoServer server : servers) {
        for (int i = 0; i < KEY_TYPES.size(); i++) {
          Accepted accepted = server.next();
          SecioSession session = accepted.session();
          javaSessions.put(session.remotePeerId().toBase58(), session);
          assertEquals(1000, accepted.echoedWhenClosed());
        }
      }
      for (JsPeer dialer : dialers) {
        JsonObject secured = dialer.next("secured");
        assertEquals(1000, dialer.next("echoed").get("bytes").getAsInt());
        dialer.assertExitedCleanly();
        SecioSession session = javaSessions.get(secured.get("localPeer").getAsString());
        assertNotNull(session, "no Java session with " + secured);
        Handshakes.check(session, secured);
      }
    } finally {
      closeAll(dialers);
      closeAll(servers);
    }
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "exchanges, P-256", "exchanges, P-384", "exchanges, P-521",
    "ciphers, AES-128", "ciphers, AES-256",
    "hashes, SHA256", "hashes, SHA512"
  })
  void forcedAlgorithmIsNegotiatedWithEitherSidePreferred(String kind, String wireName) throws Exception {
    SecioConfig.Builder builder = java(KeyType.SECP256K1).exchanges(JAVA_EXCHANGES).ciphers(JAVA_CIPHERS).hashes(JAVA_HASHES);
    switch (kind) {
      case "exchanges" -> builder.exchanges(List.of(ExchangeAlgorithm.fromWireName(wireName).orElseThrow()));
      case "ciphers" -> builder.ciphers(List.of(CipherAlgorithm.fromWireName(wireName).orElseThrow()));
      default -> builder.hashes(List.of(HashAlgorithm.fromWireName(wireName).orElseThrow()));
    }
    SecioConfig config = builder.build();
    String jsFlag = "--" + kind;
    int javaPreferred = 0;
    int jsPreferred = 0;

    try (JsPeer listener = JsPeer.listen("secp256k1", jsFlag, wireName)) {
      for (int i = 0; i < ROUNDS; i++) {
        try (Client client = new Client(group, config, PeerId.parse(listener.peerId()), listener.port())) {
          SecioSession session = client.session();
          Handshakes.check(session, listener.next("secured"));
          assertNegotiated(session, kind, wireName);
          client.echo(random(100));
          if (session.isLocalPreferred()) {
            javaPreferred++;
          } else {
            jsPreferred++;
          }
        }
      }
    }

    try (EchoServer server = new EchoServer(group, config);
        JsPeer dialer = JsPeer.dial(server.port(), "secp256k1", jsFlag, wireName, "--count", Integer.toString(ROUNDS),
            "--send-bytes", "100", "--expect-peer", config.localPeerId().toBase58())) {
      for (int i = 0; i < ROUNDS; i++) {
        JsonObject secured = dialer.next("secured");
        assertEquals(100, dialer.next("echoed").get("bytes").getAsInt());
        Accepted accepted = server.next();
        SecioSession session = accepted.session();
        Handshakes.check(session, secured);
        assertNegotiated(session, kind, wireName);
        assertEquals(100, accepted.echoedWhenClosed());
        if (session.isLocalPreferred()) {
          javaPreferred++;
        } else {
          jsPreferred++;
        }
      }
      dialer.assertExitedCleanly();
    }
    assertTrue(javaPreferred > 0 && jsPreferred > 0,
        "preferred: Java " + javaPreferred + " times, js " + jsPreferred + " times");
  }

  /** The forced algorithm, and in the other two lists the preferred side's first choice. */
  private static void assertNegotiated(SecioSession session, String kind, String forced) {
    boolean javaFirst = session.isLocalPreferred();
    assertEquals(kind.equals("exchanges") ? forced : javaFirst ? "P-384" : "P-256", session.exchange().wireName());
    assertEquals(kind.equals("ciphers") ? forced : javaFirst ? "AES-128" : "AES-256", session.cipher().wireName());
    assertEquals(kind.equals("hashes") ? forced : javaFirst ? "SHA512" : "SHA256", session.hash().wireName());
  }

  @Test
  void bridgeListenerSpeaksV01WithJsAndV02WithJavaOnOnePort() throws Exception {
    SecioConfig serverConfig = java(KeyType.ED25519).build();
    try (EchoServer server = new EchoServer(group, serverConfig)) {
      try (JsPeer dialer = JsPeer.dial(server.port(), "rsa", "--send-bytes", "1000",
          "--expect-peer", serverConfig.localPeerId().toBase58())) {
        JsonObject secured = dialer.next("secured");
        assertEquals(1000, dialer.next("echoed").get("bytes").getAsInt());
        dialer.assertExitedCleanly();
        SecioSession session = server.next().session();
        Handshakes.check(session, secured);
        assertEquals(ProtocolVersion.V0_1, session.version());
        assertFalse(session.cipher().isAead(), session.toString());
      }
      try (Client client = new Client(group, java(KeyType.SECP256K1).build(), serverConfig.localPeerId(), server.port())) {
        SecioSession session = client.session();
        assertEquals(ProtocolVersion.V0_2, session.version());
        assertTrue(session.cipher().isAead(), session.toString());
        assertEquals(ProtocolVersion.V0_2, server.next().session().version());
        Handshakes.countJavaOnly();
        client.echo(random(1000));
      }
    }
  }

  @Test
  void javaClientGetsEverySizeEchoedByJs() throws Exception {
    try (JsPeer listener = JsPeer.listen("secp256k1")) {
      long total = 0;
      try (Client client = new Client(group, java(KeyType.ED25519).build(), PeerId.parse(listener.peerId()), listener.port())) {
        Handshakes.check(client.session(), listener.next("secured"));
        for (int size : SIZES) {
          client.echo(random(size));
          total += size;
        }
      }
      JsonObject closed = listener.next("closed");
      assertEquals(total, closed.get("bytes").getAsLong(), closed.toString());
      assertFalse(closed.has("error"), closed.toString());
    }
  }

  @Test
  void jsDialerGetsEverySizeEchoedByJava() throws Exception {
    SecioConfig config = java(KeyType.ED25519).build();
    try (EchoServer server = new EchoServer(group, config)) {
      for (int size : SIZES) {
        try (JsPeer dialer = JsPeer.dial(server.port(), "secp256k1", "--send-bytes", Integer.toString(size),
            "--chunk-bytes", "65536", "--expect-peer", config.localPeerId().toBase58())) {
          JsonObject secured = dialer.next("secured");
          assertEquals(size, dialer.next("echoed").get("bytes").getAsInt());
          dialer.assertExitedCleanly();
          Accepted accepted = server.next();
          Handshakes.check(accepted.session(), secured);
          assertEquals(size, accepted.echoedWhenClosed());
        }
      }
    }
  }

  @Test
  void javaClientAcceptsOnlyTheJsPeersRealId() throws Exception {
    try (JsPeer listener = JsPeer.listen("ed25519")) {
      try (Client client = new Client(group, java(KeyType.RSA).build(), PeerId.parse(listener.peerId()), listener.port())) {
        Handshakes.check(client.session(), listener.next("secured"));
        client.echo(random(10));
      }
      PeerId notTheJsPeer = Dialect.LIBP2P.peerId(TestIdentities.other(KeyType.ED25519).publicKey());
      assertNotEquals(listener.peerId(), notTheJsPeer.toBase58());
      try (Client client = new Client(group, java(KeyType.RSA).build(), notTheJsPeer, listener.port())) {
        Future<SecioSession> handshake = client.handshake();
        assertTrue(handshake.await(JsPeer.WAIT_SECONDS, TimeUnit.SECONDS));
        SecioException cause = assertInstanceOf(SecioException.class, handshake.cause());
        assertEquals(SecioException.Reason.PEER_ID_MISMATCH, cause.reason());
        assertTrue(client.channel.closeFuture().await(JsPeer.WAIT_SECONDS, TimeUnit.SECONDS), "channel left open");
        listener.next("error");
      }
    }
  }

  @Test
  void jsDialerAcceptsOnlyTheJavaPeersRealId() throws Exception {
    SecioConfig config = java(KeyType.SECP256K1).build();
    try (EchoServer server = new EchoServer(group, config)) {
      try (JsPeer dialer = JsPeer.dial(server.port(), "ed25519", "--send-bytes", "10",
          "--expect-peer", config.localPeerId().toBase58())) {
        JsonObject secured = dialer.next("secured");
        dialer.next("echoed");
        dialer.assertExitedCleanly();
        Handshakes.check(server.next().session(), secured);
      }
      String notTheJavaPeer = Dialect.LIBP2P.peerId(TestIdentities.other(KeyType.SECP256K1).publicKey()).toBase58();
      try (JsPeer dialer = JsPeer.dial(server.port(), "ed25519", "--send-bytes", "10", "--expect-peer", notTheJavaPeer)) {
        JsonObject error = dialer.next("error");
        assertEquals("ERR_UNEXPECTED_PEER", error.get("code").getAsString(), error.toString());
        assertEquals(1, dialer.exitCode());
        Future<SecioSession> javaSide = server.next().handshake();
        assertTrue(javaSide.await(JsPeer.WAIT_SECONDS, TimeUnit.SECONDS));
        assertFalse(javaSide.isSuccess(), "the Java side completed a handshake the js side abandoned");
      }
    }
  }
}
