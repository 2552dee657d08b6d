package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.Future;
import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.libp2p.Libp2p;
import io.secio.libp2p.Libp2pConfig;
import io.secio.libp2p.Muxer;
import io.secio.netty.Transports;
import io.secio.tentacle.Tentacle;
import io.secio.tentacle.TentacleConfig;
import io.secio.testsupport.ChildProcess;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A connection-level muxer failure costs a listener one line, not a warning with a stack trace: 30
 * peers each complete an honest tentacle session or libp2p upgrade (on yamux), then send a yamux
 * header of version 213 under their own yamux; {@code secio listen} (tentacle, and libp2p with mplex and yamux)
 * ends every connection and prints its own lines for each (tentacle: {@code session}, then {@code
 * error ... BAD_VERSION} on stderr; libp2p: {@code secured}, {@code muxer}, then the error), none from
 * a stack trace or a logger's warning. 30 such connections to a tentacle listener once gave 779 lines.
 */
class HostileMuxerLogIT {
  private static final int CONNECTIONS = 30;
  /** A yamux header with version 213: the muxer's BAD_VERSION, a connection-level failure. */
  private static final byte[] NOT_YAMUX = {(byte) 213, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Transports TRANSPORT = Transports.best();
  private static final EventLoopGroup GROUP = TRANSPORT.newEventLoopGroup(1);

  @RegisterExtension
  final Processes processes = new Processes();

  @AfterAll
  static void stopLoops() {
    GROUP.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /**
   * Dials {@code address} CONNECTIONS times with {@code client}'s stack; once {@code session} is up,
   * writes the bad yamux header from the place of the handler named {@code muxer} (through secio,
   * under this side's own muxer). Each connection must be closed by the listener.
   */
  private static void dialHostile(String address, Function<SecioConfig, ChannelHandler> client,
      Function<Channel, Future<?>> session, String muxer, KeyType type, Dialect dialect) throws Exception {
    HostPort target = new HostPort.Converter().convert(address);
    List<Channel> dialed = new ArrayList<>();
    for (int i = 0; i < CONNECTIONS; i++) {
      SecioConfig secio = SecioConfig.builder(IdentityKeyPair.generate(type, RANDOM)).dialect(dialect)
          .handshakeTimeout(ChildProcess.WAIT).build();
      Channel ch = new Bootstrap().group(GROUP).channel(TRANSPORT.channelClass()).handler(client.apply(secio))
          .connect(target.host(), target.port()).sync().channel();
      session.apply(ch).get(ChildProcess.WAIT.toMillis(), TimeUnit.MILLISECONDS);
      ch.pipeline().context(muxer).writeAndFlush(Unpooled.wrappedBuffer(NOT_YAMUX));
      dialed.add(ch);
    }
    for (Channel ch : dialed) {
      assertTrue(ch.closeFuture().await(ChildProcess.WAIT.toMillis()), "hang guard: the listener kept " + ch);
    }
  }

  /** At most {@code lines} lines, none of a stack trace or a warning. */
  private static void assertQuiet(ChildProcess listen, int lines) {
    List<String> all = new ArrayList<>(listen.outLines());
    all.addAll(listen.errLines());
    for (String line : all) {
      assertTrue(!line.matches("\\s+at \\S+.*") && !line.contains("WARN") && !line.contains("Exception"),
          () -> "a line of a stack trace or a warning: " + line + "\n" + listen);
    }
    assertTrue(all.size() <= lines, () -> all.size() + " lines for " + CONNECTIONS + " connections:\n" + listen);
  }

  @Test
  void aTentacleListenerPrintsOneErrorLinePerConnection() throws Exception {
    ChildProcess listen = processes.secio("listen", "--port", "0", "--dialect", "tentacle", "--key-type", "secp256k1",
        "--protocol", "/test/echo:1", "--echo");
    String address = listen.awaitOut("listening (127\\.0\\.0\\.1:\\d+) \\S+").group(1);
    dialHostile(address, secio -> Tentacle.client(secio, TentacleConfig.builder().build()), Tentacle::sessionFuture,
        Tentacle.YAMUX_NAME, KeyType.SECP256K1, Dialect.TENTACLE);
    listen.awaitErr("error \\S+ BAD_VERSION: .*", CONNECTIONS);
    // An honest session after them: whatever they made the listener print came before its lines.
    ChildProcess good = processes.secio("dial", address, "--dialect", "tentacle", "--key-type", "secp256k1",
        "--protocol", "/test/echo:1", "--send-bytes", "1K");
    assertEquals(0, good.awaitExit(), good::toString);
    listen.awaitOut("closed /test/echo after .*");
    assertEquals(CONNECTIONS, listen.errLines().size(), listen::toString);
    assertQuiet(listen, 2 * CONNECTIONS + 4);
  }

  @Test
  void aLibp2pListenerPrintsOneErrorLinePerConnection() throws Exception {
    ChildProcess listen = processes.secio("listen", "--port", "0", "--multistream", "--muxer", "mplex,yamux", "--echo");
    String address = listen.awaitOut("listening (127\\.0\\.0\\.1:\\d+) \\S+").group(1);
    dialHostile(address, secio -> Libp2p.client(secio, Libp2pConfig.builder().muxers(Muxer.YAMUX).build()),
        Libp2p::sessionFuture, Libp2p.MUXER_NAME, KeyType.ED25519, Dialect.LIBP2P);
    listen.awaitErr("error \\S+ BAD_VERSION: .*", CONNECTIONS);
    ChildProcess good = processes.secio("dial", address, "--multistream", "--muxer", "yamux", "--send-bytes", "1K");
    assertEquals(0, good.awaitExit(), good::toString);
    listen.awaitOut("closed /echo/1.0.0 from .*");
    assertEquals(CONNECTIONS, listen.errLines().size(), listen::toString);
    assertQuiet(listen, 3 * CONNECTIONS + 6);
  }
}
