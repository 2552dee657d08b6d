'use strict'
// A real js-libp2p node (libp2p 0.29.4, TCP, secio as its only connection encryption, mplex) for the
// multistream interop tests. One JSON object per line on stdout; see README.md.
//
//   node libp2p-node.js listen --key-type ed25519 [--ciphers AES-128]
//   node libp2p-node.js dial --key-type rsa --to /ip4/127.0.0.1/tcp/P/p2p/ID[,...] [--count 5] [--ciphers ..]
// Either mode also takes the flags of a connection's part (see README.md): --echo, --agent-version V,
// --identify, --ping-peer N, --echo-streams N --echo-bytes B --seed S; dial also --hold.

const { parseArgs } = require('util')
const crypto = require('crypto')
const readline = require('readline')
const pipe = require('it-pipe')
const Libp2p = require('libp2p')
const TCP = require('libp2p-tcp')
const MPLEX = require('libp2p-mplex')
const SECIO = require('libp2p-secio')
const { forceAlgorithms, handshakeInfo, generateIdentity } = require('./secio-hooks')

const ECHO = '/echo/1.0.0'
const out = (obj) => process.stdout.write(JSON.stringify(obj) + '\n')

const { values: opt, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'key-type': { type: 'string', default: 'ed25519' },
    ciphers: { type: 'string' },
    to: { type: 'string' },
    count: { type: 'string', default: '1' },
    echo: { type: 'boolean', default: false },
    'agent-version': { type: 'string' },
    identify: { type: 'boolean', default: false },
    'ping-peer': { type: 'string', default: '0' },
    'echo-streams': { type: 'string', default: '0' },
    'echo-bytes': { type: 'string', default: '1048576' },
    seed: { type: 'string', default: '1' },
    hold: { type: 'boolean', default: false }
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
    modules: { transport: [TCP], connEncryption: [recordingSecio], streamMuxer: [MPLEX] },
    ...(opt['agent-version'] ? { host: { agentVersion: opt['agent-version'] } } : {})
  })
  node.connectionManager.on('peer:connect', (connection) => {
    out({ event: 'connected', remotePeer: connection.remotePeer.toB58String(), direction: connection.stat.direction })
  })
  if (opt.echo) node.handle(ECHO, ({ stream }) => pipe(stream, stream))
  await node.start()
  return node
}

const hasPart = () => opt.identify || Number(opt['ping-peer']) > 0 || Number(opt['echo-streams']) > 0

// What the flags ask of each connection, in this order: identify the peer and report what the peer
// store then holds for it, ping it, run echo streams on it. Then a 'done' event.
async function part (node, connection) {
  const peer = connection.remotePeer
  const remotePeer = peer.toB58String()
  if (opt.identify) {
    // libp2p identifies every new connection in the background and only logs a failure; this
    // request is awaited, so a record libp2p refuses ends in an error event.
    await node.identifyService.identify(connection)
    const text = (bytes) => bytes === undefined ? null : new TextDecoder().decode(bytes)
    out({
      event: 'peer',
      remotePeer,
      protocols: node.peerStore.protoBook.get(peer) || [],
      agentVersion: text(node.peerStore.metadataBook.getValue(peer, 'AgentVersion')),
      addresses: (node.peerStore.addressBook.get(peer) || []).map((a) => a.multiaddr.toString())
    })
  }
  for (let i = 0; i < Number(opt['ping-peer']); i++) {
    out({ event: 'pinged', remotePeer, ms: await node.ping(peer) })
  }
  if (Number(opt['echo-streams']) > 0) await echoStreams(connection)
  out({ event: 'done', remotePeer })
}

// Seeded data: stream i's bytes are AES-128-CTR's key stream under the first 16 bytes of
// SHA-256("seed/i"), so a run can be repeated byte for byte.
function seededBytes (seed, i, length) {
  const key = crypto.createHash('sha256').update(seed + '/' + i).digest().subarray(0, 16)
  return crypto.createCipheriv('aes-128-ctr', key, Buffer.alloc(16)).update(Buffer.alloc(length))
}

// --echo-streams concurrent streams to the peer's /echo/1.0.0, each sending --echo-bytes in one
// write (mplex cuts it into 1 MiB messages) and then half-closing; every byte that comes back is
// compared with what was sent.
async function echoStreams (connection) {
  const bytes = Number(opt['echo-bytes'])
  const sent = Array.from({ length: Number(opt['echo-streams']) }, (_, i) => seededBytes(opt.seed, i, bytes))
  await Promise.all(sent.map(async (data, i) => {
    const { stream } = await connection.newStream(ECHO)
    const back = await pipe([data], stream, async (source) => {
      const chunks = []
      for await (const chunk of source) chunks.push(Buffer.from(chunk.slice()))
      return Buffer.concat(chunks)
    })
    if (!back.equals(data)) {
      throw new Error('echo stream ' + i + ': ' + back.length + ' bytes came back of ' + bytes + ', not the same')
    }
  }))
  out({
    event: 'echoed',
    remotePeer: connection.remotePeer.toB58String(),
    streams: sent.length,
    bytes,
    sha256: sent.map((data) => crypto.createHash('sha256').update(data).digest('hex'))
  })
}

const reportError = (err, extra) => out({ event: 'error', ...extra, message: String(err && err.message || err), code: err && err.code })

// --hold: resolves at the next line on stdin, or at once when stdin has ended.
let stdinEnded = false
let stdinWaiters = []
function nextStdinLine () {
  return stdinEnded ? Promise.resolve() : new Promise((resolve) => stdinWaiters.push(resolve))
}
function wakeStdinWaiters () {
  const waiters = stdinWaiters
  stdinWaiters = []
  waiters.forEach((resolve) => resolve())
}

async function listen () {
  const node = await createNode(true)
  const address = node.multiaddrs[0]
  if (hasPart()) {
    node.connectionManager.on('peer:connect', (connection) => {
      part(node, connection).catch((err) => reportError(err, { remotePeer: connection.remotePeer.toB58String() }))
    })
  }
  out({ event: 'listening', port: Number(address.nodeAddress().port), peerId: node.peerId.toB58String() })
  // A parent that dies closes our stdin: do not outlive it.
  process.stdin.on('end', () => process.exit(0))
  process.stdin.on('close', () => process.exit(0))
  process.stdin.resume()
}

async function dial () {
  const node = await createNode(false)
  if (opt.hold) {
    readline.createInterface({ input: process.stdin }).on('line', wakeStdinWaiters).on('close', () => {
      stdinEnded = true
      wakeStdinWaiters()
    })
  }
  const targets = opt.to.split(',')
  let failures = 0
  for (let i = 0; i < Number(opt.count); i++) {
    for (const target of targets) {
      try {
        const connection = await node.dial(target)
        out({ event: 'dialled', target, remotePeer: connection.remotePeer.toB58String() })
        if (hasPart()) await part(node, connection)
        if (opt.hold) {
          out({ event: 'held', target })
          await nextStdinLine()
        }
        await node.hangUp(connection.remotePeer)
      } catch (err) {
        failures++
        reportError(err, { target })
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

main().catch((err) => { reportError(err, {}); process.exit(1) })
