package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.libp2p.Libp2p;
import io.secio.libp2p.Libp2pConfig;
import io.secio.netty.Secio;
import io.secio.netty.Transports;
import io.secio.tentacle.Tentacle;
import io.secio.tentacle.TentacleConfig;
import io.secio.tentacle.TentacleProtocol;
import io.secio.testsupport.ChildProcess;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code secio dial --send-bytes} against Java listeners whose echo is wrong or early, each stack's
 * echo check: the dial must fail with one line saying so, never print {@code echoed}. A tentacle
 * stream that sends an empty message before the dialer sends anything (as a tentacle node's did,
 * which once passed as "echoed 0 bytes in 2608860 ms"); an echo with a byte flipped; a libp2p echo
 * stream that speaks first; a secio echo that answers every read twice.
 */
class WrongEchoIT {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Transports TRANSPORT = Transports.best();
  private static final EventLoopGroup GROUP = TRANSPORT.newEventLoopGroup(1);
  private static final Duration HANG_GUARD = ChildProcess.WAIT;

  @RegisterExtension
  final Processes processes = new Processes();

  @AfterAll
  static void stopLoops() {
    GROUP.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** Writes {@code first} (none: an empty message) as soon as its stream is there, then echoes. */
  @ChannelHandler.Sharable
  private static final class SpeaksFirst extends ChannelInboundHandlerAdapter {
    private final byte[] first;

    SpeaksFirst(byte... first) {
      this.first = first;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      ctx.writeAndFlush(Unpooled.wrappedBuffer(first));
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ctx.writeAndFlush(msg);
    }
  }

  /** Echoes every read with its first byte flipped. */
  @ChannelHandler.Sharable
  private static final class FlippedEcho extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf buf = (ByteBuf) msg;
      if (buf.isReadable()) {
        buf.setByte(buf.readerIndex(), buf.getByte(buf.readerIndex()) ^ 0x40);
      }
      ctx.writeAndFlush(buf);
    }
  }

  /** Echoes every read twice. */
  @ChannelHandler.Sharable
  private static final class DoubleEcho extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf buf = (ByteBuf) msg;
      ctx.write(buf.retainedDuplicate());
      ctx.writeAndFlush(buf);
    }
  }

  private static SecioConfig secio(KeyType type, Dialect dialect) {
    return SecioConfig.builder(IdentityKeyPair.generate(type, RANDOM)).dialect(dialect)
        .handshakeTimeout(HANG_GUARD).build();
  }

  /** A listener on loopback whose connections get {@code handler}; returns its {@code host:port}. */
  private static String listen(Supplier<ChannelHandler> handler) throws InterruptedException {
    Channel server = new ServerBootstrap().group(GROUP).channel(TRANSPORT.serverChannelClass())
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(handler.get());
          }
        })
        .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
    return "127.0.0.1:" + ((InetSocketAddress) server.localAddress()).getPort();
  }

  private static String tentacle(ChannelHandler echo) throws InterruptedException {
    SecioConfig secio = secio(KeyType.SECP256K1, Dialect.TENTACLE);
    TentacleConfig config = TentacleConfig.builder()
        .protocol(TentacleProtocol.of("/test/echo", List.of("1"), echo)).build();
    return listen(() -> Tentacle.server(secio, config));
  }

  private static String libp2p(ChannelHandler echo) throws InterruptedException {
    SecioConfig secio = secio(KeyType.ED25519, Dialect.LIBP2P);
    Libp2pConfig config = Libp2pConfig.builder().protocol(Libp2pOptions.ECHO, echo).build();
    return listen(() -> Libp2p.server(secio, config));
  }

  /** The dial fails with one line, {@code failed ADDRESS REASON}, the reason matching {@code reason}. */
  private void assertRefused(String address, String reason, String... dialArgs) throws Exception {
    String[] args = new String[dialArgs.length + 2];
    args[0] = "dial";
    args[1] = address;
    System.arraycopy(dialArgs, 0, args, 2, dialArgs.length);
    ChildProcess dial = processes.secio(args);
    assertEquals(SecioCli.EXIT_FAILURE, dial.awaitExit(), dial::toString);
    assertTrue(dial.outLines().stream().noneMatch(line -> line.startsWith("echoed")), dial::toString);
    assertEquals(1, dial.errLines().size(), dial::toString);
    String line = dial.errLines().get(0);
    assertTrue(line.matches("failed " + address.replace(".", "\\.") + " (" + reason + ")"), () -> line + "\n" + dial);
  }

  @Test
  void aTentacleStreamWithAnEmptyMessageBeforeTheDialersFirstFailsTheCheck() throws Exception {
    String address = tentacle(new SpeaksFirst());
    // Before the dialer started or among the echo: either way no empty message was sent to it.
    assertRefused(address, "the peer sent (a message of 0 bytes before anything was sent to it"
        + "|an empty message after 0 bytes echoed: no empty message was sent to it)",
        "--dialect", "tentacle", "--key-type", "secp256k1", "--protocol", "/test/echo:1", "--send-bytes", "1K");
  }

  @Test
  void aTentacleEchoWithAByteFlippedFailsTheCheck() throws Exception {
    String address = tentacle(new FlippedEcho());
    assertRefused(address, "the echo differs from what was sent, within bytes 0 to 1024",
        "--dialect", "tentacle", "--key-type", "secp256k1", "--protocol", "/test/echo:1", "--send-bytes", "1K");
  }

  @Test
  void aLibp2pEchoStreamThatSpeaksFirstFailsTheCheck() throws Exception {
    String address = libp2p(new SpeaksFirst((byte) 1, (byte) 2, (byte) 3));
    assertRefused(address, "the peer sent 3 bytes before anything was sent to it"
        + "|the echo differs from what was sent, within bytes 0 to \\d+",
        "--multistream", "--muxer", "yamux", "--send-bytes", "1K");
  }

  @Test
  void aLibp2pEchoWithAByteFlippedFailsTheCheck() throws Exception {
    String address = libp2p(new FlippedEcho());
    assertRefused(address, "the echo differs from what was sent, within bytes 0 to \\d+",
        "--multistream", "--muxer", "mplex", "--send-bytes", "1K");
  }

  @Test
  void aSecioEchoOfEveryReadTwiceFailsTheCheck() throws Exception {
    SecioConfig secio = secio(KeyType.ED25519, Dialect.LIBP2P);
    String address = listen(() -> new ChannelInitializer<Channel>() {
      @Override
      protected void initChannel(Channel ch) {
        ch.pipeline().addLast(Secio.server(secio), new DoubleEcho());
      }
    });
    assertRefused(address, "(echo differs at byte \\d+|the peer sent back \\d+ bytes when \\d+ had been sent to it)",
        "--send-bytes", "1M");
  }
}
