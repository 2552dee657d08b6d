/**
 * A user's CKB peers: secio-ckb and, on Netty 4.2, the module of Netty's snappy, which secio-ckb
 * requires only statically because Netty 4.1 has no such module (its snappy is in io.netty.codec).
 */
module com.example.ckb {
  requires io.secio.ckb;
  requires io.netty.codec.compression;
}
