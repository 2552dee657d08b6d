package io.secio.ckb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.Future;
import io.secio.streams.StreamChannel;
import io.secio.tentacle.Tentacle;
import io.secio.tentacle.TentacleException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The protocol table as a node registers it ({@code docs/CKB.md} §3), the versions real peers offer,
 * and what happens to protocols this side does not implement: refused as tentacle refuses an unknown
 * protocol, or registered to stay silent or to reach a user's handler (codec rules kept).
 */
class ProtocolTableTest {

  @Test
  void theTableIsCkbs() {
    Map<CkbProtocol, String> expected = Map.ofEntries(
        Map.entry(CkbProtocol.PING, "0 /ckb/ping 1024 plain"),
        Map.entry(CkbProtocol.DISCOVERY, "1 /ckb/discovery 524288 plain"),
        Map.entry(CkbProtocol.IDENTIFY, "2 /ckb/identify 2048 plain"),
        Map.entry(CkbProtocol.FEELER, "3 /ckb/flr 1024 plain"),
        Map.entry(CkbProtocol.DISCONNECT_MESSAGE, "4 /ckb/disconnectmsg 1024 plain"),
        Map.entry(CkbProtocol.SYNC, "100 /ckb/syn 2097152 compress"),
        Map.entry(CkbProtocol.RELAY, "101 /ckb/relay3 4194304 compress"),
        Map.entry(CkbProtocol.TIME, "102 /ckb/tim 1024 compress"),
        Map.entry(CkbProtocol.ALERT, "110 /ckb/alt 131072 compress"),
        Map.entry(CkbProtocol.LIGHT_CLIENT, "120 /ckb/lightclient 2097152 compress"),
        Map.entry(CkbProtocol.FILTER, "121 /ckb/filter 2097152 compress"));
    for (CkbProtocol p : CkbProtocol.values()) {
      assertEquals(expected.get(p), p.id() + " " + p.protocolName() + " " + p.maxFrameLength() + " "
          + (p.hasCompressCodec() ? "compress" : "plain"));
      assertEquals(List.of("3"), p.versions());
      assertEquals(p, CkbProtocol.ofName(p.protocolName()).orElseThrow());
    }
    assertFalse(CkbProtocol.FILTER.compressesWrites(), "v0.204+ never sets Filter's snappy flag");
    assertTrue(CkbProtocol.SYNC.compressesWrites());
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void anOldNodesOfferOf2And3Gets3(boolean weDial) {
    try (Duel d = new Duel(weDial)) {
      d.hostileVersions = List.of("2", "3");
      d.identified();
      if (!weDial) {
        StreamChannel sync = d.open(CkbProtocol.SYNC);
        assertEquals(Optional.of("3"), Tentacle.protocol(sync).orElseThrow().version());
      }
      assertTrue(d.hostile.isOpen(CkbProtocol.SYNC));
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aProtocolNotImplementedIsRefusedAsTentacleRefusesAnUnknownOne(boolean weDial) {
    try (Duel d = new Duel(weDial).identified()) {
      for (CkbProtocol p : List.of(CkbProtocol.RELAY, CkbProtocol.ALERT, CkbProtocol.LIGHT_CLIENT, CkbProtocol.FILTER)) {
        Future<StreamChannel> open = d.hostile.open(p);
        d.pair.pump();
        assertEquals(TentacleException.Reason.PROTOCOL_REFUSED,
            assertInstanceOf(TentacleException.class, open.cause()).reason(), p.toString());
      }
      assertTrue(d.ours().isOpen(), "the session goes on");
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aRegisteredProtocolStaysOpenAndSilentOrReachesTheUsersHandler(boolean weDial) {
    List<byte[]> filter = new ArrayList<>();
    ChannelHandler collect = new Collect(filter);
    try (Duel d = new Duel(weDial, b -> b.protocol(CkbProtocol.LIGHT_CLIENT, null).protocol(CkbProtocol.FILTER, collect))) {
      d.identified();
      if (!weDial) {
        d.open(CkbProtocol.LIGHT_CLIENT);
        d.open(CkbProtocol.FILTER);
      }
      assertTrue(d.hostile.isOpen(CkbProtocol.LIGHT_CLIENT), "our dialer opens what is registered");
      d.hostile.sendRaw(CkbProtocol.LIGHT_CLIENT, new byte[] {0, 0, 0, 0, 9, 0, 0, 0, 8, 0, 0, 0, 1});
      d.hostile.sendRaw(CkbProtocol.FILTER, new byte[] {1, 2, 3});
      d.pair.pump();
      assertEquals(List.of(), d.hostile.take(CkbProtocol.LIGHT_CLIENT), "silent");
      assertEquals(1, filter.size());
      assertArrayEquals(new byte[] {1, 2, 3}, filter.get(0), "the payload, codec done");
      assertTrue(d.session().getNow().stream(CkbProtocol.FILTER).isPresent());
      if (!weDial) {
        d.open(CkbProtocol.DISCONNECT_MESSAGE);
      }
      d.send(CkbProtocol.LIGHT_CLIENT, new byte[] {0});
      assertEquals(List.of("Ban for 300 seconds, reason: ProtocolError id=120"), d.hostile.goodbyes());
    }
  }

  @Test
  void ownProtocolsCannotBeReplacedAndHandlersMustBeSharable() {
    CkbConfig.Builder b = CkbConfig.builder(CkbNetwork.TESTNET);
    assertThrows(IllegalArgumentException.class, () -> b.protocol(CkbProtocol.SYNC, null));
    assertThrows(IllegalArgumentException.class, () -> b.protocol(CkbProtocol.RELAY, new ChannelInboundHandlerAdapter()));
  }

  @ChannelHandler.Sharable
  private static final class Collect extends ChannelInboundHandlerAdapter {
    private final List<byte[]> into;

    Collect(List<byte[]> into) {
      this.into = into;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf buf = (ByteBuf) msg;
      into.add(ByteBufUtil.getBytes(buf));
      buf.release();
    }
  }
}
