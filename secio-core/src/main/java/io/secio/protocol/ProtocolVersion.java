package io.secio.protocol;

/** The framing a session uses, which follows from the negotiated cipher alone. */
public enum ProtocolVersion {
  /** libp2p secio: AES-CTR plus HMAC. */
  V0_1("v0.1"),
  /** AEAD frames with a counter nonce. */
  V0_2("v0.2");

  private final String label;

  ProtocolVersion(String label) {
    this.label = label;
  }

  /** {@code v0.1} or {@code v0.2}. */
  public String label() {
    return label;
  }
}
