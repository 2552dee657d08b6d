package io.secio.testing;

import io.secio.identity.IdentityKeyPair;
import io.secio.identity.IdentityPublicKey;
import io.secio.identity.KeyType;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An identity that signs with a real key and records the name of each thread that signed: how many
 * signatures a handshake cost, and where they ran.
 */
public final class SigningThreads implements IdentityKeyPair {
  private final IdentityKeyPair key;
  /** One thread name per signature, in order. */
  public final List<String> threads = new CopyOnWriteArrayList<>();

  public SigningThreads(IdentityKeyPair key) {
    this.key = key;
  }

  @Override
  public KeyType type() {
    return key.type();
  }

  @Override
  public IdentityPublicKey publicKey() {
    return key.publicKey();
  }

  @Override
  public byte[] sign(byte[] message) {
    threads.add(Thread.currentThread().getName());
    return key.sign(message);
  }

  @Override
  public byte[] toProtobuf() {
    return key.toProtobuf();
  }
}
