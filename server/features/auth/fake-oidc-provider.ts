import { createHash, createSign, generateKeyPairSync, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A minimal OpenID provider for tests (discovery, JWKS, token endpoint with PKCE and an RS256 id_token):
 * enough to drive the real openid-client through a whole authorization-code flow without a network.
 */
export async function startFakeOidcProvider(clientId: string) {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = { ...publicKey.export({ format: "jwk" }), kid: "k1", alg: "RS256", use: "sig" };
  const codes = new Map<string, { challenge: string; nonce: string; claims: Record<string, unknown> }>();
  let issuer = "";

  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const sign = (claims: Record<string, unknown>) => {
    const head = `${b64({ alg: "RS256", typ: "JWT", kid: "k1" })}.${b64(claims)}`;
    return `${head}.${createSign("RSA-SHA256").update(head).sign(privateKey).toString("base64url")}`;
  };
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    if (url.pathname === "/.well-known/openid-configuration") {
      return json(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
      });
    }
    if (url.pathname === "/jwks") return json(res, 200, { keys: [jwk] });
    if (url.pathname === "/token" && req.method === "POST") {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        const form = new URLSearchParams(body);
        const grant = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        const verifier = form.get("code_verifier") ?? "";
        const challenge = createHash("sha256").update(verifier).digest("base64url");
        if (!grant || grant.challenge !== challenge) return json(res, 400, { error: "invalid_grant" });
        const now = Math.floor(Date.now() / 1000);
        const idToken = sign({
          iss: issuer,
          aud: clientId,
          iat: now,
          exp: now + 300,
          nonce: grant.nonce,
          ...grant.claims,
        });
        return json(res, 200, { access_token: "at", token_type: "Bearer", expires_in: 300, id_token: idToken });
      });
      return;
    }
    json(res, 404, { error: "not_found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    issuer,
    /** What the provider does after the person signs in there: a code bound to the request's PKCE and nonce. */
    authorize(authorizationUrl: string, claims: Record<string, unknown>): string {
      const params = new URL(authorizationUrl).searchParams;
      const code = randomBytes(16).toString("hex");
      codes.set(code, { challenge: params.get("code_challenge")!, nonce: params.get("nonce")!, claims });
      return code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
