package io.secio.websocket;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.secio.Dialect;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.tentacle.Tentacle;
import io.secio.tentacle.TentacleConfig;
import io.secio.tentacle.TentacleProtocol;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The stacks the tests run over WebSocket: secio alone in either dialect, and a tentacle session
 * with an echo protocol. The only place these tests call the tentacle API.
 */
final class Stacks {
  static final String ECHO = "/test/echo";

  private Stacks() {}

  /** A secio config of {@code dialect} with a key of the kind its peers use. */
  static SecioConfig secio(Dialect dialect, IdentityKeyPair identity) {
    return SecioConfig.builder(identity).dialect(dialect).build();
  }

  /** A new identity of the kind {@code dialect}'s nodes use (tentacle: secp256k1). */
  static IdentityKeyPair identity(Dialect dialect) {
    return IdentityKeyPair.generate(dialect == Dialect.TENTACLE ? KeyType.SECP256K1 : KeyType.ED25519,
        new java.security.SecureRandom());
  }

  /** The tentacle listener's handler: the echo protocol. */
  static ChannelHandler tentacleServer(SecioConfig secio) {
    return Tentacle.server(secio, TentacleConfig.builder()
        .protocol(TentacleProtocol.of(ECHO, List.of("1"), new Loopback.Echo()))
        .build());
  }

  /** The tentacle dialer's handler: the echo protocol, whose messages {@code messages} keeps. */
  static ChannelHandler tentacleClient(SecioConfig secio, PeerId server, Messages messages) {
    return Tentacle.client(secio, TentacleConfig.builder()
        .protocol(TentacleProtocol.of(ECHO, List.of("1"), messages))
        .build(), server);
  }

  /**
   * The echo protocol's stream, opened on {@code connection}'s session once it is up, its messages
   * kept by {@code messages} (the dialer's handler of the protocol).
   */
  static Channel openEcho(Channel connection, Messages messages) throws Exception {
    return Tentacle.sessionFuture(connection).get(Loopback.WAIT_MINUTES, TimeUnit.MINUTES)
        .openStream(ECHO, messages).get(Loopback.WAIT_MINUTES, TimeUnit.MINUTES);
  }

  /** Keeps each message a protocol's streams read. */
  @ChannelHandler.Sharable
  static final class Messages extends ChannelInboundHandlerAdapter {
    private final BlockingQueue<byte[]> messages = new LinkedBlockingQueue<>();

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      messages.add(ByteBufUtil.getBytes((ByteBuf) msg));
      ReferenceCountUtil.release(msg);
    }

    /** The next message, once it came. */
    byte[] next() throws InterruptedException {
      byte[] m = messages.poll(Loopback.WAIT_MINUTES, TimeUnit.MINUTES);
      if (m == null) {
        throw new AssertionError("no message in " + Loopback.WAIT_MINUTES + " minutes");
      }
      return m;
    }
  }
}
