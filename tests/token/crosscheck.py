#!/usr/bin/env python3
"""An independent check of kestrel's IDTOKENS against the facts of
HTCondor's scheme, written from its description (ks_token.h), not from
kestrel's C code, with Python's standard library only.

  crosscheck.py verify KEYFILE KEYNAME TOKEN
      recomputes TOKEN's signature from the key file: unscramble (XOR
      DE AD BE EF), double for POOL, HKDF-SHA256(salt "htcondor",
      info "master jwt"), HMAC-SHA256 over "header.payload".
  crosscheck.py mint KEYFILE KEYNAME ISS SUB IAT JTI [EXP [SCOPE]]
      prints the token HTCondor would write for these claims.

Exits 0 when the signature matches (verify), 1 otherwise.
"""
import base64
import hashlib
import hmac
import json
import sys


def b64url(b):
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


def unb64url(s):
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


def hkdf_sha256(ikm, salt, info, length):
    prk = hmac.new(salt, ikm, hashlib.sha256).digest()
    out, t, i = b"", b"", 1
    while len(out) < length:
        t = hmac.new(prk, t + info + bytes([i]), hashlib.sha256).digest()
        out += t
        i += 1
    return out[:length]


def jwt_key(keyfile, name):
    raw = open(keyfile, "rb").read()
    pad = b"\xde\xad\xbe\xef"
    k = bytes(c ^ pad[i % 4] for i, c in enumerate(raw))
    if name == "POOL":
        k = k + k
    return hkdf_sha256(k, b"htcondor", b"master jwt", 32)


def compact(obj):
    # HTCondor's JSON writer: sorted keys, no spaces, '/' escaped.
    return json.dumps(obj, separators=(",", ":"), sort_keys=True,
                      ensure_ascii=False).replace("/", "\\/").encode()


def main():
    if sys.argv[1] == "verify":
        keyfile, name, token = sys.argv[2:5]
        h, p, s = token.split(".")
        want = hmac.new(jwt_key(keyfile, name), (h + "." + p).encode(),
                        hashlib.sha256).digest()
        if hmac.compare_digest(want, unb64url(s)):
            print("signature matches")
            return 0
        print("signature differs")
        return 1
    keyfile, name, iss, sub, iat, jti = sys.argv[2:8]
    payload = {"iat": int(iat), "iss": iss, "jti": jti, "sub": sub}
    if len(sys.argv) > 8:
        payload["exp"] = int(sys.argv[8])
    if len(sys.argv) > 9:
        payload["scope"] = sys.argv[9]
    si = b64url(compact({"alg": "HS256", "kid": name})) + "." + \
        b64url(compact(payload))
    sig = hmac.new(jwt_key(keyfile, name), si.encode(), hashlib.sha256).digest()
    print(si + "." + b64url(sig))
    return 0


sys.exit(main())
