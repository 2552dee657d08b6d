package io.secio.multiaddr;

/**
 * Bytes that are not a multiaddr in tentacle's form: an unknown protocol code, a value cut short, a
 * varint that is too long or not minimal, a name that is not UTF-8, or a {@code p2p} value that is
 * not a sha2-256 multihash of 32 bytes. The message says which, never the bytes. Immutable.
 */
public final class MultiaddrException extends Exception {
  private static final long serialVersionUID = 1L;

  /**
   * A malformed multiaddr.
   *
   * @param detail what is wrong, without the bytes
   */
  public MultiaddrException(String detail) {
    super(detail);
  }
}
