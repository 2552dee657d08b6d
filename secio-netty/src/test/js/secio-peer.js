#!/usr/bin/env node
'use strict'
/*
 * secio-peer.js: a real libp2p secio v0.1 peer (js-libp2p-secio 0.13.1) for the secio-netty interop
 * tests. A JUnit test starts it as a child process and reads its stdout: one JSON object per line.
 *
 *   node secio-peer.js listen [--host 127.0.0.1] [--port 0] --key-type ed25519|secp256k1|rsa
 *        [--key FILE] [--exchanges P-256,P-384] [--ciphers AES-128] [--hashes SHA512]
 *     -> {"event":"listening","port":N,"peerId":"..."}
 *     per inbound connection: secureInbound, then echo every decrypted byte until the peer closes
 *     -> {"event":"secured","remotePeer":"...","localPeer":"...","exchange":"P-256","cipher":"AES-256",
 *         "hash":"SHA256","localPreferred":true,"ms":12}
 *     -> {"event":"closed","remotePeer":"...","bytes":N[,"error":"..."]}
 *     -> {"event":"error","message":"...","code":"..."}        (handshake failed; keeps listening)
 *     Serves connections concurrently until killed or until its stdin ends.
 *
 *   node secio-peer.js dial --host H --port P --key-type T [--key FILE] [--expect-peer ID] [--count K]
 *        [--send-bytes N] [--chunk-bytes C] [--timeout-ms MS] [--exchanges ..] [--ciphers ..] [--hashes ..]
 *     K times (default 1), one after another: connect, secureOutbound, send N random bytes in writes of
 *     C bytes (default 65536; each write becomes one secio frame), read N bytes back and compare them,
 *     half-close and wait for the listener to close.
 *     -> {"event":"secured",...} then {"event":"echoed","bytes":N,"ms":T} per connection; exit 0.
 *     -> on the first failure {"event":"error","message":"...","code":"..."}; exit 1.
 *
 * --report-secret-prefix (test-only, either mode) adds "secretBytes":N,"secretLeadingZero":bool to every
 * `secured` event: the ECDH shared secret's length and whether its first byte is zero (never the secret).
 *
 * --key FILE loads a libp2p PrivateKey protobuf (as libp2p-crypto's marshalPrivateKey writes it);
 * otherwise a fresh identity of --key-type is made (RSA: 2048 bits).
 */
const net = require('net')
const fs = require('fs')
const { once } = require('events')
const { randomBytes } = require('crypto')
const { parseArgs } = require('util')
const PeerId = require('peer-id')
const libp2pCrypto = require('libp2p-crypto')
const secio = require('libp2p-secio')
const toIterable = require('stream-to-it')
const { forceAlgorithms, handshakeInfo, generateIdentity } = require('./secio-hooks')

const out = (obj) => process.stdout.write(JSON.stringify(obj) + '\n')
const errorEvent = (err) => ({ event: 'error', message: String(err && err.message || err), code: err && err.code })
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6

const { values: opt, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '0' },
    'key-type': { type: 'string', default: 'ed25519' },
    key: { type: 'string' },
    exchanges: { type: 'string' },
    ciphers: { type: 'string' },
    hashes: { type: 'string' },
    'expect-peer': { type: 'string' },
    count: { type: 'string', default: '1' },
    'send-bytes': { type: 'string', default: '0' },
    'chunk-bytes': { type: 'string', default: '65536' },
    'timeout-ms': { type: 'string', default: '300000' },
    'report-secret-prefix': { type: 'boolean', default: false }
  }
})

forceAlgorithms(opt)

// Test-only (--report-secret-prefix): wrap libp2p-crypto's ECDH (read through the module object by
// handshake/crypto.js) so that `secured` says how long the shared secret was and whether its first byte
// is zero. Node's computeSecret pads to the field size, so a leading zero stays in the secret. The
// secret itself is never printed.
if (opt['report-secret-prefix']) {
  const generate = libp2pCrypto.keys.generateEphemeralKeyPair
  libp2pCrypto.keys.generateEphemeralKeyPair = async (curve) => {
    const pair = await generate(curve)
    const info = handshakeInfo.getStore()
    const genSharedKey = pair.genSharedKey
    pair.genSharedKey = async (...args) => {
      const secret = await genSharedKey(...args)
      if (info) Object.assign(info, { secretBytes: secret.length, secretLeadingZero: secret[0] === 0 })
      return secret
    }
    return pair
  }
}

async function loadIdentity () {
  if (opt.key) return PeerId.createFromPrivKey(fs.readFileSync(opt.key))
  return generateIdentity(opt['key-type'])
}

// A net.Socket as an it duplex, for half-open sockets. The library yields BufferList chunks, which
// socket.write rejects. The source is the socket's own iterator with destroyOnReturn: false, because
// stream-to-it's source destroys the socket when the peer half-closes, aborting an echo still being
// written. The sink promises that the library hands back resolve as soon as a source is attached
// (it-pair), so `finished` is the only reliable "all written and ended" signal (rejects on error).
function socketDuplex (socket) {
  socket.setNoDelay(true) // the handshake is many small writes; Nagle + delayed ACK add ~40 ms
  const sink = toIterable.sink(socket)
  let finished
  const promise = new Promise((resolve, reject) => { finished = { resolve, reject } })
  promise.catch(() => {}) // awaited later, or not at all if the handshake fails
  return {
    finished: promise,
    source: socket.iterator({ destroyOnReturn: false }),
    sink: (source) => sink((async function * () {
      for await (const chunk of source) yield chunk.slice()
    })()).then(finished.resolve, finished.reject)
  }
}

async function secure (localId, duplex, outbound, remoteId) {
  const info = {}
  const t0 = process.hrtime.bigint()
  const { conn, remotePeer } = await handshakeInfo.run(info, () => outbound
    ? secio.secureOutbound(localId, duplex, remoteId)
    : secio.secureInbound(localId, duplex))
  out({
    event: 'secured',
    remotePeer: remotePeer.toB58String(),
    localPeer: localId.toB58String(),
    exchange: info.curveT,
    cipher: info.cipherT,
    hash: info.hashT,
    localPreferred: info.order > 0,
    ms: Math.round(ms(t0)),
    ...(opt['report-secret-prefix'] && { secretBytes: info.secretBytes, secretLeadingZero: info.secretLeadingZero })
  })
  return { conn, remotePeer: remotePeer.toB58String() }
}

async function listen (localId) {
  const server = net.createServer({ allowHalfOpen: true }, async (socket) => {
    socket.on('error', () => {}) // surfaces through the iterables
    const duplex = socketDuplex(socket)
    let secured
    try {
      secured = await secure(localId, duplex, false)
    } catch (err) {
      out(errorEvent(err))
      socket.destroy()
      return
    }
    const { conn, remotePeer } = secured
    let bytes = 0
    const closed = { event: 'closed', remotePeer }
    conn.sink((async function * () {
      for await (const chunk of conn.source) {
        bytes += chunk.length
        yield chunk.slice()
      }
    })())
    try {
      await duplex.finished
    } catch (err) {
      closed.error = err.message
    }
    out(Object.assign(closed, { bytes }))
    socket.destroy()
  })
  server.listen(Number(opt.port), opt.host)
  await once(server, 'listening')
  out({ event: 'listening', port: server.address().port, peerId: localId.toB58String() })
  // A parent that dies closes our stdin: do not outlive it.
  process.stdin.on('end', () => process.exit(0))
  process.stdin.on('close', () => process.exit(0))
  process.stdin.resume()
}

async function dialOnce (localId, remoteId, data, chunkBytes) {
  const socket = net.connect({ host: opt.host, port: Number(opt.port), allowHalfOpen: true })
  socket.setTimeout(Number(opt['timeout-ms']), () => socket.destroy(new Error('timed out (idle)')))
  try {
    await once(socket, 'connect')
    const duplex = socketDuplex(socket)
    const { conn } = await secure(localId, duplex, true, remoteId || undefined)
    const t0 = process.hrtime.bigint()
    let readDone
    const allRead = new Promise((resolve) => { readDone = resolve })
    // Pull-based sink: the next chunk is taken only once the socket accepted the previous one.
    conn.sink((async function * () {
      for (let o = 0; o < data.length; o += chunkBytes) yield data.subarray(o, o + chunkBytes)
      await allRead // keep our half open until the echo is back
    })())
    const received = []
    let length = 0
    const source = conn.source[Symbol.asyncIterator]()
    while (length < data.length) {
      const { value, done } = await source.next()
      if (done) throw new Error(`connection closed after ${length} of ${data.length} echoed bytes`)
      received.push(value.slice())
      length += value.length
    }
    const elapsed = ms(t0)
    readDone()
    if (length !== data.length || !Buffer.concat(received).equals(data)) throw new Error('echoed bytes differ')
    await duplex.finished
    for (;;) { // the listener closes after our half-close; nothing more may arrive
      const { value, done } = await source.next()
      if (done) break
      if (value.length) throw new Error(`${value.length} unexpected bytes after the echo`)
    }
    out({ event: 'echoed', bytes: data.length, ms: Math.round(elapsed * 1000) / 1000 })
  } finally {
    socket.destroy()
  }
}

async function dial (localId) {
  const remoteId = opt['expect-peer'] && PeerId.createFromB58String(opt['expect-peer'])
  const count = Number(opt.count)
  const data = randomBytes(Number(opt['send-bytes']))
  const t0 = process.hrtime.bigint()
  for (let i = 0; i < count; i++) await dialOnce(localId, remoteId, data, Number(opt['chunk-bytes']))
  if (count > 1) process.stderr.write(`${count} connections in ${Math.round(ms(t0))} ms\n`)
}

async function main () {
  const mode = positionals[0]
  if (mode !== 'listen' && mode !== 'dial') throw new Error('usage: secio-peer.js listen|dial [options]')
  const localId = await loadIdentity()
  if (mode === 'listen') await listen(localId)
  else { await dial(localId); process.exit(0) }
}

main().catch((err) => { out(errorEvent(err)); process.exit(1) })
