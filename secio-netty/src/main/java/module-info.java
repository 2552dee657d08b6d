/**
 * Netty pipeline handlers for secio: {@code Secio.client}/{@code Secio.server}, the handshake and
 * frame handlers, their events, and the transports.
 *
 * <p>Native epoll is optional ({@code requires static}): {@code Transports.best()} picks NIO when the
 * epoll classes or their native library are absent. On the module path add them with {@code
 * --add-modules io.netty.transport.classes.epoll,io.netty.transport.epoll.linux.x86_64}.
 *
 * <p>Runs on Netty 4.2 and 4.1 alike, compiled against 4.2: what only 4.2 has is loaded only there.
 */
module io.secio.netty {
  requires transitive io.secio.core;
  requires transitive io.netty.buffer;
  requires transitive io.netty.common;
  requires transitive io.netty.transport;
  requires transitive io.netty.codec;
  requires static io.netty.transport.classes.epoll;
  requires org.slf4j;

  // The API: one line per package.
  exports io.secio.netty;
  exports io.secio.netty.multistream;
  // Not API: the shell of every negotiating stage, which tentacle's protocol-select extends too, and
  // the one "open a stream and negotiate" seam that libp2p's and tentacle's streams open through.
  exports io.secio.netty.stage to io.secio.tentacle, io.secio.libp2p;
  exports io.secio.netty.negotiation to io.secio.tentacle, io.secio.libp2p;
}
