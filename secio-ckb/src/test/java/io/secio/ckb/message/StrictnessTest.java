package io.secio.ckb.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.secio.ckb.CkbException;
import io.secio.ckb.IdentifyFlags;
import io.secio.ckb.testing.MoleculeExamples;
import io.secio.molecule.Molecule;
import io.secio.molecule.MoleculeException;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each payload is read with the strictness the receiving node uses ({@code docs/CKB.md} §5): extra
 * fields accepted where it reads compatibly (IdentifyMessage, PingMessage, DiscoveryMessage, a
 * SendBlock's block contents) and refused where it reads strictly (Identify, Time, every Sync item but
 * SendBlock); and molecule's header checks.
 */
class StrictnessTest {
  private static final byte[] EXTRA = Encoding.uint32(7);

  private static CkbException malformed(ThrowingDecode d) {
    CkbException e = assertThrows(CkbException.class, d::run);
    assertEquals(CkbException.Reason.MALFORMED_MESSAGE, e.reason(), e.getMessage());
    return e;
  }

  private interface ThrowingDecode {
    void run() throws Exception;
  }

  @Test
  void identifyOuterIsCompatibleAndInnerStrict() throws Exception {
    IdentifyMessage m = IdentifyMessage.decode(MoleculeExamples.bytes("identify_message_testnet"));
    byte[] observed = Molecule.table(Molecule.fixvec(m.observedAddr().toBytes()));
    byte[] outerWithExtra = Molecule.table(Molecule.dynvec(), observed, Molecule.fixvec(m.identify()), EXTRA);
    assertEquals(m.observedAddr(), IdentifyMessage.decode(outerWithExtra).observedAddr());
    Identify id = Identify.decode(m.identify());
    byte[] innerWithExtra = Molecule.table(Encoding.uint64(id.flag()), Molecule.fixvec(id.name().getBytes()),
        Molecule.fixvec(id.clientVersion().getBytes()), EXTRA);
    malformed(() -> Identify.decode(innerWithExtra));
    byte[] notUtf8 = Molecule.table(Encoding.uint64(1), Molecule.fixvec(new byte[] {(byte) 0xc3}),
        Molecule.fixvec(new byte[0]));
    malformed(() -> Identify.decode(notUtf8));
  }

  @Test
  void anObservedAddressThatIsNoMultiaddrFailsAndListenAddressesAreSkipped() throws Exception {
    byte[] good = Molecule.table(Molecule.fixvec(HexFormat.of().parseHex("047f00000106cb20")));
    byte[] bad = Molecule.table(Molecule.fixvec(new byte[] {0x7f}));
    IdentifyMessage m = IdentifyMessage.decode(Molecule.table(Molecule.dynvec(bad, good), good, Molecule.fixvec(new byte[0])));
    assertEquals(1, m.listenAddrs().size());
    assertEquals(1, m.skippedListenAddrs());
    malformed(() -> IdentifyMessage.decode(Molecule.table(Molecule.dynvec(), bad, Molecule.fixvec(new byte[0]))));
  }

  @Test
  void pingIsCompatible() throws Exception {
    byte[] ping = Molecule.table(Encoding.union(0, Molecule.table(Encoding.uint32(9), EXTRA)), EXTRA);
    assertEquals(PingMessage.ping(9), PingMessage.decode(ping));
    malformed(() -> PingMessage.decode(Molecule.table(Encoding.union(2, Molecule.table(Encoding.uint32(9))))));
  }

  @Test
  void discoveryReadsOldLayoutsAsCompatibility() throws Exception {
    byte[] getNodes = Molecule.table(Encoding.union(0, Molecule.table(Encoding.uint32(0), Encoding.uint32(5), new byte[0])));
    DiscoveryMessage.GetNodes g = assertInstanceOf(DiscoveryMessage.GetNodes.class, DiscoveryMessage.decode(getNodes));
    assertEquals(IdentifyFlags.COMPATIBILITY, g.requiredFlags());
    byte[] node = Molecule.table(Molecule.dynvec(Molecule.fixvec(HexFormat.of().parseHex("047f00000106cb20"))));
    byte[] nodes = Molecule.table(Encoding.union(1, Molecule.table(new byte[] {1}, Molecule.dynvec(node))));
    DiscoveryMessage.Nodes n = assertInstanceOf(DiscoveryMessage.Nodes.class, DiscoveryMessage.decode(nodes));
    assertEquals(IdentifyFlags.COMPATIBILITY, n.items().get(0).flags());
    assertEquals(true, n.announce());
    byte[] newer = Molecule.table(Encoding.union(0, Molecule.table(Encoding.uint32(0), Encoding.uint32(5), new byte[0],
        Encoding.uint64(4), EXTRA)));
    assertEquals(4, ((DiscoveryMessage.GetNodes) DiscoveryMessage.decode(newer)).requiredFlags(), "newer layouts too");
  }

  @Test
  void discoveryRefusesWhatANodeCannotDecode() {
    byte[] node = Molecule.table(Molecule.dynvec(Molecule.fixvec(new byte[] {0x7f})), Encoding.uint64(2));
    malformed(() -> DiscoveryMessage.decode(Molecule.table(Encoding.union(1, Molecule.table(new byte[] {0}, Molecule.dynvec(node))))));
    malformed(() -> DiscoveryMessage.decode(Molecule.table(Encoding.union(1, Molecule.table(new byte[] {2}, Molecule.dynvec())))));
    byte[] shortFlags = Molecule.table(Encoding.union(0, Molecule.table(Encoding.uint32(0), Encoding.uint32(5), new byte[0], EXTRA)));
    malformed(() -> DiscoveryMessage.decode(shortFlags));
  }

  @Test
  void syncItemsAreStrictButSendBlockTakesOneExtension() throws Exception {
    byte[] hash = new byte[32];
    byte[] getBlocksExtra = Encoding.union(2, Molecule.table(Molecule.fixvec(new byte[0]), EXTRA));
    malformed(() -> SyncMessage.decode(getBlocksExtra));
    byte[] inIbdExtra = Encoding.union(8, Molecule.table(EXTRA));
    malformed(() -> SyncMessage.decode(inIbdExtra));
    byte[] header = new byte[208];
    byte[] transaction = Molecule.table(Molecule.table(Encoding.uint32(0), Encoding.uint32(0), Encoding.uint32(0),
        Encoding.uint32(0), Molecule.dynvec(), Molecule.dynvec(), EXTRA), Molecule.dynvec());
    byte[] block = Molecule.table(header, Molecule.dynvec(), Molecule.dynvec(transaction), Encoding.uint32(0));
    byte[] blockV1 = Molecule.table(header, Molecule.dynvec(), Molecule.dynvec(), Encoding.uint32(0), Molecule.fixvec(hash));
    byte[] blockV2 = Molecule.table(header, Molecule.dynvec(), Molecule.dynvec(), Encoding.uint32(0), Molecule.fixvec(hash), EXTRA);
    assertInstanceOf(SyncMessage.SendBlock.class, SyncMessage.decode(Encoding.union(3, Molecule.table(block))),
        "a transaction's extra field: the block's contents are read compatibly");
    assertInstanceOf(SyncMessage.SendBlock.class, SyncMessage.decode(Encoding.union(3, Molecule.table(blockV1))));
    malformed(() -> SyncMessage.decode(Encoding.union(3, Molecule.table(blockV2))));
    malformed(() -> SyncMessage.decode(Encoding.union(3, Molecule.table(block, EXTRA))));
    malformed(() -> SyncMessage.decode(Encoding.union(9, Molecule.table())));
  }

  @Test
  void timeIsStrict() {
    malformed(() -> TimeMessage.decode(Molecule.table(Encoding.uint64(1), EXTRA)));
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "",                                   // no total size
    "05000000",                           // total size is not the length
    "0c0000000a0000000000000000",         // first offset not a multiple of 4 (and size wrong)
    "0c00000008000000",                   // cut short
    "100000000c00000008000000aabbccdd",   // offsets descend
    "0c0000000c0000000c000000",           // field 0 is empty, not a Bytes
  })
  void moleculeHeaderChecks(String hex) {
    byte[] bytes = HexFormat.of().parseHex(hex);
    assertThrows(MoleculeException.class, () -> CkbTypes.ADDRESS.verify(bytes, true));
  }

  @Test
  void fixvecCountMustMatch() throws MoleculeException {
    CkbTypes.BYTE32_VEC.verify(Molecule.fixvec(new byte[0]), false);
    byte[] oneHash = new byte[36];
    oneHash[0] = 1;
    CkbTypes.BYTE32_VEC.verify(oneHash, false);
    oneHash[0] = 2;
    assertThrows(MoleculeException.class, () -> CkbTypes.BYTE32_VEC.verify(oneHash, false));
  }
}
