/**
 * Admin-authored content (home page, about): an http(s) URL is shown in a frame, anything
 * else as Markdown (which may contain HTML, as in the reference product).
 */
import { marked } from 'marked';
import { useMemo } from 'react';

export function isUrl(content: string): boolean {
  return /^https?:\/\/\S+$/.test(content.trim());
}

export function MarkdownOrFrame({ content, title }: { content: string; title: string }) {
  const html = useMemo(() => (isUrl(content) ? '' : (marked.parse(content, { async: false }) as string)), [content]);
  if (isUrl(content)) return <iframe src={content.trim()} title={title} className="sy-content-frame" />;
  return <div className="sy-markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
