package io.secio.handshake;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.ByteString;
import io.secio.proto.Spipe;
import io.secio.protocol.SecioException.Reason;
import io.secio.protocol.SecioException;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** A Propose or Exchange with any field missing or empty is malformed, whichever field it is. */
class ProtobufMessagesTest {
  private static final ByteString NONCE = ByteString.copyFrom(new byte[16]);
  private static final ByteString PUBKEY = ByteString.copyFrom(new byte[] {8, 1, 18, 1, 7});

  private static Spipe.Propose.Builder propose() {
    return Spipe.Propose.newBuilder()
        .setRand(NONCE)
        .setPubkey(PUBKEY)
        .setExchanges("P-256")
        .setCiphers("AES-128-GCM")
        .setHashes("SHA256");
  }

  @Test
  void aCompleteProposeDecodes() throws SecioException {
    Propose p = ProtobufMessages.decodePropose(propose().build().toByteArray());
    assertArrayEquals(NONCE.toByteArray(), p.rand());
    assertArrayEquals(PUBKEY.toByteArray(), p.pubkey());
    assertEquals("P-256", p.exchanges());
    assertEquals("AES-128-GCM", p.ciphers());
    assertEquals("SHA256", p.hashes());
  }

  @Test
  void aProposeWithAFieldMissingIsMalformed() {
    assertMalformedPropose("rand", Spipe.Propose.Builder::clearRand);
    assertMalformedPropose("pubkey", Spipe.Propose.Builder::clearPubkey);
    assertMalformedPropose("exchanges", Spipe.Propose.Builder::clearExchanges);
    assertMalformedPropose("ciphers", Spipe.Propose.Builder::clearCiphers);
    assertMalformedPropose("hashes", Spipe.Propose.Builder::clearHashes);
  }

  @Test
  void aProposeWithAFieldPresentButEmptyIsMalformed() {
    assertMalformedPropose("rand", b -> b.setRand(ByteString.EMPTY));
    assertMalformedPropose("pubkey", b -> b.setPubkey(ByteString.EMPTY));
    assertMalformedPropose("exchanges", b -> b.setExchanges(""));
    assertMalformedPropose("ciphers", b -> b.setCiphers(""));
    assertMalformedPropose("hashes", b -> b.setHashes(""));
  }

  @Test
  void anExchangeWithAFieldEmptyIsMalformed() {
    ByteString some = ByteString.copyFrom(new byte[] {4, 1, 2});
    for (Spipe.Exchange e : new Spipe.Exchange[] {
        Spipe.Exchange.newBuilder().setEpubkey(some).build(),
        Spipe.Exchange.newBuilder().setSignature(some).build(),
        Spipe.Exchange.newBuilder().setEpubkey(some).setSignature(ByteString.EMPTY).build(),
        Spipe.Exchange.newBuilder().setEpubkey(ByteString.EMPTY).setSignature(some).build()}) {
      assertEquals(Reason.MALFORMED_MESSAGE,
          assertThrows(SecioException.class, () -> ProtobufMessages.decodeExchange(e.toByteArray()))
              .reason(), e.toString());
    }
  }

  private static void assertMalformedPropose(String field, UnaryOperator<Spipe.Propose.Builder> bend) {
    byte[] bytes = bend.apply(propose()).build().toByteArray();
    assertEquals(Reason.MALFORMED_MESSAGE,
        assertThrows(SecioException.class, () -> ProtobufMessages.decodePropose(bytes)).reason(),
        field);
  }
}
