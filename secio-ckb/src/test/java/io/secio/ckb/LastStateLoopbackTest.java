package io.secio.ckb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.secio.ckb.chain.HeaderFollower;
import io.secio.ckb.header.ChainGenerator;
import io.secio.ckb.header.Header;
import io.secio.ckb.header.HeaderRule;
import io.secio.ckb.header.Pow;
import io.secio.ckb.protocol.IdentifyFlags;
import io.secio.multiaddr.Multiaddr;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The light-client protocol between two Java peers on real loopback sockets with secio: a client that
 * dials a server announcing LIGHT_CLIENT subscribes, verifies the server's tip (PoW, chain root, extra
 * hash, age) and hears the next tip pushed when the server's chain grows; on its own driven clock it
 * asks again once the last answer is older than the interval, and refuses a tip grown too old. A
 * server announces LIGHT_CLIENT only when told to.
 */
class LastStateLoopbackTest {
  private static final long NOW = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
  private static final ChainGenerator GENERATOR = new ChainGenerator(61, Pow.EAGLESONG, 20, NOW - 900_000);
  private static final List<Header> CHAIN = GENERATOR.chainWithRoots(80);
  private static final Duration GUARD = Duration.ofMinutes(3);

  @TempDir
  Path dir;
  @RegisterExtension
  final Closing closing = new Closing();

  /** A Java node on loopback holding {@link #CHAIN} 0 to {@code upTo} and serving its tip; its follower. */
  private HeaderFollower serving(LoopbackNodes nodes, int upTo, long flags, List<Multiaddr> address) throws Exception {
    HeaderFollower chain = closing.keep(HeldChain.threaded(dir.resolve("served" + closing.size() + ".mv"),
        GENERATOR.consensus(), CHAIN.subList(0, upTo + 1), HeldChain.at(NOW))).follower;
    address.add(nodes.listen(CkbConfig.builder(GENERATOR.consensus().network()).localAddresses(true)
        .flags(flags).serveLastState(chain).build()));
    return chain;
  }

  private static CkbConfig.Builder client(Clock clock) {
    return CkbConfig.builder(GENERATOR.consensus().network()).localAddresses(true).clock(clock)
        .subscribeLastState(GENERATOR.consensus(), Duration.ofSeconds(8));
  }

  @Test
  void aClientVerifiesAJavaServersTipsAsTheyCome() throws Exception {
    LoopbackNodes nodes = closing.keep(new LoopbackNodes());
    List<Multiaddr> address = new ArrayList<>();
    HeaderFollower chain = serving(nodes, 50, IdentifyFlags.DISCOVERY | IdentifyFlags.LIGHT_CLIENT, address);
    CkbConfig.Builder b = client(HeldChain.at(NOW));
    BlockingQueue<CkbEvent> heard = LoopbackNodes.events(b);
    assertTimeoutPreemptively(GUARD, () -> {
      nodes.dial(b.build(), address.get(0));
      CkbEvent.LastStateReceived first = LoopbackNodes.next(heard, CkbEvent.LastStateReceived.class);
      assertEquals(LastStateRulesTest.served(CHAIN, 50), first.tip());
      assertEquals(BigInteger.valueOf(16 * 51), first.totalDifficulty());
      chain.accept(CHAIN.subList(51, 81)).join();
      CkbEvent.LastStateReceived pushed = LoopbackNodes.next(heard, CkbEvent.LastStateReceived.class);
      assertEquals(LastStateRulesTest.served(CHAIN, 80), pushed.tip());
    });
  }

  @Test
  void aClientAsksAgainOnItsClockAndRefusesATipGrownTooOld() throws Exception {
    LoopbackNodes nodes = closing.keep(new LoopbackNodes());
    List<Multiaddr> address = new ArrayList<>();
    serving(nodes, 60, IdentifyFlags.DISCOVERY | IdentifyFlags.LIGHT_CLIENT, address);
    MutableClock clock = new MutableClock();
    assertEquals(NOW, clock.millis());
    CkbConfig.Builder b = client(clock);
    BlockingQueue<CkbEvent> heard = LoopbackNodes.events(b);
    assertTimeoutPreemptively(GUARD, () -> {
      nodes.dial(b.build(), address.get(0));
      assertEquals(60, LoopbackNodes.next(heard, CkbEvent.LastStateReceived.class).tip().header().number());
      // Nothing new is pushed; only the client's own clock makes it ask again, and the same tip is now a day old.
      clock.advance(Duration.ofHours(25));
      CkbEvent.LastStateRefused refused = LoopbackNodes.next(heard, CkbEvent.LastStateRefused.class);
      assertEquals(HeaderRule.TIP_TOO_OLD, refused.cause().rule());
      assertEquals(60, refused.cause().number());
    });
  }

  @Test
  void aServerAnnouncesLightClientOnlyWhenTold() throws Exception {
    LoopbackNodes nodes = closing.keep(new LoopbackNodes());
    List<Multiaddr> address = new ArrayList<>();
    serving(nodes, 10, CkbConfig.builder(GENERATOR.consensus().network()).build().flags(), address);
    CkbConfig.Builder b = client(HeldChain.at(NOW));
    BlockingQueue<CkbEvent> heard = LoopbackNodes.events(b);
    assertTimeoutPreemptively(GUARD, () -> {
      nodes.dial(b.build(), address.get(0));
      assertEquals(IdentifyFlags.DISCOVERY, LoopbackNodes.next(heard, CkbEvent.Identified.class).record().flags(),
          "a server of last states announces DISCOVERY alone unless its flags say more");
    });
  }
}
