/**
 * The one way admin-entered HTML and Markdown reaches the page (Footer, HomePageContent,
 * About, Notice, release notes): DOMPurify removes scripts, event handlers, `javascript:`
 * URLs, frames, objects and forms, and keeps formatting (headings, links, images, tables,
 * lists, inline styles). A link that opens another window gets `rel="noopener noreferrer"`.
 * Every renderer of such content goes through here; none sets `__html` from anything else.
 */
import DOMPurify, { type Config } from 'dompurify';
import { marked } from 'marked';

const CONFIG: Config = {
  // `target` is not among DOMPurify's defaults; admins use it for links in a new window.
  ADD_ATTR: ['target'],
  // A form could post what root types to anywhere: content is for reading.
  FORBID_TAGS: ['form'],
};

let hooked = false;

function purifier(): typeof DOMPurify | undefined {
  // Without a DOM (never in the console) DOMPurify would hand its input back unchanged.
  if (!DOMPurify.isSupported) return undefined;
  if (!hooked) {
    hooked = true;
    DOMPurify.addHook('afterSanitizeAttributes', (element) => {
      const target = element.getAttribute('target');
      if (target === null || target === '_self') return;
      element.setAttribute('rel', 'noopener noreferrer');
    });
  }
  return DOMPurify;
}

function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Admin-entered HTML, safe to give `dangerouslySetInnerHTML`. */
export function safeHtml(html: string): string {
  const purify = purifier();
  return purify ? purify.sanitize(html, CONFIG) : escapeText(html);
}

/** Admin-entered Markdown (which may contain HTML), rendered and made safe. */
export function safeMarkdown(markdown: string): string {
  return safeHtml(marked.parse(markdown, { async: false }) as string);
}

/** The content as a URL that may be shown in a frame (http or https only), else undefined. */
export function frameUrl(content: string): string | undefined {
  const text = content.trim();
  if (!/^https?:\/\/\S+$/i.test(text)) return undefined;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
