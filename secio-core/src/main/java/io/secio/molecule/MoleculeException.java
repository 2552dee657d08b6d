package io.secio.molecule;

/**
 * Bytes that are not the molecule value they were read as; the message says which part is wrong
 * and never holds the bytes. The codec that reads a message wraps it in its own typed error.
 */
public final class MoleculeException extends Exception {
  private static final long serialVersionUID = 1L;

  /**
   * A malformed value.
   *
   * @param detail what is wrong, without the bytes
   */
  public MoleculeException(String detail) {
    super(detail);
  }
}
