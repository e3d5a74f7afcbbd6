/**
 * Security headers of the console and its API (@fastify/helmet), registered in the /api scope
 * and the console's own scope only: the relay's scopes (/v1, /pg, /mj, /suno, /dashboard) and
 * its direct path send none of them, so a gateway request pays nothing for them.
 *
 * The Content-Security-Policy allows no inline script: no <script> in the page, no event
 * handler attributes, no `javascript:` URLs. The one exception is the build's own inline
 * script, by its hash, on the page that carries it (`PageScripts`: the prerendered sign-in
 * page's early script). It does allow eval ('unsafe-eval'): the settings forms validate with
 * AJV (@rjsf/validator-ajv8), which compiles each schema with `new Function`; without it
 * every settings section refuses to save. (Precompiled validators would let it go.) Other exceptions, each for a console feature:
 * - styles may be inline (antd's CSS-in-JS writes <style> elements and style attributes);
 * - images and audio from anywhere over http(s) and data: (logo, QR codes, music tasks' covers
 *   and clips, admin content);
 * - frames from anywhere over http(s) (the About page may be a URL; Turnstile and Telegram
 *   draw their widgets in frames);
 * - fetches to https: besides our own origin (the version check asks GitHub, the OIDC
 *   discovery button fetches the address the admin typed);
 * - Cloudflare's Turnstile script while the Turnstile check is on, Telegram's login widget
 *   script while Telegram login is on.
 * Form posts are not limited: top-up posts the payment provider's form to its own address.
 *
 * The console's hashed build files (/assets/*) carry only the headers a browser reads on a
 * script or a stylesheet (`subresourceHeaders`): the policy, framing, opener and XSS headers
 * apply to documents, and on the 71 files of a signed-in screen they would add ~46 KB.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyHelmetOptions } from '@fastify/helmet';
import type { OptionsService } from '../services/options/options.service';

export const TURNSTILE_SCRIPT_ORIGIN = 'https://challenges.cloudflare.com';
export const TELEGRAM_SCRIPT_ORIGIN = 'https://telegram.org';

type DirectiveFn = (req: IncomingMessage, res: ServerResponse) => string;

/** The inline scripts a page of the build carries: its addresses and the scripts' CSP hash sources as the page is now (`inline-scripts.ts`). */
export interface PageScripts {
  paths: string[];
  sources: () => readonly string[];
}

/**
 * Script sources besides our own origin: the hashes of the page at the request's address, if
 * it is that page, and the third-party widgets that are switched on.
 */
function extraScripts(options: OptionsService, page: PageScripts | undefined): DirectiveFn {
  return (req) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const extra = page?.paths.includes(path) ? [...page.sources()] : [];
    if (options.bool('TurnstileCheckEnabled')) extra.push(TURNSTILE_SCRIPT_ORIGIN);
    if (options.bool('TelegramOAuthEnabled')) extra.push(TELEGRAM_SCRIPT_ORIGIN);
    return extra.join(' ');
  };
}

export function securityHeaders(options: OptionsService, page?: PageScripts): FastifyHelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        scriptSrc: ["'self'", "'unsafe-eval'", extraScripts(options, page)],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:', 'http:'],
        mediaSrc: ["'self'", 'data:', 'https:', 'http:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'https:'],
        frameSrc: ['https:', 'http:'],
        frameAncestors: ["'self'"],
      },
    },
    // Popups opened by widgets (Telegram's login) keep their opener.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'sameorigin' },
    // TLS ends at the operator's proxy, which owns HSTS (a year-long pin is its decision).
    strictTransportSecurity: false,
  };
}

/**
 * Headers of the console's build files (scripts, styles, images): no MIME sniffing, no
 * embedding by other sites, and the referrer policy (a stylesheet's own fetches follow the
 * policy of its response). The document-only headers stay off; the build has no worker
 * script, the one kind of subresource that would obey a Content-Security-Policy of its own.
 */
export function subresourceHeaders(): FastifyHelmetOptions {
  return {
    contentSecurityPolicy: false,
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    originAgentCluster: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  };
}
