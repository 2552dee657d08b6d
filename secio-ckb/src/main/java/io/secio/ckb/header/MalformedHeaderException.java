package io.secio.ckb.header;

/** Text that is not a header in CKB's RPC JSON form; the message says what and where. */
public final class MalformedHeaderException extends Exception {
  private static final long serialVersionUID = 1L;

  /**
   * A malformed header text.
   *
   * @param detail what is wrong and where
   */
  public MalformedHeaderException(String detail) {
    super(detail);
  }
}
