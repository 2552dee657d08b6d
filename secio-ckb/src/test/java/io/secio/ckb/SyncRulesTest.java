package io.secio.ckb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.ckb.message.SyncMessage;
import io.secio.ckb.testing.MoleculeExamples;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Sync's minimum and its bans ({@code docs/CKB.md} §4, §8, §11), both roles: every message but
 * SendBlock answered with InIBD and InIBD never answered; a 300 s ban for a message that is not a
 * strict SyncMessage, a locator over 101, over 2000 headers or hashes, the genesis or a duplicate
 * among a GetBlocks' first 32; and for the compress codec's errors (under 2 bytes, bad snappy, over
 * 8 MiB, over the 2 MiB frame): "ProtocolError id=100".
 */
class SyncRulesTest {
  private static final byte[] HASH = new byte[32];

  private static Duel syncing(boolean weDial) {
    Duel d = new Duel(weDial).identified();
    if (!weDial) {
      d.open(CkbProtocol.SYNC);
      d.open(CkbProtocol.DISCONNECT_MESSAGE);
    }
    assertTrue(d.hostile.isOpen(CkbProtocol.SYNC));
    return d;
  }

  private static List<byte[]> hashes(int count) {
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      byte[] h = new byte[32];
      h[0] = (byte) i;
      h[1] = (byte) (i >> 8);
      h[2] = 1;
      out.add(h);
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"GetHeaders", "GetBlocks", "SendHeaders", "SendBlock", "InIBD"})
  void everythingButSendBlockAndInIbdIsAnsweredWithInIbd(String what) throws CkbException {
    SyncMessage m = switch (what) {
      case "GetHeaders" -> SyncMessage.decode(MoleculeExamples.bytes("get_headers_testnet_genesis"));
      case "GetBlocks" -> new SyncMessage.GetBlocks(hashes(32));
      case "SendHeaders" -> SyncMessage.decode(MoleculeExamples.bytes("send_headers_testnet_1_2"));
      case "SendBlock" -> new SyncMessage.SendBlock(io.secio.molecule.Molecule.table(new byte[208],
          io.secio.molecule.Molecule.dynvec(), io.secio.molecule.Molecule.dynvec(), new byte[4]));
      default -> new SyncMessage.InIbd();
    };
    for (boolean weDial : new boolean[] {true, false}) {
      try (Duel d = syncing(weDial)) {
        d.hostile.sendRaw(CkbProtocol.SYNC, m.encode());
        d.pair.pump();
        List<byte[]> answers = d.hostile.take(CkbProtocol.SYNC);
        boolean answered = !what.equals("SendBlock") && !what.equals("InIBD");
        assertEquals(answered ? 1 : 0, answers.size(), d + ": " + what);
        if (answered) {
          assertEquals("00" + HexFormat.of().formatHex(MoleculeExamples.bytes("in_ibd")), HexFormat.of().formatHex(answers.get(0)),
              "InIBD, flag 0x00");
        }
        assertTrue(d.ours().isOpen());
        assertEquals(what.equals("InIBD"), d.session().getNow().peerInIbd());
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"malformed", "extra field", "102 locators", "2001 hashes", "2001 headers", "genesis",
      "duplicate"})
  void aNodeBansFor(String what) {
    byte[] payload = switch (what) {
      case "malformed" -> new byte[] {0, 0, 0, 0, 1};
      case "extra field" -> HexFormat.of().parseHex("080000000800000000000000");
      case "102 locators" -> new SyncMessage.GetHeaders(HASH, hashes(102)).encode();
      case "2001 hashes" -> new SyncMessage.GetBlocks(hashes(2001)).encode();
      case "2001 headers" -> new SyncMessage.SendHeaders(java.util.Collections.nCopies(2001, new byte[208])).encode();
      case "genesis" -> {
        List<byte[]> h = hashes(31);
        h.add(CkbNetwork.TESTNET.genesisHash());
        yield new SyncMessage.GetBlocks(h).encode();
      }
      default -> {
        List<byte[]> h = hashes(31);
        h.add(h.get(3));
        yield new SyncMessage.GetBlocks(h).encode();
      }
    };
    for (boolean weDial : new boolean[] {true, false}) {
      try (Duel d = syncing(weDial)) {
        d.hostile.sendRaw(CkbProtocol.SYNC, payload);
        d.pair.pump();
        assertFalse(d.ours().isOpen(), d + ": " + what);
        assertTrue(d.cause().isBan(), d + ": " + what);
        List<String> goodbyes = d.hostile.goodbyes();
        assertEquals(1, goodbyes.size());
        assertTrue(goodbyes.get(0).startsWith("Ban for 300 seconds, reason: "), goodbyes.get(0));
        assertEquals(List.of(), d.hostile.take(CkbProtocol.SYNC), "no answer");
      }
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void only32HashesAreLookedAt(boolean weDial) {
    try (Duel d = syncing(weDial)) {
      List<byte[]> h = hashes(32);
      h.add(CkbNetwork.TESTNET.genesisHash());
      h.add(h.get(0));
      d.hostile.sendRaw(CkbProtocol.SYNC, new SyncMessage.GetBlocks(h).encode());
      d.pair.pump();
      assertTrue(d.ours().isOpen());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"1 byte", "bad snappy", "over 8 MiB", "over the frame"})
  void codecErrorsAreProtocolErrors(String what) {
    byte[] message = switch (what) {
      case "1 byte" -> new byte[] {0};
      case "bad snappy" -> HexFormat.of().parseHex("80020501");
      case "over 8 MiB" -> HexFormat.of().parseHex("8081808004");
      default -> new byte[CkbProtocol.SYNC.maxFrameLength() + 1];
    };
    for (boolean weDial : new boolean[] {true, false}) {
      try (Duel d = syncing(weDial)) {
        d.send(CkbProtocol.SYNC, message);
        assertFalse(d.ours().isOpen(), d + ": " + what);
        assertEquals(List.of("Ban for 300 seconds, reason: ProtocolError id=100"), d.hostile.goodbyes());
        assertEquals(CkbException.Reason.BAD_FRAME, d.cause().reason());
      }
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aCompressedMessageIsRead(boolean weDial) {
    try (Duel d = syncing(weDial)) {
      byte[] frame = MoleculeExamples.compressedFrame("frame_hex");
      // 40 hashes, the first 32 of them 4 distinct blocks repeated: a duplicate, read after decompression.
      d.send(CkbProtocol.SYNC, Arrays.copyOfRange(frame, 4, frame.length));
      assertTrue(d.cause().getMessage().contains("RequestDuplicate(418)"), d.cause().getMessage());
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void ourAnswersAreWhatANodeAccepts(boolean weDial) throws CkbException {
    try (Duel d = syncing(weDial)) {
      d.hostile.sendRaw(CkbProtocol.SYNC, new SyncMessage.GetBlocks(hashes(1)).encode());
      d.pair.pump();
      byte[] answer = d.hostile.take(CkbProtocol.SYNC).get(0);
      assertInstanceOf(SyncMessage.InIbd.class, SyncMessage.decode(Arrays.copyOfRange(answer, 1, answer.length)));
      assertTrue(answer.length >= 2, "never the flag alone");
    }
  }
}
