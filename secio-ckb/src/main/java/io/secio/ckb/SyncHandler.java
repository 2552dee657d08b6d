package io.secio.ckb;

import io.secio.ckb.chain.GetHeadersAnswer;
import io.secio.ckb.chain.HeaderFollower;
import io.secio.ckb.header.Byte32;
import io.secio.ckb.header.Header;
import io.secio.ckb.message.SyncMessage;
import io.secio.ckb.protocol.CkbException.Reason;
import io.secio.ckb.protocol.CkbException;
import io.secio.ckb.protocol.CkbProtocol;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * {@code /ckb/syn}. The rules a node applies to what it reads come first, whatever this side holds:
 * a message that is not a strict SyncMessage (SendBlock: at most the block's extension) bans for
 * 300 s, and so do a locator over 101 hashes, over 2000 headers or block hashes, and a GetBlocks
 * asking for the genesis block or a block twice among its first 32 ({@code synchronizer/*}, {@code
 * status.rs}: every 4xx but 414 is a 300 s ban).
 *
 * <p>Then, by the config's {@link HeaderSync}: without a chain (or to follow only) every message but
 * SendBlock and InIBD is answered with InIBD, as CKB's light client, and an InIBD is never answered
 * (two such peers would answer each other forever). A chain that is followed takes the peer's
 * SendHeaders ({@link HeaderFollowing}); a chain that is served answers GetHeaders from its main chain,
 * or bans for 600 s a locator that does not end with the genesis hash (414), and leaves GetBlocks
 * unanswered (it holds no blocks, as a node ignores blocks it has not verified).
 *
 * <p>The peer's messages are handled one at a time, in order, also while the header follower's thread
 * works on one ({@link #awaiting}).
 */
final class SyncHandler extends ProtocolHandler {
  static final int MAX_LOCATOR_SIZE = 101;
  static final int MAX_HEADERS_LEN = 2000;
  static final int INIT_BLOCKS_IN_TRANSIT_PER_PEER = 32;
  /** A node's ban for a GetHeaders it finds no common block in ({@code SYNC_USELESS_BAN_TIME}). */
  static final Duration SYNC_USELESS_BAN = Duration.ofSeconds(600);

  private final HeaderFollower chain;
  private final HeaderSync sync;
  private final HeaderFollowing following;

  SyncHandler(Peer peer) {
    super(peer, CkbProtocol.SYNC);
    CkbConfig config = peer.config();
    this.chain = config.headers().orElse(null);
    this.sync = config.headerSync();
    this.following = chain != null && sync.follows() ? new HeaderFollowing(this, chain, config.headersReAsk()) : null;
  }

  @Override
  void onOpen() {
    if (following != null) {
      following.start();
    }
  }

  @Override
  void onClose() {
    if (following != null) {
      following.stop();
    }
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
    CompletableFuture<?> work = handle(m);
    if (work != null) {
      awaiting(work);
    }
  }

  /** Handles one message; the work still under way elsewhere, or null when it is done. */
  private CompletableFuture<?> handle(SyncMessage m) {
    if (m instanceof SyncMessage.InIbd) {
      peer.inIbd();
      if (following != null) {
        following.peerInIbd();
      }
      return null;
    }
    if (m instanceof SyncMessage.SendBlock) {
      return null;
    }
    if (m instanceof SyncMessage.SendHeaders h && following != null) {
      return following.headers(h.headers().stream().map(Header::fromBytes).toList());
    }
    if (m instanceof SyncMessage.GetHeaders g && chain != null && sync.serves()) {
      return serve(g);
    }
    if (chain == null || !sync.serves()) {
      send(new SyncMessage.InIbd().encode());
    }
    // Served chain, but no blocks to give, or headers not followed: nothing to say.
    return null;
  }

  private CompletableFuture<?> serve(SyncMessage.GetHeaders g) {
    List<Byte32> locator = g.locator().stream().map(Byte32::of).toList();
    return chain.answer(locator, Byte32.of(g.hashStop())).thenAcceptAsync(answer -> {
      if (!isOpen()) {
        return;
      }
      if (answer instanceof GetHeadersAnswer.Headers h) {
        send(new SyncMessage.SendHeaders(h.headers().stream().map(Header::toBytes).toList()).encode());
      } else if (answer instanceof GetHeadersAnswer.InIbd) {
        send(new SyncMessage.InIbd().encode());
      } else if (answer instanceof GetHeadersAnswer.Refused r) {
        peer.ban(SYNC_USELESS_BAN, Reason.PROTOCOL_VIOLATION, "GetHeadersMissCommonAncestors(414): " + r.reason());
      }
    }, executor());
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

  /** Writes a GetHeaders with {@code locator}, no hash stop. */
  void getHeaders(List<Byte32> locator) {
    send(new SyncMessage.GetHeaders(new byte[Byte32.SIZE_IN_BYTES], locator.stream().map(Byte32::toBytes).toList())
        .encode());
  }
}
