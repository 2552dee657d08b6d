package io.secio.multiaddr;

import io.secio.PeerId;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The binary form ({@code docs/CKB.md}, "Multiaddr"): components back to back, each an unsigned
 * varint code then the value ({@link MultiaddrProtocol#valueSize()}).
 *
 * <pre>
 * | varint code | value |  ...      e.g. 04 7f000001 | 06 1f92 | dd03
 * value: fixed size, none, or | varint length | length bytes |  (dns4, dns6, tls, p2p)
 * varints: unsigned LEB128, minimal; a code at most 5 bytes (u32), a length at most 10 (u64)
 * </pre>
 *
 * <p>Strict reading is tentacle's ({@code Multiaddr::try_from}): only its protocols, names in UTF-8,
 * a {@code p2p} value exactly {@code 12 20} and 32 bytes. Lenient reading, for printing what a
 * libp2p peer sent, also takes libp2p's {@code quic} and {@code dnsaddr} and any peer-id multihash.
 * Stateless.
 */
final class MultiaddrBinary {
  /** tentacle accepts only a sha2-256 multihash of 32 bytes as a {@code p2p} value. */
  private static final byte[] SHA256_MULTIHASH_PREFIX = {0x12, 0x20};
  private static final int SHA256_MULTIHASH_SIZE_IN_BYTES = 34;
  private static final int MAX_CODE_VARINT_BYTES = 5;
  private static final int MAX_LENGTH_VARINT_BYTES = 10;

  private MultiaddrBinary() {}

  static List<Component> read(byte[] bytes, boolean strict) throws MultiaddrException {
    List<Component> out = new ArrayList<>();
    int[] at = {0};
    while (at[0] < bytes.length) {
      long code = varint(bytes, at, MAX_CODE_VARINT_BYTES) & 0xFFFF_FFFFL;
      MultiaddrProtocol protocol = MultiaddrProtocol.ofCode(code)
          .filter(p -> !strict || p.isTentacle())
          .orElseThrow(() -> new MultiaddrException("unknown protocol code " + code));
      int size = protocol.valueSize();
      if (size == MultiaddrProtocol.LENGTH_PREFIXED) {
        long length = varint(bytes, at, MAX_LENGTH_VARINT_BYTES);
        if (length < 0 || length > bytes.length - at[0]) {
          throw new MultiaddrException(protocol.text() + " value longer than the address");
        }
        size = (int) length;
      }
      if (size > bytes.length - at[0]) {
        throw new MultiaddrException(protocol.text() + " value cut short");
      }
      byte[] value = Arrays.copyOfRange(bytes, at[0], at[0] + size);
      at[0] += size;
      check(protocol, value, strict);
      out.add(new Component(protocol, value));
    }
    return out;
  }

  private static void check(MultiaddrProtocol protocol, byte[] value, boolean strict) throws MultiaddrException {
    switch (protocol) {
      case DNS4, DNS6, DNSADDR, TLS -> {
        try {
          StandardCharsets.UTF_8.newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(value));
        } catch (CharacterCodingException e) {
          throw new MultiaddrException(protocol.text() + " name is not UTF-8");
        }
      }
      case P2P -> {
        if (strict ? !isSha256Multihash(value) : !isPeerId(value)) {
          throw new MultiaddrException("p2p value is not a sha2-256 multihash of 32 bytes");
        }
      }
      default -> {
        // fixed sizes, checked by the read
      }
    }
  }

  static boolean isSha256Multihash(byte[] value) {
    return value.length == SHA256_MULTIHASH_SIZE_IN_BYTES
        && value[0] == SHA256_MULTIHASH_PREFIX[0]
        && value[1] == SHA256_MULTIHASH_PREFIX[1];
  }

  private static boolean isPeerId(byte[] value) {
    try {
      PeerId.fromBytes(value);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** An unsigned LEB128 varint of at most {@code maxBytes}, minimal, as unsigned-varint decodes it. */
  private static long varint(byte[] bytes, int[] at, int maxBytes) throws MultiaddrException {
    long value = 0;
    for (int i = 0; i < maxBytes; i++) {
      if (at[0] >= bytes.length) {
        throw new MultiaddrException("varint cut short");
      }
      int b = bytes[at[0]++] & 0xFF;
      value |= (long) (b & 0x7F) << (7 * i);
      if (b < 0x80) {
        if (b == 0 && i > 0) {
          throw new MultiaddrException("varint not minimal");
        }
        return value;
      }
    }
    throw new MultiaddrException("varint too long");
  }

  static void write(ByteArrayOutputStream out, Component c) {
    writeVarint(out, c.protocol().code());
    byte[] value = c.rawValue();
    if (c.protocol().valueSize() == MultiaddrProtocol.LENGTH_PREFIXED) {
      writeVarint(out, value.length);
    }
    out.writeBytes(value);
  }

  private static void writeVarint(ByteArrayOutputStream out, long v) {
    while (v >= 0x80) {
      out.write((int) (v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out.write((int) v);
  }
}
