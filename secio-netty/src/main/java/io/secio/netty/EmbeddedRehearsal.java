package io.secio.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.protocol.SecioException;

/**
 * For {@link Secio#warmUp}: one handshake through {@link Secio}'s own handlers on two in-memory
 * {@link EmbeddedChannel}s per dialect a config speaks, and a frame each way, so that the pipeline's
 * classes (decoder, handshake stage, codec) and Netty's buffer paths are loaded and run before a
 * real connection's timeout counts. Both ends are throw-away configs that propose what the config
 * proposes on the same backend; nothing of the config's own (verifier, observer, limiter, executor,
 * expected peer) takes part.
 */
final class EmbeddedRehearsal {
  /** Ample for a handshake's few messages; a rehearsal that needs more has gone wrong. */
  private static final int MAX_ROUNDS = 16;

  private EmbeddedRehearsal() {}

  static void run(SecioConfig config) throws SecioException {
    for (Dialect dialect : Dialect.values()) {
      if (config.speaks(dialect)) {
        rehearse(stranger(config, dialect), stranger(config, dialect));
      }
    }
  }

  /** A throw-away config in {@code dialect} with {@code config}'s proposals and backend, nothing else. */
  private static SecioConfig stranger(SecioConfig config, Dialect dialect) {
    KeyType type = dialect == Dialect.TENTACLE ? KeyType.SECP256K1 : KeyType.ED25519;
    return SecioConfig.builder(IdentityKeyPair.generate(type, config.random()))
        .dialect(dialect)
        .exchanges(config.exchanges())
        .ciphers(config.ciphers())
        .hashes(config.hashes())
        .backend(config.backend())
        .random(config.random())
        .build();
  }

  private static void rehearse(SecioConfig clientConfig, SecioConfig serverConfig) throws SecioException {
    EmbeddedChannel client = new EmbeddedChannel(
        Secio.client(clientConfig, clientConfig.dialect().orElseThrow().peerId(serverConfig.identity().publicKey())));
    EmbeddedChannel server = new EmbeddedChannel(Secio.server(serverConfig));
    try {
      for (int round = 0; round < MAX_ROUNDS && !(done(client) && done(server)); round++) {
        move(client, server);
        move(server, client);
      }
      established(client);
      established(server);
      echo(client, server);
      echo(server, client);
    } finally {
      client.finishAndReleaseAll();
      server.finishAndReleaseAll();
    }
  }

  private static boolean done(EmbeddedChannel channel) {
    return Secio.handshakeFuture(channel).isDone();
  }

  /** The channel's session; the handshake's own failure if it failed. */
  private static void established(EmbeddedChannel channel) throws SecioException {
    Future<SecioSession> handshake = Secio.handshakeFuture(channel);
    if (!handshake.isDone()) {
      throw new IllegalStateException("the in-memory handshake did not finish");
    }
    Throwable cause = handshake.cause();
    if (cause instanceof SecioException) {
      throw (SecioException) cause;
    }
    if (cause != null) {
      throw new IllegalStateException("the in-memory handshake failed", cause);
    }
  }

  /** One frame sealed by {@code from}, opened by {@code to}. */
  private static void echo(EmbeddedChannel from, EmbeddedChannel to) {
    from.writeAndFlush(Unpooled.wrappedBuffer(new byte[64]));
    move(from, to);
    ByteBuf plaintext = to.readInbound();
    if (plaintext == null) {
      throw new IllegalStateException("a frame sealed in the in-memory handshake did not arrive");
    }
    plaintext.release();
  }

  /** What {@code from} wrote, written into {@code to} as a network would carry it. */
  private static void move(EmbeddedChannel from, EmbeddedChannel to) {
    for (Object message; (message = from.readOutbound()) != null; ) {
      if (to.isOpen()) {
        to.writeInbound(message);
      } else {
        ReferenceCountUtil.release(message);
      }
    }
    from.runPendingTasks();
    to.runPendingTasks();
  }
}
