// "Sign in with ...": the authorization code flow with PKCE (RFC 7636, S256) against an
// identity provider the server trusts (`tarok serve --oidc-issuer`). The page only obtains the
// provider's token and hands it to the server (PlayerService.SignIn), which verifies it; the
// page itself verifies no signature. The providers offered are listed in `tarok-web.json`
// next to the page (the server knows issuers and audiences, not the browser's client ids):
//   {"identityProviders": [{"name": "Keycloak", "issuer": "https://id.example/realms/x",
//     "clientId": "tarok-web", "scope": "openid profile", "audience": "", "token": "access_token"}]}

export interface Provider {
  /** Shown on the button: "Sign in with <name>". */
  readonly name: string;
  /** The issuer exactly as the server is configured with it (its discovery document is under it). */
  readonly issuer: string;
  /** The page's OAuth client id at the provider (a public client: no secret). */
  readonly clientId: string;
  /** Default "openid profile". */
  readonly scope?: string;
  /** An `audience` parameter for providers that need one to issue a JWT access token (Auth0). */
  readonly audience?: string;
  /** Which token to give the server: "id_token" (default; Google) or "access_token". */
  readonly token?: "id_token" | "access_token";
}

/** Why a sign-in with a provider failed: "state" (the answer is not to this page's request),
 * "refused" (the provider said no, or sent no token) or "unavailable" (not reachable). */
export class ProviderProblem extends Error {
  constructor(readonly kind: "state" | "refused" | "unavailable", message: string) {
    super(message);
  }
}

/** fetch, a network failure as an "unavailable" problem. */
async function reach(url: string | URL, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    throw new ProviderProblem("unavailable", `${String(url)}: ${String(err)}`);
  }
}

const CONFIG = "tarok-web.json";
const PENDING = "tarok.oidc";

let listed: Promise<Provider[]> | undefined;

/** The identity providers this page offers (none when there is no tarok-web.json). */
export function providers(): Promise<Provider[]> {
  listed ??= (async () => {
    try {
      const response = await fetch(new URL(CONFIG, location.href), { cache: "no-cache" });
      if (!response.ok) return [];
      const config = (await response.json()) as { identityProviders?: unknown };
      const all = Array.isArray(config.identityProviders) ? (config.identityProviders as Partial<Provider>[]) : [];
      return all.filter((p): p is Provider =>
        typeof p.name === "string" && typeof p.issuer === "string" && typeof p.clientId === "string");
    } catch {
      return [];
    }
  })();
  return listed;
}

/** Bytes as base64url without padding. */
export function base64url(bytes: Uint8Array): string {
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** A PKCE pair: a 256-bit random verifier and its S256 challenge (WebCrypto). */
export async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return { verifier, challenge: base64url(new Uint8Array(digest)) };
}

interface Discovery {
  readonly authorization_endpoint: string;
  readonly token_endpoint: string;
}

async function discover(issuer: string): Promise<Discovery> {
  const response = await reach(`${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`);
  if (!response.ok) throw new ProviderProblem("unavailable", `${issuer}: no discovery document (${response.status})`);
  const found = (await response.json()) as Partial<Discovery>;
  if (typeof found.authorization_endpoint !== "string" || typeof found.token_endpoint !== "string") {
    throw new ProviderProblem("unavailable", `${issuer}: the discovery document names no authorization or token endpoint`);
  }
  return { authorization_endpoint: found.authorization_endpoint, token_endpoint: found.token_endpoint };
}

interface Pending {
  readonly state: string;
  readonly verifier: string;
  readonly tokenEndpoint: string;
  readonly redirectUri: string;
  readonly clientId: string;
  readonly token: "id_token" | "access_token";
  readonly hash: string;
}

/** Go to the provider's sign-in page; it comes back to this page with a code. */
export async function startProviderSignIn(provider: Provider): Promise<void> {
  const endpoints = await discover(provider.issuer);
  const { verifier, challenge } = await pkcePair();
  const state = base64url(crypto.getRandomValues(new Uint8Array(16)));
  const redirectUri = `${location.origin}${location.pathname}`;
  const pending: Pending = {
    state,
    verifier,
    tokenEndpoint: endpoints.token_endpoint,
    redirectUri,
    clientId: provider.clientId,
    token: provider.token ?? "id_token",
    hash: location.hash,
  };
  sessionStorage.setItem(PENDING, JSON.stringify(pending));
  const url = new URL(endpoints.authorization_endpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", provider.clientId);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("scope", provider.scope ?? "openid profile");
  url.searchParams.set("state", state);
  url.searchParams.set("code_challenge", challenge);
  url.searchParams.set("code_challenge_method", "S256");
  if (provider.audience) url.searchParams.set("audience", provider.audience);
  location.assign(url.toString());
}

/** Back from the provider (`?code=...&state=...`): the provider's token for the server, after
 * checking the state and trading the code with the PKCE verifier; undefined when this page
 * load is not such a return. */
export async function finishProviderSignIn(): Promise<string | undefined> {
  const params = new URLSearchParams(location.search);
  const code = params.get("code");
  const error = params.get("error");
  if (code === null && error === null) return undefined;
  const raw = sessionStorage.getItem(PENDING);
  sessionStorage.removeItem(PENDING);
  const pending = raw === null ? undefined : (JSON.parse(raw) as Pending);
  // the code and state leave the address bar (and the history) at once
  history.replaceState(null, "", `${location.pathname}${pending?.hash ?? ""}`);
  if (pending === undefined) return undefined;
  if (params.get("state") !== pending.state) throw new ProviderProblem("state", "the state does not match");
  if (error !== null) throw new ProviderProblem("refused", params.get("error_description") ?? error);
  const response = await reach(pending.tokenEndpoint, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: code ?? "",
      redirect_uri: pending.redirectUri,
      client_id: pending.clientId,
      code_verifier: pending.verifier,
    }),
  });
  if (!response.ok) throw new ProviderProblem("refused", `the provider refused the code (${response.status})`);
  const tokens = (await response.json()) as { id_token?: string; access_token?: string };
  const token = tokens[pending.token] ?? tokens.id_token ?? tokens.access_token;
  if (!token) throw new ProviderProblem("refused", "the provider sent no token");
  return token;
}
