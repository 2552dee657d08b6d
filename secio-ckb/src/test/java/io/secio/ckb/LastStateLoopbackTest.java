package io.secio.ckb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.secio.ckb.chain.HeaderFollower;
import io.secio.ckb.header.ChainGenerator;
import io.secio.ckb.header.Header;
import io.secio.ckb.header.Pow;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The light-client protocol between two Java peers on real loopback sockets with secio: a client that
 * dials a server announcing LIGHT_CLIENT subscribes, verifies the server's tip (PoW, chain root, extra
 * hash, age) and hears the next tip pushed when the server's chain grows.
 */
class LastStateLoopbackTest {
  private static final long NOW = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
  private static final ChainGenerator GENERATOR = new ChainGenerator(61, Pow.EAGLESONG, 20, NOW - 900_000);
  private static final List<Header> CHAIN = GENERATOR.chainWithRoots(80);

  @TempDir
  Path dir;

  @Test
  void aClientVerifiesAJavaServersTipsAsTheyCome() throws Exception {
    Clock clock = HeldChain.at(NOW);
    try (HeldChain served = HeldChain.threaded(dir.resolve("served.mv"), GENERATOR.consensus(), CHAIN.subList(0, 51), clock);
        LoopbackNodes nodes = new LoopbackNodes()) {
      HeaderFollower chain = served.follower;
      CkbConfig server = CkbConfig.builder(GENERATOR.consensus().network()).localAddresses(true)
          .flags(IdentifyFlags.DISCOVERY | IdentifyFlags.LIGHT_CLIENT)
          .serveLastState(chain).build();
      CkbConfig.Builder b = CkbConfig.builder(GENERATOR.consensus().network()).localAddresses(true).clock(clock)
          .subscribeLastState(GENERATOR.consensus(), Duration.ofSeconds(8));
      BlockingQueue<CkbEvent> heard = LoopbackNodes.events(b);
      assertTimeoutPreemptively(Duration.ofMinutes(3), () -> {
        nodes.dial(b.build(), nodes.listen(server));
        CkbEvent.LastStateReceived first = LoopbackNodes.next(heard, CkbEvent.LastStateReceived.class);
        assertEquals(LastStateRulesTest.served(CHAIN, 50), first.tip());
        assertEquals(BigInteger.valueOf(16 * 51), first.totalDifficulty());
        chain.accept(CHAIN.subList(51, 81)).join();
        CkbEvent.LastStateReceived pushed = LoopbackNodes.next(heard, CkbEvent.LastStateReceived.class);
        assertEquals(LastStateRulesTest.served(CHAIN, 80), pushed.tip());
      });
    }
  }
}
