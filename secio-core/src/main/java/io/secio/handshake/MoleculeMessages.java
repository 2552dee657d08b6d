package io.secio.handshake;

import io.secio.SecioException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Translates tentacle's Propose and Exchange (docs/PROTOCOL.md section 14.1; schema {@code handshake.mol} of
 * tentacle-secio) between molecule bytes and the plain values the engine works on: the tentacle
 * dialect's counterpart of {@link ProtobufMessages}. Stateless.
 *
 * <pre>
 * every number is a u32, little-endian
 *
 * table    | total size | offset 0 | offset 1 | ... | offset n-1 | field 0 | field 1 | ... |
 *            total size counts the whole table, itself included;
 *            offset i is where field i starts, from the start of the table; field i ends where
 *            field i+1 starts (the last one at total size); offset 0 = 4 * (1 + n) gives n
 * fixvec   | count | count bytes |                  (molecule's vector &lt;byte&gt;)
 * union    | item id | item |
 *
 * Propose  = table { rand: Bytes, pubkey: Bytes, exchanges: String, ciphers: String, hashes: String }
 * Exchange = table { epubkey: Bytes, signature: Bytes }
 * Bytes, String, Secp256k1 = fixvec
 * pubkey holds  union PublicKey { Secp256k1 }  = | 00000000 | 21000000 | 33-byte compressed key |
 * </pre>
 *
 * <p>Decoding is molecule's "compatible" verification, which is what tentacle runs: the total size
 * must equal the message length, offset 0 must be a multiple of 4 naming at least the known fields,
 * the offsets must ascend within the table, and each known field must be a fixvec whose count is
 * exactly its length. Extra trailing fields (a newer peer's table) are accepted and skipped; the
 * whole message, extra fields included, is bounded by the handshake message cap the engine checks
 * first ({@link io.secio.SecioConfig#maxHandshakeMessageLength()}). Strings must be UTF-8, as
 * tentacle requires. Anything else is a {@link SecioException.Reason#MALFORMED_MESSAGE}; proposal
 * lists over the limits of {@link ProtobufMessages} are {@link
 * SecioException.Reason#PROPOSAL_TOO_LONG}, as in the libp2p dialect.
 */
final class MoleculeMessages {
  /** Every number in molecule: a u32, little-endian. */
  static final int NUMBER_SIZE_IN_BYTES = 4;
  static final int PROPOSE_FIELD_COUNT = 5;
  static final int EXCHANGE_FIELD_COUNT = 2;
  /** The union item id of {@code Secp256k1} in {@code union PublicKey}. */
  static final int SECP256K1_ITEM_ID = 0;

  private MoleculeMessages() {}

  static byte[] encodePropose(Propose p) {
    return table(
        fixvec(p.rand()),
        fixvec(p.pubkey()),
        fixvec(utf8(p.exchanges())),
        fixvec(utf8(p.ciphers())),
        fixvec(utf8(p.hashes())));
  }

  /** A Propose; its nonce must be 16 bytes, its pubkey field is returned as it is (a union). */
  static Propose decodePropose(byte[] bytes) throws SecioException {
    byte[][] f = fields(bytes, PROPOSE_FIELD_COUNT, "Propose");
    if (f[0].length != Propose.NONCE_SIZE_IN_BYTES) {
      throw malformed("Propose nonce is " + f[0].length + " bytes, not 16");
    }
    String exchanges = utf8(f[2]);
    String ciphers = utf8(f[3]);
    String hashes = utf8(f[4]);
    Propose.checkBounded(exchanges, "exchanges");
    Propose.checkBounded(ciphers, "ciphers");
    Propose.checkBounded(hashes, "hashes");
    return new Propose(f[0], f[1], exchanges, ciphers, hashes);
  }

  static byte[] encodeExchange(Exchange e) {
    return table(fixvec(e.epubkey()), fixvec(e.signature()));
  }

  static Exchange decodeExchange(byte[] bytes) throws SecioException {
    byte[][] f = fields(bytes, EXCHANGE_FIELD_COUNT, "Exchange");
    return new Exchange(f[0], f[1]);
  }

  /** {@code union PublicKey} holding a {@code Secp256k1} key: what goes in Propose.pubkey. */
  static byte[] encodePublicKey(byte[] secp256k1Key) {
    byte[] key = fixvec(secp256k1Key);
    return ByteBuffer.allocate(NUMBER_SIZE_IN_BYTES + key.length)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putInt(SECP256K1_ITEM_ID)
        .put(key)
        .array();
  }

  /** The key bytes inside a {@code union PublicKey}; only the {@code Secp256k1} item exists. */
  static byte[] decodePublicKey(byte[] union) throws SecioException {
    if (union.length < NUMBER_SIZE_IN_BYTES) {
      throw malformed("PublicKey union shorter than its item id");
    }
    if (u32(union, 0) != SECP256K1_ITEM_ID) {
      throw malformed("PublicKey union item is not Secp256k1");
    }
    return fixvecAt(union, NUMBER_SIZE_IN_BYTES, union.length, "Secp256k1");
  }

  /**
   * Whether {@code bytes} begin like a molecule table of at least {@code fieldCount} fields that is
   * exactly {@code length} bytes long: the total size equals {@code length} and offset 0 is a
   * multiple of 4 inside the table. Needs the first 8 bytes; false when there are fewer.
   */
  static boolean startsLikeTable(ByteBuffer bytes, int length, int fieldCount) {
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

  /** The first {@code known} fields' contents (fixvec bodies) of a table; checks the whole header. */
  private static byte[][] fields(byte[] bytes, int known, String what) throws SecioException {
    if (bytes.length < NUMBER_SIZE_IN_BYTES || u32(bytes, 0) != bytes.length) {
      throw malformed(what + " total size is not its length");
    }
    if (!startsLikeTable(ByteBuffer.wrap(bytes), bytes.length, known)) {
      throw malformed(what + " header is inconsistent");
    }
    int count = (int) (u32(bytes, NUMBER_SIZE_IN_BYTES) / NUMBER_SIZE_IN_BYTES) - 1;
    long[] offsets = new long[count + 1];
    for (int i = 0; i < count; i++) {
      offsets[i] = u32(bytes, NUMBER_SIZE_IN_BYTES * (1 + i));
    }
    offsets[count] = bytes.length;
    for (int i = 0; i < count; i++) {
      if (offsets[i] > offsets[i + 1]) {
        throw malformed(what + " offsets do not ascend");
      }
    }
    byte[][] out = new byte[known][];
    for (int i = 0; i < known; i++) {
      out[i] = fixvecAt(bytes, (int) offsets[i], (int) offsets[i + 1], what + " field " + i);
    }
    return out;
  }

  /** The body of the fixvec that fills {@code bytes[from, to)} exactly. */
  private static byte[] fixvecAt(byte[] bytes, int from, int to, String what)
      throws SecioException {
    if (to - from < NUMBER_SIZE_IN_BYTES) {
      throw malformed(what + " shorter than its count");
    }
    if (u32(bytes, from) != to - from - NUMBER_SIZE_IN_BYTES) {
      throw malformed(what + " count does not match its size");
    }
    return Arrays.copyOfRange(bytes, from + NUMBER_SIZE_IN_BYTES, to);
  }

  private static byte[] table(byte[]... fields) {
    int header = NUMBER_SIZE_IN_BYTES * (1 + fields.length);
    int total = header;
    for (byte[] f : fields) {
      total += f.length;
    }
    ByteBuffer out = ByteBuffer.allocate(total).order(ByteOrder.LITTLE_ENDIAN).putInt(total);
    int offset = header;
    for (byte[] f : fields) {
      out.putInt(offset);
      offset += f.length;
    }
    for (byte[] f : fields) {
      out.put(f);
    }
    return out.array();
  }

  private static byte[] fixvec(byte[] body) {
    return ByteBuffer.allocate(NUMBER_SIZE_IN_BYTES + body.length)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putInt(body.length)
        .put(body)
        .array();
  }

  private static long u32(byte[] bytes, int at) {
    return Integer.toUnsignedLong(ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(at));
  }

  private static byte[] utf8(String names) {
    return names.getBytes(StandardCharsets.UTF_8);
  }

  private static String utf8(byte[] bytes) throws SecioException {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw malformed("a proposal list is not UTF-8");
    }
  }

  private static SecioException malformed(String detail) {
    return new SecioException(SecioException.Reason.MALFORMED_MESSAGE, detail);
  }
}
