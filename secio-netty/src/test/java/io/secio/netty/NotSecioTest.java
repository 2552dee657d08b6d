package io.secio.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import io.secio.protocol.SecioException.Reason;
import io.secio.protocol.SecioException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An endpoint that speaks another protocol is told apart from a hostile secio peer: its first bytes,
 * read as a frame header far over the limit, are reported as {@link Reason#NOT_SECIO} with those
 * bytes escaped; garbage stays {@link Reason#HANDSHAKE_MESSAGE_TOO_LONG}.
 */
class NotSecioTest {
  private static final long GUARD_SECONDS = 300;

  private static SecioException failureOn(String hex) {
    Recorder app = new Recorder();
    EmbeddedChannel ch = new EmbeddedChannel(Secio.client(TestConfigs.client().build()), app);
    ch.releaseOutbound();
    ch.writeInbound(Unpooled.wrappedBuffer(HexFormat.of().parseHex(hex)));
    SecioException e = assertInstanceOf(SecioException.class, Secio.handshakeFuture(ch).cause());
    assertEquals(java.util.List.of(e), app.exceptions);
    assertFalse(ch.isOpen());
    assertFalse(ch.finishAndReleaseAll());
    return e;
  }

  @ParameterizedTest
  @CsvSource({
      // HTTP/1.1 400 Bad Request\r\n
      "485454502f312e31203430302042616420526571756573740d0a, NOT_SECIO, 'text: \"HTTP/1.1 400 Bad Request\\r\\n\"'",
      // SSH-2.0-OpenSSH_9.2\r\n
      "5353482d322e302d4f70656e5353485f392e320d0a, NOT_SECIO, 'text: \"SSH-2.0-OpenSSH_9.2\\r\\n\"'",
      // A TLS ClientHello's record header
      "160301020001000200, NOT_SECIO, 'it speaks TLS: \"\\x16\\x03\\x01\\x02\\x00\\x01\\x00\\x02\\x00\"'",
      // multistream-select's header, as a libp2p node sends it first
      "132f6d756c746973747265616d2f312e302e300a, NOT_SECIO, 'multistream-select, as a libp2p node does'",
      // garbage over the limit: a hostile secio peer as far as anyone can tell
      "ffffffff00, HANDSHAKE_MESSAGE_TOO_LONG, 'declared 4294967295 bytes'",
  })
  void theFirstBytesOfAnotherProtocolAreNamedAsSuch(String hex, Reason reason, String shown) {
    SecioException e = failureOn(hex);
    assertEquals(reason, e.reason());
    assertTrue(e.getMessage().contains(shown), e.getMessage());
  }

  @Test
  void controlCharactersInThoseBytesAreShownEscaped() {
    // "EVIL" in red with a bell, as text: never raw on a terminal.
    SecioException e = failureOn("1b5b33316d4556494c1b5b306d07");
    assertEquals(Reason.HANDSHAKE_MESSAGE_TOO_LONG, e.reason(), "ESC is not text");
    SecioException text = failureOn("4556494c2020202007");
    assertEquals(Reason.HANDSHAKE_MESSAGE_TOO_LONG, text.reason(), "BEL is not text");
    assertFalse(e.getMessage().chars().anyMatch(c -> c < 0x20), e.getMessage());
  }

  @Test
  void aLaterFrameOverTheLimitIsStillAMessageTooLong() {
    Recorder app = new Recorder();
    EmbeddedChannel ch = new EmbeddedChannel(Secio.server(TestConfigs.server().build()), app);
    ch.releaseOutbound();
    EmbeddedChannel client = new EmbeddedChannel(Secio.client(TestConfigs.client().build()), new Recorder());
    ch.writeInbound((io.netty.buffer.ByteBuf) client.readOutbound());
    ch.writeInbound(Unpooled.wrappedBuffer("HTTP/1.1 400 Bad Request".getBytes(StandardCharsets.US_ASCII)));
    assertEquals(Reason.HANDSHAKE_MESSAGE_TOO_LONG,
        ((SecioException) Secio.handshakeFuture(ch).cause()).reason());
    ch.releaseOutbound(); // the server's Exchange, sent before the second header came
    assertFalse(ch.finishAndReleaseAll());
    client.finishAndReleaseAll();
  }

  @Test
  void anHttpServerOnARealSocketIsReportedAsNotSpeakingSecio() throws Exception {
    Transports transport = Transports.best();
    EventLoopGroup group = transport.newEventLoopGroup(1);
    try (ServerSocket http = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      Thread server = new Thread(() -> {
        try (Socket s = http.accept(); OutputStream out = s.getOutputStream()) {
          out.write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
          out.flush();
          s.getInputStream().read(new byte[4096]);
        } catch (java.io.IOException e) {
          // The client hung up: the test reads the outcome on its side.
        }
      });
      server.start();
      Channel ch = new Bootstrap().group(group).channel(transport.channelClass())
          .handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel c) {
              c.pipeline().addLast(Secio.client(TestConfigs.client().build()), new Recorder());
            }
          })
          .connect(http.getLocalSocketAddress()).syncUninterruptibly().channel();
      assertTrue(Secio.handshakeFuture(ch).await(GUARD_SECONDS, TimeUnit.SECONDS));
      SecioException e = (SecioException) Secio.handshakeFuture(ch).cause();
      assertEquals(Reason.NOT_SECIO, e.reason());
      assertTrue(e.getMessage().contains("HTTP/1.1 400 Bad Request"), e.getMessage());
      server.join(TimeUnit.SECONDS.toMillis(GUARD_SECONDS));
    } finally {
      group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }
}
