'use strict'
// A real js-libp2p node (libp2p 0.29.4, TCP, secio as its only connection encryption, mplex) for the
// multistream interop tests. One JSON object per line on stdout; see README.md.
//
//   node libp2p-node.js listen --key-type ed25519 [--ciphers AES-128]
//   node libp2p-node.js dial --key-type rsa --to /ip4/127.0.0.1/tcp/P/p2p/ID[,...] [--count 5] [--ciphers ..]

const { parseArgs } = require('util')
const { generateKeyPairSync } = require('crypto')
const { AsyncLocalStorage } = require('async_hooks')
const Libp2p = require('libp2p')
const TCP = require('libp2p-tcp')
const MPLEX = require('libp2p-mplex')
const SECIO = require('libp2p-secio')
const PeerId = require('peer-id')
const libp2pCrypto = require('libp2p-crypto')
const support = require('libp2p-secio/src/support')

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

// Restricting the ciphers this node offers and accepts: libp2p-secio reads the arrays of its support
// module at every handshake (see secio-peer.js), so replace their contents in place.
if (opt.ciphers) support.ciphers.splice(0, support.ciphers.length, ...opt.ciphers.split(','))

// What secio negotiated, recorded per handshake (selectBest is called through the module object).
const handshakeInfo = new AsyncLocalStorage()
const selectBest = support.selectBest
support.selectBest = async (local, remote) => {
  const selected = await selectBest(local, remote)
  const info = handshakeInfo.getStore()
  if (info) Object.assign(info, selected)
  return selected
}

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

async function loadIdentity () {
  switch (opt['key-type']) {
    case 'ed25519': return PeerId.create({ keyType: 'Ed25519' })
    case 'secp256k1': return PeerId.create({ keyType: 'secp256k1' })
    case 'rsa': {
      // Node's own generator: libp2p-crypto's pure-JS fallback takes seconds.
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
      const der = privateKey.export({ type: 'pkcs1', format: 'der' })
      const key = await libp2pCrypto.keys.supportedKeys.rsa.unmarshalRsaPrivateKey(der)
      return PeerId.createFromPrivKey(libp2pCrypto.keys.marshalPrivateKey(key))
    }
    default: throw new Error('unknown --key-type ' + opt['key-type'])
  }
}

async function createNode (listen) {
  const node = await Libp2p.create({
    peerId: await loadIdentity(),
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
