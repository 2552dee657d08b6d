'use strict'
// What secio-peer.js and libp2p-node.js share: identities of each key type, forcing the algorithms
// js-libp2p-secio proposes, and learning what it negotiated.

const { generateKeyPairSync } = require('crypto')
const { AsyncLocalStorage } = require('async_hooks')
const PeerId = require('peer-id')
const libp2pCrypto = require('libp2p-crypto')
// The module whose arrays js-libp2p-secio proposes (createProposal) and selects from (selectProtocols).
const support = require('libp2p-secio/src/support')

// Forcing algorithms. libp2p-secio/src/support.js exports three plain arrays (exchanges
// 'P-256,P-384,P-521', ciphers 'AES-256,AES-128', hashes 'SHA256,SHA512'). handshake/crypto.js reads
// them through the module object at every handshake: createProposal joins them into the Propose, and
// selectProtocols uses them as the local list. Replacing their contents in place (same array objects,
// same cached module) before the first handshake therefore changes both what we offer and what we
// accept. Names are passed through unchecked, so a test can also offer names the library lacks.
function forceAlgorithms (opt) {
  for (const kind of ['exchanges', 'ciphers', 'hashes']) {
    if (opt[kind]) support[kind].splice(0, support[kind].length, ...opt[kind].split(','))
  }
}

// The library does not expose what it negotiated: wrap support.selectBest (also called through the
// module object) and record its result in the AsyncLocalStorage store of the handshake that called it.
const handshakeInfo = new AsyncLocalStorage()
const selectBest = support.selectBest
support.selectBest = async (local, remote) => {
  const selected = await selectBest(local, remote)
  const info = handshakeInfo.getStore()
  if (info) Object.assign(info, selected)
  return selected
}

async function generateIdentity (keyType) {
  switch (keyType) {
    case 'ed25519': return PeerId.create({ keyType: 'Ed25519' })
    case 'secp256k1': return PeerId.create({ keyType: 'secp256k1' })
    case 'rsa': {
      // Node's own generator: fast, and independent of the optional native ursa build that
      // libp2p-crypto would otherwise use (its pure-JS fallback takes seconds).
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
      const der = privateKey.export({ type: 'pkcs1', format: 'der' })
      const key = await libp2pCrypto.keys.supportedKeys.rsa.unmarshalRsaPrivateKey(der)
      return PeerId.createFromPrivKey(libp2pCrypto.keys.marshalPrivateKey(key))
    }
    default: throw new Error('unknown --key-type ' + keyType)
  }
}

module.exports = { forceAlgorithms, handshakeInfo, generateIdentity }
