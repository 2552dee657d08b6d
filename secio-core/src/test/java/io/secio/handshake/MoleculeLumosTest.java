package io.secio.handshake;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.secio.protocol.SecioException;
import io.secio.testing.Hex;
import io.secio.testing.TentacleTranscripts;
import io.secio.testing.Vectors;
import io.secio.testsupport.NodeJs;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link MoleculeMessages} against an independent molecule implementation, {@code @ckb-lumos/codec}
 * 0.23.0 ({@code src/test/js/molecule-crosscheck.js}): random Proposes and Exchanges, and every
 * message of the transcripts, packed by lumos must be Java's bytes, and Java's bytes unpacked by
 * lumos must be the values; Java decodes lumos's bytes to the values too.
 */
class MoleculeLumosTest {
  private static final long SEED = 0x7e47ac1eL;
  private static final int RANDOM_CASES = 300;
  /** Proposal lists drawn from these: wire names, separators, and non-ASCII UTF-8. */
  private static final String LETTERS = "AES-128GCM,P256X5_SHA,éü中😀 ";

  private record Case(Propose propose, Exchange exchange, byte[] bytes) {}

  @Test
  void lumosPacksAndUnpacksEveryMessageAsJavaDoes() throws Exception {
    Random random = new Random(SEED);
    List<Case> cases = new ArrayList<>();
    for (int i = 0; i < RANDOM_CASES; i++) {
      Propose p = new Propose(bytes(random, 16), MoleculeMessages.encodePublicKey(
          bytes(random, random.nextInt(4) == 0 ? random.nextInt(70) : 33)),
          names(random), names(random), names(random));
      cases.add(new Case(p, null, MoleculeMessages.encodePropose(p)));
      Exchange e = new Exchange(bytes(random, random.nextInt(140)), bytes(random, random.nextInt(80)));
      cases.add(new Case(null, e, MoleculeMessages.encodeExchange(e)));
    }
    for (String name : TentacleTranscripts.NAMES) {
      for (String side : List.of("A", "B")) {
        JsonObject s = TentacleTranscripts.load(name).getAsJsonObject(side);
        byte[] propose = Vectors.hex(s, "propose");
        byte[] exchange = Vectors.hex(s, "exchange");
        cases.add(new Case(MoleculeMessages.decodePropose(propose), null, propose));
        cases.add(new Case(null, MoleculeMessages.decodeExchange(exchange), exchange));
      }
    }

    JsonArray input = new JsonArray();
    cases.forEach(c -> input.add(toJson(c)));
    JsonObject request = new JsonObject();
    request.add("cases", input);
    String output = NodeJs.run(NodeJs.jsFolder(), "molecule-crosscheck.js",
        "@ckb-lumos/codec", request.toString());
    JsonArray results = JsonParser.parseString(output).getAsJsonObject().getAsJsonArray("results");

    assertEquals(cases.size(), results.size());
    for (int i = 0; i < cases.size(); i++) {
      String where = "case " + i + " (seed " + SEED + ")";
      Case c = cases.get(i);
      JsonObject result = results.get(i).getAsJsonObject();
      byte[] packedByLumos = Vectors.hex(result, "packed");
      assertArrayEquals(c.bytes(), packedByLumos, where + ": lumos packs the value into Java's bytes");
      assertEquals(toJson(c).getAsJsonObject("value"), result.getAsJsonObject("unpacked"),
          where + ": lumos unpacks Java's bytes into the value");
      assertEquals(toJson(c).getAsJsonObject("value"), toJson(decode(c, packedByLumos)).getAsJsonObject("value"),
          where + ": Java decodes lumos's bytes into the value");
    }
  }

  private static Case decode(Case c, byte[] bytes) throws SecioException {
    return c.propose() != null
        ? new Case(MoleculeMessages.decodePropose(bytes), null, bytes)
        : new Case(null, MoleculeMessages.decodeExchange(bytes), bytes);
  }

  private static JsonObject toJson(Case c) {
    JsonObject value = new JsonObject();
    JsonObject json = new JsonObject();
    if (c.propose() != null) {
      Propose p = c.propose();
      value.addProperty("rand", Hex.encode(p.rand()));
      try {
        value.addProperty("pubkey", Hex.encode(MoleculeMessages.decodePublicKey(p.pubkey())));
      } catch (SecioException e) {
        throw new AssertionError("a Propose of this test holds a PublicKey union", e);
      }
      value.addProperty("exchanges", p.exchanges());
      value.addProperty("ciphers", p.ciphers());
      value.addProperty("hashes", p.hashes());
      json.addProperty("kind", "propose");
    } else {
      value.addProperty("epubkey", Hex.encode(c.exchange().epubkey()));
      value.addProperty("signature", Hex.encode(c.exchange().signature()));
      json.addProperty("kind", "exchange");
    }
    json.add("value", value);
    json.addProperty("bytes", Hex.encode(c.bytes()));
    return json;
  }

  private static byte[] bytes(Random random, int length) {
    byte[] b = new byte[length];
    random.nextBytes(b);
    return b;
  }

  private static String names(Random random) {
    int length = random.nextInt(5) == 0 ? 0 : random.nextInt(60);
    StringBuilder s = new StringBuilder();
    int[] letters = LETTERS.codePoints().toArray();
    for (int i = 0; i < length; i++) {
      s.appendCodePoint(letters[random.nextInt(letters.length)]);
    }
    return s.toString();
  }
}
