package io.secio.ckb;

import io.secio.multiaddr.Multiaddr;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The addresses this side answers a peer's GetNodes from: nodes it connected to and identified (as a
 * CKB node answers only from addresses it connected to), and any a user adds. At most {@value
 * #MAX_ENTRIES}; once full the oldest goes. An address that is added again moves to the newest.
 *
 * <p>Thread-safe: one book serves every session of a config.
 */
public final class AddressBook {
  /** The most addresses kept. */
  public static final int MAX_ENTRIES = 4096;

  private final Map<Multiaddr, Long> nodes = new LinkedHashMap<>();

  /** An empty book. */
  public AddressBook() {}

  /**
   * Adds (or refreshes) a node's address.
   *
   * @param address where it listens
   * @param flags the services it announced ({@link IdentifyFlags})
   */
  public void add(Multiaddr address, long flags) {
    Objects.requireNonNull(address, "address");
    synchronized (nodes) {
      nodes.remove(address);
      nodes.put(address, flags);
      if (nodes.size() > MAX_ENTRIES) {
        nodes.remove(nodes.keySet().iterator().next());
      }
    }
  }

  /**
   * Up to {@code count} nodes in random order, one address each, whose flags pass a filter on {@code
   * required} ({@link IdentifyFlags#meets}).
   *
   * @param count the most to return
   * @param required the flags a peer asked for
   * @return the nodes
   */
  public List<Node> random(int count, long required) {
    List<Node> matching = new ArrayList<>();
    synchronized (nodes) {
      nodes.forEach((address, flags) -> {
        if (IdentifyFlags.meets(flags, required)) {
          matching.add(new Node(List.of(address), flags));
        }
      });
    }
    Collections.shuffle(matching, ThreadLocalRandom.current());
    return List.copyOf(matching.subList(0, Math.min(count, matching.size())));
  }

  /** How many addresses it holds. */
  public int size() {
    synchronized (nodes) {
      return nodes.size();
    }
  }

  @Override
  public String toString() {
    return "AddressBook{" + size() + "}";
  }
}
