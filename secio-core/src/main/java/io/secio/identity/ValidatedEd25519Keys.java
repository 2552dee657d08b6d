package io.secio.identity;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * Ed25519 public keys that passed the check (canonical encoding, on the curve, not of small order:
 * docs/PROTOCOL.md section 3.1), by their 32-byte encoding, so that a peer met again skips decoding
 * its key (a field inversion and a square root) and the check.
 *
 * <p>Only a key that passed enters; a key that fails is checked again, and fails again, every time.
 * The cache is bounded: past {@code capacity} keys the least recently used one is dropped, so a peer
 * sending endless fresh keys costs what it costs without the cache and evicts only other keys. A hit
 * returns the point decoded when the key was first checked; Bouncy Castle never writes to it.
 *
 * <p>Whether a key is cached shows in the time a handshake takes to fail; keys are public, but a peer
 * could learn this way whether a node has recently met the holder of a given key (see
 * docs/PROTOCOL.md sections 3.1 and 16). Thread-safe: one lock around a small map, held for a
 * lookup only, never during the check.
 */
final class ValidatedEd25519Keys {
  /** Distinct peers remembered by default: a node's recent peers, ~200 KiB at most. */
  static final int DEFAULT_CAPACITY_IN_KEYS = 1024;

  private final int capacity;
  /** In access order; keys are read-only {@link ByteBuffer}s, whose equality is their content. */
  private final Map<ByteBuffer, Ed25519.PublicPoint> keys;

  ValidatedEd25519Keys(int capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException("capacity must not be negative: " + capacity);
    }
    this.capacity = capacity;
    this.keys = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<ByteBuffer, Ed25519.PublicPoint> eldest) {
        return size() > ValidatedEd25519Keys.this.capacity;
      }
    };
  }

  /**
   * The point of a 32-byte Ed25519 key that passes the check, from the cache or checked now and
   * remembered; null for a key that fails it.
   */
  Ed25519.PublicPoint validate(byte[] encoded) {
    ByteBuffer key = ByteBuffer.wrap(encoded.clone()).asReadOnlyBuffer();
    synchronized (keys) {
      Ed25519.PublicPoint point = keys.get(key);
      if (point != null) {
        return point;
      }
    }
    // Checked outside the lock: two threads meeting one new key may both check it, which is harmless.
    // Bouncy Castle's partial check: canonical, on the curve, and not one of the eight points of small
    // order. The full one (in the prime-order subgroup) costs a scalar multiplication by the group
    // order, several times as much, for no security a handshake needs (docs/PROTOCOL.md section 3.1).
    Ed25519.PublicPoint point = Ed25519.validatePublicKeyPartialExport(encoded, 0);
    if (point != null && capacity > 0) {
      synchronized (keys) {
        keys.put(key, point);
      }
    }
    return point;
  }

  /** Keys remembered now; for tests. */
  int size() {
    synchronized (keys) {
      return keys.size();
    }
  }

  /** Whether {@code encoded} is remembered, without touching its place in the order; for tests. */
  boolean contains(byte[] encoded) {
    synchronized (keys) {
      return keys.containsKey(ByteBuffer.wrap(encoded));
    }
  }
}
