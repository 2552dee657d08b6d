package io.secio.ckb.header;

import io.secio.ckb.CkbNetwork;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Test-only: real-shaped CKB header chains, the same for the same seed. A genesis of its own (so a
 * dev network of its own), then headers with the right parent, number, epoch (epochs of
 * {@code epochLength} blocks), a timestamp 6 to 10 s after the parent, random roots, and a nonce
 * mined for the rule: under Dummy any nonce, under Eaglesong or EaglesongBlake2b a real proof of
 * work for an easy compact target (difficulty about 16, so a header takes about 16 hashes).
 *
 * <p>Not thread-safe.
 */
public final class ChainGenerator {
  /** A compact target of difficulty 16: a real proof of work at about 16 Eaglesong hashes. */
  public static final int EASY_COMPACT_TARGET = CompactTarget.fromDifficulty(BigInteger.valueOf(16));
  /** Genesis time: 2023-11-14T22:13:20Z. */
  public static final long GENESIS_MILLIS = 1_700_000_000_000L;

  private final Random random;
  private final Pow pow;
  private final int epochLength;
  private final Header genesis;
  private final Consensus consensus;
  private final Eaglesong eaglesong = new Eaglesong();

  /**
   * A generator for chains under {@code pow}.
   *
   * @param seed makes the chain
   * @param pow the PoW rule its headers pass
   * @param epochLength the length of every epoch after genesis
   */
  public ChainGenerator(long seed, Pow pow, int epochLength) {
    this.random = new Random(seed);
    this.pow = pow;
    this.epochLength = epochLength;
    this.genesis = Header.builder()
        .compactTarget(EASY_COMPACT_TARGET)
        .timestamp(GENESIS_MILLIS)
        .epoch(EpochNumberWithFraction.GENESIS)
        .transactionsRoot(randomHash())
        .dao(randomHash())
        .build();
    this.consensus = Consensus.dev(CkbNetwork.dev("ckb_dev", genesis.hash().toBytes()), pow);
  }

  /** The genesis header. */
  public Header genesis() {
    return genesis;
  }

  /** The rules the chain follows: a dev network named by this genesis, with this PoW rule. */
  public Consensus consensus() {
    return consensus;
  }

  /**
   * {@code count} headers after {@code parent}, each the child of the one before.
   *
   * @param parent the header to extend
   * @param count how many
   * @return the headers
   */
  public List<Header> extend(Header parent, int count) {
    return extend(parent, count, parent.compactTarget());
  }

  /**
   * {@code count} headers after {@code parent}, the ones of a new epoch with {@code nextTarget}
   * (a header chain may set any target at an epoch's start).
   *
   * @param parent the header to extend
   * @param count how many
   * @param nextTarget the compact target from the next epoch on
   * @return the headers
   */
  public List<Header> extend(Header parent, int count, int nextTarget) {
    List<Header> out = new ArrayList<>(count);
    Header previous = parent;
    for (int i = 0; i < count; i++) {
      previous = child(previous, nextTarget);
      out.add(previous);
    }
    return out;
  }

  /** The chain from genesis: genesis then {@code count} headers. */
  public List<Header> chain(int count) {
    List<Header> out = new ArrayList<>(count + 1);
    out.add(genesis);
    out.addAll(extend(genesis, count));
    return out;
  }

  private Header child(Header parent, int nextTarget) {
    EpochNumberWithFraction epoch = parent.epoch().isGenesis()
        ? EpochNumberWithFraction.of(0, 1, epochLength)
        : parent.epoch().successor(epochLength);
    int target = epoch.number() == parent.epoch().number() ? parent.compactTarget() : nextTarget;
    Header.Builder builder = Header.builder()
        .compactTarget(target)
        .timestamp(parent.timestamp() + 6_000 + random.nextInt(4_000))
        .number(parent.number() + 1)
        .epoch(epoch)
        .parentHash(parent.hash())
        .transactionsRoot(randomHash())
        .proposalsHash(random.nextInt(4) == 0 ? randomHash() : Byte32.ZERO)
        .extraHash(random.nextInt(8) == 0 ? randomHash() : Byte32.ZERO)
        .dao(randomHash());
    return mine(builder);
  }

  private Header mine(Header.Builder builder) {
    BigInteger start = new BigInteger(64, random);
    Header header = builder.nonce(start).build();
    if (pow == Pow.DUMMY) {
      return header;
    }
    byte[] message = header.powMessage();
    byte[] target = CompactTarget.toTargetBytes(header.compactTarget());
    byte[] out = new byte[Eaglesong.HASH_SIZE_IN_BYTES];
    for (long tries = 0; ; tries++) {
      setNonce(message, start.longValue() + tries);
      eaglesong.hash(message, 0, message.length, out, 0);
      byte[] output = pow == Pow.EAGLESONG ? out : Ckbhash.hash(out);
      if (Arrays.compareUnsigned(output, target) <= 0) {
        return builder.nonce(new BigInteger(Long.toUnsignedString(start.longValue() + tries))).build();
      }
    }
  }

  private static void setNonce(byte[] message, long nonce) {
    for (int i = 0; i < 8; i++) {
      message[Byte32.SIZE_IN_BYTES + i] = (byte) (nonce >>> (8 * i));
    }
  }

  private Byte32 randomHash() {
    byte[] bytes = new byte[Byte32.SIZE_IN_BYTES];
    random.nextBytes(bytes);
    return Byte32.of(bytes);
  }
}
