package io.secio.netty;

import static org.junit.jupiter.api.Assertions.fail;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test when Netty reports a leaked {@code ByteBuf}. Registered for every test class through
 * {@code META-INF/services} and {@code junit.jupiter.extensions.autodetection.enabled}.
 *
 * <p>Netty only notices a leak when a leaked buffer has been garbage-collected and a later allocation
 * polls the detector's queue, and it only logs what it finds. So after each test this forces a
 * collection, waits (on a reference queue, not a clock) until the JVM has processed that
 * collection's references, allocates a few buffers to make the detector poll, and fails if the
 * listener installed here heard of any leak. {@link LeakDetectionSelfTest} proves that a real leak is
 * caught this way.
 */
public final class FailOnLeaks implements AfterEachCallback {
  private static final List<String> LEAKS = new ArrayList<>();

  static {
    ByteBufUtil.setLeakListener((resourceType, records) -> {
      synchronized (LEAKS) {
        LEAKS.add(resourceType + records);
      }
    });
  }

  /** Makes sure the listener is installed (loading this class installs it). */
  static void install() {}

  @Override
  public void afterEach(ExtensionContext context) {
    collectAndPoll();
    List<String> leaks = drain();
    if (!leaks.isEmpty()) {
      fail("ByteBuf leak detected (" + leaks.size() + "):\n" + String.join("\n----\n", leaks));
    }
  }

  /** Leak reports seen since the last call. */
  static List<String> drain() {
    synchronized (LEAKS) {
      List<String> copy = new ArrayList<>(LEAKS);
      LEAKS.clear();
      return copy;
    }
  }

  /** Collects garbage and makes Netty's leak detector report what it found. */
  static void collectAndPoll() {
    // Two rounds at least: the second sentinel is processed only after the first round's references.
    for (int round = 0; round < 3; round++) {
      ReferenceQueue<Object> queue = new ReferenceQueue<>();
      PhantomReference<Object> sentinel = new PhantomReference<>(new Object(), queue);
      System.gc();
      try {
        if (queue.remove(10_000) == null) {
          throw new AssertionError("the JVM did not collect garbage on request; leak checks cannot run");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      } finally {
        Reference.reachabilityFence(sentinel);
      }
      // Every tracked allocation polls the detector's queue (paranoid level tracks each one).
      ByteBufAllocator.DEFAULT.heapBuffer(1).release();
      ByteBufAllocator.DEFAULT.directBuffer(1).release();
      PooledByteBufAllocator.DEFAULT.directBuffer(1).release();
      UnpooledByteBufAllocator.DEFAULT.directBuffer(1).release();
    }
  }
}
