package io.secio.benchmarks;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.util.Date;
import org.bouncycastle.asn1.ASN1EncodableVector;
import org.bouncycastle.asn1.DERBitString;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.asn1.x509.TBSCertificate;
import org.bouncycastle.asn1.x509.Time;
import org.bouncycastle.asn1.x509.V3TBSCertificateGenerator;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;

/**
 * A throwaway self-signed ECDSA P-256 certificate for the TLS 1.3 baseline (a typical modern server
 * key), built with Bouncy Castle's ASN.1 classes so that no PKIX library is needed.
 */
record SelfSignedCertificate(KeyPair keyPair, X509Certificate certificate) {

  static SelfSignedCertificate create() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    KeyPair keyPair = generator.generateKeyPair();
    AlgorithmIdentifier ecdsaWithSha256 = new AlgorithmIdentifier(X9ObjectIdentifiers.ecdsa_with_SHA256);
    X500Name name = new X500Name("CN=localhost");
    long now = System.currentTimeMillis();
    V3TBSCertificateGenerator tbs = new V3TBSCertificateGenerator();
    tbs.setSerialNumber(new org.bouncycastle.asn1.ASN1Integer(BigInteger.valueOf(now)));
    tbs.setIssuer(name);
    tbs.setSubject(name);
    tbs.setStartDate(new Time(new Date(now - 86_400_000L)));
    tbs.setEndDate(new Time(new Date(now + 86_400_000L)));
    tbs.setSignature(ecdsaWithSha256);
    tbs.setSubjectPublicKeyInfo(SubjectPublicKeyInfo.getInstance(keyPair.getPublic().getEncoded()));
    TBSCertificate unsigned = tbs.generateTBSCertificate();
    Signature signer = Signature.getInstance("SHA256withECDSA");
    signer.initSign(keyPair.getPrivate());
    signer.update(unsigned.getEncoded());
    ASN1EncodableVector certificate = new ASN1EncodableVector();
    certificate.add(unsigned);
    certificate.add(ecdsaWithSha256);
    certificate.add(new DERBitString(signer.sign()));
    byte[] der = new DERSequence(certificate).getEncoded();
    X509Certificate parsed = (X509Certificate) CertificateFactory.getInstance("X.509")
        .generateCertificate(new ByteArrayInputStream(der));
    return new SelfSignedCertificate(keyPair, parsed);
  }
}
