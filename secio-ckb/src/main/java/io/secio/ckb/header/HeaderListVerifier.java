package io.secio.ckb.header;

import java.time.Clock;
import java.util.List;

/**
 * Checks a list of consecutive headers, as {@code secio ckb verify-headers} does with a file: a
 * first header of number 0 must be the network's genesis; any other first header is checked alone
 * (version, epoch well formed, timestamp not ahead of the clock, PoW), since its parent is not in
 * the list; every later header is checked against the one before it by {@link HeaderVerifier},
 * with the median time over the list's previous 37 headers.
 *
 * <p>Immutable and thread-safe.
 */
public final class HeaderListVerifier {
  private final HeaderVerifier verifier;

  /**
   * A verifier for {@code consensus}'s network.
   *
   * @param consensus the network's rules
   * @param clock the local clock
   */
  public HeaderListVerifier(Consensus consensus, Clock clock) {
    this.verifier = new HeaderVerifier(consensus, clock);
  }

  /**
   * Checks {@code headers} in order.
   *
   * @param headers consecutive headers, oldest first
   * @return how many were checked: all of them
   * @throws HeaderException naming the first header that breaks a rule
   */
  public int verify(List<Header> headers) throws HeaderException {
    MedianTimeWindow window = new MedianTimeWindow();
    Header previous = null;
    for (Header header : headers) {
      if (previous != null) {
        verifier.verify(header, previous, window.median());
      } else if (header.isGenesis()) {
        verifier.verifyGenesis(header);
      } else {
        verifier.verifyAfter(header, header.parentHash(), header.number() - 1);
      }
      window.push(header.timestamp());
      previous = header;
    }
    return headers.size();
  }
}
