package io.secio.ckb.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** The CKB vectors this module carries ({@code vectors/ckb/}, copies of the project's shared vectors). */
public final class CkbVectors {
  private CkbVectors() {}

  /** The bytes of {@code name} under {@code vectors/ckb/}. */
  public static byte[] bytes(String name) {
    try (InputStream in = CkbVectors.class.getResourceAsStream("/vectors/ckb/" + name)) {
      if (in == null) {
        throw new IllegalArgumentException("no vector file vectors/ckb/" + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
