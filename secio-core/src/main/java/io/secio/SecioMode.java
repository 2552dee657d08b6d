package io.secio;

import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import java.util.List;

/** Which proposals a node makes (docs/PROTOCOL.md section 4). Custom lists override a mode. */
public enum SecioMode {
  /** The default: AEAD with v0.2 peers, AES-CTR+HMAC with v0.1 peers, on the same port. */
  BRIDGE(
      List.of(ExchangeAlgorithm.values()),
      List.of(
          CipherAlgorithm.AES_128_GCM,
          CipherAlgorithm.AES_256_GCM,
          CipherAlgorithm.CHACHA20_POLY1305,
          CipherAlgorithm.AES_256_CTR,
          CipherAlgorithm.AES_128_CTR)),
  /** AEAD ciphers only. */
  V0_2_ONLY(
      List.of(ExchangeAlgorithm.values()),
      List.of(
          CipherAlgorithm.AES_128_GCM,
          CipherAlgorithm.AES_256_GCM,
          CipherAlgorithm.CHACHA20_POLY1305)),
  /** AES-CTR+HMAC only, exactly as go and js libp2p propose. */
  V0_1_ONLY(
      List.of(ExchangeAlgorithm.P_256, ExchangeAlgorithm.P_384, ExchangeAlgorithm.P_521),
      List.of(CipherAlgorithm.AES_256_CTR, CipherAlgorithm.AES_128_CTR));

  private final List<ExchangeAlgorithm> exchanges;
  private final List<CipherAlgorithm> ciphers;

  SecioMode(List<ExchangeAlgorithm> exchanges, List<CipherAlgorithm> ciphers) {
    this.exchanges = exchanges;
    this.ciphers = ciphers;
  }

  /** Exchanges proposed in this mode, in preference order. */
  public List<ExchangeAlgorithm> exchanges() {
    return exchanges;
  }

  /** Ciphers proposed in this mode, in preference order. */
  public List<CipherAlgorithm> ciphers() {
    return ciphers;
  }

  /** Hashes proposed in every mode. */
  public List<HashAlgorithm> hashes() {
    return List.of(HashAlgorithm.SHA256, HashAlgorithm.SHA512);
  }
}
