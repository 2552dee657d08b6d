/**
 * Streams over one connection as Netty child channels ({@code io.secio.streams}), yamux
 * ({@code io.secio.streams.yamux}) and mplex ({@code io.secio.streams.mplex}). Netty only: nothing here knows of secio, so the same handlers run
 * over plain TCP, secio or TLS.
 */
module io.secio.streams {
  requires transitive io.netty.buffer;
  requires transitive io.netty.common;
  requires transitive io.netty.transport;
  requires org.slf4j;

  // The API: one line per package. io.secio.streams.internal (the child channel base every muxer
  // shares) is not exported.
  exports io.secio.streams;
  exports io.secio.streams.yamux;
  exports io.secio.streams.mplex;
}
