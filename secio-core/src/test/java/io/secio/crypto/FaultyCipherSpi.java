package io.secio.crypto;

import java.security.AlgorithmParameters;
import javax.crypto.CipherSpi;

/**
 * What the deliberately faulty test ciphers share: no mode or padding to choose, 16-byte blocks,
 * output as long as the input, and no iv or parameters to report. Subclasses write the fault.
 */
abstract class FaultyCipherSpi extends CipherSpi {

  @Override
  protected void engineSetMode(String mode) {}

  @Override
  protected void engineSetPadding(String padding) {}

  @Override
  protected int engineGetBlockSize() {
    return 16;
  }

  @Override
  protected int engineGetOutputSize(int inputLen) {
    return inputLen;
  }

  @Override
  protected byte[] engineGetIV() {
    return null;
  }

  @Override
  protected AlgorithmParameters engineGetParameters() {
    return null;
  }
}
