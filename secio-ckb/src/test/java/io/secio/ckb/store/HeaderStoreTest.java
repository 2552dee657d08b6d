package io.secio.ckb.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.ckb.header.Byte32;
import io.secio.ckb.header.ChainGenerator;
import io.secio.ckb.header.Header;
import io.secio.ckb.header.Pow;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HeaderStoreTest {
  private static final ChainGenerator GENERATOR = new ChainGenerator(3, Pow.DUMMY, 50);
  private static final List<Header> CHAIN = GENERATOR.chain(100);
  private static final Byte32 GENESIS = CHAIN.get(0).hash();

  @TempDir
  Path dir;

  @Test
  void aCommittedBatchIsThereAfterReopening() throws IOException {
    Path file = dir.resolve("h.mv");
    BigInteger big = BigInteger.ONE.shiftLeft(300).subtract(BigInteger.ONE);
    try (HeaderStore store = HeaderStore.open(file, GENESIS, 1)) {
      assertTrue(store.base().isEmpty());
      try (HeaderStore.Batch batch = store.batch()) {
        batch.put(new StoredHeader(CHAIN.get(1), BigInteger.TEN))
            .put(new StoredHeader(CHAIN.get(2), big))
            .setMain(1, CHAIN.get(1).hash())
            .setMain(2, CHAIN.get(2).hash())
            .setTip(new BlockId(CHAIN.get(2).hash(), 2))
            .setBase(new BlockId(GENESIS, 0))
            .commit();
      }
    }
    try (HeaderStore store = HeaderStore.open(file, GENESIS, 1)) {
      assertEquals(new StoredHeader(CHAIN.get(2), big), store.get(2, CHAIN.get(2).hash()).orElseThrow());
      assertEquals(BigInteger.TEN, store.get(1, CHAIN.get(1).hash()).orElseThrow().totalDifficulty());
      assertEquals(Optional.of(CHAIN.get(1).hash()), store.mainHash(1));
      assertEquals(Optional.of(new BlockId(CHAIN.get(2).hash(), 2)), store.tip());
      assertTrue(store.get(1, CHAIN.get(2).hash()).isEmpty());
      assertEquals(Optional.of(new BlockId(GENESIS, 0)), store.base());
      assertEquals(2, store.headerCount());
      assertTrue(store.fileSize() > 0);
    }
  }

  @Test
  void aBatchNotCommittedLeavesNothing() throws IOException {
    try (HeaderStore store = HeaderStore.open(dir.resolve("h.mv"), GENESIS, 1)) {
      try (HeaderStore.Batch batch = store.batch()) {
        batch.put(new StoredHeader(CHAIN.get(1), BigInteger.ONE)).setTip(new BlockId(CHAIN.get(1).hash(), 1));
      }
      assertFalse(store.contains(1, CHAIN.get(1).hash()));
      assertTrue(store.tip().isEmpty());
      try (HeaderStore.Batch batch = store.batch()) {
        batch.removeMain(7).put(new StoredHeader(CHAIN.get(3), BigInteger.ONE)).commit();
      }
      assertTrue(store.contains(3, CHAIN.get(3).hash()));
    }
  }

  @Test
  void aFileBelongsToOneNetwork() throws IOException {
    Path file = dir.resolve("h.mv");
    HeaderStore.open(file, GENESIS, 1).close();
    IOException e = assertThrows(IOException.class, () -> HeaderStore.open(file, CHAIN.get(1).hash(), 1));
    assertTrue(e.getMessage().contains(GENESIS.toString()), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> HeaderStore.open(file, GENESIS, 0));
  }
}
