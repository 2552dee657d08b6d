/** A user's module: it reads only what {@code io.secio.netty} exports, and what that re-exports. */
module io.secio.consumercheck {
  requires io.secio.netty;
}
