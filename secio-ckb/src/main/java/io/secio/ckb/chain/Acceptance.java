package io.secio.ckb.chain;

import io.secio.ckb.header.Byte32;
import io.secio.ckb.header.HeaderException;
import java.util.List;
import java.util.Optional;

/**
 * What a follower made of one {@code SendHeaders}: how many headers were new and stored, the main
 * chain's tip afterwards, and what to send next.
 *
 * @param received how many headers the message held
 * @param added how many of them were new and are now stored
 * @param tip the main chain's tip after the batch
 * @param tipChanged whether the tip moved (along the same chain or to another branch)
 * @param nextLocator the locator of the next {@code GetHeaders} when the batch was full (2000
 *     headers: the peer has more), empty when the peer is out of headers ("synced")
 * @param deferred a header whose timestamp is ahead of the clock: it and the rest of the batch
 *     were left for later, as a CKB node does, without blame
 */
public record Acceptance(int received, int added, Tip tip, boolean tipChanged,
    Optional<List<Byte32>> nextLocator, Optional<HeaderException> deferred) {
  /** Whether the peer has no more headers for us: it sent fewer than 2000. */
  public boolean synced() {
    return nextLocator.isEmpty();
  }
}
