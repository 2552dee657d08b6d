package io.secio.molecule;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * molecule's building blocks, encoded and checked as molecule's "compatible" verification does
 * (what tentacle runs). Stateless; every method returns new arrays.
 *
 * <pre>
 * every number is a u32, little-endian
 *
 * table    | total size | offset 0 | offset 1 | ... | offset n-1 | field 0 | field 1 | ... |
 *            total size counts the whole table, itself included;
 *            offset i is where field i starts, from the start of the table; field i ends where
 *            field i+1 starts (the last one at total size); offset 0 = 4 * (1 + n) gives n
 * dynvec   | total size | offset 0 | ... | offset n-1 | item 0 | ... |   (a vector of tables or
 *            fixvecs; the same layout as a table; empty: | 04000000 |)
 * fixvec   | count | count bytes |                  (molecule's vector &lt;byte&gt;)
 * </pre>
 *
 * <p>A table may carry more fields than the reader knows (a newer peer's): they are accepted and
 * skipped, as molecule's compatible reading does. Every failure is a {@link MoleculeException} that
 * names the part, never the bytes.
 */
public final class Molecule {
  /** Every number in molecule: a u32, little-endian. */
  public static final int NUMBER_SIZE_IN_BYTES = 4;

  private Molecule() {}

  /**
   * A table of {@code fields}, each already encoded.
   *
   * @param fields the encoded fields, in the schema's order
   * @return the table
   */
  public static byte[] table(byte[]... fields) {
    return offsetsAndItems(fields);
  }

  /**
   * A dynvec of {@code items}, each already encoded ({@code vector StringVec <String>}).
   *
   * @param items the encoded items
   * @return the dynvec; 4 bytes when empty
   */
  public static byte[] dynvec(byte[]... items) {
    return offsetsAndItems(items);
  }

  /**
   * A fixvec of bytes ({@code vector Bytes <byte>}).
   *
   * @param body the bytes
   * @return count, then the bytes
   */
  public static byte[] fixvec(byte[] body) {
    return ByteBuffer.allocate(NUMBER_SIZE_IN_BYTES + body.length)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putInt(body.length)
        .put(body)
        .array();
  }

  private static byte[] offsetsAndItems(byte[][] parts) {
    int header = NUMBER_SIZE_IN_BYTES * (1 + parts.length);
    int total = header;
    for (byte[] p : parts) {
      total += p.length;
    }
    ByteBuffer out = ByteBuffer.allocate(total).order(ByteOrder.LITTLE_ENDIAN).putInt(total);
    int offset = header;
    for (byte[] p : parts) {
      out.putInt(offset);
      offset += p.length;
    }
    for (byte[] p : parts) {
      out.put(p);
    }
    return out.array();
  }

  /**
   * Whether {@code bytes} begin like a molecule table of at least {@code fieldCount} fields that is
   * exactly {@code length} bytes long: the total size equals {@code length} and offset 0 is a
   * multiple of 4 inside the table. Needs the first 8 bytes; false when there are fewer.
   *
   * @param bytes the message, from its position; not moved
   * @param length the message's length
   * @param fieldCount the fields the schema knows
   * @return whether the header is consistent
   */
  public static boolean startsLikeTable(ByteBuffer bytes, int length, int fieldCount) {
    if (bytes.remaining() < 2 * NUMBER_SIZE_IN_BYTES) {
      return false;
    }
    ByteBuffer le = bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    long total = Integer.toUnsignedLong(le.getInt(le.position()));
    long first = Integer.toUnsignedLong(le.getInt(le.position() + NUMBER_SIZE_IN_BYTES));
    return total == length
        && first % NUMBER_SIZE_IN_BYTES == 0
        && first >= (long) NUMBER_SIZE_IN_BYTES * (1 + fieldCount)
        && first <= total;
  }

  /**
   * The first {@code known} fields of the table that is exactly {@code bytes}, each as its raw
   * encoding (a fixvec, a dynvec, ...), after checking the whole header.
   *
   * @param bytes the table
   * @param known the fields the schema knows; extra ones are skipped
   * @param what the table's name, for the message
   * @return the fields' bytes
   * @throws MoleculeException if the header is inconsistent
   */
  public static byte[][] tableFields(byte[] bytes, int known, String what) throws MoleculeException {
    if (bytes.length < NUMBER_SIZE_IN_BYTES || u32(bytes, 0) != bytes.length) {
      throw new MoleculeException(what + " total size is not its length");
    }
    if (!startsLikeTable(ByteBuffer.wrap(bytes), bytes.length, known)) {
      throw new MoleculeException(what + " header is inconsistent");
    }
    return parts(bytes, what, known);
  }

  /**
   * The items of the dynvec that is exactly {@code bytes}, each as its raw encoding.
   *
   * @param bytes the dynvec
   * @param what the vector's name, for the message
   * @return the items' bytes
   * @throws MoleculeException if the header is inconsistent
   */
  public static byte[][] dynvecItems(byte[] bytes, String what) throws MoleculeException {
    if (bytes.length < NUMBER_SIZE_IN_BYTES || u32(bytes, 0) != bytes.length) {
      throw new MoleculeException(what + " total size is not its length");
    }
    if (bytes.length == NUMBER_SIZE_IN_BYTES) {
      return new byte[0][];
    }
    if (!startsLikeTable(ByteBuffer.wrap(bytes), bytes.length, 1)) {
      throw new MoleculeException(what + " header is inconsistent");
    }
    return parts(bytes, what, -1);
  }

  /** The parts of a checked table or dynvec header: the first {@code known}, or all if negative. */
  private static byte[][] parts(byte[] bytes, String what, int known) throws MoleculeException {
    int count = (int) (u32(bytes, NUMBER_SIZE_IN_BYTES) / NUMBER_SIZE_IN_BYTES) - 1;
    long[] offsets = new long[count + 1];
    for (int i = 0; i < count; i++) {
      offsets[i] = u32(bytes, NUMBER_SIZE_IN_BYTES * (1 + i));
    }
    offsets[count] = bytes.length;
    for (int i = 0; i < count; i++) {
      if (offsets[i] > offsets[i + 1]) {
        throw new MoleculeException(what + " offsets do not ascend");
      }
    }
    byte[][] out = new byte[known < 0 ? count : known][];
    for (int i = 0; i < out.length; i++) {
      out[i] = Arrays.copyOfRange(bytes, (int) offsets[i], (int) offsets[i + 1]);
    }
    return out;
  }

  /**
   * The body of the fixvec that is exactly {@code bytes}.
   *
   * @param bytes the fixvec
   * @param what its name, for the message
   * @return the bytes it holds
   * @throws MoleculeException if its count is not its size
   */
  public static byte[] fixvecBody(byte[] bytes, String what) throws MoleculeException {
    return fixvecBody(bytes, 0, bytes.length, what);
  }

  /**
   * The body of the fixvec that fills {@code bytes[from, to)} exactly.
   *
   * @param bytes holds the fixvec
   * @param from where it starts
   * @param to where it ends
   * @param what its name, for the message
   * @return the bytes it holds
   * @throws MoleculeException if its count is not its size
   */
  public static byte[] fixvecBody(byte[] bytes, int from, int to, String what)
      throws MoleculeException {
    if (to - from < NUMBER_SIZE_IN_BYTES) {
      throw new MoleculeException(what + " shorter than its count");
    }
    if (u32(bytes, from) != to - from - NUMBER_SIZE_IN_BYTES) {
      throw new MoleculeException(what + " count does not match its size");
    }
    return Arrays.copyOfRange(bytes, from + NUMBER_SIZE_IN_BYTES, to);
  }

  /**
   * {@code bytes} as strict UTF-8 (molecule's strings are bytes; tentacle requires UTF-8).
   *
   * @param bytes the string's bytes
   * @param what its name, for the message
   * @return the string
   * @throws MoleculeException if the bytes are not UTF-8
   */
  public static String utf8(byte[] bytes, String what) throws MoleculeException {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw new MoleculeException(what + " is not UTF-8");
    }
  }

  /**
   * The u32 little-endian number at {@code at}.
   *
   * @param bytes holds the number
   * @param at where it starts
   * @return its value
   */
  public static long u32(byte[] bytes, int at) {
    return Integer.toUnsignedLong(ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(at));
  }
}
