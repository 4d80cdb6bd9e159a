"""An OAuth2 client we did not write (requests-oauthlib over oauthlib) asking the token endpoint for
tokens: once with the right credentials, then with a wrong secret and with an unsupported grant.
oauthlib raises by RFC 6749's ``error`` member, so the class it raises is what the endpoint said.
e2e/src/auth.e2e.ts runs it and reads the JSON it prints.
"""
import json
import sys

from oauthlib.oauth2 import BackendApplicationClient, LegacyApplicationClient, OAuth2Error
from requests_oauthlib import OAuth2Session

base_url, client_id, client_secret = sys.argv[1:4]
token_url = base_url + "/oauth/token"


def attempt(client, **credentials):
    try:
        token = OAuth2Session(client=client).fetch_token(token_url=token_url, include_client_id=True, **credentials)
        return {"token_type": token["token_type"]}
    except OAuth2Error as error:
        return {"raised": type(error).__name__, "error": error.error, "status": error.status_code}


print(json.dumps({
    "granted": attempt(BackendApplicationClient(client_id=client_id), client_secret=client_secret),
    "wrong_secret": attempt(BackendApplicationClient(client_id=client_id), client_secret="not-the-secret"),
    "password_grant": attempt(LegacyApplicationClient(client_id=client_id), client_secret=client_secret, username="u", password="p"),
}))
