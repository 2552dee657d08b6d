package io.secio.ckb.message;

import io.secio.ckb.CkbException;
import io.secio.molecule.Molecule;
import io.secio.molecule.MoleculeException;
import java.nio.charset.StandardCharsets;

/**
 * The Identify table inside an {@link IdentifyMessage} ({@code extensions.mol}): flags, network name
 * and client version. Read strictly, as a node reads it: any failure here bans the sender for 300 s
 * ({@code identify/mod.rs}). Immutable.
 *
 * @param flag the sender's service flags
 * @param name the network's identify name, such as {@code /ckb/92b197aa}
 * @param clientVersion the sender's software and version
 */
public record Identify(long flag, String name, String clientVersion) {

  /** The table's bytes. */
  public byte[] encode() {
    return Molecule.table(Encoding.uint64(flag), Molecule.fixvec(name.getBytes(StandardCharsets.UTF_8)),
        Molecule.fixvec(clientVersion.getBytes(StandardCharsets.UTF_8)));
  }

  /**
   * Reads a peer's Identify: strict molecule, name and version in UTF-8.
   *
   * @throws CkbException {@code MALFORMED_MESSAGE} if it is not
   */
  public static Identify decode(byte[] bytes) throws CkbException {
    try {
      CkbTypes.IDENTIFY.verify(bytes, false);
      Slice table = Slice.of(bytes);
      return new Identify(table.field(0).u64(),
          Molecule.utf8(table.field(1).fixvecBody(), "name"),
          Molecule.utf8(table.field(2).fixvecBody(), "client version"));
    } catch (MoleculeException e) {
      throw Malformed.of("an Identify", e);
    }
  }
}
