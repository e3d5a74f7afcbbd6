/**
 * Vertex AI's channel key, a Google service account's JSON key, and its OAuth access token:
 * a JWT assertion (RS256, scope cloud-platform, audience the key's `token_uri`) signed with
 * the key's private key by `jose`, exchanged at `token_uri` by the relay's credential
 * services (cached until shortly before the token expires).
 */
import { isRecord, parseJson, str } from '../common/json';
import { ChannelKeyError, type TokenGrant, type TokenRequest } from '../types';

export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** Google's own token endpoints: reached wherever they resolve (Private Google Access may resolve them to private addresses). */
const GOOGLE_TOKEN_HOSTS = new Set(['oauth2.googleapis.com', 'www.googleapis.com']);
/** Google accepts assertions valid for at most an hour. */
const ASSERTION_LIFETIME_S = 3600;

export interface ServiceAccount {
  projectId: string;
  clientEmail: string;
  privateKey: string;
  privateKeyId?: string;
  tokenUri: string;
}

/** Keys parsed lately: a channel's key is read on every request, parsed once. */
const parsed = new Map<string, ServiceAccount>();
const PARSED_LIMIT = 64;

export function serviceAccount(key: string): ServiceAccount {
  const known = parsed.get(key);
  if (known) return known;
  const json = parseJson(key);
  const account = isRecord(json)
    ? {
        projectId: str(json.project_id) ?? '',
        clientEmail: str(json.client_email) ?? '',
        privateKey: str(json.private_key) ?? '',
        privateKeyId: str(json.private_key_id),
        tokenUri: str(json.token_uri) || GOOGLE_TOKEN_URL,
      }
    : undefined;
  if (!account || !account.projectId || !account.clientEmail || !account.privateKey.includes('PRIVATE KEY')) {
    throw new ChannelKeyError('the Vertex AI channel key must be a service account JSON key (with project_id, client_email and private_key)');
  }
  if (parsed.size >= PARSED_LIMIT) parsed.clear();
  parsed.set(key, account);
  return account;
}

/** Keys pasted with their line breaks written as `\n` text still load. */
function pem(privateKey: string): string {
  return privateKey.replace(/\\n/g, '\n');
}

async function signedAssertion(account: ServiceAccount): Promise<string> {
  // jose is loaded by the first Vertex (or Zhipu) call only; see plumbing/on-first-use.ts.
  const { importPKCS8, SignJWT } = await import('jose');
  let key: CryptoKey;
  try {
    key = await importPKCS8(pem(account.privateKey), 'RS256');
  } catch {
    throw new ChannelKeyError('the private_key of the Vertex AI service account is not an RSA private key in PKCS#8 PEM');
  }
  const jwt = new SignJWT({ scope: SCOPE })
    .setProtectedHeader(account.privateKeyId ? { alg: 'RS256', typ: 'JWT', kid: account.privateKeyId } : { alg: 'RS256', typ: 'JWT' })
    .setIssuer(account.clientEmail)
    .setAudience(account.tokenUri)
    .setIssuedAt()
    .setExpirationTime(`${ASSERTION_LIFETIME_S}s`);
  return jwt.sign(key);
}

function isGoogleTokenUrl(url: string): boolean {
  try {
    const parsedUrl = new URL(url);
    return parsedUrl.protocol === 'https:' && GOOGLE_TOKEN_HOSTS.has(parsedUrl.hostname);
  } catch {
    return false;
  }
}

/** The grant of the account's access token (the whole key identifies the credential). */
export function accessTokenGrant(key: string, account: ServiceAccount): TokenGrant {
  return {
    secret: key,
    request: async (): Promise<TokenRequest> => ({
      url: account.tokenUri,
      form: { grant_type: JWT_BEARER, assertion: await signedAssertion(account) },
      fromKey: !isGoogleTokenUrl(account.tokenUri),
    }),
  };
}
