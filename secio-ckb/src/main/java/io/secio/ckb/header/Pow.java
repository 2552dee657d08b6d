package io.secio.ckb.header;

import java.util.Arrays;

/**
 * A chain spec's proof-of-work rule (CKB's {@code pow/}): what a header's PoW message, its PoW hash
 * then its nonce as 16 little-endian bytes, must hash to. The output, read as a big-endian 256-bit
 * number, must not exceed the header's target, and a compact target that is zero or overflows
 * fails. Genesis headers are never checked.
 *
 * <p>Stateless and thread-safe.
 */
public enum Pow {
  /** Mainnet's: Eaglesong(message) &le; target. */
  EAGLESONG("Eaglesong"),
  /** Testnet's: ckbhash(Eaglesong(message)) &le; target. */
  EAGLESONG_BLAKE2B("EaglesongBlake2b"),
  /** Dev chains' usual rule: every header passes, whatever its nonce and compact target. */
  DUMMY("Dummy");

  private final String specName;

  Pow(String specName) {
    this.specName = specName;
  }

  /** The name a chain spec's {@code [pow] func} gives this rule. */
  public String specName() {
    return specName;
  }

  /**
   * Whether {@code header} passes this rule.
   *
   * @param header the header
   * @return whether its nonce is a proof of work for its target (always, for {@link #DUMMY})
   */
  public boolean verify(Header header) {
    if (this == DUMMY) {
      return true;
    }
    if (!CompactTarget.isValid(header.compactTarget())) {
      return false;
    }
    byte[] output = output(header.powMessage());
    return Arrays.compareUnsigned(output, CompactTarget.toTargetBytes(header.compactTarget())) <= 0;
  }

  /**
   * The 32 bytes this rule compares with the target, for a PoW message.
   *
   * @param powMessage the PoW hash then the nonce, 48 bytes
   * @return the output
   * @throws UnsupportedOperationException for {@link #DUMMY}, which hashes nothing
   */
  public byte[] output(byte[] powMessage) {
    switch (this) {
      case EAGLESONG:
        return Eaglesong.hash(powMessage);
      case EAGLESONG_BLAKE2B:
        return Ckbhash.hash(Eaglesong.hash(powMessage));
      default:
        throw new UnsupportedOperationException("the Dummy rule hashes nothing");
    }
  }
}
