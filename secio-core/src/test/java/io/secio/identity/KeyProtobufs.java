package io.secio.identity;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * Writes libp2p {@code PublicKey} / {@code PrivateKey} protobufs by hand ({@code 08 type 12 len data}),
 * so tests check the library's encoding against an independent one.
 */
final class KeyProtobufs {
  private KeyProtobufs() {}

  /** Both messages have the same layout: field 1 varint Type, field 2 bytes Data. */
  static byte[] encode(KeyType type, byte[] data) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0x08);
    out.write(type.number());
    out.write(0x12);
    int length = data.length;
    while (length >= 0x80) {
      out.write((length & 0x7f) | 0x80);
      length >>>= 7;
    }
    out.write(length);
    out.writeBytes(data);
    return out.toByteArray();
  }

  /** The {@code Data} of a protobuf laid out as {@link #encode} writes it. */
  static byte[] dataOf(byte[] protobuf) {
    if (protobuf[0] != 0x08 || protobuf[2] != 0x12) {
      throw new IllegalArgumentException("not 08 type 12 len data");
    }
    int length = 0;
    int offset = 3;
    for (int shift = 0; ; shift += 7) {
      int b = protobuf[offset++] & 0xff;
      length |= (b & 0x7f) << shift;
      if (b < 0x80) {
        break;
      }
    }
    if (offset + length != protobuf.length) {
      throw new IllegalArgumentException("length mismatch");
    }
    return Arrays.copyOfRange(protobuf, offset, protobuf.length);
  }
}
