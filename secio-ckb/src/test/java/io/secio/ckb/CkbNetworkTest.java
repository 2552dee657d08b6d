package io.secio.ckb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.ckb.protocol.CkbNetwork;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class CkbNetworkTest {
  @Test
  void publicNetworksHaveTheIdentifyNamesOfCkbSpecs() {
    assertEquals("/ckb/92b197aa", CkbNetwork.MAINNET.identifyName());
    assertEquals("/ckb_testnet/10639e08", CkbNetwork.TESTNET.identifyName());
    assertTrue(CkbNetwork.MAINNET.isPublic());
  }

  @Test
  void aDevNetworkIsNamedByItsSpecAndGenesis() {
    // The bundled dev.toml's genesis (ckb docs/hashes.toml).
    CkbNetwork dev = CkbNetwork.parse("dev:ckb_dev:0x120ab9abd48e3b82f93b88eba8c50a0e1304cc2fffb5573fb14b56c6348f2305");
    assertEquals("/ckb_dev/120ab9ab", dev.identifyName());
    assertFalse(dev.isPublic());
    assertEquals(dev, CkbNetwork.parse(dev.toString()));
    assertArrayEquals(HexFormat.of().parseHex("120ab9abd48e3b82f93b88eba8c50a0e1304cc2fffb5573fb14b56c6348f2305"),
        dev.genesisHash());
  }

  @Test
  void parsesTheCommandLinesNames() {
    assertSame(CkbNetwork.MAINNET, CkbNetwork.parse("mainnet"));
    assertSame(CkbNetwork.TESTNET, CkbNetwork.parse("TESTNET"));
    assertEquals("testnet", CkbNetwork.TESTNET.toString());
  }

  @Test
  void refusesWhatIsNoNetwork() {
    assertThrows(IllegalArgumentException.class, () -> CkbNetwork.parse("lina"));
    assertThrows(IllegalArgumentException.class, () -> CkbNetwork.parse("dev:ckb_dev:1234"));
    assertThrows(IllegalArgumentException.class, () -> CkbNetwork.parse("dev:ckb_dev:zz"));
    assertThrows(IllegalArgumentException.class, () -> CkbNetwork.parse("dev::" + "00".repeat(32)));
    assertThrows(IllegalArgumentException.class, () -> CkbNetwork.dev("a/b", new byte[32]));
  }

  @Test
  void theGenesisHashIsACopy() {
    byte[] hash = CkbNetwork.TESTNET.genesisHash();
    hash[0] = 0;
    assertEquals("/ckb_testnet/10639e08", CkbNetwork.TESTNET.identifyName());
  }
}
