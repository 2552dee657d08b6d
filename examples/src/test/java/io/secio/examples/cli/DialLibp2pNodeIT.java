package io.secio.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoopGroup;
import io.secio.PeerId;
import io.secio.examples.DialLibp2pNode;
import io.secio.netty.Transports;
import io.secio.testsupport.ChildProcess;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The "dial a libp2p node" example against a real js-libp2p 0.29.4 node ({@code libp2p-node.js} of
 * secio-netty's interop tests, TCP + secio + mplex) of every key type: the connection is upgraded as
 * libp2p does and the node echoes a 32-byte {@code /ipfs/ping/1.0.0}.
 */
class DialLibp2pNodeIT {
  @RegisterExtension
  final Processes processes = new Processes();

  @Test
  void theExampleUpgradesAConnectionToARealNodeAndPingsIt() throws Exception {
    Processes.requireJsPeers();
    Transports transport = Transports.best();
    EventLoopGroup group = transport.newEventLoopGroup(1);
    try {
      for (String keyType : List.of("ed25519", "secp256k1", "rsa")) {
        ChildProcess node = processes.node("libp2p-node.js", "listen", "--key-type", keyType);
        Matcher listening = node.awaitOut("\\{\"event\":\"listening\",\"port\":(\\d+),\"peerId\":\"(\\w+)\"\\}");
        PeerId nodeId = PeerId.parse(listening.group(2));
        DialLibp2pNode.Pinged pinged =
            DialLibp2pNode.ping(group, transport, "127.0.0.1", Integer.parseInt(listening.group(1)), nodeId);
        assertEquals(nodeId, pinged.session().remotePeerId());
        assertTrue(pinged.roundTrip().toNanos() > 0);
        String us = pinged.session().localPeerId().toBase58();
        node.awaitOut("\\{\"event\":\"secured\",\"role\":\"inbound\",.*\"remotePeer\":\"" + us + "\".*");
        node.awaitOut("\\{\"event\":\"connected\",\"remotePeer\":\"" + us + "\".*");
      }
    } finally {
      group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }
}
