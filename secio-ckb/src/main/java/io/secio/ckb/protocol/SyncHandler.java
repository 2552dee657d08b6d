package io.secio.ckb.protocol;

import io.secio.ckb.CkbException;
import io.secio.ckb.CkbException.Reason;
import io.secio.ckb.CkbProtocol;
import io.secio.ckb.message.SyncMessage;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code /ckb/syn}, the minimum a node requires, as CKB's light client runs it: this side serves no
 * headers, so every message but SendBlock is answered with InIBD, and an InIBD is never answered (two
 * such peers would answer each other forever) but noted on the session. The rules a node applies to
 * what it reads stay: a message that is not a strict SyncMessage (SendBlock: at most the block's
 * extension) bans for 300 s, and so do a locator over 101 hashes, over 2000 headers or block hashes,
 * and a GetBlocks asking for the genesis block or a block twice among its first 32 ({@code
 * synchronizer/*}, {@code status.rs}: every 4xx but 414 is a 300 s ban).
 */
final class SyncHandler extends ProtocolHandler {
  static final int MAX_LOCATOR_SIZE = 101;
  static final int MAX_HEADERS_LEN = 2000;
  static final int INIT_BLOCKS_IN_TRANSIT_PER_PEER = 32;

  SyncHandler(Peer peer) {
    super(peer, CkbProtocol.SYNC);
  }

  @Override
  void onMessage(byte[] message) {
    SyncMessage m;
    try {
      m = SyncMessage.decode(message);
    } catch (CkbException e) {
      peer.ban(Peer.BAD_MESSAGE_BAN, Reason.MALFORMED_MESSAGE, "send us a malformed message");
      return;
    }
    String status = status(m);
    if (status != null) {
      peer.ban(Peer.BAD_MESSAGE_BAN, Reason.PROTOCOL_VIOLATION, status);
      return;
    }
    if (m instanceof SyncMessage.InIbd) {
      peer.inIbd();
    } else if (!(m instanceof SyncMessage.SendBlock)) {
      send(new SyncMessage.InIbd().encode());
    }
  }

  /** The 4xx status a node gives {@code m} before looking at its chain, or null. */
  private String status(SyncMessage m) {
    if (m instanceof SyncMessage.GetHeaders g && g.locator().size() > MAX_LOCATOR_SIZE) {
      return "ProtocolMessageIsMalformed(400): Locator count(" + g.locator().size() + ") > MAX_LOCATOR_SIZE("
          + MAX_LOCATOR_SIZE + ")";
    }
    if (m instanceof SyncMessage.SendHeaders h && h.headers().size() > MAX_HEADERS_LEN) {
      return "HeadersIsInvalid(415): oversize";
    }
    if (m instanceof SyncMessage.GetBlocks b) {
      return getBlocksStatus(b.hashes());
    }
    return null;
  }

  private String getBlocksStatus(List<byte[]> hashes) {
    if (hashes.size() > MAX_HEADERS_LEN) {
      return "ProtocolMessageIsMalformed(400): BlockHashes count(" + hashes.size() + ") > MAX_HEADERS_LEN("
          + MAX_HEADERS_LEN + ")";
    }
    byte[] genesis = peer.config().network().genesisHash();
    Set<String> seen = new HashSet<>();
    for (byte[] hash : hashes.subList(0, Math.min(hashes.size(), INIT_BLOCKS_IN_TRANSIT_PER_PEER))) {
      if (Arrays.equals(hash, genesis)) {
        return "RequestGenesis(417): Request genesis block";
      }
      if (!seen.add(Arrays.toString(hash))) {
        return "RequestDuplicate(418): Request duplicate block";
      }
    }
    return null;
  }
}
