package io.secio.ckb;

/**
 * What a session's Sync does with the {@link io.secio.ckb.chain.HeaderFollower} of {@link
 * CkbConfig.Builder#headers}: follow the peer's headers into it, serve it to the peer, or both.
 */
public enum HeaderSync {
  /**
   * Ask the peer for headers ({@code GetHeaders} with the chain's locator, again after every full
   * batch, and at the re-ask interval once the peer has no more) and keep every batch that passes
   * the checks; answer the peer's {@code GetHeaders} with {@code InIBD}, as CKB's light client.
   */
  FOLLOW,
  /** Answer the peer's {@code GetHeaders} from the main chain held, as a node; ask for nothing. */
  SERVE,
  /** Both: follow the peer's headers, and answer its {@code GetHeaders} from what is held. */
  FOLLOW_AND_SERVE;

  /** Whether the peer is asked for headers. */
  public boolean follows() {
    return this != SERVE;
  }

  /** Whether the peer's {@code GetHeaders} is answered from the chain held. */
  public boolean serves() {
    return this != FOLLOW;
  }
}
