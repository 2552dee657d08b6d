package io.secio.ckb;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The addresses banned here, as a CKB node keeps them ({@code peer_store/ban_list.rs}): a ban is per
 * IP (IPv4 /32, IPv6 /128) until its time runs out, and every connection from or to a banned IP is
 * refused at once, before secio. At most {@value #MAX_ENTRIES} IPs: once full, a new ban first
 * drops the expired ones, then the one that would expire first.
 *
 * <p>Thread-safe: one list serves every session of a config. Time is the given {@link Clock}'s.
 */
public final class BanList {
  /** The most IPs kept. */
  public static final int MAX_ENTRIES = 10_000;

  /**
   * A ban.
   *
   * @param address the banned IP
   * @param until when it ends
   * @param reason why, as the disconnect message said
   */
  public record Ban(InetAddress address, Instant until, String reason) {}

  private final Clock clock;
  private final Map<InetAddress, Ban> bans = new ConcurrentHashMap<>();

  /** An empty list on the system clock. */
  public BanList() {
    this(Clock.systemUTC());
  }

  /**
   * An empty list on {@code clock}.
   *
   * @param clock the time bans are measured in
   */
  public BanList(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Bans {@code address} for {@code duration} (a longer ban of it stays).
   *
   * @param address the IP
   * @param duration how long; positive
   * @param reason why
   */
  public void ban(InetAddress address, Duration duration, String reason) {
    Instant until = clock.instant().plus(duration);
    synchronized (bans) {
      if (bans.size() >= MAX_ENTRIES && !bans.containsKey(address)) {
        makeRoom();
      }
      bans.merge(address, new Ban(address, until, reason), (old, now) -> old.until().isAfter(now.until()) ? old : now);
    }
  }

  private void makeRoom() {
    Instant now = clock.instant();
    bans.values().removeIf(b -> !b.until().isAfter(now));
    if (bans.size() >= MAX_ENTRIES) {
      bans.values().stream().min(Comparator.comparing(Ban::until)).ifPresent(b -> bans.remove(b.address()));
    }
  }

  /**
   * The ban on {@code address} now, if any.
   *
   * @param address the IP
   * @return the ban, or empty if none or expired
   */
  public Optional<Ban> ban(InetAddress address) {
    Ban b = bans.get(address);
    if (b == null) {
      return Optional.empty();
    }
    if (!b.until().isAfter(clock.instant())) {
      bans.remove(address, b);
      return Optional.empty();
    }
    return Optional.of(b);
  }

  /** Whether {@code address} is banned now. */
  public boolean isBanned(InetAddress address) {
    return ban(address).isPresent();
  }

  /** How many IPs the list holds, expired ones not yet dropped included. */
  public int size() {
    return bans.size();
  }

  @Override
  public String toString() {
    return "BanList{" + bans.size() + "}";
  }
}
