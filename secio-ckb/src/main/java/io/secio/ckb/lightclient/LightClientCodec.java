package io.secio.ckb.lightclient;

import io.secio.ckb.header.Byte32;
import io.secio.ckb.header.Header;
import io.secio.molecule.Molecule;
import io.secio.molecule.MoleculeException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Optional;

/**
 * The molecule codec of {@link LightClientMessage}: a union (u32 item id, then the item) of tables.
 * Reading is strict, as the full node's: every table has exactly its declared fields, every struct
 * its size, a {@code Bool} is 0 or 1, and the bytes end where the message does.
 *
 * <pre>
 * GetLastState     table { subscribe: Bool }
 * SendLastState    table { last_header: VerifiableHeader }
 * VerifiableHeader table { header: Header (208), uncles_hash: Byte32, extension: BytesOpt,
 *                          parent_chain_root: HeaderDigest (120) }
 * </pre>
 *
 * <p>Stateless and thread-safe.
 */
public final class LightClientCodec {
  /** Union id of {@code GetLastState}. */
  public static final int GET_LAST_STATE = 0;
  /** Union id of {@code SendLastState}. */
  public static final int SEND_LAST_STATE = 1;
  /** The union's last id ({@code SendTransactionsProof}). */
  private static final int LAST_ITEM = 7;

  private LightClientCodec() {}

  /**
   * The bytes of {@code message}, as they go after the compress codec's flag.
   *
   * @param message the message
   * @return the union's bytes
   */
  public static byte[] encode(LightClientMessage message) {
    if (message instanceof LightClientMessage.GetLastState get) {
      return union(GET_LAST_STATE, Molecule.table(new byte[] {(byte) (get.subscribe() ? 1 : 0)}));
    }
    LightClientMessage.SendLastState send = (LightClientMessage.SendLastState) message;
    return union(SEND_LAST_STATE, Molecule.table(encode(send.lastHeader())));
  }

  /**
   * The molecule {@code VerifiableHeader} table of {@code header}.
   *
   * @param header the verifiable header
   * @return its bytes
   */
  public static byte[] encode(VerifiableHeader header) {
    byte[] extension = header.extension().map(Molecule::fixvec).orElse(new byte[0]);
    return Molecule.table(header.header().toBytes(), header.unclesHash().toBytes(), extension,
        header.parentChainRoot().toBytes());
  }

  /**
   * The message {@code bytes} hold.
   *
   * @param bytes one message, exactly
   * @return the message
   * @throws LightClientMessageException if the bytes are no strict {@code GetLastState} or
   *     {@code SendLastState} (another item of the union is refused as not supported here)
   */
  public static LightClientMessage decode(byte[] bytes) throws LightClientMessageException {
    if (bytes.length < Molecule.NUMBER_SIZE_IN_BYTES) {
      throw new LightClientMessageException("LightClientMessage shorter than its item id");
    }
    long id = Molecule.u32(bytes, 0);
    byte[] item = Arrays.copyOfRange(bytes, Molecule.NUMBER_SIZE_IN_BYTES, bytes.length);
    try {
      if (id == GET_LAST_STATE) {
        byte[] subscribe = strictTable(item, 1, "GetLastState")[0];
        if (subscribe.length != 1 || (subscribe[0] != 0 && subscribe[0] != 1)) {
          throw new LightClientMessageException("GetLastState subscribe is no Bool");
        }
        return new LightClientMessage.GetLastState(subscribe[0] == 1);
      }
      if (id == SEND_LAST_STATE) {
        return new LightClientMessage.SendLastState(decodeVerifiableHeader(strictTable(item, 1, "SendLastState")[0]));
      }
    } catch (MoleculeException e) {
      throw new LightClientMessageException(e.getMessage());
    }
    throw new LightClientMessageException(id <= LAST_ITEM
        ? "LightClientMessage item " + id + " is not supported here"
        : "LightClientMessage has no item " + id);
  }

  /**
   * The {@code VerifiableHeader} table that is exactly {@code bytes}, read strictly.
   *
   * @param bytes the table
   * @return the verifiable header
   * @throws LightClientMessageException if it is not one
   */
  public static VerifiableHeader decodeVerifiableHeader(byte[] bytes) throws LightClientMessageException {
    try {
      byte[][] fields = strictTable(bytes, 4, "VerifiableHeader");
      requireSize(fields[0], Header.SIZE_IN_BYTES, "VerifiableHeader header");
      requireSize(fields[1], Byte32.SIZE_IN_BYTES, "VerifiableHeader uncles_hash");
      requireSize(fields[3], HeaderDigest.SIZE_IN_BYTES, "VerifiableHeader parent_chain_root");
      Optional<byte[]> extension = fields[2].length == 0
          ? Optional.empty()
          : Optional.of(Molecule.fixvecBody(fields[2], "VerifiableHeader extension"));
      return new VerifiableHeader(Header.fromBytes(fields[0]), Byte32.of(fields[1]), extension,
          HeaderDigest.fromBytes(fields[3]));
    } catch (MoleculeException e) {
      throw new LightClientMessageException(e.getMessage());
    }
  }

  /** The fields of a table that has exactly {@code count} of them. */
  private static byte[][] strictTable(byte[] bytes, int count, String what)
      throws MoleculeException, LightClientMessageException {
    byte[][] fields = Molecule.tableFields(bytes, count, what);
    if (Molecule.u32(bytes, Molecule.NUMBER_SIZE_IN_BYTES) != (long) Molecule.NUMBER_SIZE_IN_BYTES * (count + 1)) {
      throw new LightClientMessageException(what + " has more fields than its " + count);
    }
    return fields;
  }

  private static void requireSize(byte[] field, int size, String what) throws LightClientMessageException {
    if (field.length != size) {
      throw new LightClientMessageException(what + " is " + field.length + " bytes, not " + size);
    }
  }

  private static byte[] union(int id, byte[] item) {
    return ByteBuffer.allocate(Molecule.NUMBER_SIZE_IN_BYTES + item.length).order(ByteOrder.LITTLE_ENDIAN)
        .putInt(id).put(item).array();
  }
}
