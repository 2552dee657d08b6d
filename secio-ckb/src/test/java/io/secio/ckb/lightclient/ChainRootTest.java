package io.secio.ckb.lightclient;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.secio.ckb.header.Byte32;
import io.secio.ckb.header.ChainGenerator;
import io.secio.ckb.header.Ckbhash;
import io.secio.ckb.header.Header;
import io.secio.ckb.header.HeaderException;
import io.secio.ckb.header.Pow;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The chain-root MMR kept as peaks against the MMR written out as trees (each peak a perfect tree
 * over its leaves, largest first, bagged from the right), for every size up to 300; a node's merge
 * rules; and a generated chain whose headers commit to their parent's root passing the light
 * client's checks.
 */
class ChainRootTest {
  private static final ChainGenerator GENERATOR = new ChainGenerator(5, Pow.DUMMY, 30);
  private static final List<Header> CHAIN = GENERATOR.chain(300);

  /** The tree over leaves {@code from .. from + size - 1}, size a power of two. */
  private static HeaderDigest tree(int from, int size) {
    if (size == 1) {
      return HeaderDigest.leaf(CHAIN.get(from));
    }
    return HeaderDigest.merge(tree(from, size / 2), tree(from + size / 2, size / 2));
  }

  private static HeaderDigest written(int leaves) {
    HeaderDigest root = null;
    int end = leaves;
    // Peaks from the right: the lowest bit of the count is the last, smallest peak.
    for (int bit = 0; bit < 31; bit++) {
      int size = 1 << bit;
      if ((leaves & size) != 0) {
        HeaderDigest peak = tree(end - size, size);
        root = root == null ? peak : HeaderDigest.merge(peak, root);
        end -= size;
      }
    }
    return root;
  }

  @Test
  void thePeaksGiveTheRootOfTheTreesForEverySize() {
    ChainRoot root = new ChainRoot();
    assertEquals(HeaderDigest.ZERO, root.root());
    BigInteger total = BigInteger.ZERO;
    for (int n = 0; n < CHAIN.size(); n++) {
      root.push(CHAIN.get(n));
      total = total.add(HeaderDigest.leaf(CHAIN.get(n)).totalDifficulty());
      HeaderDigest expected = written(n + 1);
      assertEquals(expected, root.root(), "blocks 0.." + n);
      assertEquals(0, expected.startNumber());
      assertEquals(n, expected.endNumber());
      assertEquals(total, expected.totalDifficulty());
      assertEquals(CHAIN.get(n).timestamp(), expected.endTimestamp());
      assertEquals(CHAIN.get(0).timestamp(), expected.startTimestamp());
    }
    assertEquals(HeaderDigest.leaf(CHAIN.get(0)), written(1));
    Byte32 twoLeaves = Byte32.of(Ckbhash.hash(HeaderDigest.leaf(CHAIN.get(0)).mmrHash().toBytes(),
        HeaderDigest.leaf(CHAIN.get(1)).mmrHash().toBytes()));
    assertEquals(twoLeaves, written(2).childrenHash(), "children_hash = ckbhash(left's hash ‖ right's hash)");
  }

  @Test
  void mergeRefusesWhatIsNotContinuousAndPushTakesTheNextBlockOnly() {
    HeaderDigest one = HeaderDigest.leaf(CHAIN.get(1));
    HeaderDigest three = HeaderDigest.leaf(CHAIN.get(3));
    assertThrows(IllegalArgumentException.class, () -> HeaderDigest.merge(one, three));
    assertThrows(IllegalArgumentException.class, () -> HeaderDigest.merge(HeaderDigest.leaf(CHAIN.get(2)), one));
    Header wrongEpoch = CHAIN.get(2).toBuilder().epoch(CHAIN.get(5).epoch()).build();
    assertThrows(IllegalArgumentException.class, () -> HeaderDigest.merge(one, HeaderDigest.leaf(wrongEpoch)));
    ChainRoot root = new ChainRoot();
    assertThrows(IllegalArgumentException.class, () -> root.push(CHAIN.get(1)));
  }

  @Test
  void aChainThatCommitsToItsRootsPassesTheLightClientsChecks() throws HeaderException {
    ChainGenerator generator = new ChainGenerator(6, Pow.EAGLESONG, 20);
    List<Header> chain = generator.chainWithRoots(70);
    LastStateVerifier verifier = new LastStateVerifier(generator.consensus(),
        Clock.fixed(Instant.ofEpochMilli(chain.get(70).timestamp()), ZoneOffset.UTC));
    ChainRoot root = new ChainRoot();
    root.push(chain.get(0));
    for (int n = 1; n <= 70; n++) {
      HeaderDigest parentRoot = root.root();
      VerifiableHeader tip = new VerifiableHeader(chain.get(n), Byte32.ZERO, Optional.of(parentRoot.mmrHash().toBytes()),
          parentRoot);
      assertEquals(BigInteger.valueOf(16L * (n + 1)), verifier.verify(tip), "#" + n);
      root.push(chain.get(n));
    }
  }
}
