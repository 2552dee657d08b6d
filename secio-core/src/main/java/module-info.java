/**
 * secio without Netty: configuration, identities and peer ids, the negotiated session, and the
 * failure reasons. The handshake engine, frame ciphers, key stretching and crypto backends stay
 * inside; {@code io.secio.netty} is the one module that drives them.
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
  exports io.secio.identity;

  // Internals the Netty handlers drive: one line per package and reader.
  exports io.secio.handshake to io.secio.netty;
  exports io.secio.frame to io.secio.netty;
}
