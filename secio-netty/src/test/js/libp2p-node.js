'use strict'
// A real js-libp2p node (libp2p 0.29.4, TCP, secio as its only connection encryption, mplex) for the
// multistream interop tests. One JSON object per line on stdout; see README.md.
//
//   node libp2p-node.js listen --key-type ed25519 [--ciphers AES-128]
//   node libp2p-node.js dial --key-type rsa --to /ip4/127.0.0.1/tcp/P/p2p/ID[,...] [--count 5] [--ciphers ..]

const { parseArgs } = require('util')
const Libp2p = require('libp2p')
const TCP = require('libp2p-tcp')
const MPLEX = require('libp2p-mplex')
const SECIO = require('libp2p-secio')
const { forceAlgorithms, handshakeInfo, generateIdentity } = require('./secio-hooks')

const out = (obj) => process.stdout.write(JSON.stringify(obj) + '\n')

const { values: opt, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'key-type': { type: 'string', default: 'ed25519' },
    ciphers: { type: 'string' },
    to: { type: 'string' },
    count: { type: 'string', default: '1' }
  }
})

// --ciphers restricts what secio offers and accepts, as in secio-peer.js.
forceAlgorithms(opt)

async function secured (role, localId, handshake) {
  const info = {}
  const result = await handshakeInfo.run(info, handshake)
  out({
    event: 'secured',
    role,
    localPeer: localId.toB58String(),
    remotePeer: result.remotePeer.toB58String(),
    exchange: info.curveT,
    cipher: info.cipherT,
    hash: info.hashT
  })
  return result
}

// libp2p's upgrader sees an ordinary crypto module; each handshake reports what it agreed on.
const recordingSecio = {
  protocol: SECIO.protocol,
  secureInbound: (localId, conn) => secured('inbound', localId, () => SECIO.secureInbound(localId, conn)),
  secureOutbound: (localId, conn, remoteId) => secured('outbound', localId, () => SECIO.secureOutbound(localId, conn, remoteId))
}

async function createNode (listen) {
  const node = await Libp2p.create({
    peerId: await generateIdentity(opt['key-type']),
    addresses: { listen: listen ? ['/ip4/127.0.0.1/tcp/0'] : [] },
    modules: { transport: [TCP], connEncryption: [recordingSecio], streamMuxer: [MPLEX] }
  })
  node.connectionManager.on('peer:connect', (connection) => {
    out({ event: 'connected', remotePeer: connection.remotePeer.toB58String(), direction: connection.stat.direction })
  })
  await node.start()
  return node
}

async function listen () {
  const node = await createNode(true)
  const address = node.multiaddrs[0]
  out({ event: 'listening', port: Number(address.nodeAddress().port), peerId: node.peerId.toB58String() })
  // A parent that dies closes our stdin: do not outlive it.
  process.stdin.on('end', () => process.exit(0))
  process.stdin.on('close', () => process.exit(0))
  process.stdin.resume()
}

async function dial () {
  const node = await createNode(false)
  const targets = opt.to.split(',')
  let failures = 0
  for (let i = 0; i < Number(opt.count); i++) {
    for (const target of targets) {
      try {
        const connection = await node.dial(target)
        out({ event: 'dialled', target, remotePeer: connection.remotePeer.toB58String() })
        await node.hangUp(connection.remotePeer)
      } catch (err) {
        failures++
        out({ event: 'error', target, message: String(err && err.message || err), code: err && err.code })
      }
    }
  }
  await node.stop()
  process.exit(failures === 0 ? 0 : 1)
}

async function main () {
  const mode = positionals[0]
  if (mode === 'listen') await listen()
  else if (mode === 'dial') await dial()
  else throw new Error('usage: libp2p-node.js listen|dial [options]')
}

main().catch((err) => { out({ event: 'error', message: String(err && err.message || err), code: err && err.code }); process.exit(1) })
