/**
 * secio without Netty: configuration, identities and peer ids, the negotiated session, the algorithm
 * names and the failure reasons ({@code io.secio.protocol}), and for a transport of one's own the
 * handshake engine and the frame ciphers it hands over ({@code io.secio.handshake}, {@code
 * io.secio.frame}). Key stretching, the frame cipher
 * implementations and the crypto backends stay inside.
 *
 * <p>Conscrypt is optional ({@code requires static}): on the class path it is used when its jar is
 * there; on the module path add it with {@code --add-modules org.conscrypt}. Without it the JDK and
 * Bouncy Castle serve every primitive.
 */
module io.secio.core {
  requires io.secio.proto;
  requires com.google.protobuf;
  requires org.bouncycastle.provider;
  requires org.slf4j;
  requires static org.conscrypt;

  // The API: one line per package.
  exports io.secio;
  exports io.secio.protocol;
  exports io.secio.identity;
  exports io.secio.handshake;
  exports io.secio.frame;
  exports io.secio.multiaddr;
  // Not API: the one molecule codec, shared with tentacle's protocol-select and CKB's messages.
  exports io.secio.molecule to io.secio.tentacle, io.secio.ckb;
}
