package io.secio.multiaddr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.PeerId;
import java.net.InetSocketAddress;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The binary and text forms of a multiaddr with tentacle's rules: every protocol tentacle knows both
 * ways, what it refuses (unknown codes, cut values, long or non-minimal varints, a p2p value that is
 * not sha2-256 of 32 bytes, names that are not UTF-8), and libp2p's bytes kept and printed.
 */
class MultiaddrTest {
  private static final HexFormat HEX = HexFormat.of();
  private static final String QM = "QmT6DFfm18wtbJz3y4aPNn3ac86N4d4p4xtfQRRPf73frC";

  @ParameterizedTest
  @CsvSource({
    "/ip4/18.217.146.65/tcp/8111/p2p/" + QM
        + ", 0412d99241061fafa503221220469785337faf5793aaf3cbaf7bf338d36ca0f85074ecb9b61356855382d72a6d",
    "/ip4/127.0.0.1/tcp/8115/ws, 047f000001061fb3dd03",
    "/dns4/localhost/tcp/443/wss, 36096c6f63616c686f73740601bbde03",
    "/ip6/::1/tcp/8114, 2900000000000000000000000000000001061fb2",
    "/ip6/2001:db8::8:800:200c:417a/udp/9/quic-v1, 2920010db80000000000080800200c417a 91020009cd03",
    "/ip6/::ffff:1.2.3.4/tcp/1, 2900000000000000000000ffff01020304060001",
    "/dns6/a.b/tcp/1/tls/example.org/ws, 3703612e62060001c0030b6578616d706c652e6f7267dd03",
    "/memory/18446744073709551615, 8906ffffffffffffffff",
  })
  void textAndBytesBothWays(String text, String hex) throws MultiaddrException {
    byte[] bytes = HEX.parseHex(hex.replace(" ", ""));
    assertArrayEquals(bytes, Multiaddr.parse(text).toBytes(), "text to bytes");
    assertEquals(text, Multiaddr.read(bytes).toString(), "bytes to text");
  }

  @Test
  void onion3IsLowerCaseBase32AndAPort() throws MultiaddrException {
    String host = "vww6ybal4bd7szmgncyruucpgfkqahzddi37ktceo3ah7ngmcopnpyyd";
    Multiaddr a = Multiaddr.parse("/onion3/" + host.toUpperCase() + ":1234");
    assertEquals("/onion3/" + host + ":1234", a.toString());
    assertEquals(2 + 37, a.toBytes().length, "code bd03, 35 bytes of address, 2 of port");
    assertEquals(a, Multiaddr.read(a.toBytes()));
    assertThrows(IllegalArgumentException.class, () -> Multiaddr.parse("/onion3/" + host + ":0"));
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "",                          // an empty multiaddr parses from no bytes only
    "/",
    "ip4/1.2.3.4",
    "/ip4/1.2.3",
    "/ip4/01.2.3.4",             // Rust's Ipv4Addr: no leading zeros
    "/ip4/256.0.0.1",
    "/ip6/fe80::1%eth0",
    "/tcp/65536",
    "/tcp",
    "/ip4/1.2.3.4/",
    "/quic",                     // libp2p's, not tentacle's
    "/dnsaddr/example.org",
    "/p2p/12D3KooWD3eckifWpRn9wQpMG9R9hX3sD158z7EqHWmweQAJU5SA", // an identity multihash
    "/memory/-1",
  })
  void textTentacleRefuses(String text) {
    assertThrows(IllegalArgumentException.class, () -> Multiaddr.parse(text));
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "ff",                        // varint cut short
    "7f",                        // unknown code
    "8400",                      // code 4 written in two bytes: not minimal
    "80808080808001",            // a code over 5 bytes
    "047f0000",                  // ip4 cut short
    "0601",
    "a503",                      // p2p without its length
    "a50322",                    // p2p longer than the address
    "a503221320" + "469785337faf5793aaf3cbaf7bf338d36ca0f85074ecb9b61356855382d72a6d", // sha3, not sha2
    "a503240020" + "469785337faf5793aaf3cbaf7bf338d36ca0f85074ecb9b61356855382d72a6d0000", // identity
    "3602c328",                  // dns4 name not UTF-8
    "cc03",                      // libp2p's quic (460)
  })
  void bytesTentacleRefuses(String hex) {
    assertThrows(MultiaddrException.class, () -> Multiaddr.read(HEX.parseHex(hex)));
  }

  @Test
  void anEmptyAddressIsReadAsTentacleReadsIt() throws MultiaddrException {
    assertEquals("", Multiaddr.read(new byte[0]).toString());
  }

  @Test
  void anEmptyNameKeepsItsSlashAsTentaclePrintsIt() throws MultiaddrException {
    Multiaddr empty = Multiaddr.read(HEX.parseHex("3600"));
    assertEquals("/dns4/", empty.toString());
    assertEquals(empty, Multiaddr.parse("/dns4/"));
  }

  @Test
  void libp2pBytesAreKeptAndPrintedAsFarAsTheyGo() {
    PeerId ed25519 = PeerId.parse("12D3KooWD3eckifWpRn9wQpMG9R9hX3sD158z7EqHWmweQAJU5SA");
    byte[] id = ed25519.toBytes();
    byte[] bytes = new byte[4 + id.length];
    bytes[0] = (byte) 0xa5;
    bytes[1] = 0x03;
    bytes[2] = (byte) id.length;
    System.arraycopy(id, 0, bytes, 3, id.length);
    bytes[bytes.length - 1] = 0; // a trailing byte: code 0 is no protocol
    Multiaddr unreadable = Multiaddr.fromBytes(bytes);
    assertTrue(unreadable.toString().startsWith("0x"), unreadable.toString());
    Multiaddr p2p = Multiaddr.fromBytes(java.util.Arrays.copyOf(bytes, bytes.length - 1));
    assertEquals("/p2p/" + ed25519.toBase58(), p2p.toString(), "libp2p's ids print");
    assertEquals(ed25519, p2p.peerId().orElseThrow());
    assertThrows(MultiaddrException.class, () -> Multiaddr.read(p2p.toBytes()), "tentacle refuses them");
  }

  @Test
  void socketAddressPeerIdAndWithPeerId() {
    Multiaddr a = Multiaddr.parse("/ip4/18.217.146.65/tcp/8111");
    assertEquals(new InetSocketAddress("18.217.146.65", 8111), a.socketAddress().orElseThrow());
    Multiaddr withId = a.withPeerId(PeerId.parse(QM));
    assertEquals("/ip4/18.217.146.65/tcp/8111/p2p/" + QM, withId.toString());
    assertEquals(withId, withId.withPeerId(PeerId.parse(QM)), "one peer id at most");
    assertEquals(PeerId.parse(QM), withId.peerId().orElseThrow());
    InetSocketAddress dns = Multiaddr.parse("/dns4/example.org/tcp/443/wss").socketAddress().orElseThrow();
    assertTrue(dns.isUnresolved());
    assertEquals("example.org", dns.getHostString());
    assertEquals(443, dns.getPort());
    assertTrue(Multiaddr.parse("/ip4/1.2.3.4/udp/1/quic-v1").socketAddress().isEmpty(), "no tcp");
    assertEquals(Multiaddr.parse("/ip6/::1/tcp/9"), Multiaddr.of(new InetSocketAddress("::1", 9)));
    assertTrue(withId.has(MultiaddrProtocol.P2P));
    assertEquals(List.of(MultiaddrProtocol.IP4, MultiaddrProtocol.TCP, MultiaddrProtocol.P2P),
        withId.components().stream().map(Component::protocol).toList());
  }
}
