package io.secio.ckb.lightclient;

import io.secio.ckb.header.CompactTarget;
import io.secio.ckb.header.Consensus;
import io.secio.ckb.header.Header;
import io.secio.ckb.header.HeaderException;
import io.secio.ckb.header.HeaderRule;
import io.secio.ckb.header.HeaderVerifier;
import java.math.BigInteger;
import java.time.Clock;
import java.util.Objects;

/**
 * Checks a server's {@code SendLastState} as CKB's light client does before it asks for proofs:
 * the header's PoW under the network's rule, the chain-root rule (after the network's activation
 * epoch a non-genesis header's extension starts with ckbhash(parent chain root); a genesis header
 * comes with an all-zero root), {@code extra_hash} against the uncles hash and extension, and a
 * tip at most 24 hours old.
 *
 * <p>What it cannot check alone: that the parent chain root is the root of the chain the header
 * extends (that takes the MMR proofs of {@code SendLastStateProof}), hence that its total
 * difficulty is real.
 *
 * <p>Immutable and thread-safe.
 */
public final class LastStateVerifier {
  /** A tip older than this means the server is still syncing (the light client's {@code MAX_TIP_AGE}). */
  public static final long MAX_TIP_AGE_MILLIS = 24 * 60 * 60 * 1000L;

  private final Consensus consensus;
  private final HeaderVerifier headers;
  private final Clock clock;

  /**
   * A verifier for {@code consensus}'s network.
   *
   * @param consensus the network's rules
   * @param clock the local clock, for the tip's age
   */
  public LastStateVerifier(Consensus consensus, Clock clock) {
    this.consensus = Objects.requireNonNull(consensus, "consensus");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.headers = new HeaderVerifier(consensus, clock);
  }

  /**
   * Checks {@code last} and gives its total difficulty: the parent root's plus its own.
   *
   * @param last the server's tip
   * @return the total difficulty the server claims for it
   * @throws HeaderException with {@link HeaderRule#POW}, {@link HeaderRule#COMPACT_TARGET_INVALID},
   *     {@link HeaderRule#CHAIN_ROOT}, {@link HeaderRule#EXTRA_HASH} or {@link HeaderRule#TIP_TOO_OLD}
   */
  public BigInteger verify(VerifiableHeader last) throws HeaderException {
    Header header = last.header();
    headers.verifyPow(header);
    if (consensus.hasChainRoot(header.epoch())) {
      if (header.isGenesis() ? !last.parentChainRoot().isZero()
          : !last.extensionStartsWith(last.parentChainRoot().mmrHash())) {
        throw new HeaderException(HeaderRule.CHAIN_ROOT, header, header.isGenesis()
            ? "a genesis header with a parent chain root"
            : "the extension does not start with the parent chain root's hash " + last.parentChainRoot().mmrHash());
      }
    }
    if (!last.expectedExtraHash().equals(header.extraHash())) {
      throw new HeaderException(HeaderRule.EXTRA_HASH, header,
          "extra hash " + header.extraHash() + ", the uncles hash and extension give " + last.expectedExtraHash());
    }
    long now = clock.millis();
    // A tip from the future has age 0, as the light client's saturating subtraction gives.
    long age = Long.compareUnsigned(header.timestamp(), now) >= 0 ? 0 : now - header.timestamp();
    if (age > MAX_TIP_AGE_MILLIS) {
      throw new HeaderException(HeaderRule.TIP_TOO_OLD, header, "the tip is " + age / 1000 + " s old");
    }
    BigInteger own = CompactTarget.isValid(header.compactTarget())
        ? CompactTarget.toDifficulty(header.compactTarget()) : BigInteger.ZERO;
    return last.parentChainRoot().totalDifficulty().add(own);
  }
}
