package io.secio.ckb.chain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.secio.ckb.header.Byte32;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecentMainChainTest {
  private final Map<Long, Byte32> main = new HashMap<>();

  private Byte32 hash(long number, int branch) {
    byte[] bytes = new byte[32];
    bytes[0] = (byte) branch;
    for (int i = 0; i < 8; i++) {
      bytes[24 + i] = (byte) (number >>> (56 - 8 * i));
    }
    return Byte32.of(bytes);
  }

  private void mainChain(long from, long to, int branch) {
    for (long n = from; n <= to; n++) {
      main.put(n, hash(n, branch));
    }
  }

  @Test
  void keepsTheLastBlocksAndFollowsReorganisations() {
    mainChain(0, 30_000, 0);
    RecentMainChain recent = new RecentMainChain();
    recent.reload(30_000, 0, main::get);
    assertEquals(30_000L, recent.number(hash(30_000, 0)));
    assertEquals(10_001L, recent.number(hash(10_001, 0)));
    assertNull(recent.number(hash(10_000, 0)));
    // Blocks 29,990.. replaced by a longer branch.
    for (long n = 29_990; n <= 30_000; n++) {
      main.remove(n);
    }
    mainChain(29_990, 30_100, 1);
    recent.update(29_990, 30_100, 0, main::get);
    assertNull(recent.number(hash(29_995, 0)));
    assertEquals(29_995L, recent.number(hash(29_995, 1)));
    assertEquals(29_989L, recent.number(hash(29_989, 0)));
    assertNull(recent.number(hash(10_100, 0)));
    assertEquals(10_101L, recent.number(hash(10_101, 0)));
    // A reorganisation below the window reloads it.
    recent.update(5, 30_100, 0, main::get);
    assertEquals(30_100L, recent.number(hash(30_100, 1)));
  }

  @Test
  void notBelowTheStart() {
    mainChain(500, 600, 0);
    RecentMainChain recent = new RecentMainChain();
    recent.reload(600, 500, main::get);
    assertEquals(500L, recent.number(hash(500, 0)));
  }
}
