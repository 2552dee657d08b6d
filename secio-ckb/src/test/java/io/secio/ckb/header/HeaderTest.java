package io.secio.ckb.header;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

class HeaderTest {

  @TestFactory
  Stream<DynamicTest> everyTestnetHeaderHasTheVectorsBytesHashesAndFields() {
    return Vectors.testnetHeaderEntries().stream().map(e -> DynamicTest.dynamicTest("#" + e.get("number"), () -> {
      byte[] bytes = Vectors.hex(e, "header_hex");
      Header header = Header.fromBytes(bytes);
      assertArrayEquals(bytes, header.toBytes());
      assertArrayEquals(Vectors.hex(e, "raw_header_hex"), Arrays.copyOf(bytes, Header.RAW_SIZE_IN_BYTES));
      assertEquals(e.get("hash").getAsString(), header.hash().toString());
      assertEquals(e.get("pow_hash").getAsString(), header.powHash().toString());
      assertArrayEquals(Vectors.hex(e, "pow_message_hex"), header.powMessage());
      assertEquals(e.get("number").getAsLong(), header.number());
      JsonObject epoch = e.getAsJsonObject("epoch");
      assertEquals(epoch.get("number").getAsLong(), header.epoch().number());
      assertEquals(epoch.get("index").getAsInt(), header.epoch().index());
      assertEquals(epoch.get("length").getAsInt(), header.epoch().length());
      assertEquals(e.get("target").getAsString(),
          HexFormat.of().formatHex(CompactTarget.toTargetBytes(header.compactTarget())));
      assertEquals(e.get("difficulty").getAsString(), "0x" + CompactTarget.toDifficulty(header.compactTarget()).toString(16));
      // The RPC form: read, then written back field for field.
      JsonObject rpc = e.getAsJsonObject("rpc");
      assertEquals(header, HeaderJson.parse(rpc.toString()));
      assertEquals(rpc, JsonParser.parseString(HeaderJson.write(header)));
      assertEquals(rpc.keySet().stream().toList(),
          JsonParser.parseString(HeaderJson.write(header)).getAsJsonObject().keySet().stream().toList());
    }));
  }

  @Test
  void theBuilderSetsEveryFieldWhereTheStructHasIt() {
    Header header = Header.builder()
        .version(0)
        .compactTarget(0x1e015555)
        .timestamp(0x1723b97ebe0L)
        .number(1)
        .epoch(EpochNumberWithFraction.of(0, 1, 1000))
        .parentHash(Byte32.parse("0x10639e0895502b5688a6be8cf69460d76541bfa4821629d86d62ba0aae3f9606"))
        .transactionsRoot(Byte32.parse("0x8521525b77a3a0a1ce91dc3d2b6a3fd0aa83f56d3823fdf44dfe769221b0df4d"))
        .proposalsHash(Byte32.ZERO)
        .extraHash(Byte32.ZERO)
        .dao(Byte32.parse("0x0850ad1da71ea12e44fea37af286230005bf0a6f1a00000000b2b49f02fbfe06"))
        .nonce(new BigInteger("40a79c2b920952bef0e40d436fe8eed6", 16))
        .build();
    assertEquals(Vectors.testnetHeaders().get(1), header);
    assertEquals("#1 0xd5ac7cf8c34a975bf258a34f1c2507638487ab71aa4d10a9ec73704aa3abf9cd", header.toString());
    Header changed = header.toBuilder().nonce(BigInteger.ONE.shiftLeft(128).subtract(BigInteger.ONE)).build();
    assertNotEquals(header.hash(), changed.hash());
    assertEquals(header.powHash(), changed.powHash());
    assertEquals(BigInteger.ONE.shiftLeft(128).subtract(BigInteger.ONE), changed.nonce());
  }

  @Test
  void refusesWhatDoesNotFit() {
    assertThrows(IllegalArgumentException.class, () -> Header.fromBytes(new byte[207]));
    assertThrows(IllegalArgumentException.class, () -> Header.builder().nonce(BigInteger.ONE.shiftLeft(128)));
    assertThrows(IllegalArgumentException.class, () -> Header.builder().nonce(BigInteger.valueOf(-1)));
    assertThrows(IllegalArgumentException.class, () -> Header.builder().version(1L << 32));
  }

  @Test
  void unsignedFieldsPrintUnsigned() {
    Header header = Header.builder().number(-1).timestamp(-1).build();
    assertEquals("0xffffffffffffffff", JsonParser.parseString(HeaderJson.write(header))
        .getAsJsonObject().get("number").getAsString());
    assertEquals("#18446744073709551615", header.toString().split(" ")[0]);
  }
}
