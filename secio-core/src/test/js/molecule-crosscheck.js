'use strict';
// The tentacle handshake messages (tentacle-secio's handshake.mol) described with @ckb-lumos/codec,
// an independent molecule implementation. Reads {cases: [{kind, value, bytes}]} as JSON on stdin;
// for each case writes back what lumos packs `value` into, and what it unpacks `bytes` into.
// Byte strings are hex without 0x. Used by MoleculeLumosTest (secio-core).
const { molecule, bytes } = require('@ckb-lumos/codec');

const hex = (b) => bytes.hexify(b).slice(2);
const raw = { pack: (h) => bytes.bytify('0x' + h), unpack: hex };
const utf8 = {
  pack: (s) => new TextEncoder().encode(s),
  unpack: (b) => new TextDecoder('utf-8', { fatal: true }).decode(b),
};

// vector Bytes <byte>; vector String <byte>; vector Secp256k1 <byte>;
const Bytes = molecule.byteVecOf(raw);
const String = molecule.byteVecOf(utf8);
const Secp256k1 = molecule.byteVecOf(raw);
// union PublicKey { Secp256k1 }, carried inside Propose.pubkey (a Bytes)
const PublicKey = molecule.union({ Secp256k1 }, ['Secp256k1']);
const PublicKeyBytes = molecule.byteVecOf(PublicKey);

const Propose = molecule.table(
  { rand: Bytes, pubkey: PublicKeyBytes, exchanges: String, ciphers: String, hashes: String },
  ['rand', 'pubkey', 'exchanges', 'ciphers', 'hashes']);
const Exchange = molecule.table({ epubkey: Bytes, signature: Bytes }, ['epubkey', 'signature']);

function proposeIn(v) {
  return { ...v, pubkey: { type: 'Secp256k1', value: v.pubkey } };
}

function proposeOut(p) {
  if (p.pubkey.type !== 'Secp256k1') throw new Error('not a Secp256k1 key: ' + p.pubkey.type);
  return { ...p, pubkey: p.pubkey.value };
}

function check(c) {
  if (c.kind === 'propose') {
    return { packed: hex(Propose.pack(proposeIn(c.value))), unpacked: proposeOut(Propose.unpack(bytes.bytify('0x' + c.bytes))) };
  }
  if (c.kind === 'exchange') {
    return { packed: hex(Exchange.pack(c.value)), unpacked: Exchange.unpack(bytes.bytify('0x' + c.bytes)) };
  }
  throw new Error('unknown kind ' + c.kind);
}

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => { input += d; });
process.stdin.on('end', () => {
  const { cases } = JSON.parse(input);
  process.stdout.write(JSON.stringify({ results: cases.map(check) }) + '\n');
});
