package io.secio.ckb;

import java.util.ArrayList;
import java.util.List;

/**
 * The service flags of CKB's Identify and discovery ({@code identify/mod.rs} {@code Flags}): what a
 * node offers, and what a dialer requires of the node it dialed. Constants.
 */
public final class IdentifyFlags {
  /** Reserved; an old node with every service (a filter on SYNC | DISCOVERY | RELAY accepts it). */
  public static final long COMPATIBILITY = 1;
  /** Serves discovery: answers GetNodes. */
  public static final long DISCOVERY = 1 << 1;
  /** Serves headers and blocks (Sync). */
  public static final long SYNC = 1 << 2;
  /** Relays compact blocks and transactions. */
  public static final long RELAY = 1 << 3;
  /** Serves light clients' proofs. */
  public static final long LIGHT_CLIENT = 1 << 4;
  /** Serves block filters. */
  public static final long BLOCK_FILTER = 1 << 5;
  /** What a full node requires of a node it dials (its default): SYNC | DISCOVERY | RELAY. */
  public static final long FULL_NODE_REQUIRED = SYNC | DISCOVERY | RELAY;
  /** What CKB's light client requires of a node it dials: 0x3e. */
  public static final long LIGHT_CLIENT_REQUIRED = DISCOVERY | SYNC | RELAY | LIGHT_CLIENT | BLOCK_FILTER;

  private static final String[] NAMES = {"COMPATIBILITY", "DISCOVERY", "SYNC", "RELAY", "LIGHT_CLIENT", "BLOCK_FILTER"};

  private IdentifyFlags() {}

  /**
   * Whether {@code flags} pass a filter on {@code required}, as CKB's {@code required_flags_filter}:
   * they hold every required flag, or COMPATIBILITY when exactly SYNC | DISCOVERY | RELAY is required.
   */
  public static boolean meets(long flags, long required) {
    if (required == FULL_NODE_REQUIRED && (flags & COMPATIBILITY) != 0) {
      return true;
    }
    return (flags & required) == required;
  }

  /** The flags' names joined by {@code |}, such as {@code DISCOVERY|SYNC}; unknown bits in hex. */
  public static String describe(long flags) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < NAMES.length; i++) {
      if ((flags & (1L << i)) != 0) {
        names.add(NAMES[i]);
      }
    }
    long unknown = flags & ~((1L << NAMES.length) - 1);
    if (unknown != 0) {
      names.add("0x" + Long.toHexString(unknown));
    }
    return names.isEmpty() ? "none" : String.join("|", names);
  }
}
