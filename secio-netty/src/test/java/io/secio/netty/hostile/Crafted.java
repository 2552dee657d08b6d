package io.secio.netty.hostile;

import com.google.protobuf.ByteString;
import io.secio.crypto.CryptoBackends;
import io.secio.proto.Spipe;
import io.secio.protocol.ExchangeAlgorithm;
import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.Arrays;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.crypto.ec.CustomNamedCurves;

/** Handshake bytes no honest peer sends, built from the generated protobuf classes directly. */
public final class Crafted {
  private Crafted() {}

  /** The Propose {@code honest} with one field (1 rand ... 5 hashes) removed. */
  public static byte[] proposeWithout(byte[] honest, int field) throws Exception {
    Spipe.Propose.Builder b = Spipe.Propose.parseFrom(honest).toBuilder();
    switch (field) {
      case 1 -> b.clearRand();
      case 2 -> b.clearPubkey();
      case 3 -> b.clearExchanges();
      case 4 -> b.clearCiphers();
      case 5 -> b.clearHashes();
      default -> throw new IllegalArgumentException("no field " + field);
    }
    return b.build().toByteArray();
  }

  /** The Propose {@code honest} carrying {@code pubkey} instead of its own. */
  public static byte[] proposeWithKey(byte[] honest, byte[] pubkey) throws Exception {
    return Spipe.Propose.parseFrom(honest).toBuilder()
        .setPubkey(ByteString.copyFrom(pubkey)).build().toByteArray();
  }

  /** An Exchange with either field possibly absent ({@code null}). */
  public static byte[] exchange(byte[] epubkey, byte[] signature) {
    Spipe.Exchange.Builder b = Spipe.Exchange.newBuilder();
    if (epubkey != null) {
      b.setEpubkey(ByteString.copyFrom(epubkey));
    }
    if (signature != null) {
      b.setSignature(ByteString.copyFrom(signature));
    }
    return b.build().toByteArray();
  }

  /** A libp2p PublicKey protobuf of key type 5, which does not exist: {@code 08 05 12 20 || 32 bytes}. */
  public static byte[] publicKeyOfUnknownType() {
    byte[] key = new byte[36];
    key[0] = 0x08;
    key[1] = 0x05;
    key[2] = 0x12;
    key[3] = 0x20;
    Arrays.fill(key, 4, 36, (byte) 0x11);
    return key;
  }

  /** A valid uncompressed P-256 point. */
  public static byte[] validP256Point() throws Exception {
    return CryptoBackends.defaultBackend()
        .generateEphemeral(ExchangeAlgorithm.P_256, new SecureRandom()).publicKey();
  }

  /** A P-256 point with its last byte changed: the right length, off the curve. */
  public static byte[] offCurveP256Point() throws Exception {
    byte[] p = validP256Point();
    p[64] ^= 0x01;
    return p;
  }

  /** The same ECDSA signature with s replaced by n - s: valid ECDSA, but high-S (secp256k1). */
  public static byte[] toHighS(byte[] der) {
    try {
      ASN1Sequence seq = ASN1Sequence.getInstance(der);
      BigInteger r = ASN1Integer.getInstance(seq.getObjectAt(0)).getValue();
      BigInteger s = ASN1Integer.getInstance(seq.getObjectAt(1)).getValue();
      BigInteger n = CustomNamedCurves.getByName("secp256k1").getN();
      return new DERSequence(new ASN1Encodable[] {new ASN1Integer(r), new ASN1Integer(n.subtract(s))})
          .getEncoded();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** X25519 u = 1 (little-endian): a low-order point, whose shared secret is all zero. */
  public static byte[] x25519LowOrderOne() {
    byte[] u = new byte[32];
    u[0] = 1;
    return u;
  }

  /** {@code u32 big-endian} of a value, for hand-made headers. */
  public static byte[] header(long length) {
    int v = (int) length;
    return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
  }

  public static byte[] concat(byte[]... parts) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }
}
