package io.secio.ckb;

import io.netty.util.concurrent.ScheduledFuture;
import io.secio.ckb.chain.Acceptance;
import io.secio.ckb.chain.HeaderFollower;
import io.secio.ckb.header.Header;
import io.secio.ckb.header.HeaderException;
import io.secio.ckb.protocol.CkbException.Reason;
import io.secio.ckb.protocol.CkbException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One session's header sync with its peer, as a CKB node runs it ({@code synchronizer/mod.rs},
 * {@code headers_process.rs}, {@code in_ibd_process.rs}): a {@code GetHeaders} with the chain's
 * locator when Sync opens; each {@code SendHeaders} checked and stored as one batch; while batches
 * are full (2000), the next {@code GetHeaders} at once from the batch's last header; after a short
 * one the peer is synced and asked again after the re-ask interval. One question at a time.
 *
 * <p>Rules on the peer: a batch that fails a check bans it for 300 s ({@code HeadersIsInvalid(415)},
 * nothing of the batch stored); a header too far in the future only stops the batch there, without
 * blame. An {@code InIBD} from a peer this side dialed ends the session ("outbound in ibd"); from a
 * peer that dialed, header sync with it waits 5 minutes. A peer this side dialed that runs out of
 * headers while the chain's tip is still over 24 hours old ends the session ("useless outbound peer
 * in IBD").
 *
 * <p>Runs on the stream's event loop; the chain's work on the follower's thread.
 */
final class HeaderFollowing {
  private static final Logger LOG = LoggerFactory.getLogger(HeaderFollowing.class);
  /** How long header sync with a peer that said InIBD waits ({@code SUSPEND_SYNC_TIME}). */
  static final Duration SUSPEND = Duration.ofMinutes(5);

  private final SyncHandler sync;
  private final Peer peer;
  private final HeaderFollower chain;
  private final Duration reAsk;
  private ScheduledFuture<?> next;
  private boolean asked;
  private boolean stopped;

  HeaderFollowing(SyncHandler sync, HeaderFollower chain, Duration reAsk) {
    this.sync = sync;
    this.peer = sync.peer;
    this.chain = chain;
    this.reAsk = reAsk;
  }

  /** Sync opened: ask from the tip. */
  void start() {
    askFromTip();
  }

  void stop() {
    stopped = true;
    cancelTimer();
  }

  private void askFromTip() {
    if (stopped || asked) {
      return;
    }
    asked = true;
    chain.locator().whenCompleteAsync((locator, e) -> {
      if (stopped) {
        return;
      }
      if (e != null) {
        storeFailed(e);
        return;
      }
      sync.getHeaders(locator);
    }, sync.executor());
  }

  /** A {@code SendHeaders}: checked and stored on the follower's thread, then the next step here. */
  CompletableFuture<Void> headers(List<Header> headers) {
    return chain.accept(headers).handleAsync((accepted, e) -> {
      if (!stopped) {
        if (e != null) {
          refused(e instanceof CompletionException ? e.getCause() : e);
        } else {
          accepted(accepted);
        }
      }
      return null;
    }, sync.executor());
  }

  private void accepted(Acceptance a) {
    peer.emit(new CkbEvent.HeadersAccepted(a.received(), a.added(), a.tip()));
    if (a.tipChanged()) {
      peer.emit(new CkbEvent.NewTip(a.tip()));
    }
    a.deferred().ifPresent(d -> LOG.debug("{}: headers from {} on wait: {}", peer, d.number(), d.getMessage()));
    if (a.nextLocator().isPresent()) {
      asked = true;
      cancelTimer();
      sync.getHeaders(a.nextLocator().get());
      return;
    }
    asked = false;
    peer.emit(new CkbEvent.HeadersSynced(a.tip()));
    if (peer.isDialer() && chain.inInitialBlockDownload() && a.received() < SyncHandler.MAX_HEADERS_LEN) {
      peer.disconnect(new CkbException(Reason.PROTOCOL_VIOLATION, "the peer ran out of headers while the tip "
          + a.tip() + " is over 24 hours old"), "useless outbound peer in IBD");
      return;
    }
    askAfter(reAsk);
  }

  private void refused(Throwable cause) {
    if (cause instanceof HeaderException h) {
      peer.ban(Peer.BAD_MESSAGE_BAN, Reason.INVALID_HEADER, "HeadersIsInvalid(415): " + h.getMessage(), h);
    } else {
      storeFailed(cause);
    }
  }

  private void storeFailed(Throwable cause) {
    LOG.error("{}: the header chain failed", peer, cause);
    peer.disconnect(new CkbException(Reason.HEADER_STORE, "the header chain failed: " + cause, false,
        cause instanceof IOException ? cause : null), "header store failed");
  }

  /** The peer said it is in its initial block download. */
  void peerInIbd() {
    if (peer.isDialer()) {
      peer.disconnect(new CkbException(Reason.PROTOCOL_VIOLATION, "a peer this side dialed is in IBD"),
          "outbound in ibd");
      return;
    }
    asked = false;
    askAfter(SUSPEND);
  }

  private void askAfter(Duration delay) {
    cancelTimer();
    next = sync.schedule(this::askFromTip, delay);
  }

  private void cancelTimer() {
    if (next != null) {
      next.cancel(false);
      next = null;
    }
  }
}
