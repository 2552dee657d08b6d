package io.secio.handshake;

import io.secio.crypto.Sha256;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.protocol.SecioException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Who is preferred, and what both sides agree on (docs/PROTOCOL.md sections 5 and 6): the order hashes, and for each of
 * exchanges, ciphers and hashes the first name of the preferred list that the other list also contains
 * (exact, case-sensitive) and that this node implements.
 */
final class Negotiation {
  private Negotiation() {}

  /** The outcome of selection. */
  record Selection(ExchangeAlgorithm exchange, CipherAlgorithm cipher, HashAlgorithm hash) {}

  /**
   * {@code compare(SHA256(remotePub || localNonce), SHA256(localPub || remoteNonce))}, unsigned and
   * lexicographic: positive when the local side is preferred, zero when talking to itself.
   */
  static int order(byte[] localPub, byte[] localNonce, byte[] remotePub, byte[] remoteNonce) {
    byte[] oh1 = Sha256.digest(remotePub, localNonce);
    byte[] oh2 = Sha256.digest(localPub, remoteNonce);
    return Integer.signum(Arrays.compareUnsigned(oh1, oh2));
  }

  static Selection select(
      boolean localPreferred,
      String localExchanges,
      String localCiphers,
      String localHashes,
      String remoteExchanges,
      String remoteCiphers,
      String remoteHashes)
      throws SecioException {
    return new Selection(
        pick(localPreferred, localExchanges, remoteExchanges, ExchangeAlgorithm::fromWireName, "exchange"),
        pick(localPreferred, localCiphers, remoteCiphers, CipherAlgorithm::fromWireName, "cipher"),
        pick(localPreferred, localHashes, remoteHashes, HashAlgorithm::fromWireName, "hash"));
  }

  /**
   * What a Propose offers of one kind: the configured algorithms that the dialect can negotiate and
   * the backend offers, in the configured order, as comma-joined wire names without spaces.
   *
   * @throws IllegalStateException if there are none: the backend offers nothing proposed
   */
  static <T> String offered(List<T> configured, List<T> dialectAllows, Predicate<T> backendOffers,
      Function<T, String> wireName, String kind) {
    List<String> names = configured.stream()
        .filter(dialectAllows::contains)
        .filter(backendOffers)
        .map(wireName)
        .toList();
    if (names.isEmpty()) {
      throw new IllegalStateException("the crypto backend offers none of the proposed " + kind);
    }
    return String.join(",", names);
  }

  private static <T> T pick(
      boolean localPreferred,
      String local,
      String remote,
      Function<String, Optional<T>> implemented,
      String kind)
      throws SecioException {
    List<String> preferred = Arrays.asList((localPreferred ? local : remote).split(",", -1));
    List<String> other = Arrays.asList((localPreferred ? remote : local).split(",", -1));
    for (String name : preferred) {
      if (other.contains(name)) {
        Optional<T> found = implemented.apply(name);
        if (found.isPresent()) {
          return found.get();
        }
      }
    }
    throw new SecioException(SecioException.Reason.NO_COMMON_ALGORITHMS, "no common " + kind);
  }

}
