package io.secio.ckb.message;

import io.secio.ckb.CkbException;
import io.secio.molecule.Molecule;
import io.secio.molecule.MoleculeException;

/**
 * {@code /ckb/tim}'s message ({@code extensions.mol} {@code Time}): the sender's clock in
 * milliseconds since the epoch. Read strictly, as a node reads it (a malformed one bans for 300 s).
 * Immutable.
 *
 * @param timestamp milliseconds since 1970, a u64
 */
public record TimeMessage(long timestamp) {

  /** The message's bytes. */
  public byte[] encode() {
    return Molecule.table(Encoding.uint64(timestamp));
  }

  /**
   * Reads a peer's message.
   *
   * @throws CkbException {@code MALFORMED_MESSAGE} if it is not a strict Time
   */
  public static TimeMessage decode(byte[] bytes) throws CkbException {
    try {
      CkbTypes.TIME.verify(bytes, false);
    } catch (MoleculeException e) {
      throw Malformed.of("a Time", e);
    }
    return new TimeMessage(Slice.of(bytes).field(0).u64());
  }
}
