package io.secio.benchmarks;

import io.netty.channel.Channel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.util.concurrent.Future;
import io.secio.HandshakeLimiter;
import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.netty.Secio;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import java.security.SecureRandom;
import java.util.List;

/**
 * The security layer of a loopback connection: none, Netty TLS 1.3 on BoringSSL (netty-tcnative), or
 * secio with one cipher. Server and client handlers for one side each; {@link #handshake} is the
 * future that completes when application data can flow.
 */
public enum Stack {
  PLAIN(null, null),
  TLS13_AES_128_GCM(null, "TLS_AES_128_GCM_SHA256"),
  TLS13_CHACHA20_POLY1305(null, "TLS_CHACHA20_POLY1305_SHA256"),
  SECIO_AES_128_GCM(CipherAlgorithm.AES_128_GCM, null),
  SECIO_AES_256_GCM(CipherAlgorithm.AES_256_GCM, null),
  SECIO_CHACHA20_POLY1305(CipherAlgorithm.CHACHA20_POLY1305, null),
  SECIO_AES_128_CTR(CipherAlgorithm.AES_128_CTR, null),
  SECIO_AES_256_CTR(CipherAlgorithm.AES_256_CTR, null);

  private final CipherAlgorithm secioCipher;
  private final String tlsCipherSuite;

  Stack(CipherAlgorithm secioCipher, String tlsCipherSuite) {
    this.secioCipher = secioCipher;
    this.tlsCipherSuite = tlsCipherSuite;
  }

  /** A part of {@link Side#negotiated} that proves this stack is what ran. */
  String expectedNegotiation() {
    if (isSecio()) {
      return "cipher=" + secioCipher.wireName() + ",";
    }
    return isTls() ? "TLSv1.3 " + tlsCipherSuite : "plaintext";
  }

  boolean isSecio() {
    return secioCipher != null;
  }

  boolean isTls() {
    return tlsCipherSuite != null;
  }

  /**
   * One side's handlers, built once per benchmark trial and shared by its connections. The identity,
   * exchange and largest plaintext per frame apply to secio; TLS always uses an ECDSA P-256
   * certificate and BoringSSL's default key share (X25519) and 16 KiB records.
   */
  Side side(boolean server, KeyType identity, ExchangeAlgorithm exchange, int secioFrame)
      throws Exception {
    return side(server, identity, exchange, secioFrame, 1);
  }

  /**
   * The same, where a secio side takes {@code identities} identities in turn, one per new connection:
   * a client side with more identities than a node remembers validated keys for (1,024) makes every
   * handshake the node's first with that peer.
   */
  Side side(boolean server, KeyType identity, ExchangeAlgorithm exchange, int secioFrame,
      int identities) throws Exception {
    if (isSecio()) {
      SecureRandom random = new SecureRandom();
      // One bound for the side, whichever identity a connection takes.
      HandshakeLimiter limiter = HandshakeLimiter.of(SecioConfig.DEFAULT_MAX_CONCURRENT_HANDSHAKES);
      SecioConfig[] configs = new SecioConfig[identities];
      for (int i = 0; i < identities; i++) {
        configs[i] = SecioConfig.builder(IdentityKeyPair.generate(identity, random))
            .exchanges(List.of(exchange))
            .ciphers(List.of(secioCipher))
            .maxPlaintextPerFrame(secioFrame)
            .handshakeLimiter(limiter)
            .build();
      }
      return new SecioSide(configs, server);
    }
    if (isTls()) {
      return new TlsSide(tlsContext(server));
    }
    return new PlainSide();
  }

  private SslContext tlsContext(boolean server) throws Exception {
    SslContextBuilder builder;
    if (server) {
      SelfSignedCertificate certificate = SelfSignedCertificate.create();
      builder = SslContextBuilder.forServer(certificate.keyPair().getPrivate(), certificate.certificate());
    } else {
      builder = SslContextBuilder.forClient().trustManager(InsecureTrustManagerFactory.INSTANCE);
    }
    return builder.sslProvider(SslProvider.OPENSSL)
        .protocols("TLSv1.3")
        .ciphers(List.of(tlsCipherSuite))
        .build();
  }

  /** The handlers of one side of a connection. */
  interface Side {
    /** Adds this side's handlers to a new channel's pipeline, before the application's. */
    void addTo(Channel channel);

    /** Completes when application bytes can flow on {@code channel}. */
    Future<?> handshake(Channel channel);

    /** What a completed handshake on {@code channel} negotiated, to check the label is true. */
    String negotiated(Channel channel);
  }

  private static final class PlainSide implements Side {
    @Override
    public void addTo(Channel channel) {}

    @Override
    public Future<?> handshake(Channel channel) {
      return channel.newSucceededFuture();
    }

    @Override
    public String negotiated(Channel channel) {
      return "plaintext";
    }
  }

  private static final class TlsSide implements Side {
    private final SslContext context;

    TlsSide(SslContext context) {
      this.context = context;
    }

    @Override
    public void addTo(Channel channel) {
      channel.pipeline().addLast(context.newHandler(channel.alloc()));
    }

    @Override
    public Future<?> handshake(Channel channel) {
      return channel.pipeline().get(SslHandler.class).handshakeFuture();
    }

    @Override
    public String negotiated(Channel channel) {
      SslHandler ssl = channel.pipeline().get(SslHandler.class);
      return ssl.engine().getSession().getProtocol() + " " + ssl.engine().getSession().getCipherSuite();
    }
  }

  private static final class SecioSide implements Side {
    private final SecioConfig[] configs;
    private final boolean server;
    private int next;

    SecioSide(SecioConfig[] configs, boolean server) {
      this.configs = configs;
      this.server = server;
    }

    /** The frame size chosen is in the config. */
    @Override
    public void addTo(Channel channel) {
      SecioConfig config = nextConfig();
      channel.pipeline().addLast(server ? Secio.server(config) : Secio.client(config));
    }

    /** Channels of one side are set up on several threads (bootstraps run on the caller's). */
    private synchronized SecioConfig nextConfig() {
      SecioConfig config = configs[next];
      next = (next + 1) % configs.length;
      return config;
    }

    @Override
    public Future<?> handshake(Channel channel) {
      return Secio.handshakeFuture(channel);
    }

    @Override
    public String negotiated(Channel channel) {
      return Secio.session(channel).orElseThrow().toString();
    }
  }
}
