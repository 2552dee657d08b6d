package io.secio.ckb.lightclient;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.gson.JsonParser;
import io.secio.ckb.CkbNetwork;
import io.secio.ckb.header.Byte32;
import io.secio.ckb.header.ChainGenerator;
import io.secio.ckb.header.Ckbhash;
import io.secio.ckb.header.CompactTarget;
import io.secio.ckb.header.Consensus;
import io.secio.ckb.header.EpochNumberWithFraction;
import io.secio.ckb.header.Header;
import io.secio.ckb.header.HeaderException;
import io.secio.ckb.header.HeaderRule;
import io.secio.ckb.header.Pow;
import io.secio.ckb.testing.CkbVectors;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LastStateVerifierTest {
  private static final Header TESTNET_4 = Header.fromBytes(HexFormat.of().parseHex(
      JsonParser.parseString(new String(CkbVectors.bytes("testnet-headers.json"), StandardCharsets.UTF_8))
          .getAsJsonObject().getAsJsonArray("headers").get(4).getAsJsonObject().get("header_hex").getAsString()));

  private static Clock at(long millis) {
    return Clock.fixed(Instant.ofEpochMilli(millis), ZoneOffset.UTC);
  }

  private static HeaderRule refusal(LastStateVerifier verifier, VerifiableHeader header) {
    return assertThrows(HeaderException.class, () -> verifier.verify(header)).rule();
  }

  @Test
  void aRealTestnetTipBeforeTheChainRootNeedsNoExtension() throws HeaderException {
    LastStateVerifier verifier = new LastStateVerifier(Consensus.of(CkbNetwork.TESTNET), at(TESTNET_4.timestamp() + 3_600_000));
    HeaderDigest root = HeaderDigest.leaf(TESTNET_4);
    VerifiableHeader last = new VerifiableHeader(TESTNET_4, Byte32.ZERO, Optional.empty(), root);
    assertEquals(BigInteger.valueOf(0xc00030 * 2L), verifier.verify(last));
    assertEquals(HeaderRule.POW, refusal(verifier, new VerifiableHeader(
        TESTNET_4.toBuilder().nonce(BigInteger.ONE).build(), Byte32.ZERO, Optional.empty(), root)));
    assertEquals(HeaderRule.EXTRA_HASH, refusal(verifier, new VerifiableHeader(TESTNET_4, Byte32.of(Ckbhash.hash()),
        Optional.empty(), root)));
    assertEquals(HeaderRule.EXTRA_HASH, refusal(verifier, new VerifiableHeader(TESTNET_4, Byte32.ZERO,
        Optional.of(new byte[32]), root)));
    LastStateVerifier dayLater = new LastStateVerifier(Consensus.of(CkbNetwork.TESTNET),
        at(TESTNET_4.timestamp() + LastStateVerifier.MAX_TIP_AGE_MILLIS + 1));
    assertEquals(HeaderRule.TIP_TOO_OLD, refusal(dayLater, last));
    LastStateVerifier mainnet = new LastStateVerifier(Consensus.of(CkbNetwork.MAINNET), at(TESTNET_4.timestamp()));
    assertEquals(HeaderRule.POW, refusal(mainnet, last));
  }

  @Test
  void onADevChainEveryHeaderAfterTheFirstBlockCommitsToTheChainRoot() throws HeaderException {
    ChainGenerator generator = new ChainGenerator(11, Pow.DUMMY, 100);
    List<Header> chain = generator.chain(3);
    LastStateVerifier verifier = new LastStateVerifier(generator.consensus(), at(chain.get(3).timestamp()));
    HeaderDigest root = HeaderDigest.leaf(chain.get(2));
    Byte32 uncles = Byte32.of(Ckbhash.hash(chain.get(1).hash().toBytes()));
    byte[] extension = new byte[40];
    root.mmrHash().copyTo(extension, 0);
    extension[39] = 7;
    Header header = chain.get(3).toBuilder()
        .extraHash(Byte32.of(Ckbhash.hash(uncles.toBytes(), Ckbhash.hash(extension)))).build();
    VerifiableHeader good = new VerifiableHeader(header, uncles, Optional.of(extension), root);
    BigInteger perBlock = CompactTarget.toDifficulty(ChainGenerator.EASY_COMPACT_TARGET);
    assertEquals(perBlock.multiply(BigInteger.TWO), verifier.verify(good));

    HeaderDigest otherRoot = HeaderDigest.leaf(chain.get(1));
    assertEquals(HeaderRule.CHAIN_ROOT, refusal(verifier, new VerifiableHeader(header, uncles, Optional.of(extension), otherRoot)));
    assertEquals(HeaderRule.CHAIN_ROOT, refusal(verifier, new VerifiableHeader(
        header.toBuilder().extraHash(uncles).build(), uncles, Optional.empty(), root)));
    byte[] tamperedExtension = extension.clone();
    tamperedExtension[39] = 8;
    assertEquals(HeaderRule.EXTRA_HASH, refusal(verifier, new VerifiableHeader(header, uncles, Optional.of(tamperedExtension), root)));
    byte[] shortExtension = new byte[31];
    System.arraycopy(extension, 0, shortExtension, 0, 31);
    assertEquals(HeaderRule.CHAIN_ROOT, refusal(verifier, new VerifiableHeader(header, uncles, Optional.of(shortExtension), root)));
    assertEquals(HeaderRule.EXTRA_HASH, refusal(verifier, new VerifiableHeader(header, Byte32.ZERO, Optional.of(extension), root)));
    // Block 1 is epoch 0 index 1: after (0, 0/1), so it too needs the root.
    Consensus consensus = generator.consensus();
    assertEquals(true, consensus.hasChainRoot(chain.get(1).epoch()));
    assertEquals(false, consensus.hasChainRoot(chain.get(0).epoch()));
  }

  @Test
  void theTestnetActivationEpoch() {
    Consensus testnet = Consensus.of(CkbNetwork.TESTNET);
    assertEquals(false, testnet.hasChainRoot(EpochNumberWithFraction.of(5711, 0, 1000)));
    assertEquals(true, testnet.hasChainRoot(EpochNumberWithFraction.of(5711, 1, 1000)));
    assertEquals(true, testnet.hasChainRoot(EpochNumberWithFraction.of(5712, 0, 1000)));
    assertEquals(false, Consensus.of(CkbNetwork.MAINNET).hasChainRoot(EpochNumberWithFraction.of(8651, 0, 1800)));
  }

  @Test
  void aDigestLeafIsTheBlocksFields() {
    HeaderDigest leaf = HeaderDigest.leaf(TESTNET_4);
    assertEquals(TESTNET_4.hash(), leaf.childrenHash());
    assertEquals(BigInteger.valueOf(0xc00030), leaf.totalDifficulty());
    assertEquals(4, leaf.startNumber());
    assertEquals(4, leaf.endNumber());
    assertEquals(TESTNET_4.epoch(), leaf.startEpoch());
    assertEquals(TESTNET_4.epoch(), leaf.endEpoch());
    assertEquals(leaf, HeaderDigest.fromBytes(leaf.toBytes()));
    assertEquals(Byte32.of(Ckbhash.hash(leaf.toBytes())), leaf.mmrHash());
  }
}
