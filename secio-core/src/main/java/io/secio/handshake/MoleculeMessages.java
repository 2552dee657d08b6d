package io.secio.handshake;

import io.secio.molecule.Molecule;
import io.secio.molecule.MoleculeException;
import io.secio.protocol.SecioException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Translates tentacle's Propose and Exchange (docs/PROTOCOL.md section 14.1; schema {@code handshake.mol} of
 * tentacle-secio) between molecule bytes and the plain values the engine works on: the tentacle
 * dialect's counterpart of {@link ProtobufMessages}. Stateless.
 *
 * <pre>
 * tables and fixvecs as {@link Molecule} (the one molecule codec) lays them out;
 * union    | item id (u32 LE) | item |
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
  static final int NUMBER_SIZE_IN_BYTES = Molecule.NUMBER_SIZE_IN_BYTES;
  static final int PROPOSE_FIELD_COUNT = 5;
  static final int EXCHANGE_FIELD_COUNT = 2;
  /** The union item id of {@code Secp256k1} in {@code union PublicKey}. */
  static final int SECP256K1_ITEM_ID = 0;

  private MoleculeMessages() {}

  static byte[] encodePropose(Propose p) {
    return Molecule.table(
        Molecule.fixvec(p.rand()),
        Molecule.fixvec(p.pubkey()),
        Molecule.fixvec(utf8(p.exchanges())),
        Molecule.fixvec(utf8(p.ciphers())),
        Molecule.fixvec(utf8(p.hashes())));
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
    return Molecule.table(Molecule.fixvec(e.epubkey()), Molecule.fixvec(e.signature()));
  }

  static Exchange decodeExchange(byte[] bytes) throws SecioException {
    byte[][] f = fields(bytes, EXCHANGE_FIELD_COUNT, "Exchange");
    return new Exchange(f[0], f[1]);
  }

  /** {@code union PublicKey} holding a {@code Secp256k1} key: what goes in Propose.pubkey. */
  static byte[] encodePublicKey(byte[] secp256k1Key) {
    byte[] key = Molecule.fixvec(secp256k1Key);
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
    if (Molecule.u32(union, 0) != SECP256K1_ITEM_ID) {
      throw malformed("PublicKey union item is not Secp256k1");
    }
    try {
      return Molecule.fixvecBody(union, NUMBER_SIZE_IN_BYTES, union.length, "Secp256k1");
    } catch (MoleculeException e) {
      throw malformed(e.getMessage());
    }
  }

  /**
   * Whether {@code bytes} begin like a molecule table of at least {@code fieldCount} fields that is
   * exactly {@code length} bytes long ({@link Molecule#startsLikeTable}).
   */
  static boolean startsLikeTable(ByteBuffer bytes, int length, int fieldCount) {
    return Molecule.startsLikeTable(bytes, length, fieldCount);
  }

  /** The first {@code known} fields' contents (fixvec bodies) of a table; checks the whole header. */
  private static byte[][] fields(byte[] bytes, int known, String what) throws SecioException {
    try {
      byte[][] raw = Molecule.tableFields(bytes, known, what);
      byte[][] out = new byte[known][];
      for (int i = 0; i < known; i++) {
        out[i] = Molecule.fixvecBody(raw[i], what + " field " + i);
      }
      return out;
    } catch (MoleculeException e) {
      throw malformed(e.getMessage());
    }
  }

  private static byte[] utf8(String names) {
    return names.getBytes(StandardCharsets.UTF_8);
  }

  private static String utf8(byte[] bytes) throws SecioException {
    try {
      return Molecule.utf8(bytes, "a proposal list");
    } catch (MoleculeException e) {
      throw malformed(e.getMessage());
    }
  }

  private static SecioException malformed(String detail) {
    return new SecioException(SecioException.Reason.MALFORMED_MESSAGE, detail);
  }
}
