package io.secio.ckb.lightclient;

/**
 * Bytes that are not a {@code LightClientMessage} this codec reads, checked strictly as a CKB full
 * node checks them (a node bans for it): the message says which part is wrong and holds no bytes.
 */
public final class LightClientMessageException extends Exception {
  private static final long serialVersionUID = 1L;

  /**
   * A malformed or unsupported message.
   *
   * @param detail what is wrong
   */
  public LightClientMessageException(String detail) {
    super(detail);
  }
}
