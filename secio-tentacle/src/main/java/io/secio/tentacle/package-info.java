/**
 * A session with a tentacle (Nervos CKB) node: {@link io.secio.tentacle.Tentacle} puts secio's
 * tentacle dialect, yamux and tentacle's protocol-select on a channel in one line; a {@link
 * io.secio.tentacle.TentacleSession} opens the protocols of a {@link
 * io.secio.tentacle.TentacleConfig}, each on its own stream, and accepts the peer's ({@code
 * docs/STREAMS.md} §8).
 */
package io.secio.tentacle;
