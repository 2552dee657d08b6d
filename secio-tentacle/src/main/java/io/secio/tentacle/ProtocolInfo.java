package io.secio.tentacle;

import io.secio.molecule.Molecule;
import io.secio.molecule.MoleculeException;
import io.secio.tentacle.TentacleException.Reason;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * tentacle's protocol-select message ({@code docs/STREAMS.md} §8.1), the molecule table of
 * tentacle's {@code protocol_select.mol}, and the listener's choice of a version. Immutable.
 *
 * <pre>
 * vector String &lt;byte&gt;;  vector StringVec &lt;String&gt;;
 * table ProtocolInfo { name: String, support_versions: StringVec }
 *
 * on a stream: | length (u32 BE) | ProtocolInfo (length bytes) |   (tentacle's LengthDelimitedCodec)
 * </pre>
 *
 * <p>Built and read with {@link Molecule}, the project's one molecule codec; decoding is molecule's
 * compatible verification plus strict UTF-8, as tentacle's {@code ProtocolInfo::decode}.
 */
record ProtocolInfo(String name, List<String> versions) {
  /** Fields of the table that this side knows. */
  static final int FIELD_COUNT = 2;

  ProtocolInfo {
    versions = List.copyOf(versions);
  }

  /** The table's bytes. */
  byte[] encode() {
    byte[][] items = new byte[versions.size()][];
    for (int i = 0; i < items.length; i++) {
      items[i] = Molecule.fixvec(versions.get(i).getBytes(StandardCharsets.UTF_8));
    }
    return Molecule.table(Molecule.fixvec(name.getBytes(StandardCharsets.UTF_8)), Molecule.dynvec(items));
  }

  /** The message in {@code bytes}, which must be exactly one table. */
  static ProtocolInfo decode(byte[] bytes) throws TentacleException {
    try {
      byte[][] fields = Molecule.tableFields(bytes, FIELD_COUNT, "ProtocolInfo");
      String name = Molecule.utf8(Molecule.fixvecBody(fields[0], "ProtocolInfo name"), "ProtocolInfo name");
      byte[][] items = Molecule.dynvecItems(fields[1], "ProtocolInfo support_versions");
      List<String> versions = new ArrayList<>(items.length);
      for (byte[] item : items) {
        versions.add(Molecule.utf8(Molecule.fixvecBody(item, "a version"), "a version"));
      }
      return new ProtocolInfo(name, versions);
    } catch (MoleculeException e) {
      throw new TentacleException(Reason.MALFORMED_SELECT, e.getMessage());
    }
  }

  /**
   * tentacle's {@code select_version(local, remote)}: walks both lists from their ends, moving down
   * the side whose version is greater (byte-wise, as Rust compares strings), and returns the first
   * version both hold; it assumes ascending lists, so an offer of {@code ["2","1"]} against {@code
   * ["1","2"]} gives "1". Null when there is none.
   */
  static String selectVersion(List<String> local, List<String> remote) {
    int l = local.size() - 1;
    int r = remote.size() - 1;
    while (l >= 0 && r >= 0) {
      int order = compareBytes(local.get(l), remote.get(r));
      if (order < 0) {
        r--;
      } else if (order > 0) {
        l--;
      } else {
        return local.get(l);
      }
    }
    return null;
  }

  private static int compareBytes(String a, String b) {
    return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }
}
