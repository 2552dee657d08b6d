package io.secio.ckb.message;

import io.secio.molecule.Molecule;
import io.secio.molecule.MoleculeException;
import java.util.List;
import java.util.Map;

/**
 * A type of CKB's molecule schemas ({@code blockchain.mol}, {@code extensions.mol}, {@code
 * protocols.mol}), verified exactly as molecule's generated Rust readers verify it: {@code
 * from_slice} is {@code verify(…, false)} (strict: a table with more fields than declared is refused),
 * {@code from_compatible_slice} is {@code verify(…, true)} (extra trailing fields are skipped, at every
 * depth). A verified slice is then read with {@link Slice} without further checks.
 *
 * <pre>
 * fixed (array, struct)  exactly its size
 * fixvec                 | count | count * item size |              empty: | 00000000 |
 * dynvec, table          | total | offset 0 .. offset n-1 | items |  empty: | 04000000 |
 *                        offset 0 = 4 * (n + 1); offsets ascend; the last item ends at total
 * option                 nothing (None) or the item
 * union                  | item id | item |
 * </pre>
 *
 * <p>Immutable; the schema's types are constants ({@link CkbTypes}).
 */
abstract class MoleculeType {
  private static final int N = Molecule.NUMBER_SIZE_IN_BYTES;

  private final String name;

  private MoleculeType(String name) {
    this.name = name;
  }

  /** The schema's name of the type. */
  final String name() {
    return name;
  }

  /** Checks {@code b[from, to)} is a value of this type; {@code compatible} as molecule's flag. */
  abstract void verify(byte[] b, int from, int to, boolean compatible) throws MoleculeException;

  /** Checks all of {@code b}. */
  final void verify(byte[] b, boolean compatible) throws MoleculeException {
    verify(b, 0, b.length, compatible);
  }

  static MoleculeType fixed(String name, int size) {
    return new MoleculeType(name) {
      @Override
      void verify(byte[] b, int from, int to, boolean compatible) throws MoleculeException {
        if (to - from != size) {
          throw new MoleculeException(name + " is " + size + " bytes, not " + (to - from));
        }
      }
    };
  }

  static MoleculeType fixvec(String name, int itemSize) {
    return new MoleculeType(name) {
      @Override
      void verify(byte[] b, int from, int to, boolean compatible) throws MoleculeException {
        int length = to - from;
        if (length < N) {
          throw new MoleculeException(name + " shorter than its count");
        }
        long count = Molecule.u32(b, from);
        if (length != N + count * itemSize) {
          throw new MoleculeException(name + " count " + count + " does not match its size " + length);
        }
      }
    };
  }

  static MoleculeType dynvec(String name, MoleculeType item) {
    return new MoleculeType(name) {
      @Override
      void verify(byte[] b, int from, int to, boolean compatible) throws MoleculeException {
        long[] offsets = header(name, b, from, to, true);
        for (int i = 0; i + 1 < offsets.length; i++) {
          item.verify(b, from + (int) offsets[i], from + (int) offsets[i + 1], compatible);
        }
      }
    };
  }

  static MoleculeType table(String name, MoleculeType... fields) {
    List<MoleculeType> declared = List.of(fields);
    return new MoleculeType(name) {
      @Override
      void verify(byte[] b, int from, int to, boolean compatible) throws MoleculeException {
        if (declared.isEmpty()) {
          // molecule's reader of a table without fields looks no further than its total size.
          totalSize(name, b, from, to);
          if (to - from > N && !compatible) {
            throw new MoleculeException(name + " has fields; it declares none");
          }
          return;
        }
        long[] offsets = header(name, b, from, to, false);
        int count = offsets.length - 1;
        if (count < declared.size() || (!compatible && count > declared.size())) {
          throw new MoleculeException(name + " has " + count + " fields, not " + declared.size());
        }
        for (int i = 0; i < declared.size(); i++) {
          declared.get(i).verify(b, from + (int) offsets[i], from + (int) offsets[i + 1], compatible);
        }
      }
    };
  }

  static MoleculeType option(String name, MoleculeType item) {
    return new MoleculeType(name) {
      @Override
      void verify(byte[] b, int from, int to, boolean compatible) throws MoleculeException {
        if (to > from) {
          item.verify(b, from, to, compatible);
        }
      }
    };
  }

  static MoleculeType union(String name, Map<Integer, MoleculeType> items) {
    return new MoleculeType(name) {
      @Override
      void verify(byte[] b, int from, int to, boolean compatible) throws MoleculeException {
        if (to - from < N) {
          throw new MoleculeException(name + " shorter than its item id");
        }
        long id = Molecule.u32(b, from);
        MoleculeType item = id > Integer.MAX_VALUE ? null : items.get((int) id);
        if (item == null) {
          throw new MoleculeException(name + " has no item " + id);
        }
        item.verify(b, from + N, to, compatible);
      }
    };
  }

  private static void totalSize(String name, byte[] b, int from, int to) throws MoleculeException {
    if (to - from < N) {
      throw new MoleculeException(name + " shorter than its size");
    }
    if (Molecule.u32(b, from) != to - from) {
      throw new MoleculeException(name + " total size is not its length");
    }
  }

  /**
   * The offsets of a table's fields or a dynvec's items, checked as molecule checks them, with the
   * total size appended; a dynvec of 4 bytes is empty.
   */
  private static long[] header(String name, byte[] b, int from, int to, boolean dynvec) throws MoleculeException {
    totalSize(name, b, from, to);
    int length = to - from;
    if (dynvec && length == N) {
      return new long[] {N};
    }
    if (length < 2 * N) {
      throw new MoleculeException(name + " header is cut short");
    }
    long first = Molecule.u32(b, from + N);
    if (first % N != 0 || first < 2 * N) {
      throw new MoleculeException(name + " first offset is not a header's end");
    }
    if (length < first) {
      throw new MoleculeException(name + " header is longer than it");
    }
    int count = (int) (first / N) - 1;
    long[] offsets = new long[count + 1];
    for (int i = 0; i < count; i++) {
      offsets[i] = Molecule.u32(b, from + N * (1 + i));
    }
    offsets[count] = length;
    for (int i = 0; i < count; i++) {
      if (offsets[i] > offsets[i + 1]) {
        throw new MoleculeException(name + " offsets do not ascend");
      }
    }
    return offsets;
  }
}
