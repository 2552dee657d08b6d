package io.secio.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.channel.local.LocalAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/**
 * {@link MemoryBudget}: what accounts take counts against the whole budget and against their
 * source's share, a source being an IPv4 address, an IPv6 /64 network, or (for any other address)
 * one source for all; what they give back, or hold when they close, is free again.
 */
class MemoryBudgetTest {
  private static InetSocketAddress at(String host) {
    return new InetSocketAddress(host, 4000);
  }

  @Test
  void aSourcesShareIsAnEighthUnlessGivenAndBothAreChecked() {
    assertEquals(100, MemoryBudget.of(800).maxBytesPerSource());
    assertEquals(1, MemoryBudget.of(7).maxBytesPerSource());
    assertEquals(300, MemoryBudget.of(800, 300).maxBytesPerSource());
    assertEquals(800, MemoryBudget.of(800, 300).maxBytes());
    assertEquals("maxBytes must be positive: 0",
        assertThrows(IllegalArgumentException.class, () -> MemoryBudget.of(0)).getMessage());
    assertEquals(1, MemoryBudget.of(1).maxBytes());
    assertThrows(IllegalArgumentException.class, () -> MemoryBudget.of(800, 0));
    assertThrows(IllegalArgumentException.class, () -> MemoryBudget.of(800, 801));
    assertEquals(800, MemoryBudget.of(800, 800).maxBytesPerSource());
  }

  @Test
  void accountsDrawOnTheirSourcesShareAndOnTheWhole() {
    MemoryBudget budget = MemoryBudget.of(1000, 600);
    MemoryBudget.Account a1 = budget.account(at("10.0.0.1"));
    MemoryBudget.Account a2 = budget.account(at("10.0.0.1"));
    MemoryBudget.Account b = budget.account(at("10.0.0.2"));
    assertEquals(600, a1.available());
    a1.take(400);
    assertEquals(200, a2.available(), "the same source: its share has 200 left");
    assertEquals(600, b.available());
    b.take(500);
    assertEquals(100, a2.available(), "the whole budget has 100 left");
    assertEquals(100, b.available());
    assertEquals(900, budget.used());
    a1.give(300);
    assertEquals(100, a1.held());
    assertEquals(400, a2.available());
    assertEquals("MemoryBudget{used=600, max=1000, maxPerSource=600, sources=2}", budget.toString());
  }

  @Test
  void aSourcesShareFollowsWhatItsAccountsGiveBackAndASourceHoldingNothingIsForgotten() {
    MemoryBudget budget = MemoryBudget.of(10_000, 600);
    MemoryBudget.Account a1 = budget.account(at("10.0.0.1"));
    MemoryBudget.Account a2 = budget.account(at("10.0.0.1"));
    a1.take(500);
    a1.give(200);
    assertEquals(300, a2.available(), "the share has 300 taken, not 500, nor none");
    a2.take(0);
    budget.account(at("10.0.0.9")).take(0);
    assertEquals("MemoryBudget{used=300, max=10000, maxPerSource=600, sources=1}", budget.toString());
    a1.give(300);
    assertEquals("MemoryBudget{used=0, max=10000, maxPerSource=600, sources=0}", budget.toString());
  }

  @Test
  void anAccountGivesBackNoMoreThanItHoldsAndAllOfItWhenItCloses() {
    MemoryBudget budget = MemoryBudget.of(1000, 1000);
    MemoryBudget.Account a = budget.account(at("10.0.0.1"));
    MemoryBudget.Account b = budget.account(at("10.0.0.1"));
    a.take(300);
    b.take(200);
    a.give(400);
    assertEquals(0, a.held());
    assertEquals(200, budget.used(), "what b holds stays taken");
    b.close();
    assertEquals(0, budget.used());
    assertEquals(0, b.available());
    b.take(100);
    assertEquals(0, budget.used(), "a closed account takes nothing");
    a.take(0);
    a.take(-5);
    assertEquals(0, a.held());
  }

  @Test
  void anIpv6SourceIsItsSlash64AndAnyOtherAddressIsOneSource() {
    MemoryBudget budget = MemoryBudget.of(1000, 100);
    budget.account(at("2001:db8:1:2::1")).take(60);
    assertEquals(40, budget.account(at("2001:db8:1:2:ffff::9")).available(), "the same /64");
    assertEquals(100, budget.account(at("2001:db8:1:3::1")).available(), "another /64");
    budget.account(new LocalAddress("a")).take(70);
    assertEquals(30, budget.account(new LocalAddress("b")).available(), "in-process: one source");
    assertEquals(30, budget.account(null).available());
    assertEquals(30, budget.account(InetSocketAddress.createUnresolved("example.org", 1)).available(), "no IP");
  }
}
