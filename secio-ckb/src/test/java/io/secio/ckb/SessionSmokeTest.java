package io.secio.ckb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SessionSmokeTest {
  @Test
  void identifiesBothWays() {
    CkbConfig c = CkbConfig.builder(CkbNetwork.TESTNET).localAddresses(true).build();
    CkbConfig s = CkbConfig.builder(CkbNetwork.TESTNET).localAddresses(true).build();
    try (CkbPair pair = CkbPair.of(c, s)) {
      pair.pump();
      assertTrue(Ckb.sessionFuture(pair.dialer).isSuccess(), () -> String.valueOf(Ckb.sessionFuture(pair.dialer).cause()));
      assertTrue(Ckb.sessionFuture(pair.listener).isSuccess(), () -> String.valueOf(Ckb.sessionFuture(pair.listener).cause()));
      CkbSession session = Ckb.sessionFuture(pair.dialer).getNow();
      assertEquals(CkbNetwork.TESTNET.identifyName(), session.identify().name());
      System.out.println(session + " " + session.tentacle());
      System.out.println(Ckb.sessionFuture(pair.listener).getNow().tentacle());
      assertTrue(session.nodes().isDone());
    }
  }
}
