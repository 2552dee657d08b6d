package io.secio.testing;

import io.secio.crypto.AeadCipher;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;

/** An AEAD that passes every call to another; test backends override only the calls they change. */
public class ForwardingAead implements AeadCipher {
  protected final AeadCipher real;

  public ForwardingAead(AeadCipher real) {
    this.real = real;
  }

  @Override
  public int tagSizeInBytes() {
    return real.tagSizeInBytes();
  }

  @Override
  public void seal(byte[] nonce, ByteBuffer plaintext, ByteBuffer out) throws GeneralSecurityException {
    real.seal(nonce, plaintext, out);
  }

  @Override
  public void open(byte[] nonce, ByteBuffer in, ByteBuffer out) throws GeneralSecurityException {
    real.open(nonce, in, out);
  }

  @Override
  public void destroy() {
    real.destroy();
  }
}
