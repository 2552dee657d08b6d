/**
 * What a CKB network is and what its peers say, the vocabulary every other package of {@code
 * io.secio.ckb} shares: a network's identity ({@link io.secio.ckb.protocol.CkbNetwork}), the
 * protocol table ({@link io.secio.ckb.protocol.CkbProtocol}), identify flags and a peer's identify
 * record, the nodes discovery gives, and the failures of a session ({@link
 * io.secio.ckb.protocol.CkbException}). It imports nothing else of {@code io.secio.ckb}.
 */
package io.secio.ckb.protocol;
