/**
 * WebSocket as a byte stream under secio ({@code io.secio.websocket.WebSocket}): a client, a server
 * and one listener port for TCP and WebSocket, on Netty's HTTP and WebSocket codec. {@code
 * docs/WEBSOCKET.md} says what goes on the wire.
 */
module io.secio.websocket {
  requires transitive io.netty.transport;
  requires transitive io.netty.common;
  requires io.netty.buffer;
  requires io.netty.codec;
  requires io.netty.codec.http;

  // The API: one line per package.
  exports io.secio.websocket;
}
