package io.secio.ckb.header;

import java.util.Objects;

/**
 * A header refused: which one (its number and hash) and the rule it broke. The message says both and
 * a detail; it holds no header bytes.
 */
public final class HeaderException extends Exception {
  private static final long serialVersionUID = 1L;

  private final HeaderRule rule;
  private final long number;
  private final transient Byte32 hash;

  /**
   * A refusal of {@code header}.
   *
   * @param rule the rule it broke
   * @param header the header
   * @param detail what was wrong, for people
   */
  public HeaderException(HeaderRule rule, Header header, String detail) {
    this(rule, header.number(), header.hash(), detail);
  }

  /**
   * A refusal of the header numbered {@code number} with hash {@code hash}.
   *
   * @param rule the rule it broke
   * @param number its number
   * @param hash its hash
   * @param detail what was wrong, for people
   */
  public HeaderException(HeaderRule rule, long number, Byte32 hash, String detail) {
    super("header #" + Long.toUnsignedString(number) + " " + hash + ": " + rule + ": " + detail);
    this.rule = Objects.requireNonNull(rule, "rule");
    this.number = number;
    this.hash = Objects.requireNonNull(hash, "hash");
  }

  /** The rule the header broke. */
  public HeaderRule rule() {
    return rule;
  }

  /** The refused header's number, as it claims it. */
  public long number() {
    return number;
  }

  /** The refused header's hash. */
  public Byte32 hash() {
    return hash;
  }
}
