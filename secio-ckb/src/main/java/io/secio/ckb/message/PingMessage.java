package io.secio.ckb.message;

import io.secio.ckb.CkbException;
import io.secio.molecule.Molecule;
import io.secio.molecule.MoleculeException;

/**
 * {@code /ckb/ping}'s message ({@code protocols.mol} {@code PingMessage}): a Ping or a Pong with a
 * nonce. Read as a node reads it: compatible molecule. Immutable.
 *
 * @param pong whether it is a Pong (else a Ping)
 * @param nonce the nonce, a u32
 */
public record PingMessage(boolean pong, long nonce) {

  /** A Ping. */
  public static PingMessage ping(long nonce) {
    return new PingMessage(false, nonce);
  }

  /** The Pong answering a Ping of {@code nonce}. */
  public static PingMessage pong(long nonce) {
    return new PingMessage(true, nonce);
  }

  /** The message's bytes. */
  public byte[] encode() {
    return Molecule.table(Encoding.union(pong ? CkbTypes.PONG : CkbTypes.PING, Molecule.table(Encoding.uint32(nonce))));
  }

  /**
   * Reads a peer's message.
   *
   * @throws CkbException {@code MALFORMED_MESSAGE} if it is not a PingMessage
   */
  public static PingMessage decode(byte[] bytes) throws CkbException {
    try {
      CkbTypes.PING_MESSAGE.verify(bytes, true);
    } catch (MoleculeException e) {
      throw Malformed.of("a PingMessage", e);
    }
    Slice payload = Slice.of(bytes).field(0);
    return new PingMessage(payload.unionId() == CkbTypes.PONG, payload.unionItem().field(0).u32());
  }
}
