"""Verifies callbacks signed with signatureScheme "ed25519" using only `cryptography` and the JWK Set.

Independent of tailsync's own packages: the JWT (EdDSA, by the key its header's kid names in the
set) and the Standard Webhooks `v1a` signature of "<webhook-id>.<webhook-timestamp>.<body>".
Reads JSON from stdin: {"jwks": {"keys": [...]}, "callbacks": [{"headers": {...}, "body": "<base64>"}]}
and prints one JSON line: [{"ok": true, "kid", "claims", "v1a": true} | {"ok": false, "error"}], in order.
"""
import base64
import hashlib
import json
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey


def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def keys_of(jwks):
    return {
        k["kid"]: Ed25519PublicKey.from_public_bytes(b64url(k["x"]))
        for k in jwks["keys"]
        if k.get("kty") == "OKP" and k.get("crv") == "Ed25519"
    }


def verify(keys, callback):
    headers = {k.lower(): v for k, v in callback["headers"].items()}
    body = base64.b64decode(callback["body"])
    scheme, _, token = headers["authorization"].partition(" ")
    if scheme != "Token":
        return {"ok": False, "error": "not a Token authorization"}
    header_b64, claims_b64, signature_b64 = token.split(".")
    header = json.loads(b64url(header_b64))
    if header.get("alg") != "EdDSA":
        return {"ok": False, "error": f"alg {header.get('alg')}"}
    key = keys.get(header.get("kid"))
    if key is None:
        return {"ok": False, "error": f"no key {header.get('kid')} in the set"}
    try:
        key.verify(b64url(signature_b64), f"{header_b64}.{claims_b64}".encode("ascii"))
    except InvalidSignature:
        return {"ok": False, "error": "JWT signature"}
    claims = json.loads(b64url(claims_b64))
    if claims.get("payloadHash") != hashlib.sha256(body).hexdigest():
        return {"ok": False, "error": "payloadHash"}
    signed = f"{headers['webhook-id']}.{headers['webhook-timestamp']}.".encode("utf-8") + body
    v1a = False
    for item in headers["webhook-signature"].split(" "):
        version, _, value = item.partition(",")
        if version != "v1a":
            continue
        for candidate in keys.values():
            try:
                candidate.verify(base64.b64decode(value), signed)
                v1a = True
            except InvalidSignature:
                pass
    if not v1a:
        return {"ok": False, "error": "no v1a signature by a key of the set"}
    return {"ok": True, "kid": header["kid"], "claims": claims, "v1a": True}


request = json.load(sys.stdin)
keys = keys_of(request["jwks"])
print(json.dumps([verify(keys, c) for c in request["callbacks"]]))
