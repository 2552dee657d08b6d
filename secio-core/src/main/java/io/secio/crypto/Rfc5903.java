package io.secio.crypto;

import io.secio.protocol.ExchangeAlgorithm;

/**
 * The ECDH test vectors of RFC 5903 section 8 (8.1 P-256, 8.2 P-384, 8.3 P-521), in hex: the
 * initiator's scalar i and public point (gix, giy), the responder's public point (grx, gry) and the
 * shared X coordinate girx.
 */
record Rfc5903(
    ExchangeAlgorithm exchange, String i, String gix, String giy, String grx, String gry, String girx) {

  static final Rfc5903 P_256 = new Rfc5903(ExchangeAlgorithm.P_256,
      "c88f01f510d9ac3f70a292daa2316de544e9aab8afe84049c62a9c57862d1433",
      "dad0b65394221cf9b051e1feca5787d098dfe637fc90b9ef945d0c3772581180",
      "5271a0461cdb8252d61f1c456fa3e59ab1f45b33accf5f58389e0577b8990bb3",
      "d12dfb5289c8d4f81208b70270398c342296970a0bccb74c736fc7554494bf63",
      "56fbf3ca366cc23e8157854c13c58d6aac23f046ada30f8353e74f33039872ab",
      "d6840f6b42f6edafd13116e0e12565202fef8e9ece7dce03812464d04b9442de");

  static final Rfc5903 P_384 = new Rfc5903(ExchangeAlgorithm.P_384,
      "099f3c7034d4a2c699884d73a375a67f7624ef7c6b3c0f160647b67414dce655"
          + "e35b538041e649ee3faef896783ab194",
      "667842d7d180ac2cde6f74f37551f55755c7645c20ef73e31634fe72b4c55ee6"
          + "de3ac808acb4bdb4c88732aee95f41aa",
      "9482ed1fc0eeb9cafc4984625ccfc23f65032149e0e144ada024181535a0f38e"
          + "eb9fcff3c2c947dae69b4c634573a81c",
      "e558dbef53eecde3d3fccfc1aea08a89a987475d12fd950d83cfa41732bc509d"
          + "0d1ac43a0336def96fda41d0774a3571",
      "dcfbec7aacf3196472169e838430367f66eebe3c6e70c416dd5f0c68759dd1ff"
          + "f83fa40142209dff5eaad96db9e6386c",
      "11187331c279962d93d604243fd592cb9d0a926f422e47187521287e7156c5c4"
          + "d603135569b9e9d09cf5d4a270f59746");

  static final Rfc5903 P_521 = new Rfc5903(ExchangeAlgorithm.P_521,
      "0037ade9319a89f4dabdb3ef411aaccca5123c61acab57b5393dce47608172a0"
          + "95aa85a30fe1c2952c6771d937ba9777f5957b2639bab072462f68c27a57382d4a52",
      "0015417e84dbf28c0ad3c278713349dc7df153c897a1891bd98bab4357c9ecbe"
          + "e1e3bf42e00b8e380aeae57c2d107564941885942af5a7f4601723c4195d176ced3e",
      "017cae20b6641d2eeb695786d8c946146239d099e18e1d5a514c739d7cb4a10a"
          + "d8a788015ac405d7799dc75e7b7d5b6cf2261a6a7f1507438bf01beb6ca3926f9582",
      "00d0b3975ac4b799f5bea16d5e13e9af971d5e9b984c9f39728b5e5739735a21"
          + "9b97c356436adc6e95bb0352f6be64a6c2912d4ef2d0433ced2b6171640012d9460f",
      "015c68226383956e3bd066e797b623c27ce0eac2f551a10c2c724d9852077b87"
          + "220b6536c5c408a1d2aebb8e86d678ae49cb57091f4732296579ab44fcd17f0fc56a",
      "01144c7d79ae6956bc8edb8e7c787c4521cb086fa64407f97894e5e6b2d79b04"
          + "d1427e73ca4baa240a34786859810c06b3c715a3a8cc3151f2bee417996d19f3ddea");

  /** The vector for an ECDH primitive. */
  static Rfc5903 of(Primitive primitive) {
    switch (primitive) {
      case ECDH_P256:
        return P_256;
      case ECDH_P384:
        return P_384;
      case ECDH_P521:
        return P_521;
      default:
        throw new IllegalArgumentException("not a NIST ECDH primitive: " + primitive);
    }
  }
}
