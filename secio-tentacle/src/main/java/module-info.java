/**
 * A session with a tentacle (Nervos CKB) node: secio's tentacle dialect ({@code io.secio.netty}),
 * yamux in tentacle's profile ({@code io.secio.streams.yamux}) and tentacle's protocol-select, in one
 * line ({@code io.secio.tentacle.Tentacle}). {@code docs/STREAMS.md} §8 says what goes on the wire.
 */
module io.secio.tentacle {
  requires transitive io.secio.netty;
  requires transitive io.secio.streams;

  // The API: one line per package.
  exports io.secio.tentacle;
}
