/**
 * A libp2p connection over secio ({@code io.secio.libp2p}): the muxer chosen by multistream-select
 * inside the secure channel, a protocol per stream negotiated the same way, identify and ping.
 */
module io.secio.libp2p {
  requires transitive io.secio.netty;
  requires transitive io.secio.streams;
  requires io.secio.proto;
  requires com.google.protobuf;
  requires org.slf4j;

  // The API: one line per package.
  exports io.secio.libp2p;
}
