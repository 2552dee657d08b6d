package io.secio.ckb.message;

import io.secio.molecule.Molecule;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Writing molecule values beside {@link Molecule}'s tables, dynvecs and fixvecs: little-endian
 * numbers and unions. Stateless.
 */
final class Encoding {
  private Encoding() {}

  static byte[] uint16(int v) {
    return ByteBuffer.allocate(2).order(ByteOrder.LITTLE_ENDIAN).putShort((short) v).array();
  }

  static byte[] uint32(long v) {
    return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) v).array();
  }

  static byte[] uint64(long v) {
    return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
  }

  /** A union's item {@code id} holding {@code item}. */
  static byte[] union(int id, byte[] item) {
    return ByteBuffer.allocate(4 + item.length).order(ByteOrder.LITTLE_ENDIAN).putInt(id).put(item).array();
  }
}
