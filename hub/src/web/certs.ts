// The table's own certificate authority, for HTTPS on the table's WiFi: a page served over http can be rewritten on
// its way by someone between the phone and the hub, and then no cryptography inside it holds. The hub makes a CA once
// (kept in its data folder), which the host installs on the table's phones, and with it a certificate for the
// addresses it is reached at. X.509 v3, ECDSA P-256 with SHA-256, written here in DER (node:crypto signs, but makes
// no certificates): what browsers and phones ask of a server certificate — subjectAltName for every name and
// address, serverAuth, a validity within 397 days.
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
  X509Certificate,
} from "node:crypto";
import { isIP } from "node:net";

/** A certificate and its key, PEM. */
export interface Issued {
  cert: string;
  key: string;
}

const LEAF_DAYS = 397;
const CA_DAYS = 3650;

function len(n: number): Buffer {
  if (n < 128) return Buffer.from([n]);
  const b: number[] = [];
  for (let x = n; x > 0; x = Math.floor(x / 256)) b.unshift(x & 255);
  return Buffer.from([0x80 | b.length, ...b]);
}
const tlv = (tag: number, body: Buffer) => Buffer.concat([Buffer.from([tag]), len(body.length), body]);
const seq = (...parts: Buffer[]) => tlv(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]) => tlv(0x31, Buffer.concat(parts));
const explicit = (n: number, body: Buffer) => tlv(0xa0 | n, body);
const bool = () => tlv(0x01, Buffer.from([0xff]));
const octets = (b: Buffer) => tlv(0x04, b);
const bits = (b: Buffer, unused = 0) => tlv(0x03, Buffer.concat([Buffer.from([unused]), b]));
const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, "utf8"));

function int(b: Buffer): Buffer {
  let v = b;
  while (v.length > 1 && v[0] === 0 && (v[1]! & 0x80) === 0) v = v.subarray(1);
  return tlv(0x02, v[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), v]) : v);
}

function oid(s: string): Buffer {
  const p = s.split(".").map(Number);
  const out = [40 * p[0]! + p[1]!];
  for (const n of p.slice(2)) {
    const b = [n & 0x7f];
    for (let x = Math.floor(n / 128); x > 0; x = Math.floor(x / 128)) b.unshift(0x80 | (x & 0x7f));
    out.push(...b);
  }
  return tlv(0x06, Buffer.from(out));
}

function time(d: Date): Buffer {
  const iso = d.toISOString().replace(/[-:T]/g, "").slice(0, 14);
  return d.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${iso}Z`));
}

const name = (cn: string) => seq(set(seq(oid("2.5.4.3"), utf8(cn))));
const ext = (id: string, value: Buffer, critical = false) => seq(oid(id), ...(critical ? [bool()] : []), octets(value));
const ECDSA_SHA256 = seq(oid("1.2.840.10045.4.3.2"));

function spki(key: KeyObject): Buffer {
  return key.export({ type: "spki", format: "der" });
}

/** The key identifier: SHA-1 of the public key's bits (RFC 5280 4.2.1.2, method 1). */
function keyId(pub: Buffer): Buffer {
  // the SPKI's BIT STRING is its last element; for a P-256 key its 65 bytes follow a 0x00 unused-bits octet
  return createHash("sha1")
    .update(pub.subarray(pub.length - 65))
    .digest();
}

function ipBytes(ip: string): Buffer {
  if (isIP(ip) === 4) return Buffer.from(ip.split(".").map(Number));
  const halves = ip.split("::");
  const part = (h: string) => (h ? h.split(":") : []);
  const head = part(halves[0]!);
  const tail = halves.length > 1 ? part(halves[1]!) : [];
  const groups = [...head, ...Array(8 - head.length - tail.length).fill("0"), ...tail];
  return Buffer.concat(groups.map((g) => Buffer.from(g.padStart(4, "0"), "hex")));
}

function certificate(o: {
  subject: string;
  issuer: string;
  subjectKey: KeyObject;
  issuerKey: KeyObject;
  issuerKeyId: Buffer;
  days: number;
  now: Date;
  extensions: Buffer[];
}): string {
  const pub = spki(o.subjectKey);
  const notBefore = new Date(o.now.getTime() - 60 * 60_000);
  const notAfter = new Date(o.now.getTime() + o.days * 86_400_000);
  const serial = randomBytes(16);
  serial[0]! &= 0x7f;
  const tbs = seq(
    explicit(0, int(Buffer.from([2]))),
    int(serial),
    ECDSA_SHA256,
    name(o.issuer),
    seq(time(notBefore), time(notAfter)),
    name(o.subject),
    pub,
    explicit(
      3,
      seq(ext("2.5.29.14", octets(keyId(pub))), ext("2.5.29.35", seq(tlv(0x80, o.issuerKeyId))), ...o.extensions),
    ),
  );
  const der = seq(tbs, ECDSA_SHA256, bits(sign("sha256", tbs, o.issuerKey)));
  return `-----BEGIN CERTIFICATE-----\n${der
    .toString("base64")
    .replace(/.{64}/g, "$&\n")
    .replace(/\n?$/, "\n")}-----END CERTIFICATE-----\n`;
}

/** A new CA for table `table`: installed on the phones, it vouches for the hub's own certificates only. */
export function makeCa(table: string, now = new Date()): Issued {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const cn = `Cash'n Guns table ${table} (this hub's own CA)`;
  const cert = certificate({
    subject: cn,
    issuer: cn,
    subjectKey: publicKey,
    issuerKey: privateKey,
    issuerKeyId: keyId(spki(publicKey)),
    days: CA_DAYS,
    now,
    extensions: [
      // a CA that signs server certificates and nothing under it: pathLen 0
      ext("2.5.29.19", seq(bool(), int(Buffer.from([0]))), true),
      ext("2.5.29.15", bits(Buffer.from([0x06]), 1), true),
    ],
  });
  return { cert, key: privateKey.export({ type: "pkcs8", format: "pem" }) as string };
}

/** A server certificate for `names` (host names and IP addresses), signed by `ca`. */
export function issueServerCert(ca: Issued, names: readonly string[], now = new Date()): Issued {
  const caKey = createPrivateKey(ca.key);
  const caPub = spki(createPublicKey(ca.key));
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const alt = names.map((n) => (isIP(n) ? tlv(0x87, ipBytes(n)) : tlv(0x82, Buffer.from(n, "ascii"))));
  const cert = certificate({
    subject: names[0] ?? "cng hub",
    issuer: caSubject(ca.cert),
    subjectKey: publicKey,
    issuerKey: caKey,
    issuerKeyId: keyId(caPub),
    days: LEAF_DAYS,
    now,
    extensions: [
      ext("2.5.29.19", seq(), true),
      ext("2.5.29.15", bits(Buffer.from([0x80]), 7), true),
      ext("2.5.29.37", seq(oid("1.3.6.1.5.5.7.3.1"))),
      ext("2.5.29.17", seq(...alt)),
    ],
  });
  return { cert, key: privateKey.export({ type: "pkcs8", format: "pem" }) as string };
}

/** The CA's common name, as its certificates name their issuer. */
function caSubject(pem: string): string {
  const m = /CN=([^\n]+)/.exec(new X509Certificate(pem).subject);
  return m ? m[1]! : "";
}
