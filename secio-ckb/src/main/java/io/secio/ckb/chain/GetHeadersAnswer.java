package io.secio.ckb.chain;

import io.secio.ckb.header.Header;
import java.util.List;

/**
 * What to answer a peer's {@code GetHeaders}: the headers, {@code InIBD}, or a refusal a CKB node
 * punishes the same way.
 */
public sealed interface GetHeadersAnswer {
  /**
   * {@code SendHeaders} with these (possibly none: the peer's tip is ours).
   *
   * @param headers the main chain's headers after the common block, at most 2000
   */
  record Headers(List<Header> headers) implements GetHeadersAnswer {
    /**
     * The answer.
     *
     * @param headers the headers, copied
     */
    public Headers {
      headers = List.copyOf(headers);
    }
  }

  /** {@code InIBD}: we are still syncing, or do not hold the blocks the peer lacks. */
  record InIbd() implements GetHeadersAnswer {}

  /**
   * A request a CKB node would ban for: a locator of more than 101 hashes (malformed, 300 s), or
   * one whose last hash is not genesis or that names no block we know (600 s).
   *
   * @param reason why
   */
  record Refused(String reason) implements GetHeadersAnswer {}
}
