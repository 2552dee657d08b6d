package io.secio.identity;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A key file that its group or others may open, refused as {@code ssh} refuses such a private key.
 * The message says how to fix it ({@code chmod 600}).
 */
public final class OpenKeyFileException extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient Path path;
  private final String mode;

  OpenKeyFileException(Path path, String mode) {
    super(path + " is open to others (mode " + mode + "): a private key must be readable by its"
        + " owner only; run chmod 600 " + path);
    this.path = path;
    this.mode = mode;
  }

  /** The file. */
  public Path path() {
    return path;
  }

  /** Its permissions in octal, as {@code chmod} takes them, e.g. {@code 644}. */
  public String mode() {
    return mode;
  }
}
