package io.secio.ckb.lightclient;

import io.secio.ckb.header.Byte32;
import io.secio.ckb.header.Ckbhash;
import io.secio.ckb.header.Header;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * A header with what a light client needs to check its {@code extra_hash} and its commitment to the
 * chain (RFC 0044), the molecule table {@code VerifiableHeader}: {@code header} (Header, 208),
 * {@code uncles_hash} (Byte32), {@code extension} (BytesOpt), {@code parent_chain_root}
 * (HeaderDigest, 120): the MMR root over blocks 0 to the header's parent.
 *
 * <p>Immutable and thread-safe.
 */
public final class VerifiableHeader {
  private final Header header;
  private final Byte32 unclesHash;
  private final byte[] extension;
  private final HeaderDigest parentChainRoot;

  /**
   * A verifiable header.
   *
   * @param header the header
   * @param unclesHash ckbhash of its uncles' hashes, or zero without uncles
   * @param extension the block's extension, if it has one (copied)
   * @param parentChainRoot the chain root of blocks before it
   */
  public VerifiableHeader(Header header, Byte32 unclesHash, Optional<byte[]> extension, HeaderDigest parentChainRoot) {
    this.header = Objects.requireNonNull(header, "header");
    this.unclesHash = Objects.requireNonNull(unclesHash, "unclesHash");
    this.extension = extension.map(byte[]::clone).orElse(null);
    this.parentChainRoot = Objects.requireNonNull(parentChainRoot, "parentChainRoot");
  }

  /** The header. */
  public Header header() {
    return header;
  }

  /** {@code uncles_hash}. */
  public Byte32 unclesHash() {
    return unclesHash;
  }

  /** {@code extension} (a copy), if the block has one. */
  public Optional<byte[]> extension() {
    return Optional.ofNullable(extension).map(byte[]::clone);
  }

  /** {@code parent_chain_root}. */
  public HeaderDigest parentChainRoot() {
    return parentChainRoot;
  }

  /**
   * What {@code extra_hash} must be (CKB's {@code ExtraHashView}): the uncles hash without an
   * extension, else ckbhash(uncles hash ‖ ckbhash(extension)).
   */
  public Byte32 expectedExtraHash() {
    if (extension == null) {
      return unclesHash;
    }
    return Byte32.of(Ckbhash.hash(unclesHash.toBytes(), Ckbhash.hash(extension)));
  }

  /** Whether the extension starts with {@code prefix}. */
  boolean extensionStartsWith(Byte32 prefix) {
    byte[] p = prefix.toBytes();
    return extension != null && extension.length >= p.length
        && Arrays.equals(extension, 0, p.length, p, 0, p.length);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof VerifiableHeader other && header.equals(other.header) && unclesHash.equals(other.unclesHash)
        && Arrays.equals(extension, other.extension) && parentChainRoot.equals(other.parentChainRoot);
  }

  @Override
  public int hashCode() {
    return Objects.hash(header, unclesHash, Arrays.hashCode(extension), parentChainRoot);
  }

  @Override
  public String toString() {
    return "VerifiableHeader[" + header + (extension == null ? "" : ", extension " + extension.length + " bytes") + "]";
  }
}
