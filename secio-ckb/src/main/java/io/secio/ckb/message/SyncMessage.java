package io.secio.ckb.message;

import io.secio.ckb.CkbException;
import io.secio.molecule.Molecule;
import io.secio.molecule.MoleculeException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code /ckb/syn}'s messages ({@code extensions.mol} {@code SyncMessage}, union ids 0, 1, 2, 3 and
 * 8), read as a node reads them ({@code synchronizer/mod.rs}): compatible molecule, then strict again
 * for every item but SendBlock, whose table may have no extra field and whose block at most one (a
 * BlockV1's extension). Items stay raw molecule slices: hashes of 32 bytes, headers of 208.
 */
public sealed interface SyncMessage {

  /**
   * Asks for the headers after the first locator hash the receiver has on its main chain.
   *
   * @param hashStop the hash to stop before, or zeros
   * @param locator newest first, genesis last
   */
  record GetHeaders(byte[] hashStop, List<byte[]> locator) implements SyncMessage {
    @Override
    public byte[] encode() {
      return message(CkbTypes.GET_HEADERS, Molecule.table(hashStop, fixvec(locator)));
    }
  }

  /**
   * Headers, each the raw 208 bytes of a molecule {@code Header}.
   *
   * @param headers the headers, in chain order
   */
  record SendHeaders(List<byte[]> headers) implements SyncMessage {
    @Override
    public byte[] encode() {
      return message(CkbTypes.SEND_HEADERS, Molecule.table(fixvec(headers)));
    }
  }

  /**
   * Asks for blocks by hash.
   *
   * @param hashes the blocks' hashes
   */
  record GetBlocks(List<byte[]> hashes) implements SyncMessage {
    @Override
    public byte[] encode() {
      return message(CkbTypes.GET_BLOCKS, Molecule.table(fixvec(hashes)));
    }
  }

  /**
   * A block, kept as its raw molecule {@code Block} (or {@code BlockV1}).
   *
   * @param block the block's bytes
   */
  record SendBlock(byte[] block) implements SyncMessage {
    @Override
    public byte[] encode() {
      return message(CkbTypes.SEND_BLOCK, Molecule.table(block));
    }
  }

  /** The sender is in its initial block download: it serves no headers. */
  record InIbd() implements SyncMessage {
    @Override
    public byte[] encode() {
      return message(CkbTypes.IN_IBD, Molecule.table());
    }
  }

  /** The message's bytes. */
  byte[] encode();

  private static byte[] message(int id, byte[] item) {
    return Encoding.union(id, item);
  }

  /** A fixvec of fixed-size items given one by one. */
  private static byte[] fixvec(List<byte[]> items) {
    int size = 0;
    for (byte[] i : items) {
      size += i.length;
    }
    ByteBuffer out = ByteBuffer.allocate(Molecule.NUMBER_SIZE_IN_BYTES + size).order(ByteOrder.LITTLE_ENDIAN);
    out.putInt(items.size());
    items.forEach(out::put);
    return out.array();
  }

  /**
   * Reads a peer's message with a node's strictness.
   *
   * @throws CkbException {@code MALFORMED_MESSAGE} (a node bans 300 s for it)
   */
  static SyncMessage decode(byte[] bytes) throws CkbException {
    try {
      CkbTypes.SYNC_MESSAGE.verify(bytes, true);
    } catch (MoleculeException e) {
      throw Malformed.of("a SyncMessage", e);
    }
    Slice union = Slice.of(bytes);
    Slice item = union.unionItem();
    if (union.unionId() == CkbTypes.SEND_BLOCK) {
      if (item.fieldCount() > 1 || item.field(0).fieldCount() > 5) {
        throw Malformed.of("a SendBlock with too many fields");
      }
      return new SendBlock(item.field(0).toBytes());
    }
    try {
      CkbTypes.SYNC_MESSAGE.verify(bytes, false);
    } catch (MoleculeException e) {
      throw Malformed.of("a SyncMessage with too many fields", e);
    }
    return switch (union.unionId()) {
      case CkbTypes.GET_HEADERS -> new GetHeaders(item.field(0).toBytes(), items(item.field(1), CkbTypes.HASH_SIZE_IN_BYTES));
      case CkbTypes.SEND_HEADERS -> new SendHeaders(items(item.field(0), CkbTypes.HEADER_SIZE_IN_BYTES));
      case CkbTypes.GET_BLOCKS -> new GetBlocks(items(item.field(0), CkbTypes.HASH_SIZE_IN_BYTES));
      default -> new InIbd();
    };
  }

  private static List<byte[]> items(Slice fixvec, int size) {
    List<byte[]> out = new ArrayList<>(fixvec.count());
    for (int i = 0; i < fixvec.count(); i++) {
      out.add(fixvec.item(i, size).toBytes());
    }
    return out;
  }
}
