package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.DuplexChannel;
import io.secio.SecioConfig;
import io.secio.SecioMode;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.netty.Secio;
import io.secio.netty.Transports;
import io.secio.testsupport.ChildProcess;
import io.secio.testsupport.Collect;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that half-closes right after its last write, as js-libp2p-secio's does, gets its whole
 * echo from {@code secio listen --echo} and through {@code secio bridge}: the listener finishes the
 * echo before closing, and the bridge carries the half-close to the upstream and keeps relaying the
 * echo back until the upstream closes.
 */
class HalfCloseIT {
  private static final int BYTES = 3_000_000;
  private static final long HANG_GUARD_SECONDS = 300;

  @RegisterExtension
  final Processes processes = new Processes();

  @TempDir
  Path keys;

  @Test
  void listenEchoFinishesTheEchoOfAHalfClosingClient() throws Exception {
    Keys.Key listenKey = Keys.write(keys, KeyType.ED25519);
    ChildProcess listen = processes.secio("listen", "--port", "0", "--echo", "--key", listenKey.path());
    String address = listen.awaitOut("listening (\\S+) " + listenKey.peerId()).group(1);
    for (int i = 0; i < 3; i++) {
      assertWholeEcho(address, SecioMode.BRIDGE, 1 + i);
    }
  }

  @Test
  void bridgeCarriesTheHalfCloseAcrossAndRelaysTheWholeEcho() throws Exception {
    Keys.Key upstreamKey = Keys.write(keys, KeyType.ED25519);
    Keys.Key bridgeKey = Keys.write(keys, KeyType.SECP256K1);
    ChildProcess upstream = processes.secio(
        "listen", "--port", "0", "--mode", "v0.2", "--echo", "--key", upstreamKey.path());
    String upstreamAddress = upstream.awaitOut("listening (\\S+) " + upstreamKey.peerId()).group(1);
    ChildProcess bridge = processes.secio("bridge", "--listen", "0", "--to", upstreamAddress,
        "--expect-peer", upstreamKey.peerId(), "--key", bridgeKey.path());
    String address = bridge.awaitOut("listening (127\\.0\\.0\\.1:\\d+) " + bridgeKey.peerId() + " tentacle=\\S+")
        .group(1);
    for (int i = 0; i < 3; i++) {
      assertWholeEcho(address, SecioMode.V0_1_ONLY, 10 + i);
    }
  }

  /** Dials, writes BYTES in 64 KiB writes, half-closes right after the last, reads until the end. */
  private static void assertWholeEcho(String address, SecioMode mode, long seed) throws Exception {
    byte[] sent = new byte[BYTES];
    new Random(seed).nextBytes(sent);
    IdentityKeyPair key = IdentityKeyPair.generate(KeyType.ED25519, new SecureRandom());
    // The handshake timeout is a hang guard here too: a busy machine must not fail the test.
    SecioConfig config = SecioConfig.builder(key).mode(mode)
        .handshakeTimeout(Duration.ofSeconds(HANG_GUARD_SECONDS)).build();
    HostPort target = new HostPort.Converter().convert(address);
    Transports transport = Transports.best();
    EventLoopGroup group = transport.newEventLoopGroup(1);
    try {
      Collect collect = new Collect();
      Channel ch = new Bootstrap().group(group).channel(transport.channelClass())
          .option(ChannelOption.ALLOW_HALF_CLOSURE, true)
          .handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel c) {
              c.pipeline().addLast(Secio.client(config), collect);
            }
          })
          .connect(target.host(), target.port()).sync().channel();
      Secio.handshakeFuture(ch).get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
      for (int offset = 0; offset < BYTES; offset += 64 * 1024) {
        int length = Math.min(64 * 1024, BYTES - offset);
        boolean last = offset + length == BYTES;
        ch.writeAndFlush(Unpooled.wrappedBuffer(sent, offset, length)).addListener(f -> {
          if (last && f.isSuccess()) {
            ((DuplexChannel) ch).shutdownOutput();
          }
        });
      }
      byte[] echoed = collect.awaitEnd();
      ch.close().sync();
      assertArrayEquals(sent, echoed, "echo of " + BYTES + " bytes through " + address);
      assertEquals(List.of(), collect.exceptions());
    } finally {
      group.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
    }
  }
}
