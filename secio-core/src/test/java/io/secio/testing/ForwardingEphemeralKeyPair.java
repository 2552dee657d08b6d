package io.secio.testing;

import io.secio.crypto.EphemeralKeyPair;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.SecioException;

/**
 * An ephemeral key pair that passes every call to another; tests override the calls they watch or
 * break (as {@link ForwardingAead} does for AEADs).
 */
public class ForwardingEphemeralKeyPair implements EphemeralKeyPair {
  protected final EphemeralKeyPair real;

  public ForwardingEphemeralKeyPair(EphemeralKeyPair real) {
    this.real = real;
  }

  @Override
  public ExchangeAlgorithm exchange() {
    return real.exchange();
  }

  @Override
  public byte[] publicKey() {
    return real.publicKey();
  }

  @Override
  public byte[] agree(byte[] remotePublicKey) throws SecioException {
    return real.agree(remotePublicKey);
  }

  @Override
  public void destroy() {
    real.destroy();
  }
}
