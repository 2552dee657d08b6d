/**
 * Nervos CKB on top of a tentacle session ({@code io.secio.tentacle}): CKB's network protocols, its
 * headers and their verification, and a header store.
 */
module io.secio.ckb {
  requires transitive io.secio.tentacle;
  requires org.bouncycastle.provider;
  requires com.h2database;

  // The API: one line per package.
  exports io.secio.ckb;
  exports io.secio.ckb.header;
  exports io.secio.ckb.store;
  exports io.secio.ckb.chain;
  exports io.secio.ckb.lightclient;
}
