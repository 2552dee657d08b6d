package io.secio.ckb.message;

import io.secio.ckb.CkbException;
import io.secio.molecule.MoleculeException;

/** The one way a message decoder fails: {@link CkbException.Reason#MALFORMED_MESSAGE}. */
final class Malformed {
  private Malformed() {}

  static CkbException of(String message, MoleculeException cause) {
    return new CkbException(CkbException.Reason.MALFORMED_MESSAGE, message + ": " + cause.getMessage(), false, cause);
  }

  static CkbException of(String message) {
    return new CkbException(CkbException.Reason.MALFORMED_MESSAGE, message);
  }
}
