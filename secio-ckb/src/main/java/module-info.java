/**
 * Nervos CKB on top of a tentacle session ({@code io.secio.tentacle}): CKB's network protocols, its
 * headers and their verification, and a header store.
 *
 * <p>Netty's snappy ({@code io.netty.handler.codec.compression}) is in {@code io.netty.codec} on
 * Netty 4.1 and in {@code io.netty.codec.compression} on 4.2, hence {@code requires static}: on the
 * module path with Netty 4.2 add {@code --add-modules io.netty.codec.compression}
 * ({@code io.secio.ckb.Ckb} says so if it is missing). On the class path nothing is needed.
 */
module io.secio.ckb {
  requires transitive io.secio.tentacle;
  requires org.bouncycastle.provider;
  requires com.h2database;
  requires static io.netty.codec.compression;
  requires org.slf4j;

  // The API: one line per package.
  exports io.secio.ckb;
  exports io.secio.ckb.header;
  exports io.secio.ckb.store;
  exports io.secio.ckb.chain;
  exports io.secio.ckb.lightclient;
}
