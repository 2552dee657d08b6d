package io.secio.ckb.protocol;

import io.secio.multiaddr.Multiaddr;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * Whether an address is globally reachable, as tentacle's {@code is_reachable} decides before a node
 * announces or keeps it: not private, loopback, link-local, broadcast, documentation or unspecified
 * (IPv4); not multicast (but global-scope), loopback, link-local, site-local, unique-local, unspecified
 * or documentation (IPv6). An address without an IP (DNS, onion) counts as reachable. Stateless.
 */
final class Reachability {
  private Reachability() {}

  static boolean isReachable(Multiaddr address) {
    return address.socketAddress()
        .map(InetSocketAddress::getAddress)
        .map(Reachability::isReachable)
        .orElse(true);
  }

  static boolean isReachable(InetAddress ip) {
    byte[] b = ip.getAddress();
    if (ip instanceof Inet4Address) {
      int a0 = b[0] & 0xFF;
      int a1 = b[1] & 0xFF;
      int a2 = b[2] & 0xFF;
      boolean documentation = (a0 == 192 && a1 == 0 && a2 == 2) || (a0 == 198 && a1 == 51 && a2 == 100)
          || (a0 == 203 && a1 == 0 && a2 == 113);
      boolean broadcast = a0 == 255 && a1 == 255 && a2 == 255 && (b[3] & 0xFF) == 255;
      return !(ip.isSiteLocalAddress() || ip.isLoopbackAddress() || ip.isLinkLocalAddress() || broadcast
          || documentation || ip.isAnyLocalAddress());
    }
    if (!(ip instanceof Inet6Address)) {
      return false;
    }
    int s0 = (b[0] & 0xFF) << 8 | b[1] & 0xFF;
    int s1 = (b[2] & 0xFF) << 8 | b[3] & 0xFF;
    if (ip.isMulticastAddress()) {
      return (s0 & 0x000F) == 14;
    }
    return !(ip.isLoopbackAddress() || (s0 & 0xFFC0) == 0xFE80 || (s0 & 0xFFC0) == 0xFEC0
        || (s0 & 0xFE00) == 0xFC00 || ip.isAnyLocalAddress() || (s0 == 0x2001 && s1 == 0x0DB8));
  }
}
