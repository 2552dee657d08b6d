package io.secio.handshake;

import io.secio.protocol.SecioException;

/**
 * A Propose as both dialects carry it (docs/PROTOCOL.md section 4): the sender's nonce, its identity
 * key in the dialect's encoding, and its comma-separated proposal lists. Decoded ones have every field
 * present and non-empty, the nonce {@value #NONCE_SIZE_IN_BYTES} bytes and the lists within the
 * bounds below. Each dialect's codec translates it ({@link ProtobufMessages}, {@link
 * MoleculeMessages}).
 */
record Propose(byte[] rand, byte[] pubkey, String exchanges, String ciphers, String hashes) {
  static final int NONCE_SIZE_IN_BYTES = 16;
  /** Most names one Propose list may carry; every real list has fewer than ten. */
  static final int MAX_PROPOSAL_ENTRIES = 64;
  /** Longest name in a Propose list; the longest real one, {@code ChaCha20Poly1305}, has 16. */
  static final int MAX_PROPOSAL_NAME_LENGTH_IN_CHARS = 64;

  /**
   * Checks a comma-separated list against the entry and name limits without splitting it, so that a
   * hostile {@code a,a,a,...} never becomes a string per entry. Both dialects' Proposes go through it.
   */
  static void checkBounded(String list, String kind) throws SecioException {
    int entries = 1;
    int nameLength = 0;
    for (int i = 0; i < list.length(); i++) {
      if (list.charAt(i) == ',') {
        entries++;
        nameLength = 0;
      } else {
        nameLength++;
      }
      if (entries > MAX_PROPOSAL_ENTRIES || nameLength > MAX_PROPOSAL_NAME_LENGTH_IN_CHARS) {
        throw new SecioException(SecioException.Reason.PROPOSAL_TOO_LONG,
            kind + ": at most " + MAX_PROPOSAL_ENTRIES + " names of at most "
                + MAX_PROPOSAL_NAME_LENGTH_IN_CHARS + " characters");
      }
    }
  }
}
