package io.secio.netty.hostile;

import static io.secio.netty.hostile.HostileConfigs.READ_TIMEOUT;
import static io.secio.netty.hostile.HostileConfigs.WAIT_SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.HandshakeLimiter;
import io.secio.SecioConfig;
import io.secio.protocol.SecioException;
import io.secio.testing.SigningThreads;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Dialers that reset right after the listener took up their Propose, against a listener whose
 * signing and ECDH run on a handshake executor: a handshake keeps its permit until its delegated step
 * has come back, so the work queued on the executor never exceeds the limiter's bound however many
 * dialers come and go; a step whose handshake ended before it started is skipped (no signature for a
 * dead peer); and an honest dialer completes afterwards.
 */
class DelegatedStepBoundTest {
  private static final int BOUND = 8;
  private static final int DIALERS = 100;

  /** One worker thread whose tasks wait for the gate; counts what was queued on it. */
  private static final class GatedExecutor implements Executor {
    final ExecutorService worker = Executors.newSingleThreadExecutor();
    final CountDownLatch gate = new CountDownLatch(1);
    final AtomicInteger submitted = new AtomicInteger();
    final AtomicInteger outstanding = new AtomicInteger();
    final AtomicInteger maxOutstanding = new AtomicInteger();

    @Override
    public void execute(Runnable task) {
      submitted.incrementAndGet();
      maxOutstanding.accumulateAndGet(outstanding.incrementAndGet(), Math::max);
      worker.execute(() -> {
        try {
          gate.await();
          task.run();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } finally {
          outstanding.decrementAndGet();
        }
      });
    }
  }

  @Test
  void resetDialersNeverQueueMoreThanTheBoundAndTheirStepsAreSkipped() throws Exception {
    GatedExecutor executor = new GatedExecutor();
    SigningThreads identity = new SigningThreads(HostileConfigs.nodeIdentity());
    // Every dialer is on 127.0.0.1: its share is the whole bound (FairShareTest covers shares).
    HandshakeLimiter limiter = HandshakeLimiter.of(BOUND, BOUND);
    SecioConfig config = SecioConfig.builder(identity).handshakeExecutor(executor)
        .handshakeTimeout(java.time.Duration.ofMinutes(5)).build();
    try (Listener listener = Listener.builder().limiter(limiter).start(config)) {
      for (int i = 0; i < DIALERS; i++) {
        int before = executor.submitted.get();
        RawPeer wire = RawPeer.dial(listener.address(), READ_TIMEOUT);
        PeerOnWire.proposing(wire, "AES-128-GCM").sendPropose();
        Connection c = listener.next(WAIT_SECONDS);
        // The listener has either handed its answer to the executor or refused the dialer.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (executor.submitted.get() == before && !c.handshake.isDone()) {
          assertTrue(System.nanoTime() < deadline, "dialer " + i + ": neither delegated nor refused");
          LockSupport.parkNanos(1_000_000);
        }
        wire.reset();
        assertNotNull(c.handshake.await(WAIT_SECONDS, TimeUnit.SECONDS) ? c.handshake.cause() : null,
            "dialer " + i + "'s handshake did not end");
      }
      assertTrue(executor.maxOutstanding.get() <= BOUND,
          "work queued on the executor at once: " + executor.maxOutstanding.get());
      assertEquals(BOUND, executor.submitted.get(), "dead handshakes gave their permits to new ones");
      assertEquals(BOUND, limiter.active(), "permits given back before the steps returned");

      executor.gate.countDown();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
      while (limiter.active() > 0) {
        assertTrue(System.nanoTime() < deadline, "permits not given back: " + limiter.active());
        LockSupport.parkNanos(1_000_000);
      }
      assertEquals(0, identity.threads.size(), "signed for dead peers: " + identity.threads);

      try (RawPeer honestWire = RawPeer.dial(listener.address(), READ_TIMEOUT)) {
        Connection honest = listener.next(WAIT_SECONDS);
        PeerOnWire.proposing(honestWire, "AES-128-GCM").handshake();
        assertNotNull(honest.handshake.get(WAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals(1, identity.threads.size());
      }
    } finally {
      executor.gate.countDown();
      executor.worker.shutdownNow();
    }
  }

  @Test
  void aStepRunningWhenItsDialerLeavesKeepsThePermitUntilItReturns() throws Exception {
    GatedExecutor executor = new GatedExecutor();
    HandshakeLimiter limiter = HandshakeLimiter.of(1, 1);
    SecioConfig config = HostileConfigs.node().handshakeExecutor(executor)
        .handshakeTimeout(java.time.Duration.ofMinutes(5)).build();
    try (Listener listener = Listener.builder().limiter(limiter).start(config)) {
      RawPeer wire = RawPeer.dial(listener.address(), READ_TIMEOUT);
      PeerOnWire.proposing(wire, "AES-128-GCM").sendPropose();
      Connection c = listener.next(WAIT_SECONDS);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
      while (executor.submitted.get() == 0) {
        assertTrue(System.nanoTime() < deadline, "not delegated");
        LockSupport.parkNanos(1_000_000);
      }
      wire.close();
      assertTrue(c.handshake.await(WAIT_SECONDS, TimeUnit.SECONDS));
      assertEquals(SecioException.Reason.CLOSED, ((SecioException) c.handshake.cause()).reason());
      assertEquals(1, limiter.active(), "the permit went back while the step was still queued");
      try (RawPeer refused = RawPeer.dial(listener.address(), READ_TIMEOUT)) {
        Connection r = listener.next(WAIT_SECONDS);
        assertTrue(r.handshake.await(WAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals(SecioException.Reason.TOO_MANY_HANDSHAKES,
            ((SecioException) r.handshake.cause()).reason());
      }
      executor.gate.countDown();
      while (limiter.active() > 0) {
        assertTrue(System.nanoTime() < deadline, "permit not given back");
        LockSupport.parkNanos(1_000_000);
      }
    } finally {
      executor.gate.countDown();
      executor.worker.shutdownNow();
    }
  }
}
