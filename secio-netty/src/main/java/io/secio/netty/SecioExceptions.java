package io.secio.netty;

import io.secio.protocol.SecioException;

/** Finds the secio failure inside the wrappers Netty puts around handler exceptions. */
final class SecioExceptions {
  private SecioExceptions() {}

  /** The first {@link SecioException} in the cause chain of {@code t}, or {@code null}. */
  static SecioException find(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof SecioException) {
        return (SecioException) c;
      }
    }
    return null;
  }
}
