package io.secio.ckb.lightclient;

import java.util.OptionalInt;

/**
 * Bytes that are not a {@code LightClientMessage} this codec reads, checked strictly as a CKB full
 * node checks them (a node bans for it), or a well-formed item of the union this codec does not read
 * ({@link #unsupportedItem()}): the message says which part is wrong and holds no bytes.
 */
public final class LightClientMessageException extends Exception {
  private static final long serialVersionUID = 1L;

  private final int item;

  /**
   * A malformed message.
   *
   * @param detail what is wrong
   */
  public LightClientMessageException(String detail) {
    super(detail);
    this.item = -1;
  }

  /**
   * An item of the union this codec does not read.
   *
   * @param detail which
   * @param item its union id, 2 to 7
   */
  public LightClientMessageException(String detail, int item) {
    super(detail);
    this.item = item;
  }

  /**
   * The union id of the item, when the message is one this codec does not read rather than a
   * malformed one: a proof request (2, 4, 6; checked strictly) or a proof (3, 5, 7; not checked).
   */
  public OptionalInt unsupportedItem() {
    return item < 0 ? OptionalInt.empty() : OptionalInt.of(item);
  }
}
